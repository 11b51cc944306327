"""Keeps an opencode session's messages and parts and turns them into ordered turns.

Both opencode stores deliver records piecemeal and out of step: a message row
may arrive before its parts, parts are rewritten in place while they stream
(text grows, a tool goes running -> completed). Readers feed every record they
see into `put_message` / `put_part`; `rebuild()` then re-derives only the turns
whose records changed and says where the session changed.
"""

from __future__ import annotations

import bisect
from typing import Any

from pivotal.model import SessionRef, Turn
from pivotal.readers.base import SessionReader, parse_timestamp
from pivotal.readers.opencode_convert import build_turn

FORMAT = "opencode"


class OpencodeReader(SessionReader):
    """Common state of the SQLite and legacy-JSON readers."""

    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.session.id = ref.key
        self._infos: dict[str, dict[str, Any]] = {}
        self._parts: dict[str, dict[str, dict[str, Any]]] = {}
        """message id -> part id -> part record."""
        self._order: list[str] = []
        self._dirty: set[str] = set()

    def forget(self) -> None:
        """Drop everything read so far (the source was replaced or rows were deleted)."""
        self._infos.clear()
        self._parts.clear()
        self._order.clear()
        self._dirty.clear()
        self.session.turns.clear()
        self.session.skipped.clear()
        self.mark_changed(0)

    def put_message(self, message_id: str, info: dict[str, Any]) -> None:
        self._infos[message_id] = info
        self._dirty.add(message_id)

    def put_part(self, message_id: str, part_id: str, part: dict[str, Any]) -> None:
        self._parts.setdefault(message_id, {})[part_id] = part
        self._dirty.add(message_id)

    def rebuild(self) -> None:
        """Re-derive the turns of changed messages; new messages are placed by id."""
        dirty = sorted(m for m in self._dirty if m in self._infos)
        self._dirty = {m for m in self._dirty if m not in self._infos}  # parts before message
        if not dirty:
            return
        turns = self.session.turns
        first_new = len(self._order)
        for message_id in dirty:
            pos = bisect.bisect_left(self._order, message_id)
            if pos < len(self._order) and self._order[pos] == message_id:
                self._replace(pos)
                continue
            self._order.insert(pos, message_id)
            turns.insert(pos, self._make(message_id))
            first_new = min(first_new, pos)
        for index in range(first_new, len(turns)):
            turns[index].index = index
        if first_new < len(turns):
            self.mark_changed(first_new)

    def _make(self, message_id: str) -> Turn:
        parts = self._parts.get(message_id, {})
        ordered = [parts[key] for key in sorted(parts)]
        return build_turn(message_id, self._infos[message_id], ordered)

    def _replace(self, pos: int) -> None:
        turn = self._make(self._order[pos])
        turn.index = pos
        self.session.turns[pos] = turn
        self.mark_changed(pos)

    def set_meta(self, row: dict[str, Any]) -> None:
        """Session-level facts (title, cwd, times) from a session record."""
        session = self.session
        title, directory = row.get("title"), row.get("directory")
        session.title = (title if isinstance(title, str) else None) or session.title
        session.cwd = (directory if isinstance(directory, str) else None) or session.cwd
        session.started = parse_timestamp(row.get("time_created")) or session.started
        session.ended = parse_timestamp(row.get("time_updated")) or session.ended

    def finish_meta(self) -> None:
        """The model is the last assistant turn's model when the session row has none."""
        if self.session.model:
            return
        for turn in reversed(self.session.turns):
            if turn.model:
                self.session.model = turn.model
                return
