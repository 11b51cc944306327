"""Search on the replay screen (/, n, N): the needle and the thread that looks for it.

`Search` belongs to one `ReplayScreen`, which creates it with the widget it
works through (the thread worker and the message), the `Playback` it searches
(the turns shown, from the cursor on, wrapping round) and `say`, which puts a
line on the status bar. The match comes back as `Search.Finished`; the screen
moves there and unfolds the tool output that matched.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

from pivotal.model import Turn
from pivotal.tui.loading import search
from pivotal.tui.playback import Playback


class Search:
    """The search keys of one screen."""

    class Finished(Message):
        """A search finished: `turn` is the match, or None."""

        def __init__(self, needle: str, turn: int | None, forward: bool) -> None:
            super().__init__()
            self.needle = needle
            self.turn = turn
            self.forward = forward

    def __init__(self, owner: Widget, playback: Playback, say: Callable[[str], None]) -> None:
        self.owner = owner
        self.playback = playback
        self.say = say
        self.needle = ""
        """What the last search looked for ("" before the first: n and N are then off)."""

    def find(self, needle: str) -> None:
        """Look for `needle` from the cursor on (the / prompt's answer)."""
        self.needle = needle
        self.run(forward=True)

    def run(self, forward: bool) -> None:
        """Look for the needle again, after the cursor or (`forward` False) before it."""
        if not self.needle:
            return
        visible, cursor = self.playback.visible, self.playback.cursor
        pos = bisect_right(visible, cursor)
        if forward:
            order = visible[pos:] + visible[: max(pos - 1, 0)]
        else:
            order = visible[: max(pos - 1, 0)][::-1] + visible[pos:][::-1]
        self.say(f"searching “{self.needle}”…")
        turns, needle = self.playback.turns, self.needle
        self.owner.run_worker(
            lambda: self._thread(turns, order, needle, forward),
            name="search",
            group="search",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Searching the session",
        )

    def _thread(self, turns: list[Turn], order: list[int], needle: str, forward: bool) -> None:
        worker = get_current_worker()
        found = search(turns, order, needle, lambda: worker.is_cancelled)
        if not worker.is_cancelled:
            self.owner.post_message(Search.Finished(needle, found, forward))
