"""A JSON document read piece by piece: each item of its one big array, in bounded memory.

Cline's and Continue's sessions are one JSON document rewritten whole, nearly all
of it one array (`messages`, `history`). Decoding the document at once holds its
bytes, a repaired copy when raw control bytes need escaping, and every object of
it: 3.6 times a 1 GB session (issue 34). `scan_document` reads the file in chunks
instead and hands each item of that array to the caller as a slice of the chunk
(its byte offset in the file with it), so the caller decodes one item at a time
and keeps what it wants of it; the other top-level members are decoded and
returned.

Finding where an item ends needs no parse in Python in the usual case: the
clients write the document indented (`JSON.stringify(doc, null, 2)`), so an item
that starts at the beginning of a line ends at the first line that closes it at
the same indentation (`bytes.find`, no per-character work). That guess is only
trusted once the item decodes (a slice that decodes whole is exactly the value
that starts there); when it does not, or the document is not indented, the end is
found by walking the item's brackets and strings. The result is the same either
way: a document is read when, and as, `decode_json` would read it whole, and a
malformed or half-written one raises ValueError.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from typing import TypeVar

import msgspec

from pivotal.readers.base import decode_json
from pivotal.readers.json_repair import BOM, repaired

__all__ = ["ITEMS", "decode_light", "scan_document"]

CHUNK = 1 << 20
"""Bytes read at a time; an item longer than the buffer doubles it (one item at a time)."""

ITEMS = object()
"""The value of the array's member (or the whole document) once its items were handed on."""

_WS = re.compile(rb"[ \t\n\r]*+")
_NEXT = re.compile(rb"[ \t\n\r]*+,[ \t\n\r]*+")
_STRUCT = re.compile(rb'[\[\]{}"]')
_SCALAR = re.compile(rb"[^ \t\n\r,\]}]*+")
_QUOTE, _BACKSLASH = 0x22, 0x5C
_OPEN = {0x7B: b"}", 0x5B: b"]"}  # { and [, and what closes them

Each = Callable[[int, memoryview], None]
T = TypeVar("T")


def decode_light(item: memoryview, decode: Callable[[object], T]) -> T | None:
    """`decode(item)` (a typed msgspec decoder: what an index takes of an item), the item
    repaired first when it needs it, as `decode_json` would; None when the item does not
    have the shape `decode` wants (or is not JSON): `decode_json` then reads it whole."""
    try:
        return decode(item)
    except msgspec.ValidationError:
        return None
    except msgspec.DecodeError:
        pass
    fixed = repaired(bytes(item))
    if fixed is None:
        return None
    try:
        return decode(fixed)
    except msgspec.DecodeError:
        return None


class _Truncated(Exception):
    """The document ends inside a value."""


def scan_document(
    fd: int,
    size: int,
    key: str,
    each: Each,
    begin: Callable[[], None] = lambda: None,
) -> object:
    """Hand each item of the document's array to `each(offset, item)`; the rest decoded.

    The array is the top-level object's member `key`, or the document itself when
    it is an array. `begin()` is called before its first item (again if the object
    names `key` twice: the last one counts, as when the whole document is decoded).
    `each` decodes the item at once (the slice is the read buffer's) and raises
    ValueError when it is not JSON. Returns the top-level object's members, with
    `ITEMS` for `key` when its items were handed on; `ITEMS` for a top-level array;
    the decoded value of any other document. Raises ValueError (msgspec.DecodeError)
    when the document is not whole, valid JSON.
    """
    reader = _Reader(fd, size)
    try:
        return reader.document(key, each, begin)
    except _Truncated:
        raise msgspec.DecodeError("Input data was truncated") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


