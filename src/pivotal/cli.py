"""The `pivotal` command: replay (the default), follow, sessions, scan; export, notes, stats.

stdout carries data, stderr diagnostics. Every failure is one clear line and a
documented exit code (`pivotal.exitcodes`); a traceback only appears with
PIVOTAL_DEBUG=1. Parsing is the standard library's argparse (click cost a
`pivotal scan` ~9 ms). Only the command being run gets a parser, and the
Textual app and `pivotal.cli_more` are imported only by the commands that use
them, so `sessions` and `scan` start fast.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from pivotal import __version__
from pivotal.exitcodes import PROBLEM_CODES, BatchDone, ExitCode, exit_now, worst
from pivotal.startup import load_msgspec

DEMO = Path(__file__).resolve().parent / "_demo" / "demo.jsonl"
SENSITIVITIES = ("low", "normal", "high")

# Every command with its one-line summary, in the order `pivotal --help` lists them.
COMMANDS = {
    "replay": "Open the replayer on PATH, or pick a session (the default command).",
    "follow": "Replay a session and keep following it live.",
    "sessions": "List the sessions found in each agent's default location, newest first.",
    "scan": "Print the silent pivots of each session in PATHS.",
    "export": "Export a session with its pivots (Markdown, HTML, JSON, asciicast).",
    "notes": "List your marks and notes.",
    "stats": "Pivot patterns across sessions.",
}
# Parsed and run by `pivotal.cli_more`, imported only when one of them is asked for.
MORE_COMMANDS = ("export", "notes", "stats")
HELP_OPTIONS = ("-h", "--help")
SESSION_PATH = "a session file, a folder of sessions, or a database"


class UsageError(Exception):
    """Wrong options or arguments, reported by `run` as one line and ExitCode.USAGE."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(message)
        self.prog = prog
        self.message = message


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size` finds it, without importing shutil."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions keep their line breaks; the width is found without shutil.

    argparse builds a formatter for every `add_argument` (to check the metavar),
    and its default one imports shutil (~2 ms) for the width: a scan never prints help.
    """

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=max(_columns() - 2, 40))


class Parser(argparse.ArgumentParser):
    """argparse that raises `UsageError` instead of printing usage and exiting by itself.

    Long options must be spelled out (no `--exp` for `--explain`), as before.
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            allow_abbrev=False,
            formatter_class=HelpFormatter,
            **kwargs,  # type: ignore[arg-type]
        )

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(self.prog, message)


def err(message: str) -> None:
    """One diagnostic line; paths in it may come from untrusted file names."""
    from pivotal.safetext import clean

    print(f"pivotal: {clean(message)}", file=sys.stderr, flush=True)


def add_roots(parser: argparse.ArgumentParser, what: str = "Look for sessions") -> None:
    """The repeatable `--root DIR` of the commands that look in the agents' home folders."""
    parser.add_argument(
        "--root",
        dest="roots",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help=f"{what} under this home folder instead of yours (repeatable).",
    )


def add_sensitivity(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    parser.add_argument(
        "--sensitivity",
        choices=SENSITIVITIES,
        default="normal",
        help=help_text or "How readily a silence counts as a pivot (default: normal).",
    )


# -- replay --------------------------------------------------------------------


def _replay_args(parser: Parser) -> None:
    parser.description = (
        "Open the replayer on PATH, or pick a session (the bundled demo when there are none)."
    )
    parser.add_argument("path", nargs="?", type=Path, metavar="PATH", help=SESSION_PATH)
    parser.add_argument("--at", type=int, default=None, metavar="N", help="Start at this turn.")
    parser.add_argument(
        "--speed", type=float, default=1.0, metavar="N", help="Turns per second (default: 1.0)."
    )
    parser.add_argument("--no-autopause", action="store_true", help="Do not pause at pivots.")
    add_roots(parser)


def replay(args: argparse.Namespace) -> None:
    """`pivotal replay`: a session named on the command line, else the picker."""
    from pivotal.discovery import discover_details, discover_sessions

    roots = args.roots or None
    demo = False
    ref = None
    refs = None
    details = None
    if args.path is not None:
        ref, refs = _resolve_for_app(args.path)
    else:
        # the quick listing shows the picker at once; turn and pivot counts fill in behind it
        refs = discover_sessions(roots, details=False)
        details = partial(discover_details, roots, warn=lambda _: None)
        if not refs:
            ref, demo = _demo_ref(), True
    _run_app(
        ref,
        refs=refs,
        at=args.at,
        speed=args.speed,
        autopause=not args.no_autopause,
        demo=demo,
        details=details,
    )


# -- follow --------------------------------------------------------------------


def _follow_args(parser: Parser) -> None:
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
    add_roots(parser)


def follow(args: argparse.Namespace) -> None:
    """`pivotal follow`: the replayer in live mode on PATH or the newest session."""
    from pivotal.discovery import discover_sessions

    path: Path | None = args.path
    if path is None:
        refs = discover_sessions(args.roots or None, details=False)  # only the newest is needed
        if not refs:
            err("no agent sessions found to follow (give a PATH)")
            raise SystemExit(ExitCode.NO_SESSIONS)
        ref = refs[0]
    else:
        ref, refs = _resolve_for_app(path)
        if ref is None and refs:
            ref = max(refs, key=lambda r: r.updated or 0.0)
    # a folder (e.g. an agent's project dir): follow its newest session, switching to new ones
    live: bool | Path = path if path is not None and path.is_dir() else True
    _run_app(ref, refs=None, at=None, speed=1.0, autopause=True, demo=False, follow=live)


def _demo_ref():  # type: ignore[no-untyped-def]
    from pivotal.model import SessionRef

    return SessionRef(format="claude-code", path=DEMO)


def _resolve_for_app(path: Path):  # type: ignore[no-untyped-def]
    from pivotal.discovery import with_quick_metadata
    from pivotal.readers import find_sessions

    found = find_sessions([path])
    for problem in found.problems:
        err(str(problem))
    if not found.refs:
        codes = [PROBLEM_CODES.get(p.kind, ExitCode.NO_SESSIONS) for p in found.problems]
        raise SystemExit(worst(codes) or ExitCode.NO_SESSIONS)
    if len(found.refs) == 1:
        return found.refs[0], None
    return None, [with_quick_metadata(r) for r in found.refs]


def _run_app(ref, *, refs, at, speed, autopause, demo, follow=False, details=None) -> None:  # type: ignore[no-untyped-def]
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
        follow=follow,
        details=details,
    )
    raise SystemExit(code)


# -- sessions ------------------------------------------------------------------


def _sessions_args(parser: Parser) -> None:
    parser.description = (
        "List the sessions found in each agent's default location, newest first.\n\n"
        "Turn and pivot counts come from reading each session once; they are kept in\n"
        "a small index in the cache folder ($PIVOTAL_CACHE_DIR, $XDG_CACHE_HOME/pivotal\n"
        "or ~/.cache/pivotal), so later listings only read new or changed files."
    )
    add_roots(parser, "Look")
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="One JSON object per session per line."
    )
    parser.add_argument(
        "--limit", type=int, default=None, metavar="N", help="Show at most this many."
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="Read every session afresh; do not use or update the session index.",
    )


def sessions(args: argparse.Namespace) -> None:
    """`pivotal sessions`: the discovered sessions as a table or JSON lines."""
    from pivotal.discovery import discover_sessions
    from pivotal.sessions_view import print_sessions

    refs = discover_sessions(args.roots or None, use_cache=not args.no_cache)
    if args.limit is not None:
        refs = refs[: args.limit]
    print_sessions(refs, as_json=args.as_json)
    if not refs:
        err("no agent sessions found (looked in the default locations; try --root)")


# -- scan ----------------------------------------------------------------------


def _scan_args(parser: Parser) -> None:
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


def scan(args: argparse.Namespace) -> None:
    """`pivotal scan`: pivots as text or JSON; ends with `BatchDone` (a batch command)."""
    from pivotal.scan_command import run_follow, run_scan

    paths: list[Path] = args.paths
    if args.follow_live:
        raise SystemExit(run_follow(paths, as_json=args.as_json, sensitivity=args.sensitivity))
    if args.ends_process:
        gc.disable()  # the process ends right after: a last collection would only cost time
    try:
        code = run_scan(
            paths, as_json=args.as_json, explain=args.explain, sensitivity=args.sensitivity
        )
    except BrokenPipeError:  # `pivotal scan … | head`: the reader has all it wanted
        _silence_stdout()
        code = ExitCode.OK
    raise BatchDone(code)


# -- dispatch ------------------------------------------------------------------

_ARGUMENTS = {
    "replay": (_replay_args, replay),
    "follow": (_follow_args, follow),
    "sessions": (_sessions_args, sessions),
    "scan": (_scan_args, scan),
}


def command_parser(name: str) -> Parser:
    """The parser of one command, with its handler as the `handler` default."""
    parser = Parser(prog=f"pivotal {name}", description=COMMANDS[name])
    if name in MORE_COMMANDS:
        from pivotal.cli_more import configure

        configure(name, parser)
    else:
        add_arguments, handler = _ARGUMENTS[name]
        add_arguments(parser)
        parser.set_defaults(handler=handler)
    return parser


def top_help() -> str:
    """`pivotal --help`: what pivotal does and every command, without building their parsers."""
    width = max(map(len, COMMANDS)) + 2
    listing = "\n".join(f"  {name:<{width}}{summary}" for name, summary in COMMANDS.items())
    parser = Parser(
        prog="pivotal",
        usage="pivotal [-h] [--version] [COMMAND] [ARGS ...]",
        description=(
            "Replay AI coding-agent sessions and stop at the silent pivots.\n\n"
            "With no command, `pivotal [PATH]` opens the replayer (`pivotal replay [PATH]`)."
        ),
        epilog=f"commands:\n{listing}\n\nRun `pivotal COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="store_true", help="show the version and exit")
    return parser.format_help()


