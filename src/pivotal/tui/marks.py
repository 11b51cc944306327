"""The replay screen's marks and notes: `NoteStore` rows resolved to turn indices.

The store keys a mark by the turn's own source id, so it survives restarts,
the file growing and indices shifting; the screen needs indices. `MarkBook`
loads the session's rows once and re-resolves them only when the turn list
changes, checking each mark's last index first (O(marks)), and scanning for
the ones it lost only from where its last scan stopped: a key press never pays
for a 100,000-turn session, and a slice arriving pays only for its new turns.
No Textual here.
"""

from __future__ import annotations

import sqlite3
from bisect import bisect_left, bisect_right
from collections.abc import Callable

from msgspec.structs import replace

from pivotal.catalog.notes import FILE_NAME, NoteStore, data_dir, source_id, store_is_session
from pivotal.model import Session, SessionRef, Turn
from pivotal.readers import open_reader
from pivotal.tui.loading import FIRST_BUDGET


def identify(ref: SessionRef) -> Session:
    """The session's identity (format, path, id, key, cwd, title) from the head of its file.

    The reader is the one place that knows a session's id (it is inside the
    file), so the first slice is read once; no turns are kept.
    """
    reader = open_reader(ref)
    try:
        reader.poll(final=False, budget=FIRST_BUDGET)
        found = reader.session
        return Session(
            format=found.format,
            path=found.path,
            id=found.id,
            key=found.key,
            title=found.title or ref.title,
            cwd=found.cwd or ref.cwd,
        )
    finally:
        reader.close()


def _ref_of(session: Session) -> SessionRef:
    return SessionRef(format=session.format, path=session.path, key=session.key)


def bare(session: Session) -> Session:
    """`session` without its turns (what the store needs to find its rows)."""
    return replace(session, turns=[], skipped=[], branches=[], children=[], notices=[])


