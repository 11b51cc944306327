"""What to watch while following a session, and a cheap fingerprint of it.

A session file is watched through its directory, not the file itself: an
agent (or a log rotation) may replace, delete and re-create the file, and a
watch on the old inode would go quiet. SQLite sessions (opencode) change in
their `-wal` / `-journal` sidecar long before the main file, so those names
count too. A session stored as a directory tree is watched recursively.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SIDECARS = ("-wal", "-journal")

Fingerprint = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class WatchTarget:
    """A directory to watch and the file names in it that matter (None = all)."""

    directory: Path
    names: frozenset[str] | None = None
    recursive: bool = False

    def matches(self, path: str) -> bool:
        """True when a change notification for `path` concerns this target."""
        if self.names is None:
            return True
        parent, _, name = path.rpartition(os.sep)
        return name in self.names and parent == str(self.directory)

    def files(self) -> list[Path]:
        if self.names is None:
            return [self.directory]
        return [self.directory / name for name in sorted(self.names)]


def target_for(path: Path) -> WatchTarget:
    """The watch target of a session stored at `path` (a file or a directory).

    A symlink is resolved: writes happen where the file really lives.
    """
    path = Path(os.path.realpath(path))
    if path.is_dir():
        return WatchTarget(path, None, True)
    names = frozenset({path.name, *(path.name + suffix for suffix in SIDECARS)})
    return WatchTarget(path.parent, names, False)


def fingerprint(target: WatchTarget) -> Fingerprint:
    """Identity, size and mtime of every file of `target`; changes whenever they do.

    Used by the polling fallback (no notifications) and by the periodic safety
    check. For a directory target it walks the tree, which is only acceptable
    because directory sessions are small and rare.
    """
    if target.names is None:
        return _tree_fingerprint(target.directory)
    return tuple(_stat(path) for path in target.files())


def directory_identity(target: WatchTarget) -> tuple[int, int] | None:
    """(device, inode) of the watched directory, None when it is missing."""
    try:
        st = os.stat(target.directory)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _stat(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _tree_fingerprint(root: Path) -> Fingerprint:
    items: list[object] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames):
            items.append((dirpath, name, _stat(Path(dirpath, name))))
    return tuple(items)
