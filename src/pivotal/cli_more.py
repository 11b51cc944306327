"""`pivotal export`, `pivotal notes` and `pivotal stats`: their arguments (`configure`) and code.

Same contract as the other commands: data on stdout, one clear line per
problem on stderr, documented exit codes (`pivotal.exitcodes`). `pivotal.cli`
imports this module only when one of these commands is run or listed, and heavy
modules (sqlite3, tempfile, the export / notes / stats code) are imported inside
the commands, so the other commands start fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from pivotal.cli import SESSION_PATH, add_roots, add_sensitivity, err
from pivotal.exitcodes import PROBLEM_CODES, ExitCode, worst
from pivotal.model import SessionRef

EXPORT_FORMATS = ("md", "html", "json", "cast")


def _refs(paths: list[Path]) -> tuple[list[SessionRef], ExitCode]:
    from pivotal.readers import find_sessions

    found = find_sessions(paths)
    for problem in found.problems:
        err(str(problem))
    codes = [PROBLEM_CODES.get(p.kind, ExitCode.NO_SESSIONS) for p in found.problems]
    return found.refs, worst(codes)


def _one_ref(path: Path, key: str | None) -> SessionRef:
    """The single session PATH names (or `--key` picks); exits with a clear line otherwise."""
    refs, code = _refs([path])
    if not refs:
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    if key is not None:
        refs = [r for r in refs if key in (r.key, r.session_id)]
        if not refs:
            err(f"{path}: no session with key {key!r}")
            raise SystemExit(ExitCode.NO_SESSIONS)
    if len(refs) > 1:
        from pivotal.safetext import clean

        keys = ", ".join(clean(r.key or r.path.name, max_len=60) for r in refs[:10])
        err(f"{path} holds {len(refs)} sessions; pick one with --key ({keys})")
        raise SystemExit(ExitCode.USAGE)
    return refs[0]


def _read(ref: SessionRef):  # type: ignore[no-untyped-def]
    from pivotal.readers import read_errors, read_session

    try:
        return read_session(ref)
    except read_errors() as exc:
        err(f"{ref.label}: cannot read ({exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None


# -- export --------------------------------------------------------------------


def _write_output(target: Path, text: str, ref: SessionRef) -> None:
    """Write atomically, and never over the session being exported."""
    if target.exists() and os.path.realpath(target) == os.path.realpath(ref.path):
        err(f"{target}: refusing to overwrite the session file itself")
        raise SystemExit(ExitCode.USAGE)
    import tempfile

    parent = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except OSError as exc:
        err(f"{target}: cannot write ({exc.strerror or exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None


def _file_mode(target: Path) -> int:
    """Keep an existing file's mode; a new file gets what the umask allows (mkstemp uses 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _export_args(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Export SESSION with its pivots as Markdown, HTML, JSON or an asciicast v3 recording."
    )
    parser.add_argument("session", type=Path, metavar="SESSION", help=SESSION_PATH)
    parser.add_argument(
        "--to",
        dest="fmt",
        choices=EXPORT_FORMATS,
        default=None,
        help="Format (default: from the -o suffix, else md).",
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=None, metavar="FILE", help="Write here, not stdout."
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="Mask keys, tokens, private keys, e-mails, home paths.",
    )
    _add_key(parser)
    parser.add_argument("--no-notes", action="store_true", help="Leave out your marks and notes.")
    add_sensitivity(parser)
    parser.set_defaults(handler=export_cmd)


def _add_key(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--key", default=None, metavar="KEY", help="Which session, when SESSION holds several."
    )


def export_cmd(args: argparse.Namespace) -> None:
    """`pivotal export`: render one session to stdout or, atomically, to `-o FILE`."""
    from pivotal.export import SUFFIX, build_input, render

    fmt: str | None = args.fmt
    output: Path | None = args.output
    redact: bool = args.redact
    if fmt is None:
        by_suffix = {v: k for k, v in SUFFIX.items()}
        fmt = by_suffix.get(output.suffix.lower(), "md") if output else "md"
    ref = _one_ref(args.session, args.key)
    data = build_input(ref, _read(ref), sensitivity=args.sensitivity, with_notes=not args.no_notes)
    for notice in data.notices:
        err(notice)
    text = render(fmt, data, redact=redact)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write_output(output, text, ref)
        err(f"wrote {output} ({fmt}, {len(data.pivots)} pivots{', redacted' if redact else ''})")


# -- notes ---------------------------------------------------------------------


def _notes_args(parser: argparse.ArgumentParser) -> None:
    parser.description = "List your marks and notes: on SESSION, or which sessions have any."
    parser.add_argument("session", nargs="?", type=Path, metavar="SESSION", help=SESSION_PATH)
    _add_key(parser)
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="JSON instead of a table."
    )
    parser.set_defaults(handler=notes_cmd)


