"""Sub-agents Claude Code wrote into the session's own file (`isSidechain: true`).

Before 2.0.28 Claude Code had no `<session>/subagents/` folder: a Task call's
sub-agent went into the main file. Its records carry `"isSidechain": true`; the
first is a user record with no parent holding the call's `prompt`, the others
are chained to it by `parentUuid`. Every real file of 1.0.21 to 2.0.24 we have
shows the same layout: a sub-agent's records are written as one block when it
finishes, with the times they happened (so the file's clock jumps back), right
before the `tool_result` of the Task call that ran it; parallel Tasks give one
block and result after another, in the order they finished. An interrupted Task
wrote no block; a "Warmup" block with no Task at all is Claude Code's own.

The reader keeps these records out of the main line: `Chains` notes where each
chain's records are, and each chain becomes a child session (`SessionRef` whose
key names its stretch of the file, `window_key`), read as a sub-agent's own
file is. The call that ran a chain is the one whose result is the record right
after the chain (`call_after`): a prompt can be given twice (a Task interrupted,
then run again), the position cannot. A chain followed by anything else, or
whose records are not one block, is tied by its prompt
(`pivotal.spend.subagents`), like any other sub-agent.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import msgspec

from pivotal.model import SessionRef
from pivotal.readers.base import parse_timestamp
from pivotal.readers.claude_parts import is_tool_result
from pivotal.readers.claude_records import Record, read_record

KEY_PREFIX = "sidechain:"
RESULT_FIRST = 64 << 10
RESULT_HEAD = 1 << 20
"""Bytes of the record after a chain read to find its call, `RESULT_FIRST` first (a Task's
result is its report, a few KB; one bigger than this is tied by its prompt instead)."""
_CALL_ID = re.compile(rb'"tool_use_id":"([^"\\]{1,200})"')


class Chain(msgspec.Struct, array_like=True):
    """One sub-agent's records in the main file: where they are, and the call that ran it."""

    line: int
    """Line of its first record."""
    start: int
    """Byte offset of its first record."""
    end: int
    """Byte offset just past its last record (its newline excluded)."""
    uuid: str | None = None
    started: str | None = None
    call: str | None = None
    """The Task call whose result follows the chain (None: not found, or not yet read)."""
    looked: int = -1
    """The `end` at which the record after the chain was last looked at."""
    last_line: int = 0
    records: int = 0

    @property
    def whole(self) -> bool:
        """Its records are one block, nothing between them: what is right after it is its."""
        return self.last_line - self.line + 1 == self.records


class Chains:
    """The sidechains of one main file, as its records are read."""

    def __init__(self) -> None:
        self.chains: list[Chain] = []
        self._of: dict[str, int] = {}
        """Each sidechain record's uuid and the chain it belongs to."""
        self.changed = False
        """A chain grew, began or learnt its call since the children were last listed."""
        self.open = False
        """Some chain's next record has not been looked at yet (`link`)."""

    def note(
        self,
        uuid: str | None,
        parent: str | None,
        line: int,
        offset: int,
        length: int,
        stamp: str | None,
        starts: bool = True,
    ) -> bool:
        """File one sidechain record; False when its parent is a record not seen before.

        A record whose parent is unknown starts a chain of its own (a sub-agent's
        first prompt has no parent at all). `starts=False`: a record that cannot start
        one (a tool result whose call was never seen is left out, as on the main line).
        """
        if uuid is not None and uuid in self._of:
            return True  # the same record written twice
        index = self._of.get(parent) if parent is not None else None
        known = parent is None or index is not None
        if index is None:
            if not starts:
                return known
            index = len(self.chains)
            self.chains.append(Chain(line, offset, offset + length, uuid, stamp))
        chain = self.chains[index]
        chain.end = max(chain.end, offset + length)
        chain.last_line = max(chain.last_line, line)
        chain.records += 1
        if uuid is not None:
            self._of[uuid] = index
        self.changed = self.open = True
        return known

    def link(self, path: Path, handled: int) -> None:
        """Find the call of each chain whose next record has been read (before `handled`)."""
        for chain in self.chains:
            if chain.looked != chain.end and chain.end + 1 < handled:
                complete, call = call_after(path, chain.end) if chain.whole else (True, None)
                if call != chain.call:
                    chain.call, self.changed = call, True
                if complete:
                    chain.looked = chain.end
        self.open = any(chain.looked != chain.end for chain in self.chains)

    def adopt(self, others: list[Chain]) -> None:
        """Chains another reader of the same file found (a split scan's second half): one
        both read is kept as the reader that read further has it."""
        at = {chain.start: index for index, chain in enumerate(self.chains)}
        for other in others:
            index = at.get(other.start)
            if index is None:
                self.chains.append(other)
            elif other.end >= self.chains[index].end:
                self.chains[index] = other
        self.chains.sort(key=lambda chain: chain.start)

    def refs(self, ref: SessionRef) -> list[SessionRef]:
        return [
            SessionRef(
                format=ref.format,
                path=ref.path,
                key=window_key(chain),
                session_id=chain.uuid,
                started=parse_timestamp(chain.started),
                parent_call=chain.call,
            )
            for chain in self.chains
        ]