def _dispatch(argv: Sequence[str], *, ends_process: bool) -> None:
    args = list(argv)
    if args and args[0] in HELP_OPTIONS:
        sys.stdout.write(top_help())
        return
    if args and args[0] == "--version":
        print(f"pivotal {__version__}")
        return
    if not args or args[0] not in COMMANDS:
        args = ["replay", *args]  # `pivotal PATH` is `pivotal replay PATH`; alone: the picker
    parser = command_parser(args[0])
    parser.set_defaults(ends_process=ends_process)
    # intermixed: options may come after the paths, as in `pivotal scan a.jsonl --json b.jsonl`
    namespace = parser.parse_intermixed_args(args[1:])
    namespace.handler(namespace)


def _silence_stdout() -> None:
    """Point stdout at /dev/null: the reader went away (`| head`), nothing more can be said."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (captured in-process)
        pass


def _code(code: object) -> int:
    """The process exit code a SystemExit stands for (a message means failure, as in Python)."""
    if code is None:
        return ExitCode.OK
    if isinstance(code, int):
        return int(code)
    print(code, file=sys.stderr)
    return ExitCode.INTERNAL


def _run(argv: Sequence[str], *, ends_process: bool) -> tuple[int, bool]:
    """Run one command: its exit code, and whether it was a batch command (`BatchDone`)."""
    try:
        _dispatch(argv, ends_process=ends_process)
    except BatchDone as done:
        return (done.code if isinstance(done.code, int) else ExitCode.INTERNAL), True
    except SystemExit as exc:  # argparse's --help, and every command's documented failures
        return _code(exc.code), False
    except UsageError as exc:
        from pivotal.safetext import clean

        print(
            f"{exc.prog}: error: {clean(exc.message)} (see {exc.prog} --help)",
            file=sys.stderr,
            flush=True,
        )
        return ExitCode.USAGE, False
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED, False
    except BrokenPipeError:
        _silence_stdout()
        return ExitCode.OK, False
    except Exception as exc:  # the promise: one line, never a traceback
        if os.environ.get("PIVOTAL_DEBUG"):
            raise
        err(f"internal error: {type(exc).__name__}: {exc} (set PIVOTAL_DEBUG=1 for details)")
        return ExitCode.INTERNAL, False
    return ExitCode.OK, False


def run(argv: Sequence[str]) -> int:
    """Run `pivotal ARGV` in this process and return its exit code (tests, embedding).

    The process is never ended and the garbage collector is left as it was.
    """
    return _run(argv, ends_process=False)[0]


def main() -> None:
    """Console-script entry: run the CLI on sys.argv and exit with its code.

    A batch command (`scan`) ends the process at once with `exit_now`: freeing
    its heap object by object at shutdown would cost more than the scan's output.
    msgspec is loaded first without typing_extensions (`pivotal.startup`).
    """
    load_msgspec()
    code, batch = _run(sys.argv[1:], ends_process=True)
    if batch:
        exit_now(code)
    raise SystemExit(code)
