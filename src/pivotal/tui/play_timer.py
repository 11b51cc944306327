"""The play timer of one replay screen: when the next turn is revealed while playing.

`PlayTimer` belongs to one `ReplayScreen`, which creates it with the widget
whose timer it runs and the `Playback` it moves, plus `live`, which says
whether the session is being followed (then playing waits at the live edge
instead of stopping). Each tick moves the playback and posts
`PlayTimer.Advanced` to the screen, which shows it (and explains an
auto-pause). The pacing itself, how long to wait for a turn, is `Playback`'s
(`pacing.Pace`); the timer never fires more often than once a frame, and a
tick reveals as many turns as were due in it.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from pivotal.tui.playback import FRAME, Playback


class PlayTimer:
    """Space, +, -, R: the timer that reveals turns while playing."""

    class Advanced(Message):
        """A tick moved the cursor; `stopped`: auto-pause stopped it at a pivot."""

        def __init__(self, stopped: bool) -> None:
            super().__init__()
            self.stopped = stopped

    def __init__(self, owner: Widget, playback: Playback, live: Callable[[], bool]) -> None:
        self.owner = owner
        self.playback = playback
        self.live = live
        self._timer: Timer | None = None
        self._budget = 0.0
        """Seconds of the next tick's frame left for more turns (fast speeds)."""

    @property
    def running(self) -> bool:
        """A tick is scheduled."""
        return self._timer is not None

    def toggle(self) -> None:
        """Space: play (from the start when at the end) or pause."""
        pb = self.playback
        pb.playing = not pb.playing
        if pb.playing and pb.delay_to_next() is None:
            pb.first()
        self.schedule()

    def schedule(self) -> None:
        """(Re)start the wait for the next turn from the playback's state now."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self.playback.playing:
            return
        delay = self.playback.delay_to_next()
        if delay is None:
            self.playback.playing = self.live()  # following: wait at the live edge
            return
        self._budget = max(FRAME - delay, 0.0)
        self._timer = self.owner.set_timer(max(delay, FRAME), self.tick)

    def tick(self) -> None:
        """Reveal the turns due; stop at a pivot when auto-pause is on."""
        self._timer = None
        _, stopped = self.playback.advance(self._budget)
        self.schedule()
        self.owner.post_message(PlayTimer.Advanced(stopped))

    def faster(self) -> str:
        said = self.playback.faster()
        self.schedule()
        return said

    def slower(self) -> str:
        said = self.playback.slower()
        self.schedule()
        return said

    def cycle_idle(self) -> str:
        said = self.playback.pace.cycle_idle()
        self.schedule()
        return said

    def toggle_realtime(self) -> str:
        pace = self.playback.pace
        pace.realtime = not pace.realtime
        self.schedule()
        return pace.label()
