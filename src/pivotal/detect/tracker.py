"""Incremental detection: re-judge only the silences a change can affect.

A silence's judgement depends on turns up to its `reach` (one past the next
human turn, or the end of a full after-window). When turns from
`first_changed` on are new or changed, only silences at or after that point,
and earlier ones whose window was still open or reached that far, are judged
again. Appending a turn therefore costs a bounded amount of work, and feeding
a session turn by turn ends with exactly the batch answer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from pivotal.detect.config import PivotConfig
from pivotal.detect.evaluate import Judgement, judge
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.view import TurnView, make_view
from pivotal.model import Pivot, Turn

VIEW_CACHE = 512


class PivotTracker:
    """Keeps pivots of a growing session up to date."""

    def __init__(self, config: PivotConfig | None = None) -> None:
        self.config = config or PivotConfig()
        self._silences = SilenceIndex(self.config)
        self._judged: dict[int, Judgement] = {}
        self._views: OrderedDict[int, tuple[Turn, TurnView]] = OrderedDict()
        self._length = 0

    def _view(self, turns: Sequence[Turn], pos: int) -> TurnView:
        turn = turns[pos]
        hit = self._views.get(pos)
        if hit is not None and hit[0] is turn:
            self._views.move_to_end(pos)
            return hit[1]
        view = make_view(turn)
        self._views[pos] = (turn, view)
        if len(self._views) > VIEW_CACHE:
            self._views.popitem(last=False)
        return view

    def reset(self) -> None:
        self._silences = SilenceIndex(self.config)
        self._judged.clear()
        self._views.clear()
        self._length = 0

    def update(self, turns: Sequence[Turn], first_changed: int = 0) -> list[Pivot]:
        """Take turns from `first_changed` on as new or changed; return all pivots now known."""
        first = max(0, min(first_changed, self._length, len(turns)))
        self._silences.invalidate(first)
        for pos in [p for p in self._views if p >= first]:
            del self._views[pos]
        for anchor in list(self._judged):
            if anchor >= first or anchor >= len(turns):
                del self._judged[anchor]
        self._length = len(turns)

        def view(pos: int) -> TurnView:
            return self._view(turns, pos)

        stale = [a for a, j in self._judged.items() if not j.complete or j.reach > first]
        for anchor in stale:
            if self._silences.is_anchor(turns, anchor):
                self._judged[anchor] = judge(turns, anchor, self._silences, view, self.config)
            else:
                del self._judged[anchor]
        for pos in range(first, len(turns)):
            if self._silences.is_anchor(turns, pos):
                self._judged[pos] = judge(turns, pos, self._silences, view, self.config)
        return self.pivots()

    def pivots(self) -> list[Pivot]:
        return [j.pivot for _, j in sorted(self._judged.items()) if j.pivot is not None]


def detect_pivots(turns: Sequence[Turn], config: PivotConfig | None = None) -> list[Pivot]:
    """All pivots of `turns` (pure and deterministic; candidates included)."""
    return PivotTracker(config or PivotConfig()).update(turns, 0)
