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
from collections.abc import Callable, Sequence

from pivotal.detect.config import PivotConfig
from pivotal.detect.decode import make_view
from pivotal.detect.evaluate import Judgement, Rejection, judge
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.view import TurnView
from pivotal.model import Pivot, Silence, Turn

VIEW_CACHE = 512


class PivotTracker:
    """Keeps pivots of a growing session up to date."""

    def __init__(self, config: PivotConfig | None = None) -> None:
        self.config = config or PivotConfig()
        self._silences = SilenceIndex(self.config)
        self._judged: dict[int, Judgement] = {}
        self._order: list[int] = []
        """Judged anchors in increasing position."""
        self._open: set[int] = set()
        """Anchors whose after-window is still filling."""
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

    def _views_of(self, turns: Sequence[Turn]) -> Callable[[int], TurnView]:
        def view(pos: int) -> TurnView:
            return self._view(turns, pos)

        return view

    def reset(self) -> None:
        self._silences = SilenceIndex(self.config)
        self._judged.clear()
        self._order.clear()
        self._open.clear()
        self._views.clear()
        self._length = 0

    def update(self, turns: Sequence[Turn], first_changed: int = 0) -> list[Pivot]:
        """Take turns from `first_changed` on as new or changed; return all pivots now known."""
        first = max(0, min(first_changed, self._length, len(turns)))
        rewound = first < self._length
        self._silences.invalidate(first)
        if rewound:
            for pos in [p for p in self._views if p >= first]:
                del self._views[pos]
        while self._order and self._order[-1] >= first:
            anchor = self._order.pop()
            del self._judged[anchor]
            self._open.discard(anchor)
        self._length = len(turns)
        view = self._views_of(turns)

        # earlier silences whose window was still open, or (after a rewind) reached the change
        stale = set(self._open)
        if rewound:
            stale.update(a for a, j in self._judged.items() if j.reach > first)
        for anchor in sorted(stale):
            self._judge(turns, anchor, view)
        for pos in self._silences.anchors(turns, first):
            self._order.append(pos)
            self._judge(turns, pos, view)
        return self.pivots()

    def _judge(self, turns: Sequence[Turn], anchor: int, view: Callable[[int], TurnView]) -> None:
        judgement = judge(turns, anchor, self._silences, view, self.config)
        self._judged[anchor] = judgement
        if judgement.complete:
            self._open.discard(anchor)
        else:
            self._open.add(anchor)

    def rejections(self) -> list[Rejection]:
        """Every silence judged no pivot, in session order, with the gate that said so."""
        out = []
        for anchor in self._order:
            rejection = self._judged[anchor].rejection
            if rejection is not None:
                out.append(rejection)
        return out

    def pivots(self) -> list[Pivot]:
        """All pivots now known, in session order (candidates included, possible ones not)."""
        out = []
        for anchor in self._order:
            pivot = self._judged[anchor].pivot
            if pivot is not None and not pivot.possible:
                out.append(pivot)
        return out

    def all_pivots(self) -> list[Pivot]:
        """The pivots and the possible pivots together, in session order."""
        out = []
        for anchor in self._order:
            pivot = self._judged[anchor].pivot
            if pivot is not None:
                out.append(pivot)
        return out

    def possible_pivots(self) -> list[Pivot]:
        """The possible pivots (confidence in the band under the bar), in session order."""
        out = []
        for anchor in self._order:
            pivot = self._judged[anchor].pivot
            if pivot is not None and pivot.possible:
                out.append(pivot)
        return out

    def silence_at(self, turns: Sequence[Turn], pos: int) -> Silence | None:
        """The kind of silence at position `pos` (None when it is none)."""
        return self._silences.silence(turns, pos)

    def judgements(self) -> list[tuple[int, Judgement]]:
        """Every judged silence's position and judgement, in session order (for tools that
        learn from the measured signals: `tools/fit_detector.py`)."""
        return [(anchor, self._judged[anchor]) for anchor in self._order]


def detect_pivots(
    turns: Sequence[Turn],
    config: PivotConfig | None = None,
    within: range | None = None,
    possible: bool = False,
) -> list[Pivot]:
    """All pivots of `turns` (pure and deterministic; candidates included).

    `within` judges only the silences anchored at those positions (their windows
    still see every turn): a caller that splits a session between processes
    judges each silence once. `possible` adds the possible pivots (`Pivot.possible`),
    in session order among the others.
    """
    tracker = PivotTracker(config or PivotConfig())
    if within is None:
        tracker.update(turns, 0)
    else:
        view = tracker._views_of(turns)
        for pos in tracker._silences.anchors(turns, max(0, within.start)):
            if pos >= within.stop:
                break
            tracker._order.append(pos)
            tracker._judge(turns, pos, view)
    return tracker.all_pivots() if possible else tracker.pivots()
