"""The `pivotal` command: replay (the default), sessions, scan, follow.

stdout carries data, stderr diagnostics. Every failure is one clear line and a
documented exit code (`pivotal.exitcodes`); a traceback only appears with
PIVOTAL_DEBUG=1. The Textual app is imported only by the commands that open
it, so `sessions` and `scan` start fast.
"""

from __future__ import annotations

import gc
import os
import sys
from functools import partial
from pathlib import Path

import click

from pivotal import __version__
from pivotal.exitcodes import PROBLEM_CODES, BatchDone, ExitCode, exit_now, worst

DEMO = Path(__file__).resolve().parent / "_demo" / "demo.jsonl"
SENSITIVITIES = ("low", "normal", "high")


# Commands defined in `pivotal.cli_more`, imported only when one of them is run or listed:
# `pivotal scan` then skips that module and its click definitions.
MORE_COMMANDS = ("export", "notes", "stats")


class DefaultToReplay(click.Group):
    """`pivotal PATH` means `pivotal replay PATH`; `pivotal` alone opens the picker."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (
            args[0] not in self.commands
            and args[0] not in MORE_COMMANDS
            and args[0] not in ("--help", "-h", "--version")
        ):
            args = ["replay", *args]
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in MORE_COMMANDS and cmd_name not in self.commands:
            from pivotal.cli_more import register

            register(self)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *MORE_COMMANDS})


def err(message: str) -> None:
    click.echo(f"pivotal: {message}", err=True)


@click.group(cls=DefaultToReplay, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pivotal")
def cli() -> None:
    """Replay AI coding-agent sessions and stop at the silent pivots.

    With no command, `pivotal [PATH]` opens the replayer.
    """


# -- replay --------------------------------------------------------------------


@cli.command()
@click.argument("path", required=False, type=click.Path(path_type=Path, readable=False))
@click.option("--at", "at", type=int, default=None, help="Start at this turn.")
@click.option("--speed", type=float, default=1.0, show_default=True, help="Turns per second.")
@click.option("--no-autopause", is_flag=True, help="Do not pause at pivots.")
@click.option(
    "--root",
    "roots",
    multiple=True,
    type=click.Path(path_type=Path, readable=False),
    help="Look for sessions under this home folder instead of yours (repeatable).",
)
def replay(
    path: Path | None, at: int | None, speed: float, no_autopause: bool, roots: tuple[Path, ...]
) -> None:
    """Open the replayer on PATH, or pick a session (the bundled demo when there are none)."""
    from pivotal.discovery import discover_details, discover_sessions

    demo = False
    ref = None
    refs = None
    details = None
    if path is not None:
        ref, refs = _resolve_for_app(path)
    else:
        # the quick listing shows the picker at once; turn and pivot counts fill in behind it
        refs = discover_sessions(roots or None, details=False)
        details = partial(discover_details, roots or None, warn=lambda _: None)
        if not refs:
            ref, demo = _demo_ref(), True
    _run_app(
        ref,
        refs=refs,
        at=at,
        speed=speed,
        autopause=not no_autopause,
        demo=demo,
        details=details,
    )


@cli.command()
@click.argument("path", required=False, type=click.Path(path_type=Path, readable=False))
@click.option("--root", "roots", multiple=True, type=click.Path(path_type=Path, readable=False))
def follow(path: Path | None, roots: tuple[Path, ...]) -> None:
    """Replay a session and keep following it live (the most recently active one by default)."""
    from pivotal.discovery import discover_sessions

    if path is None:
        refs = discover_sessions(roots or None, details=False)  # only the newest is needed
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


@cli.command()
@click.option(
    "--root",
    "roots",
    multiple=True,
    type=click.Path(path_type=Path, readable=False),
    help="Look under this home folder instead of yours (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per session per line.")
@click.option("--limit", type=int, default=None, help="Show at most this many.")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Read every session afresh; do not use or update the session index.",
)
def sessions(roots: tuple[Path, ...], as_json: bool, limit: int | None, no_cache: bool) -> None:
    """List the sessions found in each agent's default location, newest first.

    Turn and pivot counts come from reading each session once; they are kept in
    a small index in the cache folder ($PIVOTAL_CACHE_DIR, $XDG_CACHE_HOME/pivotal
    or ~/.cache/pivotal), so later listings only read new or changed files.
    """
    from pivotal.discovery import discover_sessions
    from pivotal.sessions_view import print_sessions

    refs = discover_sessions(roots or None, use_cache=not no_cache)
    if limit is not None:
        refs = refs[:limit]
    print_sessions(refs, as_json=as_json)
    if not refs:
        err("no agent sessions found (looked in the default locations; try --root)")


# -- scan ----------------------------------------------------------------------


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path, readable=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per session per line.")
@click.option("--explain", is_flag=True, help="Show each pivot's evidence and state table.")
@click.option(
    "--sensitivity",
    type=click.Choice(SENSITIVITIES),
    default="normal",
    show_default=True,
    help="low = fewer, surer pivots; high = more recall.",
)
@click.option(
    "--follow",
    "follow_live",
    is_flag=True,
    help="Keep watching PATH and print each pivot once it is confirmed.",
)
def scan(
    paths: tuple[Path, ...], as_json: bool, explain: bool, sensitivity: str, follow_live: bool
) -> None:
    """Print the silent pivots of each session in PATHS (files, folders, databases)."""
    from pivotal.scan_command import run_follow, run_scan

    if follow_live:
        raise SystemExit(run_follow(list(paths), as_json=as_json, sensitivity=sensitivity))
    if _ENDS_PROCESS:
        gc.disable()  # the process ends right after: a last collection would only cost time
    try:
        code = run_scan(list(paths), as_json=as_json, explain=explain, sensitivity=sensitivity)
    except BrokenPipeError:  # `pivotal scan … | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = ExitCode.OK
    raise BatchDone(code)


_ENDS_PROCESS = False
"""Set by `main`: a batch command's process ends when it returns (not so under CliRunner)."""


def main() -> None:
    """Console-script entry: run the CLI with clean errors instead of tracebacks."""
    global _ENDS_PROCESS
    _ENDS_PROCESS = True
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        raise SystemExit(ExitCode.INTERRUPTED) from None
    except click.ClickException as exc:
        exc.show()
        raise SystemExit(ExitCode.USAGE) from None
    except KeyboardInterrupt:
        raise SystemExit(ExitCode.INTERRUPTED) from None
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(ExitCode.OK) from None
    except BatchDone as done:
        exit_now(done.code if isinstance(done.code, int) else ExitCode.INTERNAL)
    except SystemExit:
        raise
    except Exception as exc:  # the promise: one line, never a traceback
        if os.environ.get("PIVOTAL_DEBUG"):
            raise
        err(f"internal error: {type(exc).__name__}: {exc} (set PIVOTAL_DEBUG=1 for details)")
        raise SystemExit(ExitCode.INTERNAL) from None
