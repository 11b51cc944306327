"""How tall each turn of the transcript is, in the layout it is drawn in.

A layout is what turn heights depend on: the width and whether reasoning is
shown. `measured` holds the heights of turns rendered in this layout;
`estimates` a height for every turn laid out so far (a measured turn's
estimate is its measured height, so a jump sums estimates alone). Another
layout (the panel docked or not: `p`; reasoning shown or not: `t`) needs them
all again, so the last other layout's are kept: toggling back is a lookup,
where laying 100,000 turns out again cost 100-160 ms a press. No Textual here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable


class Heights:
    """Turn index -> lines in `layout`, and the same for the last other layout."""

    def __init__(self) -> None:
        self.layout: Hashable = None
        self.measured: dict[int, int] = {}
        self.estimates: dict[int, int] = {}
        self._other: dict[Hashable, tuple[dict[int, int], dict[int, int]]] = {}

    def switch(self, layout: Hashable) -> bool:
        """Lay out in `layout` from now on (what was known there comes back); False if it was."""
        if layout == self.layout:
            return False
        kept = {self.layout: (self.measured, self.estimates)} if self.layout is not None else {}
        self.measured, self.estimates = self._other.get(layout, ({}, {}))
        self._other, self.layout = kept, layout
        return True

    def drop(self, turn: int) -> None:
        """`turn` looks different now (a call folded or unfolded): measure it again."""
        self.measured.pop(turn, None)
        for measured, _ in self._other.values():
            measured.pop(turn, None)

    def forget(self, which: Callable[[int], bool]) -> None:
        """Forget the turns `which` picks out (they changed), and the other layout's heights."""
        self._other.clear()
        for index in [i for i in self.measured if which(i)]:
            del self.measured[index]
        for index in [i for i in self.estimates if which(i)]:
            del self.estimates[index]

    def restyled(self) -> None:
        """New colours can wrap lines differently: measure every turn again."""
        self.measured.clear()
        self._other.clear()
