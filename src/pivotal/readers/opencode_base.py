"""Keeps an opencode session's messages and parts and turns them into ordered turns.

Both opencode stores deliver records piecemeal and out of step: a message row
may arrive before its parts, parts are rewritten in place while they stream
(text grows, a tool goes running -> completed). Readers feed every record they
see into `put_message` / `put_part`; `rebuild()` then re-derives only the turns
whose records changed and says where the session changed.

A person's `!command` is two messages: a user message holding only opencode's
marker text and, right after it, the assistant message that ran the command (no
model call: a bash tool part, zero tokens). They become one turn, the person's
command with its output; the run message gets no turn of its own.
"""

from __future__ import annotations

import bisect
from typing import Any

from pivotal.model import SessionRef, Turn
from pivotal.readers.base import SessionReader, parse_timestamp
from pivotal.readers.opencode_convert import (
    build_shell_turn,
    build_turn,
    is_shell_mark,
    is_shell_run,
)

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
        self._run_of: dict[str, str] = {}
        """`!command` marker message id -> the message that ran the command."""
        self._marker_of: dict[str, str] = {}
        """The reverse: run message id -> its marker (a run has no turn of its own)."""
        self._ids: list[str] | None = None
        """Every message id in order, made when a `!command` needs its neighbour."""

    def forget(self) -> None:
        """Drop everything read so far (the source was replaced or rows were deleted)."""
        self._infos.clear()
        self._parts.clear()
        self._order.clear()
        self._dirty.clear()
        self._run_of.clear()
        self._marker_of.clear()
        self._ids = None
        self.session.turns.clear()
        self.session.skipped.clear()
        self.mark_changed(0)

    def put_message(self, message_id: str, info: dict[str, Any]) -> None:
        if message_id not in self._infos:
            self._ids = None
        self._infos[message_id] = info
        self._dirty.add(message_id)

    def put_part(self, message_id: str, part_id: str, part: dict[str, Any]) -> None:
        self._parts.setdefault(message_id, {})[part_id] = part
        self._dirty.add(message_id)

    def rebuild(self) -> None:
        """Re-derive the turns of changed messages; new messages are placed by id."""
        changed = {m for m in self._dirty if m in self._infos}
        # parts whose message has not arrived yet stay dirty (a new set: an emptied one
        # would keep the room it had for every message of the session)
        self._dirty = self._dirty - changed
        if not changed:
            return
        changed |= self._pair_shell_runs(changed)
        order, turns = self._order, self.session.turns
        first_new = len(order)
        for message_id in sorted(changed):
            pos = bisect.bisect_left(order, message_id)
            present = pos < len(order) and order[pos] == message_id
            if message_id in self._marker_of:  # a `!command`'s run: shown in its marker's turn
                if present:
                    del order[pos], turns[pos]
                    first_new = min(first_new, pos)
                continue
            if present:
                self._replace(pos)
                continue
            order.insert(pos, message_id)
            turns.insert(pos, self._make(message_id))
            first_new = min(first_new, pos)
        for index in range(first_new, len(turns)):
            turns[index].index = index
        if first_new < len(turns):
            self.mark_changed(first_new)

    def _pair_shell_runs(self, changed: set[str]) -> set[str]:
        """Settle which messages are a `!command` marker and its run; return the messages
        whose turns that changes (a marker that got or lost its run, a run set free).
        Links that no longer hold are undone first, so a run can take their place."""
        touched: set[str] = set()
        todo = sorted(changed | self._runs_after(changed))
        for message_id in todo:
            marker = self._marker_of.get(message_id)
            if marker is not None and self._marker_for(message_id) != marker:
                self._unlink(marker, message_id)
                touched |= {marker, message_id}
            run = self._run_of.get(message_id)
            if run is not None and not self._is_marker(message_id):
                self._unlink(message_id, run)  # its parts changed: no longer a marker
                touched |= {message_id, run}
        for message_id in todo:
            if self._infos[message_id].get("role") == "assistant":
                marker = self._marker_for(message_id)
                if marker is not None:
                    self._link(marker, message_id)
                    touched.add(marker)  # the command's turn shows the run's parts
            elif message_id not in self._run_of and self._is_marker(message_id):
                ids = self._sorted_ids()
                at = bisect.bisect_right(ids, message_id)
                run = ids[at] if at < len(ids) else None
                if run is not None and self._marker_for(run) == message_id:
                    self._link(message_id, run)
                    touched.add(run)
        return touched

    def _runs_after(self, changed: set[str]) -> set[str]:
        """Runs of older opencode (no parent) right after a changed message: a message
        that arrived between such a run and its marker means it is no run of it."""
        if not any(not isinstance(self._infos[r].get("parentID"), str) for r in self._marker_of):
            return set()
        ids = self._sorted_ids()
        after = (bisect.bisect_right(ids, m) for m in changed)
        return {ids[at] for at in after if at < len(ids) and ids[at] in self._marker_of}

    def _marker_for(self, run: str) -> str | None:
        """The `!command` marker whose run the assistant message `run` is, if it is one:
        its parent (older opencode names none: the message right before it), a marker not
        run by an earlier message, and `run` holds nothing but tool parts."""
        info = self._infos[run]
        if info.get("role") != "assistant":
            return None
        marker = info.get("parentID")
        if marker is None:
            ids = self._sorted_ids()
            at = bisect.bisect_left(ids, run)
            marker = ids[at - 1] if at else None
        if not isinstance(marker, str) or not self._is_marker(marker):
            return None
        if self._run_of.get(marker, run) != run:
            return None
        return marker if is_shell_run(list(self._parts.get(run, {}).values())) else None

    def _sorted_ids(self) -> list[str]:
        if self._ids is None:
            self._ids = sorted(self._infos)  # near-sorted already: linear for timsort
        return self._ids

    def _is_marker(self, message_id: str) -> bool:
        info = self._infos.get(message_id)
        if info is None or info.get("role") != "user":
            return False
        return is_shell_mark(list(self._parts.get(message_id, {}).values()))

    def _link(self, marker: str, run: str) -> None:
        self._run_of[marker] = run
        self._marker_of[run] = marker

    def _unlink(self, marker: str, run: str) -> None:
        self._run_of.pop(marker, None)
        self._marker_of.pop(run, None)

    def _make(self, message_id: str) -> Turn:
        info = self._infos[message_id]
        run = self._run_of.get(message_id)
        if run is not None:
            parts = self._parts.get(run, {})
            turn = build_shell_turn(message_id, info, [parts[key] for key in sorted(parts)])
        else:
            parts = self._parts.get(message_id, {})
            turn = build_turn(message_id, info, [parts[key] for key in sorted(parts)])
        return self.made(turn)

    def made(self, turn: Turn) -> Turn:
        """A turn just built of its message's records (a reader may keep its parts elsewhere)."""
        return turn

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
