"""The seam of a two-process scan: what each side keeps, checks and hands over.

`scan_split` runs the processes; this module says when their halves make one
session. The parent keeps a `Snapshot` of its reader at the cut. The child sends
`fingerprint`s of the turns both of them read, the lookups it could not resolve,
its pivots and a `standin` for each turn those pivots cite, all in one typed
`ChildReport`. `disagreement` names any way the part before the cut could have
changed the child's turns (then the parent reads on alone), and `merged` joins
the halves into what a scan reports.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from pivotal.detect.compiled import Code
from pivotal.model import (
    Pivot,
    Role,
    Session,
    SessionRef,
    Signal,
    Skipped,
    SourceRef,
    Turn,
    TurnFlag,
)
from pivotal.readers.claude_code import ClaudeCodeReader
from pivotal.readers.claude_sidechains import Chain
from pivotal.scan.runs import ChildRuns, joined_runs
from pivotal.spend.run import Run


class ChildReport(msgspec.Struct, array_like=True):
    """Everything the child sends once it has read and judged its half.

    Sent as msgpack, decoded with its types: encoding it costs a third of pickling
    it (0.5-0.8 ms against 2.2, on the last stretch of the scan, when both halves
    are done and the user waits), no scan imports pickle (~2.5 ms), and a garbled
    report is refused like a missing one. Turn positions and line numbers in it
    count from the seam.
    """

    prints: bytes
    """`encode_prints` of the turns both sides read (the first `overlap` of the child's)."""
    pivots: list[Pivot]
    standins: list[tuple[Any, ...]]
    turns: int
    branches: int
    outside: list[tuple[str, str | None, int]]
    uuids: list[str]
    message_ids: list[str]
    skipped: list[Skipped]
    id: str | None
    title: str | None
    titled_by_ai: bool
    codes: list[Code]
    """The detector patterns only the child compiled, for the parent to keep."""
    runs: ChildRuns | None = None
    """Its pivots' runs and the stretch a parent's run may cross the seam into."""
    plans: dict[str, Any] = msgspec.field(default_factory=dict)
    """The lazy patterns' plans only the child worked out, for the parent to keep."""
    chains: list[Chain] = msgspec.field(default_factory=list)
    """The sub-agents written into the file that the child found (`claude_sidechains`)."""


class Snapshot:
    """The parent reader's state at the seam: what the child could not see."""

    def __init__(self, reader: ClaudeCodeReader) -> None:
        session = reader.session
        self.offset = len(session.turns)
        self.lines = reader.lines_read
        self.uuid_turn = dict(reader.record_turns)
        self.message_ids = set(reader.message_turns)
        self.branches = len(session.branches)
        self.skipped = len(session.skipped)
        self.title = session.title


def disagreement(reader: ClaudeCodeReader, at: Snapshot, report: ChildReport, overlap: int) -> str:
    """Why the child's turns could differ from the whole-file reading ("" when they cannot)."""
    turns = reader.session.turns
    if report.branches or len(reader.session.branches) != at.branches:
        return "a rewind near or after the seam"
    overlapping = turns[at.offset : at.offset + overlap]
    mine = [_shifted_print(fingerprint(t), -at.lines) for t in overlapping]
    if len(mine) != overlap or encode_prints(mine) != report.prints:
        return "the overlapping turns differ"
    if not at.uuid_turn.keys().isdisjoint(report.uuids):
        return "a record from before the seam written again after it"
    if not at.message_ids.isdisjoint(report.message_ids):
        return "a response continuing a message from before the seam"
    for kind, key, seen in report.outside:
        if kind == "parent":
            index = at.uuid_turn.get(key) if key is not None else None
            if index is not None and not (seen == 0 and index == at.offset - 1):
                return "a message continuing from before the seam (a rewind)"
        elif kind == "result":
            if key in at.uuid_turn or not _assistant_before(mine, seen):
                return "a tool result for a call from before the seam"
        elif kind == "sidechain":
            return "a sub-agent's record continuing one from before the seam"
        else:
            return "an interrupt of a response from before the seam"
    return ""


def _assistant_before(prints: list[tuple[Any, ...]], seen: int) -> bool:
    """The child had a main-line model response among its first `seen` turns.

    A tool result whose call nobody has seen attaches to the latest response; if
    the child had none yet, the whole-file reader would have used one from before
    the seam. (Only the compared turns are looked at: later ones answer "no". They
    are the same on both sides by then, so the parent's own prints are used.)
    """
    return any(f[0] == _ASSISTANT and not f[1] & _SIDE for f in prints[:seen])


_SIDE = int(TurnFlag.SIDECHAIN)
_ASSISTANT = Role.ASSISTANT.value


def merged(
    ref: SessionRef,
    reader: ClaudeCodeReader,
    at: Snapshot,
    mine: list[Pivot],
    report: ChildReport,
    overlap: int | None = None,
) -> tuple[Session, list[Pivot]]:
    """The whole-file session as the scan reports it, and all pivots in order.

    With `overlap` (the turns both sides read) the pivots' runs are joined too
    (`JoinedTurns.runs`)."""
    own = reader.session
    shift = at.offset
    title = report.title if report.titled_by_ai or at.title is None else at.title
    session = Session(
        format=own.format,
        path=own.path,
        id=own.id or report.id,
        key=ref.key,
        title=title,
        cwd=own.cwd,
        model=own.model,
        started=own.started,
    )
    session.skipped = own.skipped[: at.skipped] + [
        replace(s, line=s.line + at.lines if s.line is not None else None) for s in report.skipped
    ]
    standins = {}
    for data in report.standins:
        turn = _turn_from(data, shift, at.lines)
        standins[turn.index] = turn
    joined = JoinedTurns(own.turns, standins, shift + report.turns)
    session.turns = joined  # type: ignore[assignment]
    session.children = reader.adopt_sidechains(
        [
            replace(c, line=c.line + at.lines, last_line=c.last_line + at.lines)
            for c in report.chains
        ]
    )
    theirs = [shift_pivot(p, shift) for p in report.pivots]
    if report.runs is not None and overlap is not None:
        joined.runs = joined_runs(
            session, own.turns, mine, theirs, report.runs, shift, shift + overlap
        )
    return session, mine + theirs


class JoinedTurns(Sequence[Turn]):
    """The turns a merged scan can show: the parent's own, then the child's that pivots cite.

    Only what the report prints is there (each pivot's anchor, cluster and
    evidence); the length is the whole session's.
    """

    def __init__(self, own: list[Turn], standins: dict[int, Turn], length: int) -> None:
        self._own = own
        self._standins = standins
        self._length = length
        self.runs: dict[int, Run] | None = None
        """Each pivot's run, measured by the side that read it (`scan.runs`)."""

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, index: int) -> Turn:  # type: ignore[override]
        if index < 0:
            index += self._length
        turn = self._standins.get(index)
        if turn is not None:
            return turn
        if 0 <= index < len(self._own):
            return self._own[index]
        raise IndexError(index)

    def __iter__(self) -> Iterator[Turn]:
        for i in range(self._length):
            yield self[i]