class MarkBook:
    """Marks and notes of the session on screen, by turn index."""

    BUSY_TIMEOUT = 1.0
    """Seconds a key waits for a store another program has locked (the UI waits with it)."""

    def __init__(self) -> None:
        self.session: Session | None = None
        """The session's identity (no turns); None until it is known."""
        self.problem = ""
        """Why marks cannot be kept (the store could not be opened)."""
        self.failure = ""
        """Why the last change was not saved (locked, disk full...): one line for the person."""
        self._loaded = False
        """The session's marks were read from the store."""
        self._store: NoteStore | None = None
        self._notes: dict[str, str] = {}
        """Source id -> note ("" for a mark without a note)."""
        self._where: dict[str, int] = {}
        self._turns: list[Turn] | None = None
        self._scanned = 0
        self.indices: list[int] = []
        """Marked turns on screen, ascending."""
        self.by_index: dict[int, str] = {}

    # -- the store --------------------------------------------------------------
    def store(self) -> NoteStore | None:
        """The open store; None (and `problem` says why) when it cannot be opened now.

        A store that could not be opened (locked by another program, say) is
        tried again on the next use, and the session's marks are loaded then.
        """
        if self._store is None:
            path = data_dir() / FILE_NAME
            if self.session is not None and store_is_session(path, _ref_of(self.session)):
                self.problem = f"marks are off: the notes store {path} is a file of this session"
                return None
            try:
                self._store = NoteStore(path, timeout=self.BUSY_TIMEOUT)
            except (OSError, sqlite3.Error) as exc:
                self.problem = f"marks cannot be saved: {exc}"
                return None
            self.problem = ""
            if self.session is not None and not self._loaded:
                self._load(self._store)
        return self._store

    def attach(self, session: Session) -> str:
        """Load `session`'s marks; returns a notice for the person ("" when all is well).

        Before the first mark ever made there is no store, and opening a session
        (the demo, say) does not create one: `toggle` and `set_note` do.
        """
        self.session = bare(session)
        if self._store is not None and store_is_session(self._store.path, _ref_of(session)):
            self.close()  # opened for another session: this one must not write into it
        self._loaded = False
        self._where.clear()
        self._turns, self._scanned = None, 0
        if self._store is None and not (data_dir() / FILE_NAME).exists():
            self._notes, self._loaded = {}, True  # nothing to load yet
            return ""
        store = self.store()
        if store is None:
            return self.problem
        if not self._loaded:
            problem = self._load(store)
            if problem:
                return problem
        return store.notice or ""

    def _load(self, store: NoteStore) -> str:
        """Read the session's marks from `store`; a notice when they could not be read."""
        assert self.session is not None
        try:
            self._notes = {m.source_id: m.note for m in store.marks_for(self.session)}
        except (OSError, sqlite3.Error) as exc:
            self._notes = {}
            return f"marks could not be loaded: {exc}"
        self._loaded = True
        self._where.clear()
        self._turns, self._scanned = None, 0
        return ""

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # -- resolving ----------------------------------------------------------------
    def resolve(self, turns: list[Turn]) -> None:
        """Bring `indices` up to date with `turns` (cheap when nothing changed)."""
        if turns is self._turns:
            return
        if self._turns is None or len(turns) < len(self._turns):
            self._scanned = 0
        self._turns = turns
        lost = []
        for sid in self._notes:
            index = self._where.get(sid)
            if index is None or index >= len(turns) or source_id(turns[index]) != sid:
                self._where.pop(sid, None)
                lost.append(sid)
                if index is not None:
                    self._scanned = 0  # a turn moved: look everywhere again
        if lost:
            wanted = set(lost)
            for turn in turns[self._scanned :]:
                sid = source_id(turn)
                if sid in wanted:
                    self._where[sid] = turn.index
            self._scanned = len(turns)
        self._rebuild()

    def _rebuild(self) -> None:
        self.by_index = {index: self._notes[sid] for sid, index in self._where.items()}
        self.indices = sorted(self.by_index)

    # -- changes --------------------------------------------------------------------
    def _saved(self, work: Callable[[], object]) -> bool:
        """Run one write; False (and `failure` says why) when the store refused it."""
        try:
            work()
        except (OSError, sqlite3.Error) as exc:
            self.failure = str(exc)
            return False
        self.failure = ""
        return True

    def toggle(self, turn: Turn) -> bool | None:
        """Mark or unmark `turn`; True when now marked, None when it cannot be saved."""
        store = self.store()
        if store is None or self.session is None:
            self.failure = self.problem
            return None
        session = self.session
        sid = source_id(turn)
        if sid in self._notes:
            if not self._saved(lambda: store.unmark(session, turn)):
                return None
            del self._notes[sid]
            self._where.pop(sid, None)
            self._rebuild()
            return False
        if not self._saved(lambda: store.mark(session, turn)):
            return None
        self._notes[sid] = ""
        self._where[sid] = turn.index
        self._rebuild()
        return True

    def set_note(self, turn: Turn, markdown: str) -> bool:
        """Attach `markdown` to `turn` (marking it); False when it cannot be saved."""
        store = self.store()
        if store is None or self.session is None:
            self.failure = self.problem
            return False
        session = self.session
        if not self._saved(lambda: store.set_note(session, turn, markdown)):
            return False
        sid = source_id(turn)
        self._notes[sid] = markdown
        self._where[sid] = turn.index
        self._rebuild()
        return True

    # -- reading ----------------------------------------------------------------------
    def note_at(self, index: int) -> str | None:
        """The note on turn `index` ("" when marked without one), None when not marked."""
        return self.by_index.get(index)

    def next_after(self, index: int) -> int | None:
        pos = bisect_right(self.indices, index)
        return self.indices[pos] if pos < len(self.indices) else None

    def prev_before(self, index: int) -> int | None:
        pos = bisect_left(self.indices, index) - 1
        return self.indices[pos] if pos >= 0 else None
