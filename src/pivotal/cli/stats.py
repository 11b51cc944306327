"""`pivotal stats [PATH...]`: pivot patterns across many sessions (default: every one found).

The figures are `pivotal.catalog.stats`; `--jobs N` spreads the files over processes (by
default one per core once there are many sessions).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pivotal.cli.arguments import SESSION_PATH, add_roots, add_sensitivity
from pivotal.cli.exitcodes import ExitCode, worst
from pivotal.cli.output import err, terminal_width
from pivotal.cli.resolve import find_refs


def configure(parser: argparse.ArgumentParser) -> None:
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
        default=None,
        metavar="N",
        help=(
            f"Read this many sessions at once, 1 to 64 (default: one per core when there are "
            f"more than {MANY_SESSIONS} sessions, else 1)."
        ),
    )
    add_sensitivity(parser)
    add_roots(parser)
    parser.set_defaults(handler=stats_cmd)


MANY_SESSIONS = 50
"""More sessions than this: `--jobs` defaults to the cores (starting workers costs ~0.1 s)."""


def default_jobs(sessions: int) -> int:
    """One worker per core (at most 8) for many sessions; one process for a few."""
    if sessions <= MANY_SESSIONS:
        return 1
    from pivotal.cores import usable_cores

    return max(1, min(usable_cores(), 8))


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

    from pivotal.catalog.stats import collect, stats_json, stats_table

    paths: list[Path] = args.paths
    if paths:
        refs, code = find_refs(paths)
    else:
        from pivotal.catalog.discovery import discover_sessions

        refs, code = discover_sessions(args.roots or None), ExitCode.OK
    if not refs:
        if not paths:
            err("no agent sessions found (give PATHs or --root)")
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    jobs = args.jobs or default_jobs(len(refs))
    stats = collect(refs, jobs=jobs, sensitivity=args.sensitivity)
    if args.as_json:
        print(json.dumps(stats_json(stats), ensure_ascii=False))
    else:
        sys.stdout.write(stats_table(stats, terminal_width(sys.stdout)))
    for item in stats:
        if item.error:
            err(f"{item.path}: cannot read ({item.error})")
    if any(item.error for item in stats):
        code = worst([code, ExitCode.UNREADABLE])
    raise SystemExit(int(code))
