"""How tall each turn of the transcript is, at the width it is laid out at.

`measured` holds the heights of turns rendered at this width; `estimates` a
height for every turn laid out so far (a measured turn's estimate is its
measured height, so a jump sums estimates alone). A transcript of another
width (the panel docked or not: `p`) needs them all again, so the last other
width's are kept: toggling back is a lookup, where laying 100,000 turns out
again cost ~150 ms a press. No Textual here.
"""

from __future__ import annotations

from collections.abc import Callable


class Heights:
    """Turn index -> lines, at `width`, and the same for the last other width."""

    def __init__(self) -> None:
        self.width = 0
        self.measured: dict[int, int] = {}
        self.estimates: dict[int, int] = {}
        self._other: dict[int, tuple[dict[int, int], dict[int, int]]] = {}

    def switch(self, width: int) -> bool:
        """Lay out at `width` from now on (what was known there comes back); False if it was."""
        if width == self.width:
            return False
        kept = {self.width: (self.measured, self.estimates)} if self.width else {}
        self.measured, self.estimates = self._other.get(width, ({}, {}))
        self._other, self.width = kept, width
        return True

    def drop(self, turn: int) -> None:
        """`turn` looks different now (a call folded or unfolded): measure it again."""
        self.measured.pop(turn, None)
        for measured, _ in self._other.values():
            measured.pop(turn, None)

    def forget(self, which: Callable[[int], bool]) -> None:
        """Forget the turns `which` picks out (they changed), and the other width's layout."""
        self._other.clear()
        for index in [i for i in self.measured if which(i)]:
            del self.measured[index]
        for index in [i for i in self.estimates if which(i)]:
            del self.estimates[index]

    def restyled(self) -> None:
        """New colours can wrap lines differently: measure every turn again."""
        self.measured.clear()
        self._other.clear()
