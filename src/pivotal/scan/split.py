"""Scan one big Claude Code session on two cores: the file is cut in two at a seam.

Reading a session and judging its silences is one long stretch of Python; on a
100 MB file it is most of what `pivotal scan` costs, and a second core sits
idle. Here the parent reads the file up to a little past its middle and a
forked child reads from a little before the middle to the end, each judging
the silences of its own half. The halves overlap by as many turns as the
detector ever reads around a silence (`PivotConfig.reach()`: 201 before, 221
after), so each side judges its silences with every turn the whole-file run
would use: the child judges from its 201st turn on, the parent up to there.

A reader that starts mid-file cannot know what came before it. The split is
only used when nothing before the seam could have changed the turns after it,
and that is checked, not assumed: the overlapping turns must come out the same
from both readers (same records, flags, ids, times), no record after the seam
may refer back across it (a tool result for an earlier call, a rewind to an
earlier message, a record written twice, a response continuing an earlier
message id, an interrupt of an earlier response), and neither side may have
rewound. Anything else, or any failure of the child, and the parent simply
reads on to the end alone: the answer is always the whole-file answer.
This module runs the two processes; what they exchange, the check and the
join are in `pivotal.scan.seam`.
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Iterator
from typing import Any, TypeVar

import msgspec

from pivotal.cores import usable_cores
from pivotal.detect import PivotConfig, compiled, detect_pivots
from pivotal.model import Pivot, Session, SessionRef
from pivotal.readers import read_errors
from pivotal.readers.claude_code import ClaudeCodeReader
from pivotal.readers.claude_parts import read_user_content
from pivotal.readers.claude_records import read_record
from pivotal.scan.runs import child_runs
from pivotal.scan.seam import (
    ChildReport,
    Snapshot,
    cited_turns,
    disagreement,
    encode_prints,
    fingerprint,
    merged,
    standin,
)

MIN_BYTES = 24 << 20
"""Smaller files are read by one process: forking would cost more than it saves."""
SEAM_SEARCH = 16 << 20
"""How far past the middle to look for a person's message to cut at."""
STEP = 1 << 20
"""Both sides read past the seam in steps of this many bytes until they have the overlap."""

_HEADER = struct.Struct("<Q")

last_outcome = ""
"""How the last `scan_split` went: "split", or "alone: <why>" (read by tests)."""


def can_split(ref: SessionRef, min_bytes: int | None = None) -> bool:
    """A Claude Code file big enough to be worth it, on a machine with a second core."""
    min_bytes = MIN_BYTES if min_bytes is None else min_bytes
    if ref.format != "claude-code" or ref.key is not None or not hasattr(os, "fork"):
        return False
    threading = sys.modules.get("threading")  # not imported: no thread was started with it
    if threading is not None and threading.active_count() > 1:
        return False  # forking a process with other threads running is not safe
    try:
        return usable_cores() >= 2 and ref.path.stat().st_size >= min_bytes
    except OSError:
        return False


SEAM_AT = 0.46
"""Where the seam goes, as a fraction of the file: the parent also reads the overlap
past it and merges the answers, so it takes a little less than half (measured best on
generated 30-100 MB sessions)."""


def scan_split(
    ref: SessionRef, config: PivotConfig, seam_at: float = SEAM_AT
) -> tuple[Session, list[Pivot]] | None:
    """The session (as far as a scan reports it) and its pivots (the possible ones among
    them, marked), or None when not split.

    None means "read it the ordinary way": no seam was found, the file could
    not be read, or the child could not be started. When the split is tried but
    the check fails, the parent finishes the read alone and still answers.
    """
    global last_outcome
    try:
        size = ref.path.stat().st_size
        seam = _find_seam(ref, int(size * seam_at))
    except read_errors():
        last_outcome = "alone: unreadable"
        return None
    if seam is None:
        last_outcome = "alone: no seam"
        return None
    try:
        reader_fd, writer_fd = os.pipe()
        pid = os.fork()
    except OSError:
        last_outcome = "alone: cannot fork"
        return None
    if pid == 0:  # the child: everything from the seam on
        os.close(reader_fd)
        _child(ref, seam, config, writer_fd)
    os.close(writer_fd)
    with os.fdopen(reader_fd, "rb") as channel:
        try:
            return _parent(ref, seam, config, channel)
        except read_errors():
            last_outcome = "alone: unreadable"
            return None  # the ordinary read reports what went wrong
        finally:
            _reap(pid)


# -- the seam ---------------------------------------------------------------------


def _find_seam(ref: SessionRef, start: int) -> int | None:
    """Offset of the first main-line message from a person (or the harness) after `start`.

    Such a record always starts a new turn, so a reader starting there builds
    the same turns as one that read everything before it.
    """
    fd = os.open(ref.path, os.O_RDONLY)
    try:
        pending = b""
        base = start
        while base + len(pending) - start < SEAM_SEARCH:
            chunk = os.pread(fd, STEP, base + len(pending))
            if not chunk:
                return None
            data = pending + chunk
            first = data.find(b"\n") + 1 if base == start else 0
            for line_start, line in _lines(data, first):
                # Claude Code writes compact JSON; a file spaced otherwise is read alone
                if b'"type":"user"' in line[:4096] and _starts_turn(line):
                    return base + line_start
            last = data.rfind(b"\n") + 1
            base, pending = base + last, data[last:]
    finally:
        os.close(fd)
    return None


