"""Marks and Markdown notes on turns, kept in a small SQLite file in the user's data dir.

A note must outlive the session file growing, the app restarting and the
turn indices shifting (a rewind, a reader that learns to fold one more record),
so it is keyed by what the source itself calls the session and the turn:
the session key is `format:id` (or `format:<resolved path>` when the format has
no id) and the turn's source id is `record_id`, else `message_id`, else
`line:<n>`. Indices are resolved again every time marks are read.

The store lives under `$PIVOTAL_DATA_DIR`, else `$XDG_DATA_HOME/pivotal`, else
`~/.local/share/pivotal` — never beside the session files, which pivotal only
ever opens for reading. A file SQLite cannot use is renamed aside and a fresh
store is created; `notice` says so.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from pivotal.model import Session, Turn

FILE_NAME = "notes.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
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


def data_dir() -> Path:
    """Where pivotal keeps its own files (not session files)."""
    explicit = os.environ.get("PIVOTAL_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg).expanduser() / "pivotal"
    return Path.home() / ".local" / "share" / "pivotal"


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


class NoteStore:
    """The marks-and-notes database. Cheap to open; safe to share between processes."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else data_dir() / FILE_NAME
        self.notice: str | None = None
        """Set when a corrupt store was moved aside and a new one started."""
        self._db = self._open()

    # -- opening -------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return self._connect()
        except sqlite3.OperationalError:
            raise  # cannot open or locked: not corrupt, so nothing is moved aside
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
            os.replace(self.path, aside)
            for sidecar in ("-wal", "-shm", "-journal"):
                stale = Path(str(self.path) + sidecar)
                if stale.exists():
                    os.replace(stale, Path(str(aside) + sidecar))
            self.notice = (
                f"notes store was unreadable ({exc}); moved it to {aside} and started anew"
            )
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=5.0)
        try:
            row = db.execute("PRAGMA quick_check").fetchone()
            if not row or row[0] != "ok":
                raise sqlite3.DatabaseError(f"quick_check: {row[0] if row else 'no answer'}")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.commit()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> NoteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------

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
        """Mark a turn (marking it twice keeps the first mark and its note)."""
        now = time.time()
        with self._db:
            key = self._touch(session, now)
            self._db.execute(
                "INSERT INTO marks (session_key, source_id, turn_hint, note, created, updated)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (key, source_id(turn), turn.index, "", now, now),
            )

    def unmark(self, session: Session, turn: Turn) -> bool:
        """Remove a turn's mark and its note; False when it had none."""
        with self._db:
            cursor = self._db.execute(
                "DELETE FROM marks WHERE session_key=? AND source_id=?",
                (session_key(session), source_id(turn)),
            )
        return cursor.rowcount > 0

    def set_note(self, session: Session, turn: Turn, markdown: str) -> None:
        """Attach Markdown to a turn (marking it); an empty note keeps the mark."""
        now = time.time()
        with self._db:
            key = self._touch(session, now)
            self._db.execute(
                "INSERT INTO marks (session_key, source_id, turn_hint, note, created, updated)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT(session_key, source_id) DO UPDATE"
                " SET note=excluded.note, updated=excluded.updated",
                (key, source_id(turn), turn.index, markdown, now, now),
            )

    # -- reading -------------------------------------------------------------

    def marks_for(self, session: Session) -> list[Mark]:
        """The session's marks with their current turn indices, in turn order (lost ones last)."""
        rows = self._db.execute(
            "SELECT source_id, note, created, updated FROM marks WHERE session_key=?",
            (session_key(session),),
        ).fetchall()
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
        rows = self._db.execute(
            "SELECT s.session_key, s.format, s.path, s.title, COUNT(m.source_id),"
            " SUM(m.note != ''), s.touched FROM sessions s JOIN marks m USING (session_key)"
            " GROUP BY s.session_key ORDER BY s.touched DESC"
        ).fetchall()
        return [
            NotedSession(key, fmt, path, title, count, int(notes or 0), touched)
            for key, fmt, path, title, count, notes, touched in rows
        ]
