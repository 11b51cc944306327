"""The argument parser every command shares: argparse that reports usage errors as one line.

`Parser` raises `UsageError` instead of printing usage and exiting by itself, so
`pivotal.cli.dispatch` can say what was wrong in one line with exit code 2. The
helpers add the options several commands take (`--root`, `--sensitivity`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

SENSITIVITIES = ("low", "normal", "high")
SESSION_PATH = "a session file, a folder of sessions, or a database"


def sensitivity(value: str) -> str:
    """A level (low / normal / high) or a number in [0, 1], as `PivotConfig` takes them."""
    if value.strip().lower() in SENSITIVITIES:
        return value.strip().lower()
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(
            f"{value!r}: use low, normal, high, or a number from 0 to 1"
        )
    return value


def positive_limit(text: str) -> int:
    """`--limit N` (`sessions`, `search`): a whole number, 1 or more. 0 is refused, not
    obeyed: printing nothing and saying nothing read as "no sessions" or "no match"."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


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


def usable_roots(roots: list[Path], codes: list[Any]) -> list[Path]:
    """The `--root` folders that are folders; each other one said on stderr, its exit code
    (no sessions for a file, not found for nothing) added to `codes`."""
    from pivotal.cli.exitcodes import ExitCode
    from pivotal.cli.output import err

    usable = []
    for root in roots:
        if os.path.isdir(root):
            usable.append(root)
        else:
            exists = os.path.lexists(root)
            err(f"{root}: {'not a folder' if exists else 'no such file or directory'}")
            codes.append(ExitCode.NO_SESSIONS if exists else ExitCode.NOT_FOUND)
    return usable


def add_sensitivity(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    parser.add_argument(
        "--sensitivity",
        type=sensitivity,
        default="normal",
        metavar="{low,normal,high,0-1}",
        help=help_text
        or "How readily a silence counts as a pivot: low, normal (the default), high, or a "
        "number from 0 (only the surest) to 1 (every silence the rules let through).",
    )


def add_key(parser: argparse.ArgumentParser, argument: str = "SESSION") -> None:
    """`--key`; its help names the command's own argument (`SESSION`, `PATH`, `a PATH`),
    which is what the person reads in the usage line just above it."""
    parser.add_argument(
        "--key",
        default=None,
        metavar="KEY",
        help=f"Which session (its key or id), when {argument} holds several.",
    )
