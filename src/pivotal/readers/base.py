"""What every format reader is: an incremental reader over one session.

A reader owns one `Session` and grows it. `poll()` reads whatever is new in
the source since the last call (appended bytes, new rows, rewritten files)
and returns an `Update` saying which turns are new or changed. Batch reading
is one `poll(final=True)`; the live tail calls `poll()` again on every change
notification. Readers only ever open their sources for reading.

This module holds what every reader needs (the reader interface, `Update`,
the registry entry `FormatSpec`, JSON decoding that tolerates real files,
timestamps, previews); line-based formats also build on
`pivotal.readers.lines.LineFileReader`.
"""

from __future__ import annotations

import gc
import os
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar

import msgspec

from pivotal.model import Session, SessionRef, Skipped, Turn
from pivotal.readers.files import SessionFiles, own_files
from pivotal.readers.json_repair import BOM, repaired

MAX_REASON = 120


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector around a big index pass.

    Reading a large session allocates hundreds of thousands of small objects, none
    of them in reference cycles; the collector would walk the growing heap again and
    again for nothing. Reference counting still frees everything as usual; only the
    cycle search waits. Measured on 1 Dec 2026 (CPU time of `read_session`,
    interleaved runs, the synthetic sessions of `bench/bench_parse.py`): 100 MB
    0.221 s paused vs 0.251 s not (12 %), 1 GB 2.16 s vs 2.91 s (26 %): the walk
    grows with the heap, so the bigger the file the more it saves.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class Update(msgspec.Struct, frozen=True):
    """What one `poll()` changed.

    `first_changed` is the lowest turn index that is new or changed; every
    turn from there on must be treated as new (turns may also have been
    removed: a rewind or a reload shortens the list). None means nothing
    changed. `reloaded` says the source was truncated or replaced and the
    whole session was read again. `notice` is one line for the user.
    """

    first_changed: int | None = None
    reloaded: bool = False
    notice: str | None = None
    new_skipped: int = 0
    gone: bool = False
    """The source no longer exists (turns read so far are kept)."""

    @property
    def changed(self) -> bool:
        return self.first_changed is not None or self.reloaded or self.new_skipped > 0


def source_gone(path: Path) -> Update:
    """What a poll says when the session's file or folder no longer exists."""
    return Update(gone=True, notice=f"{shown_name(path)} is gone; keeping what was read")


class SessionReader(ABC):
    """Reads one session incrementally. Subclasses fill `self.session`."""

    format: ClassVar[str]

    def __init__(self, ref: SessionRef) -> None:
        self.ref = ref
        self.session = Session(format=self.format, path=ref.path, key=ref.key)
        self._first_changed: int | None = None

    # -- helpers for subclasses -------------------------------------------
    def mark_changed(self, index: int) -> None:
        """Record that turn `index` (and everything after it) is new or changed."""
        if self._first_changed is None or index < self._first_changed:
            self._first_changed = index

    def append_turn(self, turn: Turn) -> Turn:
        """Append `turn`, fixing its index, and mark it new."""
        turn.index = len(self.session.turns)
        self.session.turns.append(turn)
        self.mark_changed(turn.index)
        return turn

    def truncate_turns(self, length: int) -> None:
        """Drop turns from `length` on (rewinds, checkpoints)."""
        if length < len(self.session.turns):
            del self.session.turns[length:]
            self.mark_changed(length)

    def skip(self, line: int | None, reason: str) -> None:
        self.session.skipped.append(Skipped(line, reason[:MAX_REASON]))

    def take_first_changed(self) -> int | None:
        first, self._first_changed = self._first_changed, None
        return first

    # -- the interface ----------------------------------------------------
    @abstractmethod
    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        """Read what is new. `final=True` means no more data will come (batch read).

        `budget` caps the bytes read in this call (None = everything), so a UI can
        show the first screen of a huge file while the rest is still being read;
        `progress` says how far it got. Readers that cannot split their work may
        ignore it. `final` only takes effect once the reader has reached the end.
        """

    @property
    def progress(self) -> tuple[int, int]:
        """(done, total) in the reader's own unit (bytes for files); equal when caught up."""
        return (1, 1)

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release any handle the reader keeps."""


# ---------------------------------------------------------------------------
# Decoding helpers shared by the JSON readers.

_json_decode = msgspec.json.decode
_fromisoformat = datetime.fromisoformat


def decode_json(line: bytes | msgspec.Raw) -> object:
    """Decode one JSON record, tolerating what real files contain.

    A UTF-8 BOM is ignored, invalid UTF-8 and lone surrogate escapes are
    replaced with U+FFFD, raw control bytes are read as the text they stand for
    (`json_repair`, in bounded memory), nesting too deep to decode is a plain error, and a
    number beyond a double (`1e400`) decodes as infinity instead of costing the
    whole record (readers then treat such a time or duration as missing).
    Raises ValueError (msgspec.DecodeError is one) when the record is not JSON.
    """
    try:
        return _json_decode(line)
    except msgspec.DecodeError as exc:
        # only what the error says is kept: the error itself would hold this frame (and
        # the repaired copy below) in a reference cycle, freed only by the cyclic
        # collector, which big reads pause (one copy per bad line stayed: issue 34)
        huge = _OUT_OF_RANGE in str(exc)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    raw = bytes(line)
    fixed = repaired(raw)
    if fixed is None:
        if huge:
            return _decode_huge_numbers(raw)
        return _json_decode(raw)  # raises the original error
    try:
        return _json_decode(fixed)
    except msgspec.DecodeError as exc:
        if _OUT_OF_RANGE in str(exc):
            return _decode_huge_numbers(fixed)
        raise
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


_OUT_OF_RANGE = "Number out of range"


def _decode_huge_numbers(data: bytes | bytearray) -> object:
    """JSON holding a number beyond a double: Python's json reads it as infinity."""
    import json

    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of over 4,300 digits
        raise ValueError(f"malformed JSON: {exc}") from None