def window_key(chain: Chain) -> str:
    """`sidechain:<line>:<start>:<end>`: where a child's records are in its parent's file."""
    return f"{KEY_PREFIX}{chain.line}:{chain.start}:{chain.end}"


def window_of(key: str | None) -> tuple[int, int, int] | None:
    """(line, start, end) of a `window_key`, or None when `key` is not one."""
    if not key or not key.startswith(KEY_PREFIX):
        return None
    parts = key[len(KEY_PREFIX) :].split(":")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    line, start, end = (int(part) for part in parts)
    if line < 1 or end < start:
        return None
    return line, start, end


def sidechain_ref(ref: SessionRef, key: str) -> SessionRef | None:
    """The sub-agent a `window_key` names in the file of `ref` (a Claude Code session), as
    the session's children name it: what the replayer's top line shows and `search --json`
    prints, taken back by every command. None when the key names no such stretch: it must
    start a line with a sidechain record and end where a line ends, inside the file."""
    window = window_of(key)
    if window is None:
        return None
    _, start, end = window
    try:
        fd = os.open(ref.path, os.O_RDONLY)
    except OSError:
        return None
    try:
        if end > os.fstat(fd).st_size or end == start:
            return None
        before = os.pread(fd, 1, start - 1) if start else b"\n"
        after = os.pread(fd, 1, end)
        head = os.pread(fd, min(end - start, RESULT_HEAD), start)
    except OSError:
        return None
    finally:
        os.close(fd)
    if before != b"\n" or after not in (b"", b"\n", b"\r"):
        return None
    try:
        rec = read_record(head.partition(b"\n")[0].rstrip(b"\r"))
    except ValueError:
        return None
    if rec.__class__ is not Record or not rec.isSidechain:
        return None
    return SessionRef(
        format=ref.format,
        path=ref.path,
        key=key,
        session_id=rec.uuid,
        started=parse_timestamp(rec.timestamp),
    )


def call_after(path: Path, end: int) -> tuple[bool, str | None]:
    """Whether the record that starts right after byte `end` could be read (False: it is
    not all written yet), and the call id of the main-line tool result it is (one call's
    result only), else None."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True, None
    try:
        size = RESULT_FIRST
        raw = os.pread(fd, size, end)
        if len(raw) == size and b"\n" not in raw.lstrip(b"\r\n"):
            size = RESULT_HEAD
            raw = os.pread(fd, size, end)
    except OSError:
        return True, None
    finally:
        os.close(fd)
    line, newline, _ = raw.lstrip(b"\r\n").partition(b"\n")
    line = line.rstrip(b"\r")
    try:
        rec = read_record(line)
    except ValueError:
        # too big to look at (tied by its prompt), or a last line still being written
        return bool(newline) or len(raw) == size, None
    if rec.__class__ is not Record or rec.isSidechain or rec.type != "user":
        return True, None
    if not is_tool_result(rec):
        return True, None
    calls = set(_CALL_ID.findall(line))
    return True, calls.pop().decode("utf-8", "replace") if len(calls) == 1 else None
