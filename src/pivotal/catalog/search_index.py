"""The full-text index behind `pivotal search`: SQLite FTS5 with the trigram tokenizer.

Every text `search_text` finds in a session (the person's messages, commands,
the agent's words, tool outputs up to a cap, the client's system lines) is kept
in one FTS5 table whose trigram tokenizer finds any substring of three
characters or more in any script (Chinese and Japanese have no spaces to split
words at). `detail=none` keeps the index at about its text's size (positions
would double it): a phrase is looked up as the trigrams it holds, and the few
texts that hold them all apart are dropped when the hits are checked
(`search_query`).

A session's sub-agents are kept under it: each in a row of `sessions` of its
own (not `listed`: no file lists it) whose `parent` is the session (or the
sub-agent) that ran it and `turn` the turn whose call ran it, and `own_path`,
`own_key` where it is itself; a child that its file lists as a session too
(opencode's) keeps its row and only gains `parent` and `turn`. A hit in one is
a hit of the session (`search_query.placed`).

It lives in the cache folder beside the listing index (`search.sqlite3`, files
0600 in a 0700 folder) and is filled by the same pass that counts turns and
pivots (`discovery`), per file version: a file whose (size, mtime) changed is
read again and only the texts that changed are written (a grown session adds
its new turns; a shrunk or replaced one loses what is gone); a Claude Code
session's version counts its sub-agents' files (`discovery.text_stamp`). It is
a copy of session text, disposable like the listing index: a damaged file is
set aside and rebuilt, a file written by another version of pivotal's readers
emptied, and two processes may write at once (WAL, a busy timeout, one
transaction per batch, and every comparison with what is stored made inside it).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from pivotal.catalog.cache_db import (
    Transaction,
    connect,
    from_db,
    is_corrupt,
    open_recovering,
    set_aside,
    to_db,
)
from pivotal.catalog.index import Stamp, code_stamp
from pivotal.catalog.search_text import TEXT_VERSION, Doc, SubText, fingerprint
from pivotal.folders import cache_dir
from pivotal.model import SessionRef
from pivotal.private import private_file, private_folder

SEARCH_DB = "search.sqlite3"
SCHEMA_VERSION = 2
BUSY_TIMEOUT_S = 10.0
PARTIAL: Stamp = (-1, -1)
"""The stamp of a file indexed as far as a live follow read it: the next pass reads it again."""
OFF = "PIVOTAL_NO_SEARCH_INDEX"
"""Set (to anything but ""): no search index is written or read (`pivotal search` reads
every session instead)."""
MIN_SQLITE = (3, 34, 0)
"""The first SQLite with FTS5's trigram tokenizer."""
_CHUNK = 500
"""Row ids per `IN (...)` list (SQLite allows 32,766 variables; small lists stay fast)."""
LINEAGE = 8
"""Sub-agents of sub-agents are followed up this far (more than are ever read)."""

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER)",
    """CREATE TABLE IF NOT EXISTS sessions (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        key TEXT NOT NULL,
        format TEXT NOT NULL,
        session_id TEXT,
        title TEXT,
        cwd TEXT,
        started REAL,
        updated REAL,
        parent INTEGER,
        turn INTEGER,
        listed INTEGER NOT NULL DEFAULT 1,
        own_path TEXT,
        own_key TEXT,
        UNIQUE (path, key)
    )""",
    "CREATE INDEX IF NOT EXISTS sessions_by_parent ON sessions (parent)",
    """CREATE TABLE IF NOT EXISTS docs (
        id INTEGER PRIMARY KEY,
        session INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        who INTEGER NOT NULL,
        time REAL,
        length INTEGER NOT NULL,
        hash INTEGER NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS docs_by_session ON docs (session, turn)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS text USING fts5(body, tokenize='trigram', detail=none)",
)
_TABLES = ("text", "docs", "sessions", "files")


class SearchUnavailable(Exception):
    """Search cannot use its index this time; the message is one line for the person."""


class SearchDamaged(SearchUnavailable):
    """The index file is damaged: set aside (`reset`) and built again."""


def unavailable_reason() -> str | None:
    """Why this Python's SQLite cannot hold the index (None: it can)."""
    if sqlite3.sqlite_version_info < MIN_SQLITE:
        return (
            f"this Python's SQLite is {sqlite3.sqlite_version}; searching needs 3.34 or later"
            " (FTS5 with the trigram tokenizer)"
        )
    try:
        conn = sqlite3.connect(":memory:")
        try:
            conn.execute(
                "CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='trigram', detail=none)"
            )
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return f"this Python's SQLite has no FTS5 trigram tokenizer ({exc})"
    return None


