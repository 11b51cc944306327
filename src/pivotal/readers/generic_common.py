"""Helpers shared by the Codex, Gemini and generic chat readers.

What lives here: reading a whole JSON document that its writer rewrites in
place (old Gemini `.json` chats, exported chat arrays). Those
readers rebuild their turns from scratch on every change, so `replace_turns`
keeps the turns that did not change and reports only the first that did.
"""

from __future__ import annotations

import os
from abc import abstractmethod

from pivotal.model import Part, PartKind, SessionRef, Turn
from pivotal.readers.base import (
    SessionReader,
    Update,
    decode_json,
    describe_decode_error,
    shown_name,
    source_gone,
)
from pivotal.readers.lazy_items import pieces_of


def turn_signature(turn: Turn) -> tuple:
    """Everything a viewer shows of a turn, to tell whether a rebuilt turn changed.

    A turn whose parts stay in the file (`lazy_items`) is told by its items' lengths,
    CRCs and tags instead: the same bytes read by the same code give the same parts,
    and nothing has to be decoded to compare them.
    """
    pieces = pieces_of(turn)
    parts: list[tuple] = []
    if pieces is not None:
        parts = [(piece.length, piece.crc, piece.tag) for piece in pieces]
    for part in turn.parts if pieces is None else ():
        tool = part.tool
        if tool is None:
            parts.append((part.kind, part.text))
        else:
            parts.append(
                (
                    part.kind,
                    tool.call_id,
                    tool.name,
                    repr(tool.input),
                    tool.output,
                    tool.is_error,
                    tool.exit_code,
                    tool.duration_ms,
                    tool.status,
                )
            )
    usage = turn.usage
    return (
        turn.role,
        int(turn.flags),
        turn.timestamp,
        turn.message_id,
        turn.source,
        turn.model,
        None if usage is None else (usage.input, usage.output, usage.cache_read, usage.reasoning),
        tuple(parts),
    )


def replace_turns(reader: SessionReader, new_turns: list[Turn]) -> None:
    """Make `reader.session.turns` equal `new_turns`, marking only what changed.

    Turns before the first difference keep their identity, so a viewer holding
    them is not disturbed.
    """
    old = reader.session.turns
    first = 0
    limit = min(len(old), len(new_turns))
    while first < limit and turn_signature(old[first]) == turn_signature(new_turns[first]):
        if pieces_of(old[first]) is not None:
            old[first].extra = new_turns[first].extra  # where its items are in the file now
        first += 1
    if first == len(old) == len(new_turns):
        return
    del old[first:]
    for index, turn in enumerate(new_turns[first:], start=first):
        turn.index = index
        old.append(turn)
    reader.mark_changed(first)


def text_part(text: str) -> Part:
    return Part(PartKind.TEXT, text=text)


class WholeFileJsonReader(SessionReader):
    """A JSON document rewritten whole by its writer: re-read it when it changes.

    A half-written document (the writer is mid-rewrite) keeps the turns read
    before and is retried on the next poll; only a final read reports it.
    """

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._stamp: tuple[int, int, int, int] | None = None
        self._size = 0
        self._failed = False
        self._failed_stamp: tuple[int, int, int, int] | None = None
        """The version of the file already reported as unreadable (reported once, not per poll)."""

    @abstractmethod
    def build(self, doc: object) -> list[Turn] | None:
        """Turns for a decoded document, or None when it is not this format's shape."""

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        path = self.ref.path
        skipped_before = len(self.session.skipped)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return source_gone(path)
        stamp = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        self._size = st.st_size
        notice = None
        if stamp != self._stamp or (final and self._failed):
            notice = self._reload(stamp, final)
        if notice:
            self.session.notices.append(notice)
        return Update(
            first_changed=self.take_first_changed(),
            notice=notice,
            new_skipped=max(len(self.session.skipped) - skipped_before, 0),
        )

    def _reload(self, stamp: tuple[int, int, int, int], final: bool) -> str | None:
        try:
            doc = self.read_document()
        except OSError as exc:
            return f"{shown_name(self.ref.path)}: cannot read ({exc.strerror or exc})"
        except ValueError as exc:
            self._fail(stamp, final, describe_decode_error(exc))
            return None
        turns = self.build(doc) if doc is not None else []
        if turns is None:
            self._fail(stamp, final, "not a chat document")
            return None
        self._failed = False
        self._stamp = stamp
        replace_turns(self, turns)
        return None

    def read_document(self) -> object:
        """The decoded document; None for an empty file. ValueError when it is not JSON.

        The document's bytes are not kept once it is decoded (the turns are built after).
        """
        with open(self.ref.path, "rb") as handle:
            data = handle.read()
        return None if not data or data.isspace() else decode_json(data)

    def _fail(self, stamp: tuple[int, int, int, int], final: bool, why: str) -> None:
        """The document cannot be read as it is: skipped once per version of the file."""
        self._failed = True
        if final and stamp != self._failed_stamp:
            self._failed_stamp = stamp
            if why != "not a chat document":
                why = f"incomplete or malformed JSON document ({why})"
            self.skip(None, why)

    @property
    def progress(self) -> tuple[int, int]:
        return (self._size, self._size) if self._stamp else (0, self._size)
