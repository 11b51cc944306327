"""What the detector said of each silence, as the replayer puts it on the turns.

A pivot gets its loud ✦ banner, a possible pivot (just under the bar) a hollow ◇ one,
and every other silence a quiet line that says why it is no pivot, in the detector's
plain words without the figures (those are in the panel, under the evidence). Built once
per analysis, not per key. No Textual here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot
from pivotal.tui.render import pivot_banner, turned_down_line
from pivotal.tui.safe import one_line

_SCORE = re.compile(r"\s*\(confidence -?[\d.]+, the bar is -?[\d.]+\)\s*$")
"""The figures `detect.gates.below_the_bar` puts after its words."""


def why_not(rejection: Rejection, limit: int = 300) -> str:
    """Why a silence is no pivot, in plain words (no confidence, no bar)."""
    words = _SCORE.sub("", rejection.reason) or rejection.gate
    return one_line(words, limit)


class Banners:
    """Turn -> its banner line: pivots over possible pivots over turned-down silences.

    A live session hands over its whole analysis on every update, mostly the same
    objects: a line already written for an object is reused (thousands of turned-down
    silences cost a lookup each, not a sentence each).
    """

    def __init__(self) -> None:
        self._lines: dict[int, tuple[object, str]] = {}

    def __call__(
        self,
        pivots: Iterable[Pivot],
        possible: Iterable[Pivot] = (),
        rejections: Iterable[Rejection] = (),
    ) -> dict[int, str]:
        old, new = self._lines, {}
        out: dict[int, str] = {}
        for verdict in (*rejections, *possible, *pivots):
            turn = verdict.turn
            known = old.get(turn)
            if known is not None and known[0] is verdict:
                line = known[1]
            elif isinstance(verdict, Rejection):
                line = turned_down_line(why_not(verdict, 200))
            else:
                line = pivot_banner(verdict)
            new[turn] = (verdict, line)
            out[turn] = line
        self._lines = new
        return out


def banners(
    pivots: Iterable[Pivot], possible: Iterable[Pivot] = (), rejections: Iterable[Rejection] = ()
) -> dict[int, str]:
    """Turn -> its banner line, written afresh (see `Banners`)."""
    return Banners()(pivots, possible, rejections)


def none_found(
    pivots: Sequence[Pivot], possible: Sequence[Pivot], rejections: Sequence[Rejection] | None
) -> str:
    """The status line's word on a session with no pivot ("" when it has one): how many
    silences were judged, and where to read why."""
    if pivots:
        return ""
    count = len(rejections or ())
    if possible:
        maybe = f"{len(possible)} possible pivot{'s' * (len(possible) != 1)}"
        return f"no pivot, {maybe} (w jumps there, p says why)"
    if count:
        return f"no pivot: {count} silence{'s' * (count != 1)} turned down (p says why)"
    return ""
