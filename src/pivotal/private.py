"""Files of pivotal's own that hold session text are for this user alone: 0600 in 0700.

The search index is a copy of every session's text, the session index keeps each
session's title (for Kimi and Cline, the first prompt), the notes store keeps the
person's notes and the sessions' titles, and a screenshot is the transcript as drawn.
On a shared machine a home folder is often 0755, so under the usual umask (022) each
of them would be readable by every user: they are made private here instead, by one
rule for all of them.

A folder of pivotal's own (its cache and data folders, `screenshots/`) is created 0700
and, when it already exists open to others (made by an older pivotal, by hand, or by
a writer of files that hold no session text), tightened to 0700. A folder the person
named with `PIVOTAL_CACHE_DIR`, `PIVOTAL_DATA_DIR` or `PIVOTAL_SCREENSHOT_DIR` is
theirs: created 0700 when missing, otherwise left as it is (it may be shared on
purpose, or be `/tmp`); the files pivotal makes in it are still 0600. What the person
writes with `export -o` is not made here: a file they name keeps the umask, as `cp`
would (`pivotal.cli.outfile`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

NAMED_FOLDERS = ("PIVOTAL_CACHE_DIR", "PIVOTAL_DATA_DIR", "PIVOTAL_SCREENSHOT_DIR")
"""The variables that name a folder the person chose: pivotal never changes its mode."""


def private_file(path: Path) -> None:
    """Create `path` 0600 before its writer does (SQLite, a screenshot), or tighten it.

    SQLite gives a database's `-wal`, `-shm` and `-journal` the mode of the database,
    so they follow. Failures are left to the writer, which says what is wrong.
    """
    try:
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:
        return
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, 0o600)
    except OSError:
        pass
    finally:
        os.close(fd)


def private_folder(folder: Path) -> None:
    """Create `folder` 0700 (its parents as the umask makes them), or tighten one of
    pivotal's own that others may enter. Raises OSError when it cannot be created."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if named_by_the_person(folder):
        return
    try:
        info = os.stat(folder)
        if info.st_mode & 0o077 and info.st_uid == os.geteuid():
            os.chmod(folder, stat.S_IMODE(info.st_mode) & 0o700)
    except OSError:
        pass  # left as it is: the files in it are still 0600


def named_by_the_person(folder: Path) -> bool:
    """`folder` is one a `PIVOTAL_*_DIR` variable names (the person's, not pivotal's)."""
    here = os.path.abspath(folder)
    for variable in NAMED_FOLDERS:
        named = os.environ.get(variable)
        if named and os.path.abspath(os.path.expanduser(named)) == here:
            return True
    return False
