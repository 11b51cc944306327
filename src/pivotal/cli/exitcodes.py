"""The exit codes of every pivotal command (documented in docs/errors.md)."""

from __future__ import annotations

import os
import sys
from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0
    """Everything asked for was read (malformed lines inside a session are reported, not fatal)."""
    INTERNAL = 1
    """A bug in pivotal: one line on stderr (set PIVOTAL_DEBUG=1 for the traceback)."""
    USAGE = 2
    """Wrong options or arguments."""
    NO_SESSIONS = 3
    """A path exists but holds nothing pivotal can read (unknown format, empty file or folder)."""
    NOT_FOUND = 4
    """A path does not exist."""
    UNREADABLE = 5
    """A path exists but cannot be read (permission denied, I/O error, locked/corrupt database)."""
    INTERRUPTED = 130
    """Stopped with Ctrl+C."""


PROBLEM_CODES = {
    "missing": ExitCode.NOT_FOUND,
    "permission": ExitCode.UNREADABLE,
    "unreadable": ExitCode.UNREADABLE,
    "empty": ExitCode.NO_SESSIONS,
    "unknown": ExitCode.NO_SESSIONS,
}


def worst(codes: list[ExitCode]) -> ExitCode:
    """One code for several paths: the first failure in order of severity."""
    for code in (ExitCode.UNREADABLE, ExitCode.NOT_FOUND, ExitCode.NO_SESSIONS):
        if code in codes:
            return code
    return ExitCode.OK


class BatchDone(SystemExit):
    """A batch command (`scan`) finished: the console entry ends the process at once.

    Such a command leaves a big heap behind (the turn index of every session it
    read); freeing it object by object at interpreter shutdown costs ~40 ms on a
    100 MB session, a third of the scan itself. `exit_now` flushes the output and
    lets the OS reclaim the memory in one go. Only the console entry acts on it;
    anything else (tests, embedding) sees an ordinary SystemExit.
    """


def exit_now(code: int) -> None:
    """Flush stdout and stderr and end the process without the shutdown walk."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`): nothing more can be said
            pass
    os._exit(int(code))