def _lines(data: bytes, pos: int) -> Iterator[tuple[int, bytes]]:
    """(offset, line) of each complete line of `data` from `pos`."""
    while True:
        end = data.find(b"\n", pos)
        if end < 0:
            return
        yield pos, data[pos:end]
        pos = end + 1


def _starts_turn(line: bytes) -> bool:
    try:
        rec = read_record(line)
    except ValueError:
        return False
    if rec is None or rec.type != "user" or rec.isSidechain or rec.message is None:
        return False
    return not read_user_content(rec.body).tool_results_only


# -- the child ----------------------------------------------------------------------


def _child(ref: SessionRef, seam: int, config: PivotConfig, fd: int) -> None:
    """Read and judge from the seam on; send the results; never return."""
    status = 0
    try:
        with os.fdopen(fd, "wb") as channel:
            reader = ClaudeCodeReader(ref)
            reader.start_at(seam)
            overlap = sum(config.reach()) + 1
            while len(reader.session.turns) <= overlap and reader.progress[0] < _size(ref):
                reader.poll(budget=STEP)
            ready = len(reader.session.turns) > overlap
            _send(channel, ready)  # not ready: the parent reads on alone
            if ready:
                reader.poll(final=True)
                _send(channel, _child_report(reader, config, overlap))
    except BaseException:  # noqa: BLE001 - whatever happened, the parent reads on alone
        status = 1
    os._exit(status)


def _child_report(reader: ClaudeCodeReader, config: PivotConfig, overlap: int) -> ChildReport:
    session = reader.session
    turns = session.turns
    back, _ = config.reach()
    pivots = detect_pivots(turns, config, within=range(back, len(turns)), possible=True)
    wanted = sorted({i for p in pivots for i in cited_turns(p)})
    return ChildReport(
        prints=encode_prints([fingerprint(t) for t in turns[:overlap]]),
        pivots=pivots,
        standins=[standin(turns[i]) for i in wanted if 0 <= i < len(turns)],
        turns=len(turns),
        branches=len(session.branches),
        outside=reader.outside_refs,
        uuids=list(reader.record_turns),
        message_ids=list(reader.message_turns),
        skipped=session.skipped,
        id=session.id,
        title=session.title,
        titled_by_ai=reader.titled_by_ai,
        codes=compiled.fresh(),
        plans=compiled.new_plans(),
        runs=child_runs(turns, pivots, overlap, session.model, bool(session.children)),
        chains=reader.sidechains.chains,
    )


# -- the parent ---------------------------------------------------------------------


def _parent(
    ref: SessionRef, seam: int, config: PivotConfig, channel: Any
) -> tuple[Session, list[Pivot]]:
    reader = ClaudeCodeReader(ref)
    reader.poll(budget=seam)
    session = reader.session
    offset = len(session.turns)
    at_seam = Snapshot(reader)
    global last_outcome
    child_ready = _receive(channel, _READY)
    why = "the child has too few turns after the seam" if child_ready is False else "no child"
    if child_ready is True:
        size = _size(ref)
        back, ahead = config.reach()
        overlap = back + ahead + 1
        while len(session.turns) < offset + overlap + 1 and reader.progress[0] < size:
            reader.poll(budget=STEP)
        mine = detect_pivots(session.turns, config, within=range(0, offset + back), possible=True)
        report = _receive(channel, _REPORT)
        why = disagreement(reader, at_seam, report, overlap) if report is not None else "no report"
        if report is not None and not why:
            last_outcome = "split"
            compiled.adopt(report.codes, report.plans)
            return merged(ref, reader, at_seam, mine, report, overlap)
    last_outcome = f"alone: {why}"
    reader.poll(final=True)  # no split after all: finish alone
    return session, detect_pivots(session.turns, config, possible=True)


_encode = msgspec.msgpack.Encoder().encode
_T = TypeVar("_T")
_READY = msgspec.msgpack.Decoder(bool)
_REPORT = msgspec.msgpack.Decoder(ChildReport)


def _send(channel: Any, value: bool | ChildReport) -> None:
    data = _encode(value)
    channel.write(_HEADER.pack(len(data)))
    channel.write(data)
    channel.flush()


def _receive(channel: Any, decoder: msgspec.msgpack.Decoder[_T]) -> _T | None:
    """The child's next message as `decoder` reads it; None if it died, said nothing, garbled it."""
    head = channel.read(_HEADER.size)
    if len(head) != _HEADER.size:
        return None
    (length,) = _HEADER.unpack(head)
    data = channel.read(length)
    if len(data) != length:
        return None
    try:
        return decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def _reap(pid: int) -> None:
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass


def _size(ref: SessionRef) -> int:
    return ref.path.stat().st_size
