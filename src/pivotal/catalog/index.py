"""A small SQLite index of what `pivotal sessions` shows, so a listing only stats files.

Counting turns and pivots means reading a whole session; with thousands of
sessions that froze pickers (Claude Code #22459, hermes-webui #4822). The index
keeps, per session file, the listing of every session it holds, keyed by
(path, key) and valid while the file's (size, mtime_ns) stamp is unchanged;
with it, which sub-agents with files of their own the read found each session
ran (`SessionRef.reaches`), so that a listing that reads nothing knows which of
those files to leave to their parents (`catalog.reach`).

It lives only in the cache directory ($PIVOTAL_CACHE_DIR, else
$XDG_CACHE_HOME/pivotal, else ~/.cache/pivotal) and is disposable: a corrupt
file is renamed aside and rebuilt, a deleted one recreated, and a version
change of the readers or the detector empties it. Two processes may list at
once: WAL journal, a busy timeout and one short write transaction per batch.
Anything that goes wrong surfaces as `IndexUnavailable`, never as a crash.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from pivotal import __version__
from pivotal.catalog.cache_db import Transaction, connect, from_db, open_recovering, to_db
from pivotal.folders import cache_dir
from pivotal.model import SessionRef
from pivotal.private import private_file, private_folder

__all__ = [
    "DB_NAME",
    "IndexUnavailable",
    "SessionIndex",
    "Stamp",
    "cache_dir",
    "file_stamp",
    "open_index",
]

DB_NAME = "sessions.sqlite3"
SCHEMA_VERSION = 4
BUSY_TIMEOUT_S = 5.0

Stamp = tuple[int, int]
"""(size, mtime_ns) of a session file; aggregated for databases and directories."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    path TEXT NOT NULL,
    key TEXT NOT NULL,
    ord INTEGER NOT NULL,
    format TEXT NOT NULL,
    session_id TEXT,
    title TEXT,
    cwd TEXT,
    started REAL,
    updated REAL,
    size INTEGER,
    turns INTEGER,
    human_turns INTEGER,
    pivots INTEGER,
    tokens INTEGER,
    cost REAL,
    cost_whole INTEGER,
    parent TEXT,
    reaches TEXT,
    PRIMARY KEY (path, key)
);
"""
_SESSION_COLS = (
    "path, key, ord, format, session_id, title, cwd, started, updated, size, turns,"
    " human_turns, pivots, tokens, cost, cost_whole, parent, reaches"
)


class IndexUnavailable(Exception):
    """The index cannot be used this time; the message is one line for the user."""


def file_stamp(path: Path) -> Stamp | None:
    """What must stay equal for a cached listing of `path` to hold; None if it is gone.

    An SQLite database also counts its `-wal` file (opencode writes there first);
    a directory (opencode's legacy storage tree) counts every file under it.
    """
    try:
        st = os.stat(path)
    except OSError:
        return None
    if os.path.isdir(path):
        return _tree_stamp(path, st.st_mtime_ns)
    size, mtime = st.st_size, st.st_mtime_ns
    if str(path).endswith(".db"):
        try:
            wal = os.stat(f"{path}-wal")
        except OSError:
            pass
        else:
            size, mtime = size + wal.st_size, max(mtime, wal.st_mtime_ns)
    return size, mtime


def _tree_stamp(root: Path, mtime: int) -> Stamp:
    size = 0
    stack = [str(root)]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    size += 1 + (0 if entry.is_dir(follow_symlinks=False) else st.st_size)
                    mtime = max(mtime, st.st_mtime_ns)
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            continue
    return size, mtime


def code_stamp(
    packages: tuple[str, ...] = ("readers", "detect", "spend"),
    extra: Iterable[Path] = (),
    salt: str = "",
) -> str:
    """A fingerprint of the code that computes a listing (readers, detector, model).

    Cached turn and pivot counts are only as good as the code that counted them,
    so an upgrade (or an edit in a development checkout) empties the index. The
    search index asks the same of its own code (`packages`, `extra` files, `salt`).
    """
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{__version__}/{SCHEMA_VERSION}{salt}".encode())
    files = [package / "model.py", package / "catalog" / "discovery.py", *extra]
    if "spend" in packages:
        files.append(package / "spend" / "prices.json")  # cached costs follow the price list
    for sub in packages:
        files.extend(sorted((package / sub).glob("*.py")))
    for file in files:
        try:
            st = file.stat()
        except OSError:
            continue
        digest.update(f"{file.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return digest.hexdigest()[:32]


class _Entry(NamedTuple):
    stamp: Stamp
    rows: tuple[tuple[object, ...], ...]
    """Database rows (path first); refs are built on lookup with the path as given."""


class SessionIndex:
    """The open index: cached listings in memory, written back in short transactions."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self._entries: dict[str, _Entry] = {}
        self._load()

    # -- reading ---------------------------------------------------------------

    def _load(self) -> None:
        rows: dict[str, list[tuple[object, ...]]] = {}
        for stored in self._conn.execute(f"SELECT {_SESSION_COLS} FROM sessions ORDER BY ord"):
            row = tuple(from_db(value) for value in stored)
            rows.setdefault(row[0], []).append(row)
        for path, size, mtime_ns in self._conn.execute("SELECT path, size, mtime_ns FROM files"):
            path = from_db(path)
            self._entries[path] = _Entry((size, mtime_ns), tuple(rows.get(path, ())))

    def __len__(self) -> int:
        return len(self._entries)

    def paths(self) -> list[str]:
        return list(self._entries)

    def lookup(self, path: Path, stamp: Stamp) -> list[SessionRef] | None:
        """The cached sessions of `path` (with `path` as given), or None when stale or unknown."""
        entry = self._entries.get(_key(path))
        if entry is None or entry.stamp != stamp:
            return None
        as_given = Path(path)
        return [_ref_from_row(row, as_given) for row in entry.rows]

    # -- writing ---------------------------------------------------------------

    def store(self, items: Iterable[tuple[Path, Stamp, list[SessionRef]]]) -> None:
        """Replace the listing of each file (an empty list caches "not a session")."""
        items = [
            (path, stamp, [_row(_key(path), n, r) for n, r in enumerate(refs)])
            for path, stamp, refs in items
        ]
        if not items:
            return
        with self._transaction():
            for path, stamp, rows in items:
                key = to_db(_key(path))
                self._conn.execute("DELETE FROM sessions WHERE path = ?", (key,))
                self._conn.execute(
                    "INSERT OR REPLACE INTO files (path, size, mtime_ns) VALUES (?, ?, ?)",
                    (key, stamp[0], stamp[1]),
                )
                self._conn.executemany(
                    f"INSERT OR REPLACE INTO sessions ({_SESSION_COLS})"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [tuple(to_db(value) for value in row) for row in rows],
                )
        for path, stamp, rows in items:
            self._entries[_key(path)] = _Entry(stamp, tuple(rows))

    def drop(self, paths: Iterable[str]) -> None:
        """Forget files (by the path the index knows them under)."""
        paths = [p for p in paths if p in self._entries]
        if not paths:
            return
        with self._transaction():
            for path in paths:
                self._conn.execute("DELETE FROM sessions WHERE path = ?", (to_db(path),))
                self._conn.execute("DELETE FROM files WHERE path = ?", (to_db(path),))
        for path in paths:
            self._entries.pop(path, None)

    def drop_missing(self, seen: set[str]) -> None:
        """Forget cached files that this listing did not find and that no longer exist.

        Files under other roots (another `--root`) stay: they were not looked for.
        """
        self.drop(p for p in self._entries if p not in seen and not os.path.lexists(p))

    def close(self) -> None:
        try:
            self._conn.close()
        except sqlite3.Error:
            pass

    def _transaction(self) -> Transaction:
        return Transaction(self._conn, _not_updated)


def _not_updated(exc: sqlite3.Error) -> IndexUnavailable:
    return IndexUnavailable(f"session cache not updated ({exc})")


def open_index(directory: Path | None = None) -> SessionIndex:
    """Open (creating, migrating or rebuilding as needed) the index in `directory`.

    Raises IndexUnavailable with a one-line reason when it cannot be used.
    """
    directory = directory if directory is not None else cache_dir()
    try:
        private_folder(directory)
    except OSError as exc:
        raise IndexUnavailable(f"cannot create {directory} ({exc.strerror or exc})") from exc
    return open_recovering(directory / DB_NAME, _open, BUSY_TIMEOUT_S, IndexUnavailable)


def _open(path: Path) -> SessionIndex:
    private_file(path)  # titles are often the first prompt: session text
    return SessionIndex(connect(path, BUSY_TIMEOUT_S, code_stamp(), _reset), path)


def _reset(conn: sqlite3.Connection) -> None:
    """The tables of this version, empty (`cache_db.rebuild`: new readers or detector)."""
    conn.execute("DROP TABLE IF EXISTS sessions")
    conn.execute("DROP TABLE IF EXISTS files")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def _key(path: Path | str) -> str:
    return os.path.abspath(path)


def _row(path: str, ordinal: int, ref: SessionRef) -> tuple[object, ...]:
    return (
        path,
        ref.key or "",
        ordinal,
        ref.format,
        ref.session_id,
        ref.title,
        ref.cwd,
        ref.started,
        ref.updated,
        ref.size,
        ref.turns,
        ref.human_turns,
        ref.pivots,
        ref.tokens,
        ref.cost,
        None if ref.cost_whole is None else int(ref.cost_whole),
        ref.parent,
        None if ref.reaches is None else "\n".join(ref.reaches),
    )


def _ref_from_row(row: tuple[Any, ...], path: Path) -> SessionRef:
    _, key, _, fmt, sid, title, cwd, started, updated, size, turns, humans, pivots = row[:13]
    tokens, cost, whole, parent, reaches = row[13:18]
    return SessionRef(
        format=fmt,
        path=path,
        key=key or None,
        session_id=sid,
        title=title,
        cwd=cwd,
        started=started,
        updated=updated,
        size=size,
        turns=turns,
        human_turns=humans,
        pivots=pivots,
        tokens=tokens,
        cost=cost,
        cost_whole=None if whole is None else bool(whole),
        parent=parent,
        reaches=None if reaches is None else tuple(r for r in reaches.split("\n") if r),
    )
