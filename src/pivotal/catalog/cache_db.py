"""A SQLite file of pivotal's own in the cache folder: opened, stamped and recovered alike.

The session listing's index (`index.py`) and the search index (`search_index.py`)
are both caches that any version of pivotal may find, several processes may open
at once, and a crash or a full disk may damage. So both open their file the same
way: in WAL mode with a busy timeout, retried while another process creates it;
emptied to the current shape when another version of the code wrote it (the
`code` row of its `meta` table); and, when SQLite says the file is damaged,
renamed aside to `<name>.corrupt*` and opened afresh. What each keeps in it, and
the one-line error its callers see, stay its own.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = [
    "Transaction",
    "code_of",
    "connect",
    "from_db",
    "is_corrupt",
    "open_recovering",
    "rebuild",
    "set_aside",
    "to_db",
]

_CORRUPT_CODES = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
T = TypeVar("T")


def open_recovering(
    path: Path, opener: Callable[[Path], T], timeout: float, unavailable: type[Exception]
) -> T:
    """`opener(path)`, retried while another process creates or converts the file; a damaged
    file is set aside and opened afresh. Any other failure raises `unavailable(one line)`."""
    try:
        return _patiently(path, opener, timeout)
    except sqlite3.DatabaseError as exc:
        if not is_corrupt(exc):
            raise unavailable(f"cannot use {path} ({exc})") from exc
        set_aside(path, unavailable)
    try:
        return opener(path)
    except sqlite3.Error as exc:
        raise unavailable(f"cannot use {path} ({exc})") from exc


def _patiently(path: Path, opener: Callable[[Path], T], timeout: float) -> T:
    """Switching a new file to WAL and the first schema write need an exclusive lock that
    SQLite reports as "database is locked" at once instead of waiting for the busy
    timeout, so two processes started together retry here."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return opener(path)
        except sqlite3.OperationalError as exc:
            busy = "locked" in str(exc) or "busy" in str(exc)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def connect(
    path: Path, timeout: float, stamp: str, reset: Callable[[sqlite3.Connection], None], **kw: bool
) -> sqlite3.Connection:
    """The file in WAL mode, emptied by `reset` (and stamped) unless `stamp` made it.

    `kw` goes to `sqlite3.connect` (`check_same_thread`)."""
    conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None, **kw)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        if code_of(conn) != stamp:
            rebuild(conn, stamp, reset)
        return conn
    except BaseException:
        conn.close()
        raise


def code_of(conn: sqlite3.Connection) -> str | None:
    """The code stamp the file was built with (None for a new or foreign file)."""
    try:
        row = conn.execute("SELECT value FROM meta WHERE name = 'code'").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None
        raise
    return row[0] if row else None


def rebuild(
    conn: sqlite3.Connection, stamp: str, reset: Callable[[sqlite3.Connection], None]
) -> None:
    """Empty tables of the current shape (`reset` drops and creates them, `meta` included),
    stamped: a new file, or one another version wrote. One process does it; the others,
    waiting on the lock, find it done."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if code_of(conn) != stamp:
            reset(conn)
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('code', ?)", (stamp,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def is_corrupt(exc: sqlite3.Error) -> bool:
    """SQLite says the file is damaged or is no database at all."""
    name = getattr(exc, "sqlite_errorname", None)
    if name is not None:
        return name in _CORRUPT_CODES
    text = str(exc)
    return "not a database" in text or "malformed" in text


def set_aside(path: Path, unavailable: type[Exception]) -> None:
    """Rename a damaged file (and its WAL files) to `<name>.corrupt*`, replacing older ones."""
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        try:
            os.replace(source, Path(f"{path}.corrupt{suffix}"))
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise unavailable(f"cannot set aside damaged {path} ({exc})") from exc


def to_db(value: object) -> object:
    """A value SQLite can store: text that is not UTF-8 becomes a BLOB of its bytes.

    A file name that is not UTF-8 decodes to lone surrogates (`surrogateescape`),
    and JSON can carry lone `\\ud800` escapes into titles; SQLite only takes
    valid UTF-8 text. `surrogatepass` keeps every such string exact both ways.
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogatepass")
    return value


def from_db(value: Any) -> Any:
    """What `to_db` stored, as it was."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogatepass")
    return value


class Transaction:
    """`with`: BEGIN IMMEDIATE … COMMIT, rolled back on any error; a SQLite error comes out
    as `fail(error)`, the caller's one-line exception."""

    def __init__(self, conn: sqlite3.Connection, fail: Callable[[sqlite3.Error], Exception]):
        self._conn = conn
        self._fail = fail

    def __enter__(self) -> None:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._fail(exc) from exc

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if exc is None:
            try:
                self._conn.execute("COMMIT")
                return
            except sqlite3.Error as error:
                exc = error
        try:
            self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        if isinstance(exc, sqlite3.Error):
            raise self._fail(exc) from exc
