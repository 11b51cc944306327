"""The jump list of one replay screen: every jump can be undone, like vim's jump list.

`Jumps` belongs to one `ReplayScreen`, which creates it with the `Playback`
it moves. A jump (an evidence link, `]` / `[`, `e` / `E`, `{` / `}`, a search match,
`:`, `0`-`9`, Shift+arrows, `g` / `G`, `u` / `U`, a click on the timeline) goes
through `go`, which remembers where the cursor was; Backspace (or `` ` ``, or
Ctrl+O) goes back there, and again to the place before that. Steps (`l`, `h`)
and playing are not jumps.

Following an evidence link from the pivot panel pins the panel to the pivot
being read (`panel_pivot`): the cursor may land before it or past the next
one, and the explanation the person was reading must not change under them.
Any jump that is not a link lets go of the pin, and so does coming back to
where the pinned pivot is the one the cursor is under anyway.
No Textual here.
"""

from __future__ import annotations

from collections.abc import Callable

from pivotal.model import Pivot
from pivotal.tui.playback import Playback

LIMIT = 100
"""Places remembered (the oldest are forgotten first)."""


class Jumps:
    """Where the person was before each jump, and the pivot the panel is pinned to."""

    def __init__(self, playback: Playback) -> None:
        self.playback = playback
        self.places: list[int] = []
        """Cursor positions before each jump, oldest first."""
        self.pinned: Pivot | None = None
        """The pivot whose evidence the person is following (the panel stays on it)."""

    def go(self, move: Callable[[], int | None], *, link: bool = False) -> int | None:
        """Run `move` (a playback move returning the new cursor or None) as a jump.

        `link`: an evidence link of the pivot on the panel: pin the panel to it.
        """
        pb = self.playback
        before = pb.cursor
        reading = self.panel_pivot() if link else None
        target = move()
        if target is None or target == before or not pb.turns:
            return target
        if not self.places or self.places[-1] != before:
            self.places.append(before)
            del self.places[:-LIMIT]
        self.pinned = (self.pinned or reading) if link else None
        return target

    def back(self) -> int | None:
        """Backspace: back to where the last jump started; None when there is nowhere to go."""
        pb = self.playback
        while self.places:
            place = self.places.pop()
            if place < len(pb.turns) and place != pb.cursor:
                return pb.goto(place)
        return None

    @property
    def depth(self) -> int:
        return len(self.places)

    def panel_pivot(self) -> Pivot | None:
        """The pivot the panel explains: the pinned one, else the last pivot or possible pivot
        at or before the cursor."""
        pb = self.playback
        natural = pb.explained_at()
        pinned = self.pinned
        if pinned is not None and (pinned is natural or not pb.still_judged(pinned)):
            self.pinned = None  # back under it, or the analysis replaced it (live follow)
        return self.pinned or natural
