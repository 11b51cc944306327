"""What a session is made of on disk, so that nothing pivotal writes ever lands on it.

A session is not always one file: Kimi, Vibe and Cline keep a folder, a database
has its `-wal`, `-shm` and `-journal`, Gemini reads its project's marker, Continue
its `sessions.json`. Each format says which files make up a session it reads
(`FormatSpec.files`), and `SessionFiles.claims` tells whether a path to be written
is one of them (or would add a file to a folder read whole), by whatever path it
is reached: a symbolic link, a hard link, `..`, `/proc/self/fd/N`, a bind mount.
Files are compared by identity (device and inode), folders by the identity of the
target's real parents, and files that do not exist yet (a `-journal`) by their
folder's identity and their name.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import msgspec

from pivotal.model import SessionRef

SQLITE_SIDECARS = ("-wal", "-shm", "-journal")
"""The files SQLite keeps beside a database: they are the database as much as it is."""

_Ident = tuple[int, int]


class SessionFiles(msgspec.Struct, frozen=True):
    """The files and folders one session is read from.

    `files` are read (or would be, by SQLite), whether or not they exist now;
    every file under one of `folders`, now or later, belongs to the session (a
    new file in a Kimi or Vibe session folder is read as part of it).
    """

    files: tuple[Path, ...] = ()
    folders: tuple[Path, ...] = ()

    def claims(self, target: Path) -> Path | None:
        """The session's file or folder that writing `target` would replace or add to,
        or None when `target` is no part of the session."""
        real = Path(os.path.realpath(target))
        ident = _ident(target)
        if ident is not None:
            for file in self.files:
                if _ident(file) == ident:
                    return file
        where = (_ident(real.parent), real.name)
        if where[0] is not None:
            for file in self.files:
                known = Path(os.path.realpath(file))
                if (_ident(known.parent), known.name) == where:
                    return file  # one that does not exist yet (a -journal, a -wal)
        folders = {i: folder for folder in self.folders if (i := _ident(folder)) is not None}
        for parent in real.parents:
            found = folders.get(_ident(parent))  # type: ignore[arg-type]
            if found is not None:
                return found
        if ident is not None and _links(target) > 1:  # a hard link from outside a folder
            for folder in folders.values():
                if ident in _idents_under(folder):
                    return folder
        return None

    def beside(self, target: Path) -> Path | None:
        """The folder of one of the session's files that `target` would be written into
        (by identity, as `claims`), or None. Not part of the session, but a file there sits
        beside it: the replayer's export never puts one there."""
        folder = _ident(Path(os.path.realpath(target)).parent)
        if folder is None:
            return None
        for file in self.files:
            parent = Path(os.path.realpath(file)).parent
            if _ident(parent) == folder:
                return parent
        return None


def _ident(path: Path) -> _Ident | None:
    """(device, inode) of what `path` names, through links; None when nothing is there."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _links(path: Path) -> int:
    try:
        return os.stat(path).st_nlink
    except (OSError, ValueError):
        return 0


def _idents_under(folder: Path) -> set[_Ident]:
    found: set[_Ident] = set()
    for dirpath, _dirs, names in os.walk(folder):
        for name in names:
            ident = _ident(Path(dirpath, name))
            if ident is not None:
                found.add(ident)
    return found


def claude_subagent_folder(path: Path) -> Path:
    """Where Claude Code (2.0.28 on) keeps the own files of the session `path`'s sub-agents
    (here, not in its reader: the search index stats it without loading that reader)."""
    return path.with_suffix("") / "subagents"


def own_files(ref: SessionRef) -> SessionFiles:
    """A session that is its path: the file, or everything in the folder."""
    if ref.path.is_dir():
        return SessionFiles(folders=(ref.path,))
    return SessionFiles(files=(ref.path,))


def database_files(path: Path) -> SessionFiles:
    """A SQLite database and the files SQLite keeps beside it."""
    return SessionFiles(files=(path, *(Path(f"{path}{s}") for s in SQLITE_SIDECARS)))


def with_files(ref: SessionRef, extra: Iterable[Path]) -> SessionFiles:
    """`own_files(ref)` plus other files the reader reads for it (a marker, an index)."""
    own = own_files(ref)
    return SessionFiles(files=(*own.files, *extra), folders=own.folders)
