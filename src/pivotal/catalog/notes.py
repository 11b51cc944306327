"""Marks and Markdown notes on turns, kept in a small SQLite file in the user's data dir.

A note must outlive the session file growing, the app restarting and the
turn indices shifting (a rewind, a reader that learns to fold one more record),
so it is keyed by what the source itself calls the session and the turn:
the session key is `format:id` (or `format:<resolved path>` when the format has
no id) and the turn's source id is `record_id`, else `message_id`, else
`line:<n>`. Indices are resolved again every time marks are read.

The store lives under `$PIVOTAL_DATA_DIR`, else `$XDG_DATA_HOME/pivotal`, else
`~/.local/share/pivotal` — never beside the session files, which pivotal only
ever opens for reading. Read-only commands open it read-only; a damaged store
is salvaged (`pivotal.catalog.notes_file`), never renamed, and `notice` says so
in one line. Locked, full or read-only stores raise `NotesError`.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import quote

from pivotal.catalog.notes_file import (
    SCHEMA,
    SCHEMA_VERSION,
    Salvaged,
    check,
    keep_copy,
    memory_store,
    rebuild_in_place,
    salvage,
)
from pivotal.model import Session, SessionRef, Turn
from pivotal.private import private_file, private_folder

FILE_NAME = "notes.sqlite3"
BUSY_TIMEOUT_S = 5.0
T = TypeVar("T")


def data_dir() -> Path:
    """Where pivotal keeps its own files (not session files)."""
    explicit = os.environ.get("PIVOTAL_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg).expanduser() / "pivotal"
    return Path.home() / ".local" / "share" / "pivotal"


def store_is_session(store: Path, ref: SessionRef) -> bool:
    """The notes store is a file of the session itself (`PIVOTAL_DATA_DIR` pointed at the
    session's folder, a database named like the store): opening it, even read-only, would
    create SQLite's `-wal` and `-shm` beside it, and for writing would add tables to it."""
    from pivotal.readers import session_files

    return session_files(ref).claims(store) is not None


def session_key(session: Session) -> str:
    """`format:id`, or `format:<resolved path>[#key]` when the format has no session id."""
    if session.id:
        return f"{session.format}:{session.id}"
    try:
        where = str(Path(session.path).resolve())
    except OSError:
        where = str(session.path)
    suffix = f"#{session.key}" if session.key else ""
    return f"{session.format}:{where}{suffix}"


def source_id(turn: Turn) -> str:
    """The turn's own id in the source: stable while the file grows and across restarts."""
    if turn.source.record_id:
        return turn.source.record_id
    if turn.message_id:
        return turn.message_id
    if turn.source.line is not None:
        return f"line:{turn.source.line}"
    return f"index:{turn.index}"


@dataclass(frozen=True, slots=True)
class Mark:
    """A marked turn. `turn_index` is None when the turn is not in the session (any more)."""

    turn_index: int | None
    source_id: str
    note: str
    created: float
    updated: float = 0.0


@dataclass(frozen=True, slots=True)
class NotedSession:
    """A session that has marks, as `all_sessions` lists it."""

    key: str
    format: str
    path: str
    title: str | None
    marks: int
    notes: int
    touched: float


class NotesError(sqlite3.OperationalError):
    """The notes store cannot be used now (locked, disk full, read-only): one line to show.

    A subclass of sqlite3.OperationalError, so code that already catches
    sqlite3.Error keeps working; the message names the store and the cause.
    """


class NoteStore:
    """The marks-and-notes database. Cheap to open; safe to share between processes.

    `readonly=True` (exports, `pivotal notes`) opens the file read-only and never
    creates, moves or repairs it: a damaged store is salvaged into memory for that
    command. The replayer opens it for writing; a damaged store is then salvaged,
    a copy of the damaged file kept beside it, and the store rebuilt in place (never
    renamed, so another pivotal that has it open keeps writing into the live file).
    """

    def __init__(
        self, path: Path | None = None, *, readonly: bool = False, timeout: float = BUSY_TIMEOUT_S
    ) -> None:
        self.path = Path(path) if path is not None else data_dir() / FILE_NAME
        self.readonly = readonly
        self.timeout = timeout
        self.notice: str | None = None
        """One line for the person when the store was damaged and what was salvaged."""
        self._db = self._open()

    # -- opening -------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.readonly:
            return self._open_readonly()
        try:
            private_folder(self.path.parent)
        except OSError as exc:
            raise NotesError(self._why("open", exc)) from exc
        private_file(self.path)  # notes and titles are session text: for this user alone
        try:
            return self._connect()
        except sqlite3.OperationalError as exc:
            raise NotesError(self._why("open", exc)) from exc  # locked or no access: not damage
        except sqlite3.DatabaseError:
            pass  # damaged: repaired below, outside this handler
        try:
            self._repair()
            return self._connect()
        except sqlite3.Error as exc:
            if isinstance(exc, NotesError):
                raise
            raise NotesError(self._why("repair", exc)) from exc

    def _open_readonly(self) -> sqlite3.Connection:
        if not self.path.exists():
            return memory_store(Salvaged())
        uri = f"file:{quote(str(self.path.absolute()))}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, timeout=self.timeout)
        except sqlite3.Error as exc:
            raise NotesError(self._why("open", exc)) from exc
        try:
            check(db)
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.OperationalError as exc:
            db.close()
            raise NotesError(self._why("open", exc)) from exc
        except sqlite3.DatabaseError:
            db.close()
            return self._salvaged_in_memory()
        if not {"sessions", "marks"} <= names:  # a new or foreign file: nothing marked yet
            db.close()
            return memory_store(Salvaged())
        return db

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.timeout)
        try:
            check(db)
            db.executescript(SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _salvaged_in_memory(self) -> sqlite3.Connection:
        found = salvage(self.path)
        self.notice = (
            f"notes store {self.path} is damaged: showing the {_marks(len(found.marks))}"
            " that could still be read (the file is left as it is)"
        )
        return memory_store(found)

    def _repair(self) -> None:
        """Salvage the damaged store, keep a copy of it, and rebuild it in place."""
        found = salvage(self.path)
        try:
            kept = keep_copy(self.path)
        except OSError as exc:
            raise NotesError(
                f"notes store {self.path} is damaged and no copy of it could be kept"
                f" ({exc.strerror or exc}); it was not changed"
            ) from exc
        rebuild_in_place(self.path, memory_store(found), self.timeout)
        self.notice = (
            f"notes store was damaged: recovered {_marks(len(found.marks))};"
            f" the damaged file is kept as {kept}"
        )

    def _why(self, action: str, exc: Exception) -> str:
        text = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
        if "locked" in text or "busy" in text:
            reason = f"it is locked by another program (waited {self.timeout:g} s)"
        elif "full" in text:
            reason = "the disk is full"
        elif "readonly" in text or "read-only" in text:
            reason = "it is read-only"
        else:
            reason = text
        return f"cannot {action} the notes store {self.path}: {reason}"

    def _run(self, action: str, work: Callable[[], T]) -> T:
        """`work()` with SQLite's errors as NotesError; damage found mid-way is repaired once."""
        try:
            return work()
        except sqlite3.OperationalError as exc:
            raise NotesError(self._why(action, exc)) from exc
        except sqlite3.DatabaseError:
            self._db.close()
            self._db = self._salvaged_in_memory() if self.readonly else self._reopen_repaired()
        try:
            return work()
        except sqlite3.Error as exc:
            raise NotesError(self._why(action, exc)) from exc

    def _reopen_repaired(self) -> sqlite3.Connection:
        try:
            self._repair()
            return self._connect()
        except sqlite3.Error as exc:
            if isinstance(exc, NotesError):
                raise
            raise NotesError(self._why("repair", exc)) from exc

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> NoteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------

    def _write(self, work: Callable[[], T]) -> T:
        if self.readonly:
            raise NotesError(f"the notes store {self.path} was opened read-only")

        def in_transaction() -> T:
            with self._db:
                return work()

        return self._run("save to", in_transaction)

    def _touch(self, session: Session, now: float) -> str:
        key = session_key(session)
        self._db.execute(
            "INSERT INTO sessions (session_key, format, path, title, touched) VALUES (?,?,?,?,?)"
            " ON CONFLICT(session_key) DO UPDATE SET path=excluded.path,"
            " title=COALESCE(excluded.title, sessions.title), touched=excluded.touched",
            (key, session.format, str(session.path), session.title, now),
        )
        return key

    def mark(self, session: Session, turn: Turn) -> None:
        """Mark a turn (marking it twice keeps the first mark and its note).

        Raises NotesError (locked, disk full, read-only) with one line to show.
        """
        now = time.time()

        def work() -> None:
            key = self._touch(session, now)
            self._db.execute(
                "INSERT INTO marks (session_key, source_id, turn_hint, note, created, updated)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (key, source_id(turn), turn.index, "", now, now),
            )

        self._write(work)

    def unmark(self, session: Session, turn: Turn) -> bool:
        """Remove a turn's mark and its note; False when it had none. Raises NotesError."""

        def work() -> bool:
            cursor = self._db.execute(
                "DELETE FROM marks WHERE session_key=? AND source_id=?",
                (session_key(session), source_id(turn)),
            )
            return cursor.rowcount > 0

        return self._write(work)

    def set_note(self, session: Session, turn: Turn, markdown: str) -> None:
        """Attach Markdown to a turn (marking it); an empty note keeps the mark.

        Raises NotesError (locked, disk full, read-only) with one line to show.
        """
        now = time.time()

        def work() -> None:
            key = self._touch(session, now)
            self._db.execute(
                "INSERT INTO marks (session_key, source_id, turn_hint, note, created, updated)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT(session_key, source_id) DO UPDATE"
                " SET note=excluded.note, updated=excluded.updated",
                (key, source_id(turn), turn.index, markdown, now, now),
            )

        self._write(work)

    # -- reading -------------------------------------------------------------

    def marks_for(self, session: Session) -> list[Mark]:
        """The session's marks with their current turn indices, in turn order (lost ones last)."""
        rows = self._run(
            "read",
            lambda: self._db.execute(
                "SELECT source_id, note, created, updated FROM marks WHERE session_key=?",
                (session_key(session),),
            ).fetchall(),
        )
        if not rows:
            return []
        where = {source_id(turn): turn.index for turn in session.turns}
        marks = [
            Mark(where.get(sid), sid, note, created, updated)
            for sid, note, created, updated in rows
        ]
        marks.sort(key=lambda m: (m.turn_index is None, m.turn_index or 0, m.created))
        return marks

    def all_sessions(self) -> list[NotedSession]:
        """Every session with at least one mark, most recently touched first."""
        rows = self._run(
            "read",
            lambda: self._db.execute(
                "SELECT s.session_key, s.format, s.path, s.title, COUNT(m.source_id),"
                " SUM(m.note != ''), s.touched FROM sessions s JOIN marks m USING (session_key)"
                " GROUP BY s.session_key ORDER BY s.touched DESC"
            ).fetchall(),
        )
        return [
            NotedSession(key, fmt, path, title, count, int(notes or 0), touched)
            for key, fmt, path, title, count, notes, touched in rows
        ]


def _marks(count: int) -> str:
    return f"{count} mark" if count == 1 else f"{count} marks"