def first_json_line(head: bytes, skip: int = 3) -> object:
    """The first line of a file's head that decodes as JSON, or None (for `sniff` functions).

    Up to `skip` unreadable lines before it are passed over, so one garbage or
    half-written first line does not make a whole session unrecognisable (the
    reader then reports that line as skipped). The head's last line, which has
    no newline after it, may be a record longer than the head: it is read by
    its start (`decode_json_start`).
    """
    lines = head.split(b"\n")
    last = len(lines) - 1
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            return decode_json(line)
        except ValueError:
            if number == last:
                return decode_json_start(line)
            if skip <= 0:
                return None
            skip -= 1
    return None


# A JSON token after optional white space: a whole string (possessive, so an unterminated
# one fails at once instead of backtracking), one structural character, or a bare word
# (a number, true, false, null).
_TOKEN = re.compile(rb'\s*+(?:("(?:[^"\\]++|\\.)*+")|([{}\[\]:,])|([^\s{}\[\]:,"]++))')
_OPEN_STRING = re.compile(rb'\s*+"')
_TRAILING_ESCAPE = re.compile(rb"(\\+)(u[0-9a-fA-F]{0,3})?\Z")
_CLOSER = {ord("{"): b"}", ord("["): b"]"}
_KEY, _COLON, _VALUE, _AFTER = range(4)
"""Where the innermost open container is: before a key, after a key, before a value, after one."""


def decode_json_start(data: bytes | memoryview) -> object:
    """What is whole of a JSON object or array cut short; None when not even its start is.

    A session's first record can be longer than the part of the file read to recognise
    it (a pasted log, an inlined image, an agent's whole system prompt). The members and
    elements that end before the cut are kept, a string value cut midway keeps the part
    that was read, and the containers still open are closed; a member whose key or number
    was cut is left out. Sniffers use it to tell a format by a record's leading keys
    without reading the whole record. Text that is not JSON gives None.
    """
    raw = bytes(data)
    raw = raw[len(BOM) :] if raw.startswith(BOM) else raw
    stack: list[int] = []  # the opening byte of each open container
    state = _VALUE
    good, good_depth = 0, 0  # raw[:good] + the first good_depth closers is whole JSON
    pos, size = 0, len(raw)
    while pos < size:
        match = _TOKEN.match(raw, pos)
        if match is None:
            break
        string, mark = match.group(1, 2)
        if not stack and mark not in (b"{", b"["):
            return None  # not an object or array
        if mark in (b"{", b"["):
            if state != _VALUE:
                return None
            stack.append(raw[match.end() - 1])
            state = _KEY if mark == b"{" else _VALUE
            good, good_depth = match.end(), len(stack)
        elif mark in (b"}", b"]"):
            stack.pop()
            state = _AFTER
            good, good_depth = match.end(), len(stack)
            if not stack:
                break
        elif mark == b",":
            if state != _AFTER:
                return None
            good, good_depth = match.start(), len(stack)
            state = _KEY if stack[-1] == ord("{") else _VALUE
        elif mark == b":":
            if state != _COLON:
                return None
            state = _VALUE
        elif state == _KEY and string is not None:
            state = _COLON
        elif state == _VALUE:
            if string is not None:
                good, good_depth = match.end(), len(stack)  # a bare word may be cut: wait
            state = _AFTER
        else:
            return None
        pos = match.end()
    if not stack:
        text = raw[:good]
    elif state == _VALUE and _OPEN_STRING.match(raw, pos):
        # a string value cut midway: keep what was read (without a half escape)
        text = _without_half_escape(raw) + b'"' + _closing(stack)
    else:
        text = raw[:good] + _closing(stack[:good_depth])
    try:
        return decode_json(text)
    except ValueError:
        return None


