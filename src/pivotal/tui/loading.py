"""Reading a session in slices so the first screen appears before the file is read.

`read_batches` drives a `SessionReader` with a byte budget per poll and yields a
snapshot after each slice; the app runs it in a thread worker and posts the
snapshots as messages. `analyse` (the detector's one pass: pivots, possible
pivots and the silences it turned down), `find_failures` and `find_subagents`
run once all is read (search is `find.py`).
Nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from pivotal.detect import PivotConfig, PivotTracker
from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot, Session, Turn
from pivotal.readers.base import SessionReader
from pivotal.spend.subagents import Subagent, read_subagents
from pivotal.tui.playback import turn_failed

FIRST_BUDGET = 256 * 1024
"""Bytes read before the first screen is shown."""
BUDGET = 8 * 1024 * 1024


@dataclass(slots=True)
class Batch:
    """The turns read so far (a snapshot list the UI may keep) and how far reading got."""

    turns: list[Turn]
    first_changed: int | None
    done: int
    total: int
    finished: bool
    notices: list[str] = field(default_factory=list)
    skipped: int = 0
    problem: str = ""
    """Finished with no turns: why (the last record the reader had to skip), for the person."""
    model: str | None = None
    """The session's model (prices the turns that name none)."""
    title: str | None = None
    """The session's own title and working folder, once the reader has seen them (the
    replayer names the session it shows)."""
    cwd: str | None = None


def read_batches(
    reader: SessionReader, cancelled: Callable[[], bool] = lambda: False
) -> Iterator[Batch]:
    """Poll `reader` slice by slice until it has read everything (or is cancelled).

    Reading is also over when a poll gets no further than the one before: a
    whole-document reader (Gemini's legacy .json, generic chat JSON) facing a
    truncated or NUL-padded file reads nothing and never reports progress, and
    waiting for it spun a core forever.
    """
    budget = FIRST_BUDGET
    first: int | None = None
    last: int | None = None
    while not cancelled():
        update = reader.poll(final=True, budget=budget)
        budget = BUDGET
        if update.first_changed is not None:
            first = update.first_changed if first is None else min(first, update.first_changed)
        done, total = reader.progress
        stalled = done == last and update.first_changed is None and not update.reloaded
        finished = done >= total or update.gone or stalled
        last = done
        notices = [update.notice] if update.notice else []
        session = reader.session
        problem = ""
        if finished and not session.turns and session.skipped:
            problem = session.skipped[-1].reason
        yield Batch(
            list(session.turns),
            first,
            done,
            total,
            finished,
            notices,
            len(session.skipped),
            problem,
            session.model,
            session.title,
            session.cwd,
        )
        first = None
        if finished:
            return


@dataclass(slots=True)
class Analysis:
    """What one pass of the detector says of a session, split the way the replayer shows it."""

    pivots: list[Pivot] = field(default_factory=list)
    """The pivots (candidates included): counted, paused at, `]` / `[`."""
    possible: list[Pivot] = field(default_factory=list)
    """The possible pivots (confidence in the band under the bar): shown, never paused at."""
    rejections: list[Rejection] = field(default_factory=list)
    """Every other silence, with why it is no pivot (plain words)."""

    @classmethod
    def of(cls, judged: list[Pivot], rejections: list[Rejection] | None = None) -> Analysis:
        """Split pivots and possible pivots given together (`Pivot.possible` says which)."""
        return cls(
            [p for p in judged if not p.possible],
            [p for p in judged if p.possible],
            list(rejections or []),
        )


def tracked(tracker: PivotTracker) -> Analysis:
    """What `tracker` knows now, as an `Analysis` (one walk over its judgements)."""
    return Analysis.of(tracker.all_pivots(), tracker.rejections())


def analyse(turns: list[Turn], config: PivotConfig | None = None) -> Analysis:
    """The detector's one pass over `turns`: pivots, possible pivots and turned-down silences."""
    tracker = PivotTracker(config or PivotConfig())
    tracker.update(turns, 0)
    return tracked(tracker)


def find_pivots(turns: list[Turn], config: PivotConfig | None = None) -> list[Pivot]:
    """The detector's pivots for `turns` (possible pivots left out)."""
    return analyse(turns, config).pivots


def find_subagents(session: Session) -> list[Subagent]:
    """The sub-agents `session` ran, read and tied to their calls (`pivotal.spend`)."""
    return read_subagents(session)


def find_failures(turns: list[Turn], cancelled: Callable[[], bool] = lambda: False) -> list[int]:
    """Indices of error turns and turns with a failed tool call."""
    failures = []
    for turn in turns:
        if cancelled():
            break
        try:
            if turn_failed(turn):
                failures.append(turn.index)
        except Exception:  # noqa: BLE001 - a turn that cannot be decoded is not a failure
            continue
    return failures
