"""What every command prints besides its data: one clean diagnostic line on stderr.

stdout carries data, stderr diagnostics. Paths and messages may come from
untrusted file names, so every line goes through `pivotal.text.safe.clean`.
"""

from __future__ import annotations

import os
import sys


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


def silence_stdout() -> None:
    """Point stdout at /dev/null: the reader went away (`| head`), nothing more can be said."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (captured in-process)
        pass
