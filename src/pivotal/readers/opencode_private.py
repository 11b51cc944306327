"""A private copy of an opencode database that cannot be read in place without a trace.

A WAL database whose `-wal` holds rows but has no `-shm` beside it (a copy, a
backup, a crash) is open nowhere, yet SQLite would create the `-shm` wal-index
next to the user's file to read it, and `immutable=1` ignores the `-wal`, so
its newest rows would be missing. Instead the two files are copied into a
private temporary folder (0700, removed at exit) and read there. The copy is
made again only when the originals change (size, mtime or inode).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

_Signature = tuple[tuple[int, int, int], ...]
_copies: dict[str, tuple[_Signature, Path]] = {}
_folder: Path | None = None
ATTEMPTS = 3


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
        shutil.copyfile(f"{path}-wal", f"{target}-wal")
        if _signature(path) == before:  # nothing wrote meanwhile: a consistent pair
            if cached is not None:
                shutil.rmtree(cached[1].parent, ignore_errors=True)
            _copies[key] = (before, target)
            return target
        shutil.rmtree(target.parent, ignore_errors=True)
    raise OSError(f"{path.name} kept changing while it was copied")


def _signature(path: Path) -> _Signature:
    stats = (os.stat(path), os.stat(f"{path}-wal"))
    return tuple((st.st_size, st.st_mtime_ns, st.st_ino) for st in stats)


def _private_folder() -> Path:
    global _folder
    if _folder is None:
        _folder = Path(tempfile.mkdtemp(prefix="pivotal-db-"))
        atexit.register(shutil.rmtree, _folder, ignore_errors=True)
    return _folder
