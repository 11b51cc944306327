"""`pivotal scan PATH...`: read sessions, detect their pivots, print tables or JSON lines.

`--follow` keeps watching one PATH (`pivotal.scan.follow`). The renderings are
`pivotal.scan.report`.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import msgspec

from pivotal.cli.arguments import SESSION_PATH, add_key, add_sensitivity
from pivotal.cli.exitcodes import BatchDone, ExitCode, worst
from pivotal.cli.output import err, silence_stdout
from pivotal.cli.resolve import locate
from pivotal.model import Session, SessionRef
from pivotal.readers import read_errors, read_session
from pivotal.readers.base import gc_paused
from pivotal.scan.report import (
    explain,
    pivot_table,
    rejected_lines,
    session_header,
    session_json,
    skipped_line,
)
from pivotal.text.safe import json_inert

if TYPE_CHECKING:
    from pivotal.detect.evaluate import Rejection

_encode = msgspec.json.Encoder().encode


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Print the silent pivots of each session in PATHS (files, folders, databases)."
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help=SESSION_PATH)
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="One JSON object per session per line."
    )
    parser.add_argument(
        "--explain", action="store_true", help="Show each pivot's evidence and state table."
    )
    add_sensitivity(parser, "low = fewer, surer pivots; high = more recall (default: normal).")
    parser.add_argument(
        "--follow",
        dest="follow_live",
        action="store_true",
        help="Keep watching PATH and print each pivot once it is confirmed.",
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="Mask keys, tokens, e-mails and home paths in what is printed (as export does).",
    )
    add_key(parser)
    parser.set_defaults(handler=scan)


def scan(args: argparse.Namespace) -> None:
    """`pivotal scan`: pivots as text or JSON; ends with `BatchDone` (a batch command)."""
    paths: list[Path] = args.paths
    if args.follow_live:
        raise SystemExit(
            run_follow(paths, as_json=args.as_json, sensitivity=args.sensitivity, key=args.key)
        )
    if args.ends_process:
        gc.disable()  # the process ends right after: a last collection would only cost time
    try:
        code = run_scan(
            paths,
            as_json=args.as_json,
            explain=args.explain,
            sensitivity=args.sensitivity,
            key=args.key,
            redact=args.redact,
        )
    except BrokenPipeError:  # `pivotal scan … | head`: the reader has all it wanted
        silence_stdout()
        code = ExitCode.OK
    raise BatchDone(code)


def run_scan(
    paths: list[Path],
    *,
    as_json: bool,
    explain: bool = False,
    sensitivity: str = "normal",
    out: TextIO | None = None,
    key: str | None = None,
    redact: bool = False,
) -> int:
    from pivotal.detect import PivotConfig, PivotTracker, detect_pivots

    out = out or sys.stdout
    refs, problems = locate(paths, key)
    codes = [code for _, code in problems]
    for message, _ in problems:
        err(message)
    config = PivotConfig.for_sensitivity(sensitivity)
    # A session's index is many small objects and one reference cycle (the reader and its
    # turns): the collector stays paused through each session and runs once between them,
    # so a scan of thousands of files keeps the memory of one.
    with gc_paused():
        for number, ref in enumerate(refs):
            if number:
                gc.collect()
            rejected: list[Rejection] = []
            session = _read(ref)
            if session is None:
                codes.append(ExitCode.UNREADABLE)
                continue
            if explain and not as_json:
                # --explain also says which gate turned each other silence down
                tracker = PivotTracker(config)
                pivots = tracker.update(session.turns)
                rejected = tracker.rejections()
            else:
                pivots = detect_pivots(session.turns, config)
            if as_json:
                data = session_json(ref, session, pivots)
                if redact:
                    data = _redacted(data, ref, session)
                out.write(json_inert(_encode(data).decode()) + "\n")
            else:
                _print_text(out, ref, session, pivots, explain, redact, rejected)
            out.flush()
    return int(worst(codes))


def _read(ref: SessionRef) -> Session | None:
    try:
        return read_session(ref)
    except read_errors() as exc:
        err(f"{ref.label}: cannot read ({exc})")
        return None


def _redacted(value, ref: SessionRef, session: Session):  # type: ignore[no-untyped-def]
    """`value` (JSON-like data or text) with secrets and home paths masked."""
    from pivotal.export.redact import redact, redact_data, users_in

    users = users_in(str(ref.path), session.cwd, str(Path.home()))
    return redact(value, users=users) if isinstance(value, str) else redact_data(value, users=users)


def _print_text(
    out: TextIO,
    ref: SessionRef,
    session: Session,
    pivots: list,  # type: ignore[type-arg]
    with_explain: bool,
    redact: bool = False,
    rejected: Sequence[Rejection] = (),
) -> None:
    lines = [session_header(ref, session)]
    skipped = skipped_line(session)
    if skipped:
        lines.append(skipped)
    lines.extend(pivot_table(session, pivots))
    if with_explain:
        for pivot in pivots:
            lines.append("")
            lines.extend("  " + line for line in explain(session, pivot))
        if rejected:
            lines.append("")
            lines.extend("  " + line for line in rejected_lines(session, rejected))
    text = "\n".join(lines) + "\n\n"
    out.write(_redacted(text, ref, session) if redact else text)


def run_follow(
    paths: list[Path], *, as_json: bool, sensitivity: str = "normal", key: str | None = None
) -> int:
    """`scan --follow PATH`: print each pivot once it is confirmed, until Ctrl+C.

    PATH names one session (a file, `CONTAINER#KEY`, or a container with `--key`); a
    container of several is followed in its most recently active session, and a line
    says which one, why, and how to pick another.
    """
    import asyncio

    from pivotal.detect import PivotConfig
    from pivotal.scan.follow import scan_follow

    if len(paths) != 1:
        err("--follow takes exactly one PATH")
        return int(ExitCode.USAGE)
    refs, problems = locate(paths, key)
    for message, _ in problems:
        err(message)
    if not refs:
        return int(worst([code for _, code in problems]) or ExitCode.NO_SESSIONS)
    ref = max(refs, key=lambda r: r.updated or 0.0)
    if len(refs) > 1:
        err(
            f"{paths[0]} holds {len(refs)} sessions; following the most recently active one,"
            f" {ref.label} (pick another with PATH#KEY or --key)"
        )
    config = PivotConfig.for_sensitivity(sensitivity)
    try:
        asyncio.run(scan_follow(ref, as_json=as_json, out=sys.stdout, config=config))
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    return int(ExitCode.OK)
