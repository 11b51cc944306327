"""Turn times made into durations on a clock that never runs backwards, read locally.

Readers report the time each record carries, and those do not always rise: a tool
result is often stamped a second or two before the call it answers, and a file Claude
Code 1.0 began with the history of the session it resumed stamps the copies with the
moment of the resume while the person's copied messages keep their first times (hours
earlier). So a run of the agent's starts at the latest time among its first turn and the
turns just before it (back to the person's previous message, `BACK` turns at most) and
ends at the latest time among its own turns, never before it starts: a go-on typed hours
before the copied work around it counts no hours. Only nearby turns are read, so a half of
a file read from a cut (`scan.split`) measures what the whole file does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pivotal.model import Role, Turn, TurnFlag

BACK = 20
"""Turns looked at before a run's first turn (the detector's before-window)."""
_HUMAN = int(TurnFlag.HUMAN)


def latest(times: Iterable[float | None]) -> float | None:
    """The latest of `times` (None when none is known)."""
    found: float | None = None
    for when in times:
        if when is not None and (found is None or when > found):
            found = when
    return found


def started_at(turns: Sequence[Turn], anchor: int, back: int = BACK) -> float | None:
    """When a run from the turn at position `anchor` started: the latest time among it and
    the turns before it back to (and with) the person's previous message, `back` at most.
    None when the anchor has no time (a time before it is no start of its own)."""
    start = turns[anchor].timestamp
    if start is None:
        return None
    user = Role.USER
    for pos in range(anchor - 1, max(-1, anchor - 1 - back), -1):
        turn = turns[pos]
        when = turn.timestamp
        if when is not None and when > start:
            start = when
        if turn.role is user and int(turn.flags) & _HUMAN:
            break
    return start


def ended_at(start: float | None, times: Iterable[float | None]) -> float | None:
    """When a run that started at `start` ended: the latest of its turns' `times`, never
    earlier than `start` (None when neither is known)."""
    end = latest(times)
    return end if end is None or start is None else max(end, start)
