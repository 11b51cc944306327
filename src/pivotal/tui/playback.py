"""Where the replay is and what moves it: a pure model with no Textual in it.

The app owns one `Playback` and asks it where a key should move the cursor;
everything here is plain data so it can be tested without a terminal. The
cursor is always a turn index (in `Session.turns`); a filter narrows which
turns stepping visits and the transcript shows.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from math import floor
from typing import TYPE_CHECKING

from pivotal.model import Pivot, Role, Turn, TurnFlag
from pivotal.tui.pacing import Pace

if TYPE_CHECKING:
    from pivotal.detect.evaluate import Rejection

FRAME = 1 / 30
"""Playing never waits less than this between two reveals: faster, a tick reveals several."""


class Filter(StrEnum):
    """Which turns stepping visits and the transcript shows."""

    ALL = "all"
    HUMAN = "human"
    PIVOTS = "pivots"
    FAILURES = "failures"


FILTER_ORDER = (Filter.ALL, Filter.HUMAN, Filter.PIVOTS, Filter.FAILURES)
FILTER_WORDS = {
    Filter.ALL: "all turns",
    Filter.HUMAN: "your messages only",
    Filter.PIVOTS: "pivots only",
    Filter.FAILURES: "failed calls only",
}
"""What each filter shows, as the status line, its notice and the transcript say it."""
_HUMAN = int(TurnFlag.HUMAN)


def turn_failed(turn: Turn) -> bool:
    """An error turn or one with a failed tool call (decodes the turn's parts)."""
    if turn.flags & TurnFlag.ERROR:
        return True
    return any(call.failed for call in turn.tool_calls)


@dataclass
class Playback:
    """Cursor, play state, speed, auto-pause and filter over a list of turns."""

    turns: list[Turn] = field(default_factory=list)
    pivots: list[Pivot] = field(default_factory=list)
    failures: list[int] = field(default_factory=list)
    cursor: int = 0
    playing: bool = False
    pace: Pace = field(default_factory=Pace)
    autopause: bool = True
    filter: Filter = Filter.ALL
    revision: int = 0
    """Bumped by every `set_turns`: a live session changes turns without adding any (a
    response's later lines and tool results join its turn), so caches keyed by the turn
    count would go stale."""
    _visible: list[int] | None = None
    _human: list[int] | None = None
    """The person's turns, found once per turn list (the filter comes back to them)."""
    _pivot_turns: list[int] = field(default_factory=list)
    _pivot_members: dict[int, int] = field(default_factory=dict)
    _first: float | None = None
    """The session's first time (the clock's zero), for `clock`."""
    _latest: list[float | None] = field(default_factory=list)
    """For each turn the clock has looked at, the latest time up to it (`clock`): times do
    not always rise (a tool result stamped before its call, a resumed file's copied
    messages), the replay clock does. Grown with the turns, so live follow adds only its
    new turns."""
    marked: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] = ((), (), ())
    """(pivot turns, failed turns, candidate pivots) as the timeline takes them, made once
    per analysis: a key press built them anew (thousands of failures in a big session)."""
    possible: list[Pivot] = field(default_factory=list)
    """Possible pivots (just under the bar): shown and jumped to (`w` / `W`), never paused
    at and never counted with the pivots."""
    possible_turns: tuple[int, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    """The silences the detector turned down, in session order (why: `Rejection.reason`)."""
    _rejected: dict[int, Rejection] = field(default_factory=dict)

    # -- data ---------------------------------------------------------------
    def set_turns(self, turns: list[Turn], changed_from: int | None = None) -> None:
        """Show `turns`; `changed_from`: the first turn that is not as before (0: a new
        list, as a reloaded or replaced file gives), None when only new turns were added.

        The clock's times are looked at again from the first turn that may have changed: a
        file replaced by an older session with more turns kept the old session's start, and
        every time before it read 0:00.
        """
        if changed_from is not None:
            del self._latest[changed_from:]
        self.turns = turns
        self.revision += 1
        self._visible = self._human = None
        if turns:
            self.cursor = min(self.cursor, len(turns) - 1)
        else:
            self.cursor = 0

    def set_pivots(self, pivots: list[Pivot]) -> None:
        self.pivots = sorted(pivots, key=lambda p: p.turn)
        self._pivot_turns = [p.turn for p in self.pivots]
        self.marked = (tuple(self._pivot_turns), tuple(self.failures), self._candidates())
        self._pivot_members = {}
        for number, pivot in enumerate(self.pivots):
            for index in [pivot.turn, *pivot.cluster]:
                self._pivot_members.setdefault(index, number)
        self._visible = None

    def set_possible(self, possible: list[Pivot]) -> None:
        self.possible = sorted(possible, key=lambda p: p.turn)
        self.possible_turns = tuple(p.turn for p in self.possible)

    def set_rejections(self, rejections: Sequence[Rejection]) -> None:
        self.rejections = tuple(rejections)
        self._rejected = {r.turn: r for r in rejections}

    def set_judged(self, judged: list[Pivot], rejections: Sequence[Rejection] = ()) -> None:
        """The detector's verdicts: pivots and possible pivots together (`Pivot.possible`
        tells them apart), and the turned-down silences."""
        self.set_pivots([p for p in judged if not p.possible])
        self.set_possible([p for p in judged if p.possible])
        self.set_rejections(rejections or ())

    def set_failures(self, failures: list[int]) -> None:
        self.failures = sorted(failures)
        self._visible = None
        self.marked = (tuple(self._pivot_turns), tuple(self.failures), self._candidates())

    def _candidates(self) -> tuple[int, ...]:
        return tuple(p.turn for p in self.pivots if p.candidate)

    @property
    def speed(self) -> float:
        return self.pace.speed

    @property
    def realtime(self) -> bool:
        return self.pace.realtime

    # -- filter -------------------------------------------------------------
    @property
    def visible(self) -> list[int]:
        """Turn indices the current filter shows, ascending."""
        if self._visible is None:
            self._visible = self._compute_visible()
        return self._visible

    def _compute_visible(self) -> list[int]:
        count = len(self.turns)
        if self.filter is Filter.ALL:
            return list(range(count))
        if self.filter is Filter.HUMAN:
            if self._human is None:
                # `Turn.is_human` inlined: the property call was most of the first `\`
                # on 100,000 turns (18 -> 6 ms)
                user, turns = Role.USER, self.turns
                self._human = [t.index for t in turns if t.role is user and int(t.flags) & _HUMAN]
            return list(self._human)
        if self.filter is Filter.PIVOTS:
            return sorted(i for i in self._pivot_members if i < count)
        return [i for i in self.failures if i < count]

    def set_filter(self, value: Filter) -> None:
        """Change the filter; the cursor stays on its turn, even one the filter hides (the
        transcript then shows that turn's header alone, saying so: `hiding`).

        Moving it to the nearest shown turn lost the person's place: one round of
        the filter key took 3675 to 3430.
        """
        self.filter = value
        self._visible = None

    def cycle_filter(self) -> Filter:
        order = FILTER_ORDER
        self.set_filter(order[(order.index(self.filter) + 1) % len(order)])
        return self.filter

    def shown(self) -> list[int]:
        """Turns on screen: the visible ones up to the cursor, and the cursor turn itself
        (last; when the filter hides it, the transcript draws its header alone)."""
        visible = self.visible
        end = bisect_right(visible, self.cursor)
        shown = visible[:end]
        if self.turns and (not end or visible[end - 1] != self.cursor):
            shown.append(self.cursor)  # filtered out, but it is where the person is
        return shown

    @property
    def cursor_filtered_out(self) -> bool:
        """The cursor's turn is not one the filter shows."""
        visible = self.visible
        pos = bisect_left(visible, self.cursor)
        return bool(self.turns) and (pos >= len(visible) or visible[pos] != self.cursor)

    def hiding(self) -> str:
        """The filter's words ("pivots only") when it hides the cursor's turn, else "": the
        transcript then keeps the person's place with the turn's header alone."""
        if self.filter is Filter.ALL or not self.cursor_filtered_out:
            return ""
        return FILTER_WORDS[self.filter]

    def hidden_count(self) -> int:
        """How many of the session's turns the filter hides (0 for all turns)."""
        return 0 if self.filter is Filter.ALL else len(self.turns) - len(self.visible)

    # -- moves (each returns the new cursor or None when it cannot move) ------
    def _set(self, index: int | None) -> int | None:
        if index is None or not self.turns:
            return None
        index = max(0, min(index, len(self.turns) - 1))
        self.cursor = index
        return index

    def step(self, delta: int) -> int | None:
        visible = self.visible
        if not visible:
            return None
        if delta > 0:
            pos = bisect_right(visible, self.cursor) + delta - 1
        else:
            pos = bisect_left(visible, self.cursor) + delta
        if pos < 0 or pos >= len(visible):
            return None
        return self._set(visible[pos])

    def first(self) -> int | None:
        return self._set(self.visible[0]) if self.visible else None

    def last(self) -> int | None:
        return self._set(self.visible[-1]) if self.visible else None

    def percent(self, tenth: int) -> int | None:
        """Jump to `tenth` x 10 % of the shown turns."""
        visible = self.visible
        if not visible:
            return None
        return self._set(visible[min(len(visible) - 1, len(visible) * tenth // 10)])

    def goto(self, index: int) -> int | None:
        """Jump to turn `index` (clamped), even one the filter hides (`hiding`)."""
        return self._set(index)

    def seek(self, direction: int) -> int | None:
        """Shift+arrows: a tenth of the shown turns forward (1) or back (-1)."""
        visible = self.visible
        if not visible:
            return None
        pos = bisect_right(visible, self.cursor) - 1
        step = max(len(visible) // 10, 1) * direction
        return self._set(visible[max(0, min(pos + step, len(visible) - 1))])

    def landing(self, move: Callable[[], int | None]) -> int | None:
        """Where `move` would put the cursor, which stays where it is (the prefetch asks)."""
        here = self.cursor
        try:
            return move()
        finally:
            self.cursor = here

    def next_pivot(self) -> int | None:
        pos = bisect_right(self._pivot_turns, self.cursor)
        return self._set(self._pivot_turns[pos]) if pos < len(self._pivot_turns) else None

    def prev_pivot(self) -> int | None:
        pos = bisect_left(self._pivot_turns, self.cursor) - 1
        return self._set(self._pivot_turns[pos]) if pos >= 0 else None

    def next_possible(self) -> int | None:
        turns = self.possible_turns
        pos = bisect_right(turns, self.cursor)
        return self._set(turns[pos]) if pos < len(turns) else None

    def prev_possible(self) -> int | None:
        turns = self.possible_turns
        pos = bisect_left(turns, self.cursor) - 1
        return self._set(turns[pos]) if pos >= 0 else None

    def next_failure(self) -> int | None:
        pos = bisect_right(self.failures, self.cursor)
        return self._set(self.failures[pos]) if pos < len(self.failures) else None

    def prev_failure(self) -> int | None:
        pos = bisect_left(self.failures, self.cursor) - 1
        return self._set(self.failures[pos]) if pos >= 0 else None

    def human_turns(self) -> list[int]:
        """The person's own messages, ascending (found once per turn list)."""
        if self._human is None:
            user, turns = Role.USER, self.turns
            self._human = [t.index for t in turns if t.role is user and int(t.flags) & _HUMAN]
        return self._human

    def next_human(self) -> int | None:
        """}: the next message the person wrote (whatever the filter shows)."""
        human = self.human_turns()
        pos = bisect_right(human, self.cursor)
        return self._set(human[pos]) if pos < len(human) else None

    def prev_human(self) -> int | None:
        """{: the message the person wrote before the cursor."""
        human = self.human_turns()
        pos = bisect_left(human, self.cursor) - 1
        return self._set(human[pos]) if pos >= 0 else None

    # -- pivots -------------------------------------------------------------
    def pivot_at_or_before(self, index: int | None = None) -> Pivot | None:
        """The pivot the panel explains: the last one anchored at or before the cursor."""
        index = self.cursor if index is None else index
        pos = bisect_right(self._pivot_turns, index) - 1
        return self.pivots[pos] if pos >= 0 else None

    def possible_at_or_before(self, index: int | None = None) -> Pivot | None:
        index = self.cursor if index is None else index
        pos = bisect_right(self.possible_turns, index) - 1
        return self.possible[pos] if pos >= 0 else None

    def explained_at(self, index: int | None = None) -> Pivot | None:
        """What the panel explains: the latest pivot or possible pivot at or before `index`."""
        pivot = self.pivot_at_or_before(index)
        maybe = self.possible_at_or_before(index) if self.possible else None
        if maybe is not None and (pivot is None or maybe.turn > pivot.turn):
            return maybe
        return pivot

    def still_judged(self, pivot: Pivot) -> bool:
        """`pivot` is still one of the analysis' pivots or possible pivots (live follow
        replaces them)."""
        if pivot.possible:
            pos = bisect_left(self.possible_turns, pivot.turn)
            return pos < len(self.possible) and self.possible[pos] is pivot
        return self.pivot_anchored_at(pivot.turn) is pivot

    def number_of(self, pivot: Pivot) -> tuple[int, int]:
        """(its number, how many) among the pivots, or among the possible pivots for one."""
        same = self.possible if pivot.possible else self.pivots
        turns = self.possible_turns if pivot.possible else self._pivot_turns
        pos = bisect_left(turns, pivot.turn)
        found = pos < len(same) and same[pos].turn == pivot.turn
        return (pos + 1 if found else 0), len(same)

    def rejection_at(self, index: int | None = None) -> Rejection | None:
        """The turned-down silence anchored at `index` (the cursor), if there is one."""
        return self._rejected.get(self.cursor if index is None else index)

    def pivot_anchored_at(self, index: int) -> Pivot | None:
        pos = bisect_left(self._pivot_turns, index)
        if pos < len(self._pivot_turns) and self._pivot_turns[pos] == index:
            return self.pivots[pos]
        return None

    @property
    def at_end(self) -> bool:
        """The cursor is on the last turn the filter shows."""
        visible = self.visible
        return bool(visible) and self.cursor == visible[-1]

    def clock(self) -> tuple[float | None, float | None]:
        """(seconds from the first timestamp to the cursor turn's, to the latest one), on a
        clock that never runs backwards: the cursor's time is the latest up to its turn.

        None where the cursor turn has no timestamp. The times are looked at once per turn
        (a session that grew, in its new turns only).
        """
        turns = self.turns
        latest = self._latest
        if len(latest) != len(turns):
            self._extend_clock()
        first = self._first
        if first is None or not turns:
            return None, None
        last = latest[-1]
        here = latest[self.cursor] if turns[self.cursor].timestamp is not None else None
        # whole seconds of the stamps as the turns show them (15:15:58 - 14:00:00 = 1:15:58,
        # not the 1:15:57 the fractions underneath would give)
        duration = None if last is None else float(max(floor(last) - floor(first), 0))
        return (None if here is None else float(max(floor(here) - floor(first), 0))), duration

    def _extend_clock(self) -> None:
        """`_latest` for every turn: cut back to the turns there are, then grown."""
        turns, latest = self.turns, self._latest
        del latest[len(turns) :]
        now = latest[-1] if latest else None
        if now is None:
            self._first = None  # no time seen yet (or the turns it was seen in are gone)
        for pos in range(len(latest), len(turns)):
            when = turns[pos].timestamp
            if when is not None and (now is None or when > now):
                if now is None:
                    self._first = when
                now = when
            latest.append(now)

    # -- playback -----------------------------------------------------------
    def faster(self) -> str:
        return self.pace.faster()

    def slower(self) -> str:
        return self.pace.slower()

    def delay_to_next(self) -> float | None:
        """Seconds to wait before revealing the next shown turn (None at the end)."""
        visible = self.visible
        pos = bisect_right(visible, self.cursor)
        if pos >= len(visible):
            return None
        here = self.turns[self.cursor].timestamp if self.pace.realtime else None
        then = self.turns[visible[pos]].timestamp if self.pace.realtime else None
        return self.pace.delay(here, then)

    def advance(self, budget: float = 0.0) -> tuple[int | None, bool]:
        """One playback tick: step forward, and on while the next turn is due within `budget`
        seconds (fast speeds reveal several turns per frame); say whether auto-pause stopped it.
        """
        moved: int | None = None
        while True:
            step = self.step(1)
            if step is None:
                self.playing = False
                return moved, False
            moved = step
            if self.autopause and self.pivot_anchored_at(step) is not None:
                self.playing = False
                return moved, True
            delay = self.delay_to_next()
            if delay is None or delay > budget + 1e-9:
                return moved, False
            budget -= delay
