"""A private copy of an opencode database that cannot be read in place without a trace.

Two cases need one:

* a `-wal` that holds rows with no `-shm` beside it (a copy, a backup, a crash):
  SQLite would create the `-shm` wal-index next to the user's file to read it,
  and `immutable=1` ignores the `-wal`, so its newest rows would be missing;
* a WAL database held by a writer in `locking_mode=EXCLUSIVE`: no other
  connection may read it in place, however long it waits.

Instead the database and its `-wal` (when it has one with frames) are copied
into a private temporary folder (0700, removed at exit) and read there: SQLite
builds the copy's wal-index from the `-wal`, and keeps only whole committed
transactions, so a copy taken while a writer appends is a consistent one. The
copy is made again only when the originals change (size, mtime or inode). A pivotal
killed before its exit handler ran leaves its folder behind (a copy of someone's
sessions, maybe hundreds of MB): the folder's name holds the process id, and the
next pivotal that needs a copy removes such folders of processes that are gone.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import time
from pathlib import Path
from stat import S_ISDIR

_Signature = tuple[tuple[int, int, int], ...]
_copies: dict[str, tuple[_Signature, Path]] = {}
_folder: Path | None = None
ATTEMPTS = 3
PREFIX = "pivotal-db-"
ABANDONED_AFTER = 3600.0
"""Seconds a dead process's folder must have been left alone before it is removed (a
process in another PID namespace sharing the temporary folder may look dead)."""


def needs_private_copy(path: Path) -> bool:
    """A non-empty `-wal` beside `path` with no `-shm`: reading in place would create one."""
    try:
        wal = os.stat(f"{path}-wal").st_size
    except OSError:
        return False
    return wal > 0 and not os.path.lexists(f"{path}-shm")


def private_copy(path: Path) -> Path:
    """A copy of `path` and its `-wal` that is ours to open; raises OSError when it cannot."""
    key = os.path.abspath(path)
    for _attempt in range(ATTEMPTS):
        before = _signature(path)
        cached = _copies.get(key)
        if cached is not None and cached[0] == before:
            return cached[1]
        target = Path(tempfile.mkdtemp(dir=_private_folder())) / path.name
        shutil.copyfile(path, target)
        if len(before) > 1:
            shutil.copyfile(f"{path}-wal", f"{target}-wal")
        if _signature(path) == before:  # nothing wrote meanwhile: a consistent pair
            if cached is not None:
                shutil.rmtree(cached[1].parent, ignore_errors=True)
            _copies[key] = (before, target)
            return target
        shutil.rmtree(target.parent, ignore_errors=True)
    raise OSError(f"{path.name} kept changing while it was copied")


def _signature(path: Path) -> _Signature:
    """Size, mtime and inode of the database, and of its `-wal` when that holds frames."""
    stats = [os.stat(path)]
    try:
        wal = os.stat(f"{path}-wal")
    except FileNotFoundError:
        wal = None
    if wal is not None and wal.st_size > 0:
        stats.append(wal)
    return tuple((st.st_size, st.st_mtime_ns, st.st_ino) for st in stats)


def _private_folder() -> Path:
    global _folder
    if _folder is None:
        remove_abandoned(Path(tempfile.gettempdir()))
        _folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
        atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    return _folder


def remove_abandoned(folder: Path) -> list[Path]:
    """Remove our private folders in `folder` whose process is gone; the ones removed."""
    removed = []
    try:
        entries = list(folder.glob(f"{PREFIX}*-*"))
    except OSError:
        return removed
    for entry in entries:
        pid, dash, _ = entry.name[len(PREFIX) :].partition("-")
        if not (pid.isdigit() and dash) or _alive(int(pid)):
            continue
        try:
            st = entry.lstat()
        except OSError:
            continue
        if not S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
            continue  # not a folder we made (a link, another user's)
        if time.time() - st.st_mtime < ABANDONED_AFTER:
            continue
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or a number no process can have: leave it
    return True