def search_code_stamp() -> str:
    """What the indexed texts depend on: the readers, the model, `search_text`, the way it
    writes a command (`text.shell`) and how sub-agents are tied to their calls."""
    package = Path(__file__).resolve().parents[1]
    extra = [
        package / "catalog" / "search_text.py",
        package / "catalog" / "search_index.py",
        package / "catalog" / "search_subagents.py",
        package / "spend" / "subagents.py",
        package / "text" / "shell.py",
    ]
    return code_stamp(("readers",), extra, f"search/{SCHEMA_VERSION}/{TEXT_VERSION}")


class FileText(NamedTuple):
    """What one read of a session file gives the index: its stamp (`text_stamp`: its
    sub-agents' files counted) and each session's texts and its sub-agents'."""

    path: Path
    stamp: Stamp
    sessions: list[tuple[SessionRef, list[Doc], list[SubText]]]


class SessionRow(NamedTuple):
    """A session as the index knows it (what a hit says about where it is)."""

    id: int
    path: str
    key: str | None
    format: str
    session_id: str | None
    title: str | None
    cwd: str | None
    started: float | None
    updated: float | None
    parent: int | None = None
    """A sub-agent: the row of the session (or sub-agent) that ran it."""
    parent_turn: int | None = None
    """The turn of `parent` whose call ran it (tied to none: the turn it started during)."""
    listed: bool = True
    """One of its file's own sessions (False: a sub-agent known only through its parent)."""
    own_path: str | None = None
    own_key: str | None = None
    """A sub-agent known only through its parent: where it is itself (its own file, or its
    stretch of the parent's), which `path` and `key` are not."""

    @property
    def label(self) -> str:
        return f"{self.path}#{self.key}" if self.key else self.path

    @property
    def where(self) -> tuple[str, str | None]:
        """(path, key) of the session this row holds the texts of, as a reader opens it."""
        if self.own_path is not None:
            return self.own_path, self.own_key
        return self.path, self.key


