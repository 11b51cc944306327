"""The notes store's file: its schema, and what to do when it is damaged.

`salvage` reads what can still be read, table by table, then page by page.
A table SQLite can still read whole is taken as it is. For one it cannot
(a damaged page on its way), the file is read the way `sqlite3 .recover`
does: every b-tree leaf page of the file is decoded on its own, and each row
is sorted into `sessions` or `marks` by its shape (column count and types), so
one bad page costs only the rows stored on it. Pages on the freelist are left
out: they hold rows that were deleted. Nothing here writes.

File format: https://www.sqlite.org/fileformat2.html (b-tree pages, records,
overflow pages, the freelist).

`keep_copy` copies the damaged file (and its journal files) beside it before
`rebuild_in_place` writes the salvaged rows into the same file: the store is
never renamed, so another process that has it open keeps using the live file.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from pivotal.private import private_file
from pivotal.readers.base import SQLITE_MAGIC

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session_key TEXT PRIMARY KEY,
    format TEXT NOT NULL,
    path TEXT NOT NULL,
    title TEXT,
    touched REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS marks (
    session_key TEXT NOT NULL,
    source_id TEXT NOT NULL,
    turn_hint INTEGER,
    note TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (session_key, source_id)
);
"""
SIDECARS = ("-journal", "-wal", "-shm")
SESSION_COLUMNS = ("session_key", "format", "path", "title", "touched")
MARK_COLUMNS = ("session_key", "source_id", "turn_hint", "note", "created", "updated")
_LEAF_TABLE = 0x0D

Row = tuple[object, ...]


class Salvaged:
    """Rows recovered from a damaged store, and how (for the one line the user sees)."""

    def __init__(self) -> None:
        self.sessions: dict[str, Row] = {}
        self.marks: dict[tuple[str, str], Row] = {}
        self.page_scan = False
        """True when some table had to be read page by page."""

    def add_session(self, row: Row) -> None:
        old = self.sessions.get(row[0])  # type: ignore[arg-type]
        if old is None or _number(row[4]) >= _number(old[4]):
            self.sessions[row[0]] = row  # type: ignore[index]

    def add_mark(self, row: Row) -> None:
        key = (row[0], row[1])
        old = self.marks.get(key)  # type: ignore[arg-type]
        if old is None or _number(row[5]) >= _number(old[5]):
            self.marks[key] = row  # type: ignore[index]


def salvage(path: Path) -> Salvaged:
    """Every session and mark row of the store at `path` that can still be read."""
    found = Salvaged()
    readable = _read_tables(path, found)
    if readable != {"sessions", "marks"}:
        found.page_scan = True
        try:
            data = path.read_bytes()
        except OSError:
            return found
        for row in _leaf_rows(data):
            if "sessions" not in readable and _is_session(row):
                found.add_session(row)
            elif "marks" not in readable and _is_mark(row):
                found.add_mark(row)
    return found


def _read_tables(path: Path, found: Salvaged) -> set[str]:
    """The tables SQLite reads whole (their rows go into `found`)."""
    done: set[str] = set()
    try:
        db = sqlite3.connect(f"file:{quote(str(path.absolute()))}?mode=ro", uri=True, timeout=1)
    except sqlite3.Error:
        return done
    try:
        for table, columns, add, check in (
            ("sessions", SESSION_COLUMNS, found.add_session, _is_session),
            ("marks", MARK_COLUMNS, found.add_mark, _is_mark),
        ):
            try:
                rows = db.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            except sqlite3.Error:
                continue
            for row in rows:
                if check(row):
                    add(row)
            done.add(table)
    finally:
        db.close()
    return done


