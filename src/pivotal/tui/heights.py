"""How tall each turn of the transcript is, in the layout it is drawn in.

A layout is what turn heights depend on: the width and whether reasoning is
shown. `measured` holds the heights of turns rendered in this layout;
`estimates` a height for every turn laid out so far (a measured turn's
estimate is its measured height, so a jump sums estimates alone). Another
layout (the panel docked or not: `p`; reasoning shown or not: `t`) needs them
all again, so the last other layout's are kept: toggling back is a lookup,
where laying 100,000 turns out again cost 100-160 ms a press. A guess (the
estimate of a turn never rendered) depends on the width alone, so the guesses
made at a width are kept apart too: a layout of the same width (`t`) starts
from them with one dict copy instead of guessing 100,000 turns again (first
`t` on 100,000 turns: the relayout 40 ms -> a few). The view may also name a
spare width, the one the next `p` will give it, and guess there while idle:
the first `p` then starts from those (100,000 turns: 63-70 ms -> 31-46 ms).
The view may keep something of its own with a layout (`kept`: its line offsets),
given back when that layout is, and dropped with its heights.
No Textual here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable


class Heights:
    """Turn index -> lines in `layout`, and the same for the last other layout."""

    def __init__(self) -> None:
        self.layout: Hashable = None
        self.measured: dict[int, int] = {}
        self.estimates: dict[int, int] = {}
        self.kept: object = None
        """What the view keeps with this layout: set before a switch, given back after one."""
        self._other: dict[Hashable, tuple[dict[int, int], dict[int, int], object]] = {}
        self._guesses: dict[Hashable, dict[int, int]] = {}
        """Width -> the guesses made at it (this layout's width, the last other one, and the
        spare: the width the view expects next, guessed while idle)."""
        self._width: Hashable = None
        self._spare: Hashable = None

    def switch(self, layout: Hashable, width: Hashable = None) -> bool:
        """Lay out in `layout` from now on (what was known there comes back); False if it was.

        `width` is the part of the layout guesses depend on: a layout never seen
        starts from the guesses made at its width.
        """
        if layout == self.layout:
            return False
        kept = {}
        if self.layout is not None:
            kept = {self.layout: (self.measured, self.estimates, self.kept)}
        found = self._other.get(layout)
        if found is None:
            found = ({}, dict(self._guesses.get(width, {})), None)
        self.measured, self.estimates, self.kept = found
        self._other, self.layout = kept, layout
        if width != self._width:
            keep = (self._width, width, self._spare)
            self._guesses = {key: value for key, value in self._guesses.items() if key in keep}
            self._guesses.setdefault(width, {})
            self._width = width
        return True

    def spare(self, width: Hashable) -> dict[int, int]:
        """The guesses for `width`, a width the view expects to be laid out at soon (the panel
        toggled: `p`), kept through switches until another spare width replaces it."""
        if width != self._spare:
            if self._spare not in (self._width, None):
                self._guesses.pop(self._spare, None)
            self._spare = width
        return self._guesses.setdefault(width, {})

    def guess(self, turn: int, height: int) -> None:
        """A guess at `turn`'s height, before it is rendered: for this layout and its width."""
        self.estimates[turn] = height
        self._guesses.setdefault(self._width, {})[turn] = height

    def drop(self, turn: int) -> None:
        """`turn` looks different now (a call folded or unfolded): measure it again."""
        self.measured.pop(turn, None)
        for measured, _, _ in self._other.values():
            measured.pop(turn, None)

    def redo(self, turns: Iterable[int]) -> None:
        """`turns` look different now whatever the layout (the cursor's turn became, or
        stopped being, one the filter hides): measure and guess them again in every layout,
        and drop what the other layout keeps (its offsets summed their old heights)."""
        layouts = [(self.measured, self.estimates)]
        layouts += [(measured, estimates) for measured, estimates, _ in self._other.values()]
        for turn in turns:
            for measured, estimates in layouts:
                measured.pop(turn, None)
                estimates.pop(turn, None)
        self._other = {key: (m, e, None) for key, (m, e, _) in self._other.items()}

    def forget(self, which: Callable[[int], bool]) -> None:
        """Forget the turns `which` picks out (they changed), and the other layout's heights."""
        self._other.clear()
        for heights in (self.measured, self.estimates, *self._guesses.values()):
            for index in [i for i in heights if which(i)]:
                del heights[index]

    def restyled(self) -> None:
        """New colours can wrap lines differently: measure every turn again."""
        self.measured.clear()
        self._other.clear()
