"""`pivotal scan PATH...`: read sessions, detect their pivots, print tables or JSON lines.

The options, and which way a scan runs: once over every PATH
(`pivotal.cli.scan_batch`, which may read a big Claude Code file on two cores:
`pivotal.scan.split`) or, with `--follow`, watching one PATH until Ctrl+C
(`run_follow`, on `pivotal.scan.follow`). The renderings are
`pivotal.scan.report`.
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
from pathlib import Path
from typing import TextIO

from pivotal.cli.arguments import SESSION_PATH, add_key, add_sensitivity
from pivotal.cli.exitcodes import BatchDone, ExitCode, worst
from pivotal.cli.output import err, silence_stdout, terminal_width
from pivotal.cli.resolve import locate
from pivotal.cli.scan_batch import run_scan
from pivotal.model import SessionRef, last_change


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
    add_key(parser, "a PATH")
    parser.set_defaults(handler=scan)


def scan(args: argparse.Namespace) -> None:
    """`pivotal scan`: pivots as text or JSON; ends with `BatchDone` (a batch command)."""
    paths: list[Path] = args.paths
    if args.follow_live:
        raise SystemExit(
            run_follow(
                paths,
                as_json=args.as_json,
                sensitivity=args.sensitivity,
                key=args.key,
                redact=args.redact,
            )
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
            width=None if args.as_json else terminal_width(sys.stdout),
        )
    except BrokenPipeError:  # `pivotal scan … | head`: the reader has all it wanted
        silence_stdout()
        code = ExitCode.OK
    raise BatchDone(code)


def run_follow(
    paths: list[Path],
    *,
    as_json: bool,
    sensitivity: str = "normal",
    key: str | None = None,
    redact: bool = False,
) -> int:
    """`scan --follow PATH`: print each pivot once it is confirmed, until Ctrl+C.

    PATH names one session (a file, `CONTAINER#KEY`, or a container with `--key`); a
    container of several is followed in its most recently active session, and a line
    says which one, why, and how to pick another. With `redact` each line printed is
    redacted, as `scan --redact` does.
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
    ref = max(refs, key=last_change)
    if len(refs) > 1:
        err(
            f"{paths[0]} holds {len(refs)} sessions; following the most recently active one,"
            f" {ref.label} (pick another with PATH#KEY or --key)"
        )
    else:  # a person left with a silent terminal wonders whether anything runs
        err(f"watching {ref.label}: each pivot is printed once it is confirmed (Ctrl+C stops)")
    config = PivotConfig.for_sensitivity(sensitivity)
    out: TextIO = _Redacting(sys.stdout, ref) if redact else sys.stdout  # type: ignore[assignment]
    from pivotal.catalog.search_live import LiveIndexer

    try:
        with LiveIndexer(ref):  # `pivotal search` finds what it prints as it is written
            asyncio.run(scan_follow(ref, as_json=as_json, out=out, config=config))
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    return int(ExitCode.OK)


class _Redacting(io.TextIOBase):
    """A stream that masks secrets and home paths in each line written to it
    (`scan --follow --redact`: the follower writes one pivot a line)."""

    def __init__(self, out: TextIO, ref: SessionRef) -> None:
        from pivotal.export.redact import users_in

        self._out = out
        self._users = users_in(str(ref.path), ref.cwd, str(Path.home()))

    def write(self, text: str) -> int:  # type: ignore[override]
        from pivotal.export.redact import redact

        return self._out.write(redact(text, users=self._users))

    def flush(self) -> None:
        self._out.flush()
