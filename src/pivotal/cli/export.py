"""`pivotal export SESSION --to md|html|json|cast`: a session with its pivots, to a file.

The renderings are `pivotal.export`; this module resolves the session, picks the
format (from `--to`, else the `-o` suffix, else Markdown; a suffix that names no
format is refused, not written as Markdown) and writes the result.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from pivotal.cli.arguments import SESSION_PATH, add_key, add_sensitivity
from pivotal.cli.exitcodes import ExitCode
from pivotal.cli.output import err
from pivotal.cli.resolve import one_ref, read_or_exit
from pivotal.model import SessionRef
from pivotal.text.plural import plural

EXPORT_FORMATS = ("md", "html", "json", "cast")
OTHER_SUFFIXES = {".markdown": "md", ".htm": "html"}
"""Names people give these files besides each format's own suffix (`pivotal.export.SUFFIX`)."""


def format_of_output(output: Path | None) -> str:
    """The format `-o`'s suffix names, for an export without `--to`: Markdown for standard
    output or a name with no suffix (`/dev/null`, a FIFO). A suffix that names no format is
    exit 2: `report.pdf` was once written as Markdown under a name that says otherwise."""
    from pivotal.export import SUFFIX

    if output is None or not output.suffix:
        return "md"
    by_suffix = {v: k for k, v in SUFFIX.items()} | OTHER_SUFFIXES
    fmt = by_suffix.get(output.suffix.lower())
    if fmt is None:
        known = ", ".join(EXPORT_FORMATS)
        err(f"{output}: {output.suffix} names no export format ({known}); say which with --to")
        raise SystemExit(ExitCode.USAGE)
    return fmt


def _refuse_session_files(target: Path, ref: SessionRef) -> None:
    """Exit 2 when `-o` names a file of the session being exported (before reading it)."""
    refusal = _session_refusal(target, ref)
    if refusal is not None:
        err(f"{target}: {refusal}")
        raise SystemExit(ExitCode.USAGE)


def _write_output(target: Path, chunks: Iterable[str]) -> None:
    """Write to `-o FILE` (`pivotal.cli.outfile`): one line and its exit code on failure."""
    from pivotal.cli.outfile import OutputFileError, write_chunks

    try:
        write_chunks(target, chunks)
    except OutputFileError as exc:
        err(exc.message)
        raise SystemExit(exc.code) from None


def _session_refusal(target: Path, ref: SessionRef) -> str | None:
    """Why `target` is part of the session being exported (any file it is read from, by
    any path to it: `pivotal.readers.files`), or None when it is not."""
    from pivotal.readers import session_files

    claimed = session_files(ref).claims(target)
    if claimed is None:
        return None
    if claimed == ref.path and not claimed.is_dir():
        return "refusing to overwrite the session file itself"
    if not claimed.is_dir():
        return f"refusing to overwrite {claimed.name}, a file of the session being exported"
    if os.path.exists(target):
        return f"refusing to overwrite a file of the session being exported (in {claimed})"
    return f"refusing to write into the folder of the session being exported ({claimed})"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Export SESSION with its pivots as Markdown, HTML, JSON or an asciicast recording."
    )
    parser.add_argument("session", type=Path, metavar="SESSION", help=SESSION_PATH)
    parser.add_argument(
        "--to",
        dest="fmt",
        choices=EXPORT_FORMATS,
        default=None,
        help="Format (default: from the -o suffix: .md .html .json .cast; md to stdout or "
        "a name with no suffix).",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        default=None,
        metavar="FILE",
        help="Write here, not stdout ('-' is stdout; see docs/commands.md for devices, links).",
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="Mask keys, tokens, private keys, e-mails, home paths.",
    )
    parser.add_argument(
        "--cast-version",
        type=int,
        choices=(2, 3),
        default=2,
        metavar="2|3",
        help="asciicast version of --to cast (default 2: asciinema 2.x plays only v2).",
    )
    add_key(parser)
    parser.add_argument("--no-notes", action="store_true", help="Leave out your marks and notes.")
    add_sensitivity(parser)
    parser.set_defaults(handler=export_cmd)


def export_cmd(args: argparse.Namespace) -> None:
    """`pivotal export`: render one session to stdout or to `-o FILE`, as it is rendered."""
    from pivotal.export import build_input, render_chunks

    fmt: str | None = args.fmt
    output: Path | None = args.output
    redact: bool = args.redact
    if output is not None and str(output) == "-":
        output = None  # `-o -`: standard output, as every tool means it
    ref = one_ref(args.session, args.key)
    if output is not None:
        _refuse_session_files(output, ref)  # the graver mistake is said first
    if fmt is None:
        fmt = format_of_output(output)
    data = build_input(
        ref, read_or_exit(ref), sensitivity=args.sensitivity, with_notes=not args.no_notes
    )
    for notice in data.notices:
        err(notice)
    # The session's index lives as long as the export: frozen, no full collection walks
    # it again (a redacted export makes many short-lived sets and lists, so runs several).
    gc.freeze()
    # written as it is rendered, turn by turn: memory stays the session's index
    chunks = render_chunks(fmt, data, redact=redact, cast_version=args.cast_version)
    if output is None:
        for chunk in chunks:
            sys.stdout.write(chunk)
        sys.stdout.flush()
    else:
        _write_output(output, chunks)
        pivots = plural(len(data.pivots), "pivot")
        err(f"wrote {output} ({fmt}, {pivots}{', redacted' if redact else ''})")