class SearchIndex:
    """The open index: file stamps in memory, texts written in short transactions."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        self._change = [0, 0]
        """Texts and characters added (removed: negative) by the open transaction."""
        self._stamps: dict[str, Stamp] = {
            from_db(p): (size, mtime)
            for p, size, mtime in conn.execute("SELECT path, size, mtime_ns FROM files")
        }
        self._stale: set[str] = set()
        """Files whose stamps the open transaction forgot (`_unstamp`)."""
        self.freed: set[str] = set()
        """Sub-agents' files a session's new version no longer reaches (`_free`): the pass
        that wrote it reads them again, as sessions of their own (`discovery`)."""

    def fresh(self, path: Path | str, stamp: Stamp) -> bool:
        """Whether the texts of `path` as it is now (`stamp`) are all in the index."""
        return self._stamps.get(os.path.abspath(path)) == stamp

    def fresh_key(self, key: str, stamp: Stamp) -> bool:
        """`fresh` for a path made absolute already."""
        return self._stamps.get(key) == stamp

    def paths(self) -> list[str]:
        return list(self._stamps)

    # -- writing ---------------------------------------------------------------
    def store(self, files: Iterable[FileText]) -> int:
        """Write each file's texts (what changed since the stored version); texts written."""
        files = list(files)
        if not files:
            return 0
        written = 0
        with self._transaction():
            next_id = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM docs").fetchone()[0]
            self._change = [0, 0]
            for item in files:
                key = os.path.abspath(item.path)
                kept: set[int] = set()
                own: dict[str, int] = {}
                for ref, docs, _ in item.sessions:
                    session = self._session_id(key, ref, unlink=True)
                    kept.add(session)
                    own[ref.key or ""] = session
                    next_id, added = self._replace_docs(session, docs, next_id)
                    written += added
                for ref, _, subs in item.sessions:
                    next_id, added = self._store_subagents(key, ref, own, subs, kept, next_id)
                    written += added
                gone = [
                    sid
                    for (sid,) in self.conn.execute(
                        "SELECT id FROM sessions WHERE path = ?", (to_db(key),)
                    )
                    if sid not in kept
                ]
                self._free(key, gone, kept)
                self._forget_sessions(gone)
                self.conn.execute(
                    "INSERT OR REPLACE INTO files (path, size, mtime_ns) VALUES (?, ?, ?)",
                    (to_db(key), item.stamp[0], item.stamp[1]),
                )
            self._count_change()
        for item in files:
            self._stamps[os.path.abspath(item.path)] = item.stamp
        self._forget_stale()
        return written

    def _forget_stale(self) -> None:
        """Drop the stamps `_unstamp` forgot on disk, once its transaction is in."""
        for path in self._stale:
            self._stamps.pop(path, None)
        self._stale.clear()

    def store_session(self, ref: SessionRef, docs: list[Doc], first: int | None = None) -> int:
        """Write one session's texts as a live follow read them (`search_live`): all of them
        (kept where unchanged), or from turn `first` on. The other sessions of its file are
        left alone, and the file is marked `PARTIAL` for the next listing pass."""
        key = os.path.abspath(ref.path)
        with self._transaction():
            self._change = [0, 0]
            session = self._session_id(key, ref)
            if first is None:
                next_id = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM docs")
                _, written = self._replace_docs(session, docs, next_id.fetchone()[0])
            else:
                stale = self.conn.execute(
                    "SELECT id, length FROM docs WHERE session = ? AND turn >= ?", (session, first)
                ).fetchall()
                self._delete_docs(stale)
                next_id = self.conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM docs")
                _, written = self._replace_docs(
                    session, [d for d in docs if d.turn >= first], next_id.fetchone()[0], False
                )
            self.conn.execute(
                "INSERT OR REPLACE INTO files (path, size, mtime_ns) VALUES (?, ?, ?)",
                (to_db(key), *PARTIAL),
            )
            self._count_change()
        self._stamps[key] = PARTIAL
        return written

    def _session_id(self, path: str, ref: SessionRef, unlink: bool = False) -> int:
        """The row of one of the file's own sessions, its fields brought up to date
        (`unlink`: and not under a parent until `_store_subagents` says it is)."""
        fields = {
            "format": ref.format,
            "session_id": to_db(ref.session_id),
            "title": to_db(ref.title),
            "cwd": to_db(ref.cwd),
            "started": ref.started,
            "updated": ref.updated,
            "listed": 1,
            "own_path": None,
            "own_key": None,
        }
        if unlink:
            fields.update(parent=None, turn=None)
        return self._row(path, ref.key or "", fields)

    def _row(self, path: str, key: str, fields: dict[str, object]) -> int:
        """The id of the row (path, key), made or updated with `fields`."""
        row = self.conn.execute(
            "SELECT id FROM sessions WHERE path = ? AND key = ?", (to_db(path), to_db(key))
        ).fetchone()
        if row is not None:
            sets = ", ".join(f"{name} = ?" for name in fields)
            self.conn.execute(
                f"UPDATE sessions SET {sets} WHERE id = ?", (*fields.values(), row[0])
            )
            return int(row[0])
        names = ", ".join(fields)
        marks = ", ".join("?" * (len(fields) + 2))
        cursor = self.conn.execute(
            f"INSERT INTO sessions (path, key, {names}) VALUES ({marks})",
            (to_db(path), to_db(key), *fields.values()),
        )
        return int(cursor.lastrowid)  # type: ignore[arg-type]

    def _store_subagents(
        self,
        path: str,
        ref: SessionRef,
        own: dict[str, int],
        subs: list[SubText],
        kept: set[int],
        next_id: int,
    ) -> tuple[int, int]:
        """Write the sub-agents of the session `ref` (its row in `own`, with the file's other
        sessions): each in a row of its own under the one that ran it, with its texts; a
        sub-agent that is one of the file's own sessions only learns where it ran."""
        rows = {None: own[ref.key or ""]}
        written = 0
        for sub in subs:
            runner = rows.get(sub.runner)
            if runner is None:
                continue  # its runner was not kept: neither is it
            if sub.docs is None:
                same = os.path.abspath(sub.ref.path) == path
                listed = own.get(sub.ref.key or "") if same else None
                if listed is not None and listed != runner and listed != rows[None]:
                    self.conn.execute(
                        "UPDATE sessions SET parent = ?, turn = ? WHERE id = ?",
                        (runner, sub.turn, listed),
                    )
                    rows[sub.ident] = listed
                continue
            fields = {
                "format": sub.ref.format,
                "session_id": to_db(sub.ref.session_id),
                "title": to_db(sub.title or sub.ref.title),
                "cwd": to_db(sub.ref.cwd or ref.cwd),
                "started": sub.ref.started if sub.ref.started is not None else _first(sub.docs),
                "updated": ref.updated,
                "parent": runner,
                "turn": sub.turn,
                "listed": 0,
                "own_path": to_db(os.path.abspath(sub.ref.path)),
                "own_key": to_db(sub.ref.key or ""),
            }
            row = self._row(path, f"{ref.key or ''}/sub:{sub.ident}", fields)
            kept.add(row)
            rows[sub.ident] = row
            next_id, added = self._replace_docs(row, sub.docs, next_id)
            written += added
            own_path = os.path.abspath(sub.ref.path)
            if own_path != path and sub.ref.key is None:
                self._claim(own_path)
        return next_id, written

    def _claim(self, path: str) -> None:
        """A sub-agent's own file, now kept under its parent, was indexed as a session of
        its own (its parent was missing then): forget that (its own sub-agents with it),
        and read the file again."""
        rows = self.conn.execute(
            "SELECT id, listed FROM sessions WHERE path = ?", (to_db(path),)
        ).fetchall()
        if any(listed for _, listed in rows):
            self._forget_sessions([sid for sid, _ in rows])
            self._unstamp([path])

    def _free(self, path: str, gone: list[int], kept: set[int]) -> None:
        """The file `path` no longer holds the sub-agents of rows `gone` (its session's new
        version does not reach them): their own files, indexed with no session while it
        did, are read again, as sessions of their own."""
        if not gone:
            return
        every = [*gone, *kept]
        held = {}
        for start in range(0, len(every), _CHUNK):
            ids = every[start : start + _CHUNK]
            marks = ",".join("?" * len(ids))
            for sid, own in self.conn.execute(
                f"SELECT id, own_path FROM sessions WHERE id IN ({marks}) AND listed = 0"
                " AND own_path IS NOT NULL AND own_path != ?",
                (*ids, to_db(path)),
            ):
                held[sid] = from_db(own)
        freed = {own for sid, own in held.items() if sid not in kept}
        freed -= {own for sid, own in held.items() if sid in kept}
        freed &= self._stamps.keys()
        self._unstamp(freed)
        self.freed |= freed

    def _unstamp(self, paths: Iterable[str]) -> None:
        """Have the next pass read these files again."""
        for path in paths:
            self.conn.execute("DELETE FROM files WHERE path = ?", (to_db(path),))
            self._stale.add(path)

    def _replace_docs(
        self, session: int, docs: list[Doc], next_id: int, compare: bool = True
    ) -> tuple[int, int]:
        """Make the session's stored texts `docs`, touching only those that differ
        (`compare=False`: none are stored, add them all)."""
        stored = {
            (turn, who): (doc_id, digest, length)
            for doc_id, turn, who, digest, length in (
                self.conn.execute(
                    "SELECT id, turn, who, hash, length FROM docs WHERE session = ?", (session,)
                )
                if compare
                else ()
            )
        }
        fresh: list[tuple[int, Doc, int]] = []
        keep: set[int] = set()
        for doc in docs:
            digest = fingerprint(doc.body)
            known = stored.get((doc.turn, doc.who))
            if known is not None and known[1] == digest and known[0] not in keep:
                keep.add(known[0])
                continue
            fresh.append((next_id, doc, digest))
            next_id += 1
        stale = [(doc_id, length) for doc_id, _, length in stored.values() if doc_id not in keep]
        self._delete_docs(stale)
        self._change[0] += len(fresh)
        self._change[1] += sum(len(doc.body) for _, doc, _ in fresh)
        if fresh:
            self.conn.executemany(
                "INSERT INTO docs (id, session, turn, who, time, length, hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (doc_id, session, doc.turn, doc.who, doc.time, len(doc.body), digest)
                    for doc_id, doc, digest in fresh
                ],
            )
            self.conn.executemany(
                "INSERT INTO text (rowid, body) VALUES (?, ?)",
                [(doc_id, doc.body) for doc_id, doc, _ in fresh],
            )
        return next_id, len(fresh)

    def _delete_docs(self, docs: list[tuple[int, int]]) -> None:
        """Delete texts given as (id, length)."""
        self._change[0] -= len(docs)
        self._change[1] -= sum(length for _, length in docs)
        ids = [doc_id for doc_id, _ in docs]
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            self.conn.execute(f"DELETE FROM text WHERE rowid IN ({marks})", chunk)
            self.conn.execute(f"DELETE FROM docs WHERE id IN ({marks})", chunk)

    def _forget_sessions(self, sessions: list[int]) -> None:
        for session in sessions:
            docs = self.conn.execute(
                "SELECT id, length FROM docs WHERE session = ?", (session,)
            ).fetchall()
            self._delete_docs(docs)
            self.conn.execute("DELETE FROM sessions WHERE id = ?", (session,))

    def _count_change(self) -> None:
        """Keep the number of texts and their characters (the average length ranks hits)."""
        docs, chars = self._change
        self.conn.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE name = 'docs'", (docs,)
        )
        self.conn.execute(
            "UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE name = 'chars'", (chars,)
        )
        self._change = [0, 0]

    def average_length(self) -> float:
        """The average length of the texts held (1 when there are none)."""
        found = dict(
            self.conn.execute("SELECT name, value FROM meta WHERE name IN ('docs', 'chars')")
        )
        docs, chars = int(found.get("docs", 0)), int(found.get("chars", 0))
        return chars / docs if docs > 0 and chars > 0 else 1.0

    def drop(self, paths: Iterable[str]) -> None:
        """Forget files (by the absolute path the index knows them under)."""
        paths = [p for p in paths if p in self._stamps]
        if not paths:
            return
        with self._transaction():
            self._change = [0, 0]
            for path in paths:
                sessions = [
                    sid
                    for (sid,) in self.conn.execute(
                        "SELECT id FROM sessions WHERE path = ?", (to_db(path),)
                    )
                ]
                freed = {
                    from_db(own)
                    for (own,) in self.conn.execute(
                        "SELECT DISTINCT own_path FROM sessions WHERE path = ? AND listed = 0"
                        " AND own_path IS NOT NULL AND own_path != path",
                        (to_db(path),),
                    )
                }
                self._forget_sessions(sessions)
                self.conn.execute("DELETE FROM files WHERE path = ?", (to_db(path),))
                # its sub-agents' own files (a Codex rollout) are sessions of their own now
                self._unstamp(freed & self._stamps.keys() - set(paths))
            self._count_change()
        for path in paths:
            self._stamps.pop(path, None)
        self._forget_stale()

    def drop_missing(self, seen: set[str]) -> None:
        """Forget indexed files this pass did not find and that no longer exist."""
        self.drop(p for p in self._stamps if p not in seen and not os.path.lexists(p))

    def tidy(self) -> None:
        """Merge the index's segments after a big write (queries then read fewer of them)."""
        with self._transaction():
            self.conn.execute("INSERT INTO text (text) VALUES ('optimize')")

    # -- reading ---------------------------------------------------------------
    def sessions_of(self, paths: Iterable[str]) -> dict[tuple[str, str], int]:
        """(absolute path, key or "") -> session id, for the sessions these files list (their
        sub-agents are searched with them: `Filters.sessions`)."""
        wanted = set(paths)
        found: dict[tuple[str, str], int] = {}
        for sid, path, key in self.conn.execute(
            "SELECT id, path, key FROM sessions WHERE listed = 1"
        ):
            path = from_db(path)
            if path in wanted:
                found[(path, from_db(key))] = sid
        return found

    def subagents_at(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """(absolute path, key or "") -> id, for the sub-agents kept under a session that are
        where `wanted` names (no file lists them: a Claude Code 1.0 sidechain's
        `PATH#sidechain:…`); the sub-agents they ran are searched with them."""
        wanted = set(wanted)
        paths = sorted({to_db(path) for path, _ in wanted})
        found: dict[tuple[str, str], int] = {}
        for start in range(0, len(paths), _CHUNK):
            chunk = paths[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for sid, path, key in self.conn.execute(
                "SELECT id, own_path, own_key FROM sessions"
                f" WHERE listed = 0 AND own_path IN ({marks})",
                chunk,
            ):
                place = (from_db(path), from_db(key) or "")
                if place in wanted:
                    found[place] = sid
        return found

    def held_files(self) -> set[str]:
        """The files of sub-agents kept under the session that ran them (a Codex sub-agent's
        rollout lists no session of its own while its parent's does)."""
        return {
            from_db(path)
            for (path,) in self.conn.execute(
                "SELECT DISTINCT own_path FROM sessions WHERE listed = 0 AND own_path IS NOT NULL"
            )
        }

    def session_count(self) -> int:
        """The sessions files list (sub-agents known only through their parent not counted)."""
        return int(
            self.conn.execute("SELECT COUNT(*) FROM sessions WHERE listed = 1").fetchone()[0]
        )

    def session_rows(self, ids: Iterable[int]) -> dict[int, SessionRow]:
        rows: dict[int, SessionRow] = {}
        wanted = list(set(ids))
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(
                "SELECT id, path, key, format, session_id, title, cwd, started, updated,"
                f" parent, turn, listed, own_path, own_key FROM sessions WHERE id IN ({marks})",
                chunk,
            ):
                sid, path, key, fmt, session_id, title, cwd, started, updated = row[:9]
                parent, turn, listed, own_path, own_key = row[9:]
                rows[sid] = SessionRow(
                    sid,
                    from_db(path),
                    from_db(key) or None,
                    fmt,
                    from_db(session_id),
                    from_db(title),
                    from_db(cwd),
                    started,
                    updated,
                    parent,
                    turn,
                    bool(listed),
                    from_db(own_path) if own_path is not None else None,
                    (from_db(own_key) or None) if own_path is not None else None,
                )
        return rows

    def lineage(self, ids: Iterable[int]) -> dict[int, SessionRow]:
        """`session_rows` of `ids` and of every session that ran one of them, up to the
        session a file lists (a sub-agent's hit names where it ran)."""
        rows = self.session_rows(ids)
        for _ in range(LINEAGE):
            missing = {r.parent for r in rows.values() if r.parent is not None} - rows.keys()
            if not missing:
                break
            rows.update(self.session_rows(missing))
        return rows

    def bodies(self, ids: list[int]) -> dict[int, str]:
        found: dict[int, str] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            found.update(
                self.conn.execute(f"SELECT rowid, body FROM text WHERE rowid IN ({marks})", chunk)
            )
        return found

    def counts(self) -> tuple[int, int, int]:
        """(sessions files list, texts, characters of text) held (sub-agents' included)."""
        sessions = self.conn.execute("SELECT COUNT(*) FROM sessions WHERE listed = 1")
        sessions = sessions.fetchone()[0]
        docs, chars = self.conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(length), 0) FROM docs"
        ).fetchone()
        return int(sessions), int(docs), int(chars)

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:
            pass

    def _transaction(self) -> Transaction:
        return Transaction(
            self.conn, lambda exc: failure(exc, self.path, "search index not updated")
        )


