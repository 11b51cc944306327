"""opencode >= 1.2: sessions in a SQLite database (`opencode.db`, `opencode-<channel>.db`).

The database is in WAL mode and opencode may be writing it while we read, so
every poll opens a short read-only connection, reads inside one transaction
and closes it. Nothing here writes, locks for writing or checkpoints:

* a WAL database with no `-wal` file next to it, or an empty one and no `-shm`
  (what a copy or a `sqlite3` probe leaves), has every committed row in the main
  file: it is opened `immutable=1`, which creates no `-wal`/`-shm` files in the
  user's directory (`mode=ro` would create the `-shm`);
* a `-wal` holding rows with no `-shm`, and a WAL database that a writer in
  `locking_mode=EXCLUSIVE` keeps to itself, are read from a private copy
  (`opencode_private`);
* otherwise `mode=ro` (it shares opencode's `-shm` and sees fresh rows); if that
  cannot open (e.g. no `-shm` and a read-only directory) it falls back to
  `immutable=1` and says that live updates may be missed.

A rollback-journal database locked by a writer is not read: `immutable=1` would
read it mid-write. That is "locked; try again".

Parts are upserted in place while they stream, so each poll re-reads the rows
whose `time_updated` is at or after the newest one seen and re-derives only
the turns they belong to.

A batch read (`scan`, an export, the replayer) keeps of each part only what the
turns' index needs (`opencode_convert.index_part`): a turn's parts are read again
from its rows when asked for (by their ids, through one read-only connection
opened as above), so a 1 GB database is not held in memory. A row changed since
gives its turn no parts until the reader reads the database again. A followed
session keeps its parts.
"""

from __future__ import annotations

import _thread
import os
import sqlite3
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pivotal.model import Part, SessionRef, Turn
from pivotal.readers.base import (
    SQLITE_MAGIC,
    Update,
    decode_json,
    parse_timestamp,
    shown_name,
    source_gone,
)
from pivotal.readers.lazy_items import PartsCache
from pivotal.readers.opencode_base import FORMAT, OpencodeReader
from pivotal.readers.opencode_convert import (
    build_shell_turn,
    build_turn,
    index_info,
    index_part,
)
from pivotal.readers.opencode_private import needs_private_copy, private_copy

BUSY_TIMEOUT_S = 2.0
WAL_LOCK_WAIT_S = 0.25
"""A WAL reader is kept out only by a recovery (milliseconds) or by a writer in exclusive
locking mode (for as long as it runs): this long tells the two apart."""
REQUIRED_TABLES = frozenset({"session", "message", "part"})
IDS_PER_QUERY = 500
"""Part ids asked for in one query (older SQLite allows 999 variables)."""
FALLBACK_NOTICE = (
    "opened the opencode database immutable (read-only directory?): live updates may be missed"
)


def _uri(path: Path, mode: str) -> str:
    from urllib.parse import quote

    return f"file:{quote(str(path.absolute()))}?{mode}"


def _is_wal(path: Path) -> bool:
    """Header bytes 18/19 are 2 for a WAL-mode database."""
    with open(path, "rb") as handle:
        head = handle.read(20)
    return len(head) == 20 and head[18] == 2