def _number(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _is_real(value: object) -> bool:
    # REAL columns store whole numbers as integers on disk
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_session(row: Row) -> bool:
    return (
        len(row) == len(SESSION_COLUMNS)
        and all(isinstance(v, str) for v in row[:3])
        and (row[3] is None or isinstance(row[3], str))
        and _is_real(row[4])
    )


def _is_mark(row: Row) -> bool:
    return (
        len(row) == len(MARK_COLUMNS)
        and isinstance(row[0], str)
        and isinstance(row[1], str)
        and (row[2] is None or isinstance(row[2], int))
        and isinstance(row[3], str)
        and _is_real(row[4])
        and _is_real(row[5])
    )


def check(db: sqlite3.Connection) -> None:
    """Raise sqlite3.DatabaseError unless SQLite finds the file sound."""
    row = db.execute("PRAGMA quick_check").fetchone()
    if not row or row[0] != "ok":
        raise sqlite3.DatabaseError(f"quick_check: {row[0] if row else 'no answer'}")


def memory_store(found: Salvaged) -> sqlite3.Connection:
    """An in-memory store holding the salvaged rows."""
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.executemany("INSERT INTO sessions VALUES (?,?,?,?,?)", found.sessions.values())
    db.executemany("INSERT INTO marks VALUES (?,?,?,?,?,?)", found.marks.values())
    db.commit()
    return db


def keep_copy(path: Path) -> Path:
    """Copy the damaged store (and its journal files) to `<name>.damaged-<epoch>`."""
    stamp = int(time.time())
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while os.path.lexists(kept):
        n += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    _copy_private(path, kept)
    for sidecar in SIDECARS:
        if os.path.exists(f"{path}{sidecar}"):
            _copy_private(Path(f"{path}{sidecar}"), Path(f"{kept}{sidecar}"))
    return kept


def _copy_private(source: Path, copy: Path) -> None:
    """`copy` made 0600 before a byte is written (`pivotal.private`), whatever mode `source`
    has (an older pivotal made stores 0644): the notes are session text."""
    private_file(copy)
    shutil.copyfile(source, copy)


def rebuild_in_place(path: Path, fresh: sqlite3.Connection, timeout: float) -> None:
    """Write `fresh` over the store at `path`, in the same file.

    SQLite's backup API does it under SQLite's own locks, so other connections
    see the new content on their next read. A file too damaged for SQLite to
    open at all (its header is gone) cannot be in use: its bytes are replaced,
    and a journal that would be rolled back onto the new content is removed
    (its copy was kept).
    """
    try:
        target = sqlite3.connect(path, timeout=timeout)
        try:
            fresh.backup(target)
        finally:
            target.close()
        return
    except sqlite3.OperationalError:
        raise
    except sqlite3.DatabaseError:
        pass
    image = fresh.serialize()
    for sidecar in SIDECARS:
        try:
            os.unlink(f"{path}{sidecar}")
        except FileNotFoundError:
            pass
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.write(image)
        handle.flush()
        os.fsync(handle.fileno())


# -- reading pages -----------------------------------------------------------------


class _File:
    """The page geometry of a database image (from its header, else SQLite's defaults)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        size, reserved, encoding = 4096, 0, "utf-8"
        if data.startswith(SQLITE_MAGIC) and len(data) >= 100:
            raw = struct.unpack(">H", data[16:18])[0]
            raw = 65536 if raw == 1 else raw
            if 512 <= raw <= 65536 and raw & (raw - 1) == 0:
                size, reserved = raw, data[20]
            text_encoding = struct.unpack(">I", data[56:60])[0]
            encoding = {2: "utf-16-le", 3: "utf-16-be"}.get(text_encoding, "utf-8")
        self.page_size = size
        self.usable = size - reserved
        self.encoding = encoding
        self.pages = len(data) // size

    def page(self, number: int) -> bytes:
        start = (number - 1) * self.page_size
        return self.data[start : start + self.page_size]

    def freelist(self) -> set[int]:
        """Pages on the freelist (trunks and leaves): what they hold was deleted."""
        free: set[int] = set()
        if not self.data.startswith(SQLITE_MAGIC) or len(self.data) < 100:
            return free
        trunk = struct.unpack(">I", self.data[32:36])[0]
        while 1 <= trunk <= self.pages and trunk not in free:
            free.add(trunk)
            page = self.page(trunk)
            count = min(struct.unpack(">I", page[4:8])[0], (self.usable - 8) // 4)
            for i in range(count):
                free.add(struct.unpack(">I", page[8 + 4 * i : 12 + 4 * i])[0])
            trunk = struct.unpack(">I", page[0:4])[0]
        return free


def _leaf_rows(data: bytes) -> Iterator[Row]:
    """Every row stored on a table leaf page that is not on the freelist."""
    image = _File(data)
    free = image.freelist()
    for number in range(1, image.pages + 1):
        if number in free:
            continue
        page = image.page(number)
        base = 100 if number == 1 else 0
        if len(page) < base + 8 or page[base] != _LEAF_TABLE:
            continue
        cells = struct.unpack(">H", page[base + 3 : base + 5])[0]
        for i in range(min(cells, (len(page) - base - 8) // 2)):
            pointer = struct.unpack(">H", page[base + 8 + 2 * i : base + 10 + 2 * i])[0]
            try:
                row = _cell_row(image, page, pointer)
            except (IndexError, ValueError, struct.error, UnicodeError):
                continue  # a damaged cell: the others on the page still count
            if row is not None:
                yield row


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = buf[pos + i]
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise ValueError("bad varint")


def _cell_row(image: _File, page: bytes, pointer: int) -> Row | None:
    if not 8 <= pointer < len(page):
        return None
    size, pos = _varint(page, pointer)
    _rowid, pos = _varint(page, pos)
    if size > len(image.data):
        return None
    usable = image.usable
    limit = usable - 35
    if size <= limit:
        payload = page[pos : pos + size]
    else:
        least = (usable - 12) * 32 // 255 - 23
        local = least + (size - least) % (usable - 4)
        local = local if local <= limit else least
        payload = page[pos : pos + local] + _overflow(image, page, pos + local, size - local)
    if len(payload) != size:
        return None
    return _record(payload, image.encoding)


def _overflow(image: _File, page: bytes, at: int, wanted: int) -> bytes:
    """The rest of a payload from its chain of overflow pages."""
    number = struct.unpack(">I", page[at : at + 4])[0]
    chunks: list[bytes] = []
    seen: set[int] = set()
    while wanted > 0 and 1 <= number <= image.pages and number not in seen:
        seen.add(number)
        block = image.page(number)
        chunk = block[4 : min(image.usable, 4 + wanted)]
        chunks.append(chunk)
        wanted -= len(chunk)
        number = struct.unpack(">I", block[0:4])[0]
    if wanted > 0:
        raise ValueError("broken overflow chain")
    return b"".join(chunks)


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _record(payload: bytes, encoding: str) -> Row:
    header_size, pos = _varint(payload, 0)
    if not 1 <= header_size <= len(payload):
        raise ValueError("bad record header")
    types = []
    while pos < header_size:
        serial, pos = _varint(payload, pos)
        types.append(serial)
    body = header_size
    values: list[object] = []
    for serial in types:
        if serial == 0:
            values.append(None)
        elif serial in _INT_SIZES:
            width = _INT_SIZES[serial]
            values.append(int.from_bytes(payload[body : body + width], "big", signed=True))
            body += width
        elif serial == 7:
            values.append(struct.unpack(">d", payload[body : body + 8])[0])
            body += 8
        elif serial in (8, 9):
            values.append(serial - 8)
        elif serial >= 12:
            length = (serial - 12) // 2
            chunk = payload[body : body + length]
            values.append(chunk.decode(encoding) if serial % 2 else chunk)
            body += length
        else:
            raise ValueError("reserved serial type")
    if body != len(payload):
        raise ValueError("record longer or shorter than its payload")
    return tuple(values)
