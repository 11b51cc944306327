"""Turns of a rewritten JSON document whose parts stay in the file until asked for.

A batch read of a Cline or Continue session (`scan`, an export, the replayer)
keeps, per turn, what every listing and the detector's first pass need (role,
flags, time, preview, usage) and where its items are in the file: `Piece`s, each
an item's offset, length and CRC-32, and what the item adds to the turn (its
`tag`). `turn.parts` decodes those items again and rebuilds the parts with the
reader's own code, through a small cache, as the Claude Code reader does with
its byte spans: a 1 GB session is not held as Python objects.

The file is rewritten whole by its client, so an item may have moved, or be
gone, when it is asked for: each piece is checked against its CRC, and one that
no longer matches is looked for by its CRC in the file as it is now (one pass
over it, kept until the file changes again). A piece found nowhere gives the
turn no parts until the reader reads the file again. The CRCs also tell a
rebuilt turn from the one read before without decoding either
(`generic_common.turn_signature`).

A log that is only ever appended to (Kimi's wire log) or a file named by its
content (Vibe's chunks) keeps its items where they are: its store has no `key`,
and a piece that no longer matches is gone, not moved. A turn's pieces may be in
several files (`Piece.file`).
"""

from __future__ import annotations

import _thread
import os
import zlib
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pivotal.model import Part, ToolCall, Turn
from pivotal.readers.base import PREVIEW_LIMIT, decode_json, preview_of
from pivotal.readers.json_items import scan_document

__all__ = ["ItemStore", "PartsCache", "Piece", "pieces_of", "preview_cut"]

CACHE_TURNS = 256
CACHE_BYTES = 64 << 20
"""The cache keeps the parts of at most this many turns, and of items of at most this size."""


class Piece(NamedTuple):
    """One item of the document that a turn is built from."""

    offset: int
    length: int
    crc: int
    tag: object = None
    """What the item gives the turn (reader-defined, e.g. the calls a tool result answers)."""
    file: Path | None = None
    """The file the item is in, when it is not the store's own."""


Rebuild = Callable[[Turn, list[tuple[object, object]]], list[Part]]
"""The reader's own code: a turn's parts from its items, decoded, each with its piece's tag."""


def pieces_of(turn: Turn) -> tuple[Piece, ...] | None:
    """The pieces a turn of a lazily read document is built from (None for other turns)."""
    extra = turn.extra
    return extra.get("pieces") if extra is not None else None


def piece(
    offset: int, item: bytes | memoryview, tag: object = None, file: Path | None = None
) -> Piece:
    """The piece for `item`, found at `offset` of the file (`file`, or the store's)."""
    return Piece(offset, len(item), zlib.crc32(item), tag, file)


def preview_cut(text: str) -> str:
    """As much of `text` as the preview of any text it is joined into can show.

    An index whose turn is built of several items keeps this of each text instead of
    the text, and its preview comes out the same (`preview_of` of the texts joined).
    A preview is the first PREVIEW_LIMIT characters after the leading white space,
    without the trailing white space: so the text's own leading white space is kept
    (text before it may put it inside a preview), then PREVIEW_LIMIT characters, then
    an "x" when non-white text followed them (white space before it is not trailing).
    """
    rest = text.lstrip()
    if len(rest) <= PREVIEW_LIMIT:
        return text
    more = "x" if rest[PREVIEW_LIMIT:].strip() else ""
    return text[: len(text) - len(rest) + PREVIEW_LIMIT] + more


def close_lazily(
    step: Turn,
    store: ItemStore | None,
    pieces: list[Piece],
    calls: dict[str, tuple[ToolCall | None, int]],
) -> None:
    """A step of a line log that has just closed (Kimi's, Kimi Code's): its preview, and in
    a batch read (`store`) it is kept as its `pieces`, its calls' later results only adding
    lines to them (`calls` forgets the call objects, not where they are)."""
    step.preview = preview_of(step.text)
    if store is None:
        return
    for call in step.tool_calls:
        found = calls.get(call.call_id)
        if found is not None and found[0] is call:
            calls[call.call_id] = (None, found[1])
    store.make_lazy(step, pieces)


