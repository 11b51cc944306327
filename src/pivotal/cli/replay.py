"""`pivotal [replay] [PATH]` and `pivotal follow [PATH]`: open the Textual replayer.

The app (`pivotal.tui`) is imported only here, and only once the arguments are
known to be good: the headless commands never load Textual.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import partial
from pathlib import Path

from pivotal.cli.arguments import SESSION_PATH, add_key, add_roots, add_sensitivity
from pivotal.cli.exitcodes import ExitCode
from pivotal.cli.output import err
from pivotal.cli.resolve import find_refs
from pivotal.model import SessionRef, last_change

DEMO = Path(__file__).resolve().parents[1] / "_demo" / "demo.jsonl"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Open the replayer on PATH, or pick a session (the bundled demo when there are none)."
    )
    parser.add_argument("path", nargs="?", type=Path, metavar="PATH", help=SESSION_PATH)
    parser.add_argument(
        "--at",
        type=int,
        default=None,
        metavar="N",
        help="Start at turn N (#N on screen: from 1; past either end: the nearest, said).",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        metavar="N",
        help="Turns per second, or with --real-time how many times real time (0.0625-1000; "
        "default: 1).",
    )
    parser.add_argument(
        "--real-time",
        action="store_true",
        help="Play at the session's own pace: the recorded gaps between turns, divided by "
        "--speed (R switches while playing).",
    )
    parser.add_argument(
        "--idle-limit",
        type=positive_seconds,
        default=2.0,
        metavar="S",
        help="With real time, cut any gap longer than S seconds down to S, as asciinema's "
        "--idle-time-limit does (default: 2).",
    )
    parser.add_argument("--no-autopause", action="store_true", help="Do not pause at pivots.")
    add_sensitivity(parser)
    add_key(parser, "PATH")
    add_roots(parser)
    parser.set_defaults(handler=replay)


def configure_follow(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Replay a session and keep following it live (the most recently active one by default)."
    )
    parser.add_argument(
        "path",
        nargs="?",
        type=Path,
        metavar="PATH",
        help="a session file, or a folder whose newest session is followed",
    )
    add_sensitivity(parser)
    add_key(parser, "PATH")
    add_roots(parser)
    parser.set_defaults(handler=follow)


def replay(args: argparse.Namespace) -> None:
    """`pivotal replay`: a session named on the command line, else the picker."""
    from pivotal.catalog.discovery import discover_details, discover_sessions

    roots = args.roots or None
    demo = False
    ref = None
    refs = None
    details = None
    unlisted: list[Path] = []
    if args.path is not None:
        ref, refs = _resolve_for_app(args.path, args.key)
        if refs:  # a folder of sessions: its picker counts them behind the quick listing
            from pivotal.catalog.discovery import details_of

            details = partial(details_of, refs, warn=lambda _: None)
    else:
        # the quick listing shows the picker at once; turn and pivot counts fill in behind it
        refs = discover_sessions(roots, details=False, unlisted=unlisted)
        details = partial(discover_details, roots, warn=lambda _: None)
        if not refs:
            ref, demo = demo_ref(), True
    _run_app(
        ref,
        refs=refs,
        at=args.at,
        speed=args.speed,
        realtime=args.real_time,
        idle_limit=args.idle_limit,
        autopause=not args.no_autopause,
        demo=demo,
        details=details,
        unlisted=len(unlisted),
        sensitivity=args.sensitivity,
    )


def follow(args: argparse.Namespace) -> None:
    """`pivotal follow`: the replayer in live mode on PATH or the newest session."""
    from pivotal.catalog.discovery import discover_sessions

    path: Path | None = args.path
    if path is None:
        refs = discover_sessions(args.roots or None, details=False)  # only the newest is needed
        if not refs:
            err("no agent sessions found to follow (give a PATH)")
            raise SystemExit(ExitCode.NO_SESSIONS)
        ref = _newest_to_follow(refs)
    else:
        ref, refs = _resolve_for_app(path, args.key)
        if ref is None and refs:
            ref = _newest_to_follow(refs)
    # a folder (e.g. an agent's project dir): follow its newest session, switching to new ones
    live: bool | Path = path if path is not None and path.is_dir() else True
    _run_app(
        ref,
        refs=None,
        at=None,
        speed=1.0,
        autopause=True,
        demo=False,
        follow=live,
        sensitivity=args.sensitivity,
    )


def _newest_to_follow(refs: list[SessionRef]) -> SessionRef:
    """The newest of `refs` (listed newest change first) that is no sub-agent of another
    of them: a sub-agent's file changes while its parent waits for it, and following the
    parent shows it (its spawn call opens it)."""
    from pivotal.readers.subagent_refs import by_name, listed_alone

    return (listed_alone(refs, by_name) or refs)[0]


def demo_ref() -> SessionRef:
    return SessionRef(format="claude-code", path=DEMO)


def _resolve_for_app(
    path: Path, key: str | None = None
) -> tuple[SessionRef | None, list[SessionRef] | None]:
    """One session to open, or the several PATH holds (for the picker: what their parents
    reach is asked of the listing index only, so that it shows at once)."""
    from pivotal.catalog.discovery import with_quick_metadata
    from pivotal.catalog.reach import IndexedReaches

    refs, code = find_refs([path], key, IndexedReaches())
    if not refs:
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    if len(refs) == 1:
        return refs[0], None
    # the picker lists the newest change first, as it does for the agents' own folders
    listed = [with_quick_metadata(r) for r in refs]
    return None, sorted(listed, key=last_change, reverse=True)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds: {text!r}")
    return value


def _run_app(  # type: ignore[no-untyped-def]
    ref, *, refs, at, speed, autopause, demo, follow=False, details=None, **pace
) -> None:
    if not sys.stdout.isatty() and not os.environ.get("PIVOTAL_FORCE_TUI"):
        err("the replayer needs a terminal; use `pivotal scan` for text output")
        raise SystemExit(ExitCode.USAGE)
    from pivotal.tui import run_replayer

    code = run_replayer(
        ref,
        refs=refs,
        at=at,
        speed=speed,
        autopause=autopause,
        demo=demo,
        **pace,
        follow=follow,
        details=details,
    )
    if code == ExitCode.INTERNAL:  # the app stopped on an exception it could not handle
        err("internal error: the replayer stopped on an unexpected error (set PIVOTAL_DEBUG=1)")
    raise SystemExit(code)
