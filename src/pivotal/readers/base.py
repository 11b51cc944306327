"""What every format reader is: an incremental reader over one session.

A reader owns one `Session` and grows it. `poll()` reads whatever is new in
the source since the last call (appended bytes, new rows, rewritten files)
and returns an `Update` saying which turns are new or changed. Batch reading
is one `poll(final=True)`; the live tail calls `poll()` again on every change
notification. Readers only ever open their sources for reading.

Line-based formats subclass `LineFileReader`, which handles the byte-level
facts once for all of them: the partial last line (held back until its
newline arrives, never parsed half), truncation and replacement of the file
(reload and say so), invalid UTF-8 and line numbering.
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

CHUNK = 1 << 20
GC_PAUSE_BYTES = 4 << 20
"""Reads at least this big run with the cyclic garbage collector paused (see `gc_paused`)."""
_BLANK = b" \t\r\x0c\x0b"
TAIL_CHECK = 64
MAX_REASON = 120


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector around a big index pass.

    Reading a large session allocates hundreds of thousands of small objects, none
    of them in reference cycles; the collector would walk the growing heap again and
    again for nothing (about a fifth of the index pass on a 100 MB file). Reference
    counting still frees everything as usual; only the cycle search waits.
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


class LineFileReader(SessionReader):
    """Base for formats stored as an append-only file of lines (JSONL, Markdown).

    Subclasses implement `reset()` (forget everything) and `handle_line()`.
    """

    LINE_VIEWS: ClassVar[bool] = False
    """Lines reach `handle_lines` as memoryviews (no copy) instead of bytes."""

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._offset = 0
        self._line_no = 0
        self._pending = b""
        self._pending_parts: list[bytes] = []
        self._inode: tuple[int, int] | None = None
        self._size = 0
        self._tail = b""
        """The last bytes read: a file truncated and rewritten longer is noticed by them."""

    @abstractmethod
    def reset(self) -> None:
        """Forget all parsed state (the file is being read again from the start)."""

    @abstractmethod
    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        """Consume one complete line (without its newline). Must not raise."""

    def json_object(self, line_no: int, line: bytes) -> dict | None:
        """Decode one JSONL record that must be an object; report and skip it otherwise."""
        try:
            obj = decode_json(line)
        except ValueError as exc:
            self.skip(line_no, describe_decode_error(exc))
            return None
        if not isinstance(obj, dict):
            self.skip(line_no, "not a JSON object")
            return None
        return obj

    def finish(self) -> None:  # noqa: B027 - optional hook
        """Called after the final batch read (e.g. to close an open turn)."""

    def _restart(self) -> None:
        self._tail = b""
        self._offset = 0
        self._line_no = 0
        self._pending = b""
        self._pending_parts = []
        self.session.turns.clear()
        self.session.skipped.clear()
        self.session.branches.clear()
        self.reset()
        self.mark_changed(0)

    def start_at(self, offset: int) -> None:
        """Read from byte `offset` (the start of a line) instead of the file's start.

        For a caller that reads one file in pieces (`scan_split`): lines are
        numbered from this point, and the reader behaves as if the file began
        here. Must be called before the first `poll`.
        """
        fd = os.open(self.ref.path, os.O_RDONLY)
        try:
            start = max(0, offset - TAIL_CHECK)
            self._tail = os.pread(fd, offset - start, start)
        finally:
            os.close(fd)
        self._offset = offset

    @property
    def progress(self) -> tuple[int, int]:
        return (self._offset, max(self._size, self._offset))

    @property
    def lines_read(self) -> int:
        """Complete lines read so far (blank ones included): the last line number used."""
        return self._line_no

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        path = self.ref.path
        skipped_before = len(self.session.skipped)
        reloaded = False
        notice = None
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            return Update(gone=True, notice=f"{path} is gone; keeping what was read")
        try:
            st = os.fstat(fd)
            ident = (st.st_dev, st.st_ino)
            if self._inode is not None and ident != self._inode:
                reloaded, notice = True, f"{path.name} was replaced; reloaded"
            elif st.st_size < self._offset or not self._same_tail(fd):
                reloaded, notice = True, f"{path.name} was truncated; reloaded"
            if reloaded:
                self._restart()
            self._inode = ident
            self._size = st.st_size
            self._read_from(fd, st.st_size, budget)
        finally:
            os.close(fd)
        at_end = self._offset >= self._size
        if final and at_end and (self._pending or self._pending_parts):
            self._flush_pending_at_eof()
        if final and at_end:
            self.finish()
        if notice:
            self.session.notices.append(notice)
        return Update(
            first_changed=self.take_first_changed(),
            reloaded=reloaded,
            notice=notice,
            new_skipped=len(self.session.skipped) - skipped_before,
        )

    def _same_tail(self, fd: int) -> bool:
        """The bytes just before where we stopped are unchanged (not truncated and rewritten)."""
        if not self._offset:
            return True
        start = max(0, self._offset - TAIL_CHECK)
        return os.pread(fd, self._offset - start, start) == self._tail

    def _read_from(self, fd: int, size: int, budget: int | None) -> None:
        if budget is not None:
            size = min(size, self._offset + max(budget, 1))
        if size - self._offset >= GC_PAUSE_BYTES:
            with gc_paused():
                self._read_chunks(fd, size)
        else:
            self._read_chunks(fd, size)

    def _read_chunks(self, fd: int, size: int) -> None:
        while self._offset < size:
            chunk = os.pread(fd, min(CHUNK, size - self._offset), self._offset)
            if not chunk:
                break
            self._consume(chunk)
            tail = chunk[-TAIL_CHECK:]
            self._tail = tail if len(tail) == TAIL_CHECK else (self._tail + tail)[-TAIL_CHECK:]

    def _consume(self, chunk: bytes) -> None:
        """Split `chunk` into lines; keep the unterminated tail for later."""
        if self._pending and b"\n" not in chunk:
            # a very long line arriving in pieces: avoid quadratic re-copying
            self._pending_parts.append(chunk)
            self._offset += len(chunk)
            return
        if self._pending_parts:
            self._pending = b"".join([self._pending, *self._pending_parts])
            self._pending_parts.clear()
        pieces = self._lines_of(chunk)
        tail = bytes(pieces.pop())
        offset = self._offset - len(self._pending)
        if self._pending:
            pieces[0] = self._pending + pieces[0]
        batch: list[tuple[int, int, bytes]] = []
        line_no = self._line_no
        for line in pieces:
            line_no += 1
            size = len(line) + 1
            if line[-1:] == b"\r":
                line = line[:-1]
            if line and (line[0] not in _BLANK or bytes(line).strip()):
                batch.append((line_no, offset, line))
            offset += size
        self._line_no = line_no
        self._pending = tail
        self._offset += len(chunk)
        if batch:
            self.handle_lines(batch)

    def _lines_of(self, chunk: bytes) -> list[bytes]:
        """`chunk` cut at newlines (the last piece is the unterminated rest).

        Readers that set LINE_VIEWS get zero-copy memoryview slices instead of
        bytes: splitting copies every byte, which costs more than decoding the
        small records of a big file.
        """
        if not self.LINE_VIEWS:
            return chunk.split(b"\n")
        view = memoryview(chunk)
        pieces: list[bytes] = []
        start = 0
        find = chunk.find
        while True:
            end = find(b"\n", start)
            if end < 0:
                pieces.append(view[start:])  # type: ignore[arg-type]
                return pieces
            pieces.append(view[start:end])  # type: ignore[arg-type]
            start = end + 1

    def handle_lines(self, batch: list[tuple[int, int, bytes]]) -> None:
        """Consume complete non-blank lines as (line_no, offset, line); formats may batch."""
        handle = self.handle_line
        for line_no, offset, line in batch:
            handle(line_no, offset, line)

    def _flush_pending_at_eof(self) -> None:
        """The file ended without a newline: read the last line if it is whole."""
        line = b"".join([self._pending, *self._pending_parts])
        self._pending, self._pending_parts = b"", []
        if not line.strip():
            return
        self._line_no += 1
        before = len(self.session.skipped)
        self.handle_line(self._line_no, self._offset - len(line), line.rstrip(b"\r"))
        if len(self.session.skipped) > before:
            last = self.session.skipped[-1]
            if last.line == self._line_no:
                self.session.skipped[-1] = Skipped(
                    last.line, "incomplete last line (still being written?)"
                )


# ---------------------------------------------------------------------------
# Decoding helpers shared by the JSON readers.

_json_decode = msgspec.json.decode
_fromisoformat = datetime.fromisoformat


_BOM = b"\xef\xbb\xbf"
# a UTF-16 surrogate escape not part of a valid pair (JSON.stringify writes these
# when a string is cut inside an emoji); msgspec rejects them, so they become U+FFFD
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<![0-9a-fA-F]{2}\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


_RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def decode_json(line: bytes | msgspec.Raw) -> object:
    """Decode one JSON record, tolerating what real files contain.

    A UTF-8 BOM is ignored, invalid UTF-8 and lone surrogate escapes are
    replaced with U+FFFD, and nesting too deep to decode is a plain error.
    Raises ValueError (msgspec.DecodeError is one) when the record is not JSON.
    """
    try:
        return _json_decode(line)
    except msgspec.DecodeError:
        pass
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    raw = bytes(line)
    fixed = raw[3:] if raw.startswith(_BOM) else raw
    fixed = fixed.decode("utf-8", "replace").encode("utf-8", "surrogatepass")
    if b"\\u" in fixed:
        fixed = _LONE_SURROGATE.sub(rb"\\ufffd", fixed)
    if _RAW_CONTROL.search(fixed):
        # raw control bytes are never valid JSON; inside strings they were meant as text
        fixed = _RAW_CONTROL.sub(lambda m: b"\\u%04x" % m.group()[0], fixed)
    if fixed == raw:
        return _json_decode(raw)  # raises the original error
    try:
        return _json_decode(fixed)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def first_json_line(head: bytes, skip: int = 3) -> object:
    """The first line of a file's head that decodes as JSON, or None (for `sniff` functions).

    Up to `skip` unreadable lines before it are passed over, so one garbage or
    half-written first line does not make a whole session unrecognisable (the
    reader then reports that line as skipped).
    """
    for line in head.split(b"\n"):
        if not line.strip():
            continue
        try:
            return decode_json(line)
        except ValueError:
            if skip <= 0:
                return None
            skip -= 1
    return None


def describe_decode_error(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return f"malformed JSON: {text}"[:MAX_REASON]


def parse_timestamp(value: object) -> float | None:
    """ISO-8601 string (with Z or offset) or epoch number (s or ms) -> epoch seconds."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        number = float(value)
        return number / 1000.0 if number > 1e11 else number
    if isinstance(value, str) and value:
        return _parse_iso(value)
    return None


def _parse_iso(text: str) -> float | None:
    try:
        stamp = _fromisoformat(text)  # Python 3.11 reads "Z" and fractional seconds
    except ValueError:
        return None
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.timestamp()


def preview_of(text: str, limit: int = 200) -> str:
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
    reader positioned at the start.
    """

    name: str
    description: str
    sniff: Callable[[Path, bytes], bool]
    refs: Callable[[Path], list[SessionRef]]
    open: Callable[[SessionRef], SessionReader]


def single_ref(fmt: str) -> Callable[[Path], list[SessionRef]]:
    """`refs` for formats where one file is one session."""

    def refs(path: Path) -> list[SessionRef]:
        try:
            st = path.stat()
        except OSError:
            return [SessionRef(format=fmt, path=path)]
        return [SessionRef(format=fmt, path=path, size=st.st_size, updated=st.st_mtime)]

    return refs
