"""The `pivotal` command: dispatch to one command module, one line per failure, exit codes.

stdout carries data, stderr diagnostics. Every failure is one clear line and a
documented exit code (`pivotal.cli.exitcodes`); a traceback only appears with
PIVOTAL_DEBUG=1. Which commands there are, and their parsers, is
`pivotal.cli.commands`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from pivotal import __version__
from pivotal.cli.arguments import UsageError
from pivotal.cli.commands import COMMANDS, HELP_OPTIONS, command_parser, top_help
from pivotal.cli.exitcodes import BatchDone, ExitCode, exit_now
from pivotal.cli.output import GuardedOutput, OutputError, err, output_failed, silence_stdout


def _dispatch(argv: Sequence[str], *, ends_process: bool) -> None:
    args = list(argv)
    if args and args[0] in HELP_OPTIONS:
        sys.stdout.write(top_help())
        return
    if args and args[0] == "--version":
        print(f"pivotal {__version__}")
        return
    if not args or args[0] not in COMMANDS:
        if args and not args[0].startswith("-") and not _a_path(args[0]):
            # `pivotal bogus-cmd`: a mistyped command as much as a missing path
            err(f"{args[0]}: unknown command or path (commands: {', '.join(COMMANDS)})")
            raise SystemExit(ExitCode.NOT_FOUND)
        args = ["replay", *args]  # `pivotal PATH` is `pivotal replay PATH`; alone: the picker
    parser = command_parser(args[0])
    parser.set_defaults(ends_process=ends_process)
    # intermixed: options may come after the paths, as in `pivotal scan a.jsonl --json b.jsonl`
    namespace = parser.parse_intermixed_args(args[1:])
    namespace.handler(namespace)


def _a_path(text: str) -> bool:
    """A path that exists, or a `CONTAINER#KEY` whose container does (`pivotal PATH#KEY` is
    `pivotal replay PATH#KEY`, as the plain path is)."""
    if os.path.lexists(text):
        return True
    if "#" not in text:
        return False
    from pathlib import Path

    from pivotal.cli.resolve import split_label

    return split_label(Path(text))[1] is not None


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
        from pivotal.text.safe import clean

        print(
            f"{exc.prog}: error: {clean(exc.message)} (see {exc.prog} --help)",
            file=sys.stderr,
            flush=True,
        )
        return ExitCode.USAGE, False
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED, False
    except OutputError as exc:  # disk full, stdout closed: not a bug in pivotal
        return output_failed(exc), False
    except BrokenPipeError:
        silence_stdout()
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
    """
    argv = sys.argv[1:]
    if sys.stderr is None:  # `2>&-`: diagnostics have nowhere to go, never onto stdout
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115  (lives as long as the process)
    if _headless(argv):  # the replayer owns the terminal; everything else writes data
        sys.stdout = GuardedOutput(sys.stdout)  # type: ignore[assignment]
    code, batch = _run(argv, ends_process=True)
    code = _flush_output(code)
    if batch:
        exit_now(code)
    raise SystemExit(code)


def _headless(argv: Sequence[str]) -> bool:
    """Whether `pivotal ARGV` prints data (every command but the replayer's two)."""
    if not argv:
        return False
    if argv[0] in (*HELP_OPTIONS, "--version"):
        return True
    return argv[0] in COMMANDS and argv[0] not in ("replay", "follow")


def _flush_output(code: int) -> int:
    """Flush what is still buffered, so a full disk is reported, not lost at shutdown."""
    try:
        sys.stdout.flush()
    except OutputError as exc:
        return output_failed(exc)
    except BrokenPipeError:
        silence_stdout()
    except (OSError, ValueError):
        pass
    return code