# -- what crosses the pipe ----------------------------------------------------------


def fingerprint(turn: Turn) -> tuple[Any, ...]:
    spans = tuple((turn.extra or {}).get("spans", ()))
    usage = turn.usage
    return (
        turn.role.value,
        int(turn.flags),
        turn.message_id,
        spans,
        turn.source.line,
        turn.source.offset,
        turn.source.record_id,
        turn.timestamp,
        turn.model,
        (usage.input, usage.output, usage.cache_read, usage.cache_write) if usage else None,
        turn.preview if turn.role is not Role.ASSISTANT else "",
    )


_encode = msgspec.msgpack.Encoder().encode


def encode_prints(prints: list[tuple[Any, ...]]) -> bytes:
    """Fingerprints as bytes to compare: both sides build them alike (`fingerprint`), so
    the bytes are equal exactly when the values are, and no decoding is needed."""
    return _encode(prints)


def _shifted_print(print_: tuple[Any, ...], lines: int) -> tuple[Any, ...]:
    line = print_[4]
    return (*print_[:4], line + lines if line is not None else None, *print_[5:])


def standin(turn: Turn) -> tuple[Any, ...]:
    return (
        turn.index,
        turn.role.value,
        int(turn.flags),
        turn.timestamp,
        turn.message_id,
        turn.source.line,
        turn.source.record_id,
        turn.source.offset,
        turn.preview,
    )


def _turn_from(data: tuple[Any, ...], shift: int, lines: int) -> Turn:
    index, role, flags, timestamp, message_id, line, record_id, offset, preview = data
    return Turn(
        index=index + shift,
        role=Role(role),
        flags=TurnFlag(flags),
        timestamp=timestamp,
        message_id=message_id,
        source=SourceRef(line + lines if line is not None else None, record_id, offset),
        preview=preview,
    )


def cited_turns(pivot: Pivot) -> Iterator[int]:
    yield pivot.turn
    yield from pivot.cluster
    for signal in (*pivot.signals, *pivot.delegation):
        yield from signal.turns
    for task in pivot.state.tasks:
        yield task.turn


def shift_pivot(pivot: Pivot, by: int) -> Pivot:
    """`pivot` with every turn it names (anchor, cluster, evidence, task turns) moved by `by`."""

    def moved(signals: list[Signal]) -> list[Signal]:
        return [replace(s, turns=[t + by for t in s.turns]) for s in signals]

    state = replace(pivot.state, tasks=[replace(t, turn=t.turn + by) for t in pivot.state.tasks])
    return replace(
        pivot,
        turn=pivot.turn + by,
        cluster=[t + by for t in pivot.cluster],
        signals=moved(pivot.signals),
        delegation=moved(pivot.delegation),
        state=state,
    )