def _connect(uri: str) -> sqlite3.Connection:
    # any thread may use it (one at a time): a batch read's turns are read by the UI's
    # and the detector's threads
    conn = sqlite3.connect(
        uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA query_only = 1")
    return conn


def open_readonly(
    path: Path, wait: float = BUSY_TIMEOUT_S
) -> tuple[sqlite3.Connection, str | None]:
    """A read-only connection that creates no files beside `path`, plus a notice.

    A rollback-journal database's "database is locked" is raised, not worked around:
    `immutable=1` would read it mid-write, and show stale or half-written rows.
    `wait` is how long such a lock is waited for (sniffing waits for none). A WAL
    database is read from a private copy when it is locked: only a writer in
    exclusive locking mode keeps WAL readers out for longer than a recovery.
    """
    if needs_private_copy(path):
        return _private(path), None
    wal_db = _is_wal(path)
    if wal_db and _main_file_holds_all(path):
        return _connect(_uri(path, "immutable=1")), None
    try:
        conn = _connect(_uri(path, "mode=ro"))
    except sqlite3.OperationalError:
        return _connect(_uri(path, "immutable=1")), FALLBACK_NOTICE
    timeout = min(wait, WAL_LOCK_WAIT_S) if wal_db else wait
    try:
        if timeout != BUSY_TIMEOUT_S:
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        if timeout != BUSY_TIMEOUT_S:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        return conn, None
    except sqlite3.OperationalError as exc:
        conn.close()
        if is_locked(exc):
            if wal_db:
                return _private(path), None
            raise locked_error(path) from exc
        return _connect(_uri(path, "immutable=1")), FALLBACK_NOTICE


def _main_file_holds_all(path: Path) -> bool:
    """A WAL database with no frames beside it: no `-wal`, or an empty one and no `-shm`.

    With a `-shm` an empty `-wal` may be opencode's own, about to grow: that is read
    in place (`mode=ro`) to see its rows as they come."""
    try:
        wal = os.stat(f"{path}-wal").st_size
    except FileNotFoundError:
        return True
    return wal == 0 and not os.path.lexists(f"{path}-shm")


def _private(path: Path) -> sqlite3.Connection:
    return _connect(_uri(private_copy(path), "mode=ro"))


def is_locked(exc: sqlite3.Error) -> bool:
    text = str(exc)
    return "locked" in text or "busy" in text


def locked_error(path: Path) -> sqlite3.OperationalError:
    return sqlite3.OperationalError(
        f"{path.name} is locked by another program (waited {BUSY_TIMEOUT_S:g} s); try again"
    )


@contextmanager
def reading(
    path: Path, wait: float = BUSY_TIMEOUT_S
) -> Iterator[tuple[sqlite3.Connection, str | None]]:
    """One consistent read transaction; the connection is always closed."""
    conn, notice = open_readonly(path, wait)
    try:
        conn.execute("BEGIN")
        try:
            yield conn, notice
        finally:
            conn.execute("COMMIT")
    finally:
        conn.close()


def table_names(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def sniff_db(path: Path, head: bytes) -> bool:
    """A SQLite file holding opencode's session/message/part tables.

    The schema's DDL text in the file's first pages decides without opening it
    (no busy wait on a locked database); otherwise SQLite is asked. A locked
    SQLite file is taken: the reader then says it is locked, not "unknown format".
    """
    if not head.startswith(SQLITE_MAGIC):
        return False
    if all(f"CREATE TABLE `{name}`".encode() in head for name in REQUIRED_TABLES):
        return True
    try:
        with reading(path, wait=0) as (conn, _):
            return REQUIRED_TABLES <= table_names(conn)
    except sqlite3.OperationalError as exc:
        # locked: cannot look inside now; listing its sessions will say so ("try again")
        return is_locked(exc)
    except (sqlite3.Error, OSError):
        return False


_SESSION_COLS = "id, parent_id, title, directory, time_created, time_updated"


def _text(value: Any) -> str | None:
    """A text column's value, or None when it holds NULL, a number or a BLOB."""
    return value if isinstance(value, str) and value else None


def _ref(
    path: Path, row: tuple[Any, ...], turns: int | None = None, fmt: str = FORMAT
) -> SessionRef:
    return SessionRef(
        format=fmt,
        path=path,
        key=row[0],
        session_id=row[0],
        title=_text(row[2]),
        cwd=_text(row[3]),
        started=parse_timestamp(row[4]),
        updated=parse_timestamp(row[5]),
        turns=turns,
    )


def db_refs(path: Path, fmt: str = FORMAT) -> list[SessionRef]:
    """One ref per session in the database, newest first (children are refs too).

    `fmt` names the format of the refs: forks of opencode (Kilo Code) keep its schema."""
    query = (
        f"SELECT {_SESSION_COLS}, (SELECT count(*) FROM message m WHERE m.session_id = s.id)"
        " FROM session s ORDER BY time_updated DESC, id DESC"
    )
    with reading(path) as (conn, _):  # read errors reach the caller: it says what failed
        rows = conn.execute(query).fetchall()
    # a session row without a text id cannot be selected again: nothing to list
    return [_ref(path, row[:6], row[6], fmt) for row in rows if isinstance(row[0], str)]


def _rows_by_id(
    conn: sqlite3.Connection, columns: str, table: str, sid: str, mark: Any
) -> Iterator[tuple[Any, ...]]:
    """The session's rows of `table` changed at or after `mark`, in id order, one at a time.

    No index gives that order, so SQLite sorts what the query returns: asked for the rows
    whole, it held every row's data at once (as much as the session). It sorts their rowids
    instead, and each row is read by its rowid (a table without rowids is read sorted)."""
    where = f"FROM {table} WHERE session_id = ? AND time_updated >= ? ORDER BY id"
    try:
        order = [rowid for (rowid,) in conn.execute(f"SELECT rowid {where}", (sid, mark))]
    except sqlite3.OperationalError:  # no rowid (or locked: the query below says so)
        yield from conn.execute(f"SELECT {columns} {where}", (sid, mark))
        return
    one = f"SELECT {columns} FROM {table} WHERE rowid = ?"
    for rowid in order:
        row = conn.execute(one, (rowid,)).fetchone()
        if row is not None:
            yield row


def _utf8(data: Any) -> Any:
    """A text column's value as bytes (lone surrogates kept, for `decode_json` to replace)."""
    return data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data


def _sql_type(value: Any) -> str:
    """How a user would name what SQLite returned."""
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return "a BLOB"
    if isinstance(value, str):
        return "text"
    return "a number"


class DbReader(OpencodeReader):
    """One session of an opencode SQLite database, read incrementally."""

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._seen_msg: dict[str, tuple[int, int]] = {}
        self._seen_part: dict[str, tuple[int, int]] = {}
        self._msg_mark = -1
        self._part_mark = -1
        self._ident: tuple[int, int] | None = None
        self._notified: set[str] = set()
        self._broken: str | None = None
        self._bad_rows: set[tuple[str, str, str, str]] = set()
        """Rows of the wrong shape already reported (they match every poll's query)."""
        self._lazy: bool | None = None
        """Set by the first poll: a batch read keeps an index and reads parts again."""
        self._cache = PartsCache()
        self._conn: sqlite3.Connection | None = None
        """The connection a batch read's turns read their parts through (opened when first
        asked; no transaction stays open on it)."""
        self._conn_lock = _thread.allocate_lock()
        self._loader = self._load_parts  # one bound method for every turn

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        path = self.ref.path
        skipped_before = len(self.session.skipped)
        if self._lazy is None:
            self._lazy = final
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return source_gone(path)
        except OSError as exc:
            reason = f"cannot read {shown_name(path)}: {exc.strerror or exc}"
            return self._fail(reason, skipped_before)
        notices: list[str] = []
        ident = (st.st_dev, st.st_ino)
        replaced = self._ident is not None and ident != self._ident
        reloaded = False
        try:
            with reading(path) as (conn, notice):
                if notice:
                    notices.append(notice)
                if replaced:
                    reloaded = True
                    notices.append(f"{shown_name(path)} was replaced; reloaded")
                    self._reset()
                self._ident = ident
                gone = self._read(conn)
                if not gone and self._reload_needed(conn):
                    reloaded = True
                    notices.append("messages were deleted (revert?); reloaded")
                    self._reset()
                    self._read(conn)
        except sqlite3.OperationalError as exc:
            if is_locked(exc):
                if final:  # a batch read would show stale or no rows as if that were all
                    raise locked_error(path) from exc
                return Update()  # opencode holds a lock longer than our timeout: retry next poll
            reason = f"{shown_name(path)}: cannot read opencode database ({exc})"
            return self._fail(reason, skipped_before)
        except (sqlite3.Error, OSError) as exc:
            return self._fail(
                f"{shown_name(path)}: not a readable opencode database ({exc})", skipped_before
            )
        self._broken = None
        self.rebuild()
        self.finish_meta()
        fresh = [n for n in notices if n not in self._notified or n.endswith("reloaded")]
        self._notified.update(fresh)
        self.session.notices.extend(fresh)
        return Update(
            first_changed=self.take_first_changed(),
            reloaded=reloaded,
            notice="; ".join(fresh) or None,
            new_skipped=len(self.session.skipped) - (0 if reloaded else skipped_before),
            gone=gone,
        )

    def _fail(self, reason: str, skipped_before: int) -> Update:
        """Report an unreadable source once (not on every poll); keep what was read."""
        if reason != self._broken:
            self._broken = reason
            self.skip(None, reason)
            self.session.notices.append(reason)
            return Update(notice=reason, new_skipped=len(self.session.skipped) - skipped_before)
        return Update()

    def _reset(self) -> None:
        self.forget()
        self._cache.clear()
        self._bad_rows.clear()
        self._seen_msg.clear()
        self._seen_part.clear()
        self._msg_mark = self._part_mark = -1

    def _reload_needed(self, conn: sqlite3.Connection) -> bool:
        """Rows we saw were deleted (opencode deletes messages on revert)."""
        sid = self.ref.key
        (messages,) = conn.execute(
            "SELECT count(*) FROM message WHERE session_id = ?", (sid,)
        ).fetchone()
        (parts,) = conn.execute("SELECT count(*) FROM part WHERE session_id = ?", (sid,)).fetchone()
        return messages < len(self._seen_msg) or parts < len(self._seen_part)

    def _read(self, conn: sqlite3.Connection) -> bool:
        """Read new and changed rows; True when the session row no longer exists.

        The watermarks move only once every row was handled: rows come in id order,
        not time order, so moving them row by row could pass over rows a failed
        read never reached."""
        sid = self.ref.key
        missing = REQUIRED_TABLES - table_names(conn)
        if missing:
            raise sqlite3.DatabaseError(f"no {', '.join(sorted(missing))} table")
        row = conn.execute(f"SELECT {_SESSION_COLS} FROM session WHERE id = ?", (sid,)).fetchone()
        if row is None:
            if self._seen_msg:
                return True  # deleted while we follow it: keep what was read
            if sid is None:
                raise sqlite3.DatabaseError("no session selected (ref has no key)")
            raise sqlite3.DatabaseError(f"no session {sid}")
        self.set_meta(dict(zip(_SESSION_COLS.split(", "), row, strict=True)))
        self._read_children(conn, sid)
        msg_mark, part_mark = self._msg_mark, self._part_mark
        for mid, updated, data in _rows_by_id(
            conn, "id, time_updated, data", "message", sid, self._msg_mark
        ):
            if not self._row_ok("message", mid, updated, mid):
                continue
            msg_mark = max(msg_mark, updated)
            stamp = (updated, hash(data))
            if self._seen_msg.get(mid) == stamp:
                continue
            info = self._decode(data, f"message {mid}")
            if info is not None:
                self.put_message(mid, index_info(info) if self._lazy else info)
            self._seen_msg[mid] = stamp  # only now: a failed read retries the row
        for pid, mid, updated, data in _rows_by_id(
            conn, "id, message_id, time_updated, data", "part", sid, self._part_mark
        ):
            if not self._row_ok("part", pid, updated, mid):
                continue
            part_mark = max(part_mark, updated)
            stamp = (updated, hash(data))
            if self._seen_part.get(pid) == stamp:
                continue
            part = self._decode(data, f"part {pid}")
            if part is not None:
                if self._lazy:
                    assistant = self._infos.get(mid, {}).get("role") == "assistant"
                    part = index_part(part, assistant)
                self.put_part(mid, pid, part)
            self._seen_part[pid] = stamp
        self._msg_mark, self._part_mark = msg_mark, part_mark
        return False

    def _row_ok(self, table: str, row_id: Any, updated: Any, message_id: Any) -> bool:
        """A row whose id, message id and time_updated have the types opencode writes.

        SQLite keeps whatever was stored (text or a BLOB in an integer column, NULL
        in a text primary key): such a row is skipped and reported once, not compared
        with numbers (TypeError) nor keyed by a BLOB.
        """
        problem = None
        if not isinstance(row_id, str):
            problem = f"its id is {_sql_type(row_id)}"
        elif not isinstance(message_id, str):
            problem = f"its message id is {_sql_type(message_id)}"
        elif isinstance(updated, bool) or not isinstance(updated, int | float):
            problem = f"time_updated is {_sql_type(updated)}, not a number"
        elif updated != updated:  # NaN never compares: it would be re-read forever
            problem = "time_updated is not a number"
        if problem is None:
            return True
        shown = row_id if isinstance(row_id, str) else _sql_type(row_id)
        key = (table, repr(row_id), repr(updated), repr(message_id))
        if key not in self._bad_rows:
            self._bad_rows.add(key)
            self.skip(None, f"{table} {shown}: {problem}")
        return False

    def _decode(self, data: Any, what: str) -> dict[str, Any] | None:
        data = _utf8(data)
        if not isinstance(data, bytes):
            self.skip(None, f"{what}: data is not JSON text")
            return None
        try:
            value = decode_json(data)
        except ValueError as exc:
            self.skip(None, f"{what}: malformed JSON ({exc})")
            return None
        if not isinstance(value, dict):
            self.skip(None, f"{what}: data is not a JSON object")
            return None
        return value

    def made(self, turn: Turn) -> Turn:
        """A batch read keeps the turn's index fields; its parts are read again."""
        if self._lazy:
            turn._parts = None
            turn._loader = self._loader
        return turn

    def _load_parts(self, turn: Turn) -> list[Part]:
        """A lazy turn's parts, built by `build_turn` (or `build_shell_turn`) of its rows as
        they are now: none when one of them changed or went since it was read."""
        message_id = turn.message_id
        info = self._infos.get(message_id) if message_id is not None else None
        if message_id is None or info is None:
            return []
        run = self._run_of.get(message_id)
        ids = sorted(self._parts.get(run or message_id, {}))
        stamps = tuple(self._seen_part.get(pid) for pid in ids)
        key = (message_id, run, stamps)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        rows = self._rows(ids) if ids else {}
        if rows is None or [rows.get(pid, (None,))[0] for pid in ids] != list(stamps):
            return []
        try:
            records = [decode_json(_utf8(rows[pid][1])) for pid in ids]
        except ValueError:
            return []
        if not all(isinstance(record, dict) for record in records):
            return []
        built = build_shell_turn if run is not None else build_turn
        parts = built(message_id, info, records).parts  # type: ignore[arg-type]
        self._cache.put(key, parts, sum(len(rows[pid][1]) for pid in ids))
        return parts

    def close(self) -> None:
        """Close the parts' connection (a lazy turn asked for later opens another)."""
        with self._conn_lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _rows(self, ids: list[str]) -> dict[str, tuple[tuple[Any, int], Any]] | None:
        """Each part row's stamp (as `_read` made it) and data, by id; None when the
        database cannot be read now."""
        found: dict[str, tuple[tuple[Any, int], Any]] = {}
        with self._conn_lock:
            try:
                if self._conn is None:
                    self._conn, _ = open_readonly(self.ref.path)
                    weakref.finalize(self, self._conn.close)  # closed with the reader
                for start in range(0, len(ids), IDS_PER_QUERY):
                    some = ids[start : start + IDS_PER_QUERY]
                    marks = ",".join("?" * len(some))
                    for pid, updated, data in self._conn.execute(
                        f"SELECT id, time_updated, data FROM part WHERE id IN ({marks})", some
                    ):
                        found[pid] = ((updated, hash(data)), data)
            except (sqlite3.Error, OSError):
                if self._conn is not None:
                    self._conn.close()
                self._conn = None
                return None
        return found

    def _read_children(self, conn: sqlite3.Connection, sid: str) -> None:
        rows = conn.execute(
            f"SELECT {_SESSION_COLS} FROM session WHERE parent_id = ? ORDER BY time_created, id",
            (sid,),
        ).fetchall()
        self.session.children = [
            _ref(self.ref.path, row, fmt=self.format) for row in rows if isinstance(row[0], str)
        ]