def _first(docs: list[Doc]) -> float | None:
    """When the first text known to have a time was written."""
    return next((doc.time for doc in docs if doc.time is not None), None)


def failure(exc: sqlite3.Error, path: Path, what: str) -> SearchUnavailable:
    """The one-line error for a failed use of the index (damaged files say so)."""
    if is_corrupt(exc):
        return SearchDamaged(f"{what}: {path} is damaged ({exc}); it is rebuilt")
    return SearchUnavailable(f"{what} ({exc})")


def open_search_index(directory: Path | None = None) -> SearchIndex:
    """Open (creating, emptying or setting aside as needed) the index in `directory`.

    Raises SearchUnavailable with a one-line reason when it cannot be used.
    """
    if os.environ.get(OFF):
        raise SearchUnavailable(f"{OFF} is set: no copy of session text is kept")
    reason = unavailable_reason()
    if reason is not None:
        raise SearchUnavailable(reason)
    directory = directory if directory is not None else cache_dir()
    try:
        private_folder(directory)
    except OSError as exc:
        raise SearchUnavailable(f"cannot create {directory} ({exc.strerror or exc})") from exc
    return open_recovering(directory / SEARCH_DB, _open, BUSY_TIMEOUT_S, SearchUnavailable)


def reset(directory: Path | None = None) -> None:
    """Set a damaged index aside (`search.sqlite3.corrupt`): the next open starts afresh."""
    set_aside((directory if directory is not None else cache_dir()) / SEARCH_DB, SearchUnavailable)


def index_files(directory: Path | None = None) -> list[Path]:
    """The index's files as they are on disk (what deleting the index means)."""
    folder = directory if directory is not None else cache_dir()
    return sorted(folder.glob(f"{SEARCH_DB}*"))


def _open(path: Path) -> SearchIndex:
    private_file(path)  # before SQLite makes it (and its -wal, -shm) under the umask
    # one thread at a time uses it, not always the one that opened it (`search_writer`)
    conn = connect(path, BUSY_TIMEOUT_S, search_code_stamp(), _reset, check_same_thread=False)
    return SearchIndex(conn, path)


def _reset(conn: sqlite3.Connection) -> None:
    """Empty tables of this version's shape (`cache_db.rebuild`)."""
    for table in _TABLES:
        conn.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in _SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('docs', '0'), ('chars', '0')")


def chunks(items: list[int], size: int = _CHUNK) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