class _Reader:
    """The file's bytes from `base` on, read as far as needed; positions are relative."""

    def __init__(self, fd: int, size: int) -> None:
        self.fd, self.size = fd, size
        self.data = bytearray()
        self.base = 0

    # -- the buffer -----------------------------------------------------------
    def more(self, keep: int) -> int:
        """Drop the bytes before `keep` and read more; the shift of every kept position."""
        end = self.base + len(self.data)
        if end >= self.size:
            raise _Truncated
        kept = len(self.data) - keep
        want = min(max(CHUNK, kept), self.size - end)
        data = bytearray(kept + want)  # read into place: no second copy of what is read
        data[:kept] = memoryview(self.data)[keep:]
        got = os.preadv(self.fd, [memoryview(data)[kept:]], end)
        if not got:
            raise _Truncated  # the file shrank while it was read
        if got < want:
            del data[kept + got :]
        self.data = data
        self.base += keep
        return keep

    def at(self, pos: int) -> int:
        """`pos` after any white space, with at least one byte there (reading more if needed)."""
        while True:
            pos = _WS.match(self.data, pos).end()  # type: ignore[union-attr]
            if pos < len(self.data):
                return pos
            pos -= self.more(pos)

    def fail(self, pos: int, what: str) -> msgspec.DecodeError:
        return msgspec.DecodeError(f"JSON is malformed: {what} (byte {self.base + pos})")

    # -- the document -----------------------------------------------------------
    def document(self, key: str, each: Each, begin: Callable[[], None]) -> object:
        self.more(0)
        pos = self.at(len(BOM) if self.data.startswith(BOM) else 0)
        first = self.data[pos]
        if first == 0x7B:  # {
            result, end = self.members(pos + 1, key, each, begin)
        elif first == 0x5B:  # [
            begin()
            result, end = ITEMS, self.items(pos + 1, each)
        else:
            start, end = self.value(pos)
            result = self.decoded(start, end)
        self.end(end)
        return result

    def end(self, pos: int) -> None:
        """Nothing but white space may follow the document."""
        while True:
            pos = _WS.match(self.data, pos).end()  # type: ignore[union-attr]
            if pos < len(self.data):
                raise self.fail(pos, "trailing characters")
            try:
                pos -= self.more(pos)
            except _Truncated:
                return

    def members(
        self, pos: int, key: str, each: Each, begin: Callable[[], None]
    ) -> tuple[dict[str, object], int]:
        """The members of the object whose `{` is just before `pos`, and where it ends."""
        out: dict[str, object] = {}
        pos = self.at(pos)
        if self.data[pos] == 0x7D:  # }
            return out, pos + 1
        while True:
            if self.data[pos] != _QUOTE:
                raise self.fail(pos, "expected a member name")
            start, end = self.value(pos)
            name = self.decoded(start, end)
            pos = self.at(end)
            if self.data[pos] != 0x3A:  # :
                raise self.fail(pos, "expected ':'")
            pos = self.at(pos + 1)
            if name == key and self.data[pos] == 0x5B:
                begin()
                out[key] = ITEMS
                pos = self.items(pos + 1, each)
            else:
                start, end = self.value(pos)
                out[name] = self.decoded(start, end)  # type: ignore[index]
                pos = end
            pos = self.at(pos)
            mark = self.data[pos]
            if mark == 0x7D:  # }
                return out, pos + 1
            if mark != 0x2C:  # ,
                raise self.fail(pos, "expected ',' or '}'")
            pos = self.at(pos + 1)

    def items(self, pos: int, each: Each) -> int:
        """Hand on each item of the array whose `[` is just before `pos`; where it ends."""
        pos = self.at(pos)
        if self.data[pos] == 0x5D:
            return pos + 1
        while True:
            start, end, guessed = self.item(pos)
            try:
                each(self.base + start, memoryview(self.data)[start:end])
            except ValueError as exc:
                if not guessed:
                    raise _in_file(exc, self.base + start) from None
                guess = self.base + end  # the indentation misled: walk the item instead
                start, end = self.value(start)
                if self.base + end == guess:
                    raise _in_file(exc, self.base + start) from None
                try:
                    each(self.base + start, memoryview(self.data)[start:end])
                except ValueError as exc:
                    raise _in_file(exc, self.base + start) from None
            found = _NEXT.match(self.data, end)  # the usual `,` and the next line's indent
            if found is not None and found.end() < len(self.data):
                pos = found.end()
                continue
            pos = self.at(end)
            mark = self.data[pos]
            if mark == 0x5D:  # ]
                return pos + 1
            if mark != 0x2C:
                raise self.fail(pos, "expected ',' or ']'")
            pos = self.at(pos + 1)

    def decoded(self, start: int, end: int) -> object:
        return decode_json(memoryview(self.data)[start:end])

    # -- where a value ends -------------------------------------------------------
    def item(self, start: int) -> tuple[int, int, bool]:
        """(start, end, guessed) of the value at `start`: by its indentation when it has one."""
        data = self.data
        closer = _OPEN.get(data[start])
        line = data.rfind(b"\n", 0, start) + 1
        indent = data[line:start]
        if closer is None or not line or indent.strip(b" \t"):
            start, end = self.value(start)
            return start, end, False
        closing = _closing(b"\n" + indent + closer)
        search = start
        while True:
            found = closing.search(self.data, search)
            if found is not None:
                return start, found.end(), True
            search = max(start, len(self.data) - len(indent) - 2)
            try:
                shift = self.more(start)
            except _Truncated:
                start, end = self.value(start)
                return start, end, False
            start, search = start - shift, search - shift

    def value(self, start: int) -> tuple[int, int]:
        """(start, end) of the value at `start`, found by its brackets and strings."""
        first = self.data[start]
        if first in _OPEN:
            return self.container(start)
        if first == _QUOTE:
            while True:
                end = _string_end(self.data, start)
                if end >= 0:
                    return start, end
                start -= self.more(start)
        while True:
            end = _SCALAR.match(self.data, start).end()  # type: ignore[union-attr]
            if end < len(self.data):
                if end == start:
                    raise self.fail(start, "expected a value")
                return start, end
            try:
                start -= self.more(start)
            except _Truncated:
                return start, end

    def container(self, start: int) -> tuple[int, int]:
        depth, pos = 0, start
        while True:
            data = self.data
            found = _STRUCT.search(data, pos)
            if found is not None:
                at = found.start()
                mark = data[at]
                if mark == _QUOTE:
                    end = _string_end(data, at)
                    if end >= 0:
                        pos = end
                        continue
                    pos = at  # the string goes on past the buffer
                elif mark in _OPEN:
                    depth += 1
                    pos = at + 1
                    continue
                else:
                    depth -= 1
                    pos = at + 1
                    if depth == 0:
                        return start, pos
                    continue
            else:
                pos = len(data)
            shift = self.more(start)
            start, pos = start - shift, pos - shift


_BYTE = re.compile(r"\(byte (\d+)\)")


def _in_file(exc: ValueError, offset: int) -> ValueError:
    """An item's decode error, its byte counted from the start of the file."""
    return type(exc)(_BYTE.sub(lambda m: f"(byte {int(m.group(1)) + offset})", str(exc)))


@functools.lru_cache(maxsize=64)
def _closing(line: bytes) -> re.Pattern[bytes]:
    """The line that closes an item at its indentation (a regex: `re` finds a literal
    faster than `bytes.find` when its bytes are common ones, as spaces are)."""
    return re.compile(re.escape(line))


def _string_end(data: bytes, start: int) -> int:
    """Where the string whose `"` is at `start` ends (after its closing quote); -1 past `data`."""
    pos = start + 1
    while True:
        quote = data.find(b'"', pos)
        if quote < 0:
            return -1
        back = quote - 1
        while data[back] == _BACKSLASH:
            back -= 1
        if (quote - 1 - back) % 2 == 0:  # not itself escaped
            return quote + 1
        pos = quote + 1