def _without_half_escape(text: bytes) -> bytes:
    """`text` without an escape sequence cut midway at its end (`\\`, `\\u00`)."""
    match = _TRAILING_ESCAPE.search(text)
    if match is None or len(match.group(1)) % 2 == 0:
        return text  # no backslash, or only escaped ones
    return text[: match.end(1) - 1]


def _closing(stack: list[int]) -> bytes:
    return b"".join(_CLOSER[opener] for opener in reversed(stack))


_DECODER_PREFIX = "JSON is malformed: "
"""msgspec's own opening of a decode error: said once, as "malformed JSON: ..."."""


def describe_decode_error(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    if text.startswith(_DECODER_PREFIX):
        text = text[len(_DECODER_PREFIX) :]
    return f"malformed JSON: {text}"[:MAX_REASON]


# The times every consumer can show (datetime's years 1-9999, two days spare for
# time zones): a time outside them is no time at all, so no export, scan line or
# screen ever meets 1e20 or infinity.
MIN_TIME = -62135596800.0 + 2 * 86400
MAX_TIME = 253402300799.0 - 2 * 86400


def parse_timestamp(value: object) -> float | None:
    """ISO-8601 string (with Z or offset) or epoch number (s or ms) -> epoch seconds.

    None when there is no time or it is out of range (`1e20`, `-1e20`, a 20-digit
    integer, `1e400` which decodes as infinity): such a time is a missing time.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float
            return None
        number = number / 1000.0 if number > 1e11 else number
        return number if MIN_TIME <= number <= MAX_TIME else None  # NaN fails both
    if isinstance(value, str) and value:
        return _parse_iso(value)
    return None


def sane_duration(ms: object) -> float | None:
    """A duration in milliseconds, or None when it is not a finite, non-negative span."""
    if isinstance(ms, bool) or not isinstance(ms, int | float):
        return None
    try:
        value = float(ms)
    except OverflowError:
        return None
    return value if 0.0 <= value <= (MAX_TIME - MIN_TIME) * 1000.0 else None


def _parse_iso(text: str) -> float | None:
    try:
        stamp = _fromisoformat(text)  # Python 3.11 reads "Z" and fractional seconds
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=UTC)
        number = stamp.timestamp()
    except (ValueError, OverflowError):  # year 1 with a +14:00 offset is before year 1
        return None
    return number if MIN_TIME <= number <= MAX_TIME else None


def shown_name(path: Path) -> str:
    """How a notice names a session's file or folder: by its base name.

    Every follow notice (`scan --follow`, `follow`, the replayer's live mode) names it
    this way: the session followed is one the person named or was told about
    ("following NAME"), and on the replayer's status line a full path would push out
    what happened. `.` and `..` are named by the folder they mean.
    """
    return os.path.basename(os.path.abspath(path)) or str(path)


PREVIEW_LIMIT = 200
"""Characters a turn's preview keeps: a preview shorter than this is the whole text."""


def preview_of(text: str, limit: int = PREVIEW_LIMIT) -> str:
    """A short single-paragraph preview of `text`."""
    text = text.strip()
    return text[:limit]


# ---------------------------------------------------------------------------
# The registry entry each format module exposes.


class FormatSpec(msgspec.Struct, frozen=True):
    """How pivotal recognises and opens one format.

    `sniff(path, head)` says from the content (the first bytes of a file, or
    a directory's shape) whether this format can read `path`. `refs(path)`
    lists the sessions inside it (one for most files). `open(ref)` returns a
    reader positioned at the start. `files(ref)` names every file the session is
    read from (`pivotal.readers.files`): what `export -o` must never write over.
    """

    name: str
    description: str
    sniff: Callable[[Path, bytes], bool]
    refs: Callable[[Path], list[SessionRef]]
    open: Callable[[SessionRef], SessionReader]
    databases: bool = False
    """Its sessions may live in a SQLite file. A file that starts with SQLite's header is
    asked of these formats only: the text formats' sniffers would try to decode a binary
    page as JSON lines (~30 ms a database, most of a listing's time on a home with a few)."""
    files: Callable[[SessionRef], SessionFiles] = own_files
    """The files and folders a session is read from (by default: its path)."""


SQLITE_MAGIC = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def single_ref(fmt: str) -> Callable[[Path], list[SessionRef]]:
    """`refs` for formats where one file is one session."""

    def refs(path: Path) -> list[SessionRef]:
        try:
            st = path.stat()
        except OSError:
            return [SessionRef(format=fmt, path=path)]
        return [SessionRef(format=fmt, path=path, size=st.st_size, updated=st.st_mtime)]

    return refs