class PartsCache:
    """The parts of the turns asked for last: at most CACHE_TURNS turns, built of at most
    CACHE_BYTES of the session. The UI and the detector may ask at once."""

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._cache: OrderedDict[object, tuple[list[Part], int]] = OrderedDict()
        self._bytes = 0

    def get(self, key: object) -> list[Part] | None:
        with self._lock:
            found = self._cache.get(key)
            if found is None:
                return None
            self._cache.move_to_end(key)
            return found[0]

    def put(self, key: object, parts: list[Part], size: int) -> None:
        """Keep `parts`, built of `size` bytes of the session, under `key`."""
        with self._lock:
            if key in self._cache:
                return
            self._cache[key] = (parts, size)
            self._bytes += size
            while self._cache and (len(self._cache) > CACHE_TURNS or self._bytes > CACHE_BYTES):
                _, (_, dropped) = self._cache.popitem(last=False)
                self._bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._bytes = 0


class ItemStore:
    """Where a reader's lazy turns find their items: the file, and a bounded cache."""

    def __init__(self, path: Path, key: str | None, rebuild: Rebuild) -> None:
        self.path = path
        self.key = key
        """The top-level member whose array holds the items; None when the items never move
        (a log only appended to, a file named by its content): one that no longer matches
        is gone."""
        self.rebuild = rebuild
        self._lock = _thread.allocate_lock()
        self._cache = PartsCache()
        self._load = self.load  # one bound method for every turn (not one each)
        self._moved: tuple[tuple, dict[tuple[int, int], int]] | None = None
        """The file as it was when its items were last looked for, and where each was."""

    def make_lazy(self, turn: Turn, pieces: list[Piece]) -> None:
        """Keep `turn`'s parts in the file: drop them, decode them again when asked."""
        turn.extra = {"pieces": tuple(pieces)}
        turn._parts = None
        turn._loader = self._load

    def rebuilt(self, turn: Turn) -> list[Part] | None:
        """`turn`'s parts read from the file now, not cached (None when they are gone)."""
        items = self._read(pieces_of(turn) or ())
        return None if items is None else self.rebuild(turn, items)

    def load(self, turn: Turn) -> list[Part]:
        pieces = pieces_of(turn) or ()
        cached = self._cache.get(pieces)
        if cached is not None:
            return cached
        items = self._read(pieces)
        if items is None:
            return []  # moved out of the file: nothing until the reader reads it again
        parts = self.rebuild(turn, items)
        self._cache.put(pieces, parts, sum(p.length for p in pieces))
        return parts

    def _read(self, pieces: tuple[Piece, ...]) -> list[tuple[object, object]] | None:
        items: list[tuple[object, object]] = []
        opened: dict[Path, int] = {}
        try:
            for found in pieces:
                path = found.file or self.path
                fd = opened.get(path)
                if fd is None:
                    fd = opened[path] = os.open(path, os.O_RDONLY)
                data = os.pread(fd, found.length, found.offset)
                if zlib.crc32(data) != found.crc:
                    data = self._relocated(fd, found) if found.file is None else None
                    if data is None:
                        return None
                try:
                    items.append((decode_json(data), found.tag))
                except ValueError:
                    return None
        except OSError:
            return None
        finally:
            for fd in opened.values():
                os.close(fd)
        return items

    def _relocated(self, fd: int, wanted: Piece) -> bytes | None:
        """The item of `wanted`'s length and CRC, wherever it is in the file now."""
        if self.key is None:
            return None
        st = os.fstat(fd)
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
        with self._lock:
            moved = self._moved
        if moved is None or moved[0] != stamp:
            where: dict[tuple[int, int], int] = {}

            def note(offset: int, item: memoryview) -> None:
                where.setdefault((len(item), zlib.crc32(item)), offset)

            try:
                scan_document(fd, st.st_size, self.key, note)
            except ValueError:
                pass  # mid-rewrite: what was found before the break is all there is
            moved = (stamp, where)
            with self._lock:
                self._moved = moved
        offset = moved[1].get((wanted.length, wanted.crc))
        if offset is None:
            return None
        data = os.pread(fd, wanted.length, offset)
        return data if zlib.crc32(data) == wanted.crc else None
