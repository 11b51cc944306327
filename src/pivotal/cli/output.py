"""What every command prints besides its data: one clean diagnostic line on stderr.

stdout carries data, stderr diagnostics. Paths and messages may come from
untrusted file names, so every line goes through `pivotal.text.safe.clean`.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

MIN_WIDTH = 40
"""Narrower terminals get lines this wide (and wrap them): a table needs some room."""


def err(message: str) -> None:
    """One diagnostic line; paths in it may come from untrusted file names.

    A newline in a name is shown (`␊`), so it cannot forge a second line. With
    stderr closed (`2>&-`) the line is dropped: stdout carries data only.
    """
    from pivotal.text.safe import clean_line

    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(f"pivotal: {clean_line(message)}\n")
        stream.flush()
    except (OSError, ValueError):  # stderr closed or full: nowhere left to say it
        pass


def terminal_width(stream: Any) -> int | None:
    """The columns to fit when `stream` is a terminal (`$COLUMNS` first, as shells set it);
    None when it is a pipe or a file: then lines are printed whole."""
    try:
        if stream is None or not stream.isatty():
            return None
    except (AttributeError, OSError, ValueError):
        return None
    import shutil  # a terminal only: a scan piped into jq never loads it

    return max(shutil.get_terminal_size().columns, MIN_WIDTH)


def silence_stdout() -> None:
    """Point stdout at /dev/null: the reader went away (`| head`), nothing more can be said."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (captured in-process)
        pass


class OutputError(Exception):
    """Writing the command's output failed (disk full, stdout closed): exit 5, one line.

    Not an internal error: the output's destination refused it. A reader that went
    away (`| head`, BrokenPipeError) is not one either: that is a normal end.
    """


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno == errno.EBADF:
        return "it is closed"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


class GuardedOutput:
    """Standard output of the headless commands: a failed write raises `OutputError`.

    Wraps `sys.stdout` (None when the shell closed it with `>&-`); everything else
    is passed through to the stream underneath.
    """

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _target(self) -> Any:
        if self._stream is None:
            raise OutputError(_reason(OSError(errno.EBADF, "closed")))
        return self._stream

    def write(self, text: str) -> int:
        try:
            return self._target().write(text)
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(_reason(exc)) from None

    def flush(self) -> None:
        if self._stream is None:  # nothing was written, nothing to flush
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise OutputError(_reason(exc)) from None

    def fileno(self) -> int:
        if self._stream is None:
            raise OSError(errno.EBADF, "standard output is closed")
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def output_failed(exc: OutputError) -> int:
    """Say that the output could not be written; the exit code for it."""
    err(f"cannot write to standard output ({exc})")
    return 5  # ExitCode.UNREADABLE: the output, not a bug
