"""What line-based readers share: an append-only file read as complete lines.

`LineFileReader` handles the byte-level facts once for every JSONL and
Markdown format: the file is read in chunks and cut at newlines, the partial
last line is held back until its newline arrives (never parsed half, and
reported as still being written if the file ends there), truncation and
replacement of the file are noticed (reload and say so), and lines are
numbered from 1.
"""

from __future__ import annotations

import os
from abc import abstractmethod
from typing import ClassVar

from pivotal.model import SessionRef, Skipped
from pivotal.readers.base import (
    SessionReader,
    Update,
    decode_json,
    describe_decode_error,
    gc_paused,
    shown_name,
    source_gone,
)

CHUNK = 1 << 20
GC_PAUSE_BYTES = 4 << 20
"""Reads at least this big run with the cyclic garbage collector paused (see `gc_paused`)."""
_BLANK = b" \t\r\x0c\x0b"
TAIL_CHECK = 64


class LineFileReader(SessionReader):
    """Base for formats stored as an append-only file of lines (JSONL, Markdown).

    Subclasses implement `reset()` (forget everything) and `handle_line()`.
    """

    READ_SIZE: ClassVar[int] = CHUNK
    """Bytes read (and cut into lines) at a time."""
    LINE_VIEWS: ClassVar[bool] = False
    """Lines reach `handle_lines` as memoryviews (no copy) instead of bytes."""
    WHOLE_LAST_RECORD: ClassVar[bool] = True
    """A last line with no newline yet that is a whole JSON object is read at once.

    JSONL writers that end a record without a newline (or stop there) would
    otherwise hide it while following until the next record arrives. No prefix
    of a JSON object is itself a whole object, so such a line is complete; if
    it still changes, the file is read again. Markdown formats turn this off.
    """

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
        self._seen_mtime = 0
        self._read_unterminated: bytes | None = None
        """The unterminated last line already read as a whole record (WHOLE_LAST_RECORD)."""

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
        self._read_unterminated = None
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

    def readable(self, size: int) -> int:
        """How much of a file of `size` bytes this reader reads (all of it, unless it reads
        one stretch of a file): it reads as if the file ended there."""
        return size

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
            return source_gone(path)
        try:
            st = os.fstat(fd)
            ident = (st.st_dev, st.st_ino)
            if self._inode is not None and ident != self._inode:
                reloaded, notice = True, f"{shown_name(path)} was replaced; reloaded"
            elif st.st_size < self._offset or not self._same_tail(fd):
                reloaded, notice = True, f"{shown_name(path)} was truncated; reloaded"
            elif self._rewritten(st):
                reloaded, notice = True, f"{shown_name(path)} was rewritten in place; reloaded"
            if reloaded:
                self._restart()
            self._inode = ident
            size = self.readable(st.st_size)
            self._size, self._seen_mtime = size, st.st_mtime_ns
            try:
                self._read_from(fd, size, budget)
            except _LastLineChanged:
                reloaded, notice = True, f"{shown_name(path)} changed its last line; reloaded"
                self._restart()
                self._read_from(fd, size, budget)
            at_end = self._offset >= self._size
            if not final and at_end and self.WHOLE_LAST_RECORD:
                self._read_whole_last_record()
        finally:
            os.close(fd)
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

    def _rewritten(self, st: os.stat_result) -> bool:
        """Changed without growing, after everything was read: an in-place rewrite.

        An append-only log only changes by growing; the same size with a new
        mtime means its bytes were rewritten (or it was touched: read again anyway).
        """
        return (
            self._offset > 0
            and st.st_size == self._offset == self._size
            and st.st_mtime_ns != self._seen_mtime
        )

    def _read_whole_last_record(self) -> None:
        """Read the unterminated last line now if it is a whole JSON object."""
        if not (self._pending or self._pending_parts):
            return
        line = b"".join([self._pending, *self._pending_parts])
        self._pending, self._pending_parts = line, []
        record = line.rstrip(b"\r")
        if self._read_unterminated == line or not record.rstrip().endswith(b"}"):
            return
        try:
            whole = isinstance(decode_json(record), dict)
        except ValueError:
            whole = False
        if whole:
            self._read_unterminated = line
            self.handle_lines([(self._line_no + 1, self._offset - len(line), record)])

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
            chunk = os.pread(fd, min(self.READ_SIZE, size - self._offset), self._offset)
            if not chunk:
                break
            tail = chunk[-TAIL_CHECK:]
            self._tail = tail if len(tail) == TAIL_CHECK else (self._tail + tail)[-TAIL_CHECK:]
            self._consume(chunk)  # after the tail: a reader that resumes elsewhere sets its own

    @property
    def line_start(self) -> int:
        """Where the first line not handled yet starts (what is held back of it included)."""
        return self._offset - len(self._pending) - sum(map(len, self._pending_parts))

    def resume_at(self, fd: int, offset: int, lines_before: int) -> None:
        """Go on reading at byte `offset` of the file open as `fd`, the start of line
        `lines_before + 1`.

        For a reader that knows the lines up to there are not its own (another
        session in the same file): `handle_lines` may call it, and then handles no
        more of its batch. Lines are still numbered as the file's.
        """
        start = max(0, offset - TAIL_CHECK)
        self._tail = os.pread(fd, offset - start, start)
        self._offset, self._line_no = offset, lines_before
        self._pending, self._pending_parts, self._read_unterminated = b"", [], None

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
        unterminated = self._read_unterminated
        if self._pending:
            pieces[0] = self._pending + pieces[0]
        batch: list[tuple[int, int, bytes]] = []
        line_no = self._line_no
        if unterminated is not None and pieces:
            self._read_unterminated = None
            if bytes(pieces[0]) != unterminated:
                raise _LastLineChanged  # what was read early was not the whole line
            line_no += 1  # read already: only its newline was missing
            offset += len(pieces[0]) + 1
            pieces = pieces[1:]
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
        if line == self._read_unterminated:
            self._read_unterminated = None
            return  # read while it was the unterminated last line
        before = len(self.session.skipped)
        self.handle_line(self._line_no, self._offset - len(line), line.rstrip(b"\r"))
        if len(self.session.skipped) > before:
            last = self.session.skipped[-1]
            if last.line == self._line_no:
                self.session.skipped[-1] = Skipped(
                    last.line, "incomplete last line (still being written?)"
                )


class _LastLineChanged(Exception):
    """The unterminated last line read early grew into something else: read again."""