def notes_cmd(args: argparse.Namespace) -> None:
    """`pivotal notes`: the marks on one session, or the sessions that have any."""
    import sqlite3

    from pivotal.notes import NoteStore

    try:
        store = NoteStore()
    except (OSError, sqlite3.Error) as exc:
        err(f"cannot open the notes store ({exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None
    with store:
        if store.notice:
            err(store.notice)
        if args.session is None:
            _print_noted_sessions(store, args.as_json)
        else:
            ref = _one_ref(args.session, args.key)
            _print_marks(store, _read(ref), args.as_json)


def _print_noted_sessions(store, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    import json

    from pivotal.report import short_time
    from pivotal.safetext import clean

    listed = store.all_sessions()
    if as_json:
        for item in listed:
            row = {
                "session_key": clean(item.key),
                "format": item.format,
                "path": clean(item.path),
                "title": clean(item.title) if item.title else None,
                "marks": item.marks,
                "notes": item.notes,
                "touched": short_time(item.touched),
            }
            print(json.dumps(row, ensure_ascii=False))
        return
    if not listed:
        err(f"no marks yet (store: {store.path})")
        return
    rows = [("MARKS", "NOTES", "TOUCHED", "FORMAT", "SESSION")]
    for item in listed:
        rows.append(
            (
                str(item.marks),
                str(item.notes),
                short_time(item.touched),
                item.format,
                clean(item.title or item.path, max_len=80).replace("\n", " "),
            )
        )
    print(_table(rows))


def _print_marks(store, session, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    import json

    from pivotal.export.common import role_label
    from pivotal.report import iso, short_time
    from pivotal.safetext import clean

    marks = store.marks_for(session)
    if as_json:
        for mark in marks:
            turn = session.turns[mark.turn_index] if mark.turn_index is not None else None
            row = {
                "turn": mark.turn_index,
                "source_id": clean(mark.source_id),
                "who": role_label(turn) if turn else None,
                "timestamp": iso(turn.timestamp) if turn else None,
                "note": clean(mark.note),
                "created": iso(mark.created),
            }
            print(json.dumps(row, ensure_ascii=False))
        return
    if not marks:
        err("no marks on this session")
        return
    rows = [("TURN", "WHEN", "WHO", "NOTE")]
    for mark in marks:
        turn = session.turns[mark.turn_index] if mark.turn_index is not None else None
        first = clean(mark.note, max_len=300).strip().split("\n")[0] if mark.note else ""
        rows.append(
            (
                f"#{mark.turn_index + 1}" if turn and mark.turn_index is not None else "gone",
                short_time(turn.timestamp) if turn else "-",
                role_label(turn) if turn else "-",
                first[:100] or "(marked)",
            )
        )
    print(_table(rows))


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(len(r))).rstrip() for r in rows)


# -- stats ---------------------------------------------------------------------


def _stats_args(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Pivot patterns across sessions in PATHS (default: every session pivotal can find)."
    )
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help=SESSION_PATH)
    parser.add_argument(
        "--json",
        dest="as_json",
        action="store_true",
        help="One JSON document: sessions and totals.",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=1,
        metavar="N",
        help="Read this many sessions at once, 1 to 64 (default: 1).",
    )
    add_sensitivity(parser)
    add_roots(parser)
    parser.set_defaults(handler=stats_cmd)


def _jobs(text: str) -> int:
    """`--jobs`: a whole number from 1 to 64."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to 64")
    return value


def stats_cmd(args: argparse.Namespace) -> None:
    """`pivotal stats`: collect each session's pivots and print a table or one JSON document."""
    import json

    from pivotal.stats import collect, stats_json, stats_table

    paths: list[Path] = args.paths
    if paths:
        refs, code = _refs(paths)
    else:
        from pivotal.discovery import discover_sessions

        refs, code = discover_sessions(args.roots or None), ExitCode.OK
    if not refs:
        if not paths:
            err("no agent sessions found (give PATHs or --root)")
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    stats = collect(refs, jobs=args.jobs, sensitivity=args.sensitivity)
    if args.as_json:
        print(json.dumps(stats_json(stats), ensure_ascii=False))
    else:
        sys.stdout.write(stats_table(stats))
    for item in stats:
        if item.error:
            err(f"{item.path}: cannot read ({item.error})")
    if any(item.error for item in stats):
        code = worst([code, ExitCode.UNREADABLE])
    raise SystemExit(int(code))


_ARGUMENTS = {"export": _export_args, "notes": _notes_args, "stats": _stats_args}


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    """Give `parser` the arguments of command `name` and its handler (`pivotal.cli` runs it)."""
    _ARGUMENTS[name](parser)
