"""The replayer's jump keys: pivots, possible pivots, failures, ends, percent, `:` and links.

`ReplayScreen` inherits them; they are here so that the screen's own file keeps the wiring
(helpers, data arriving, sync) and this one what each jump does and says when it cannot.
Each is an `action_*` method as keys.py binds it; what it needs of the screen is declared
below (the screen sets it up in its `__init__`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pivotal.tui.safe import one_line
from pivotal.tui.screens import PromptScreen

if TYPE_CHECKING:
    from textual.app import App

    from pivotal.tui.jumps import Jumps
    from pivotal.tui.live import LiveFollow
    from pivotal.tui.panes import Panes
    from pivotal.tui.play_timer import PlayTimer
    from pivotal.tui.playback import Playback


class JumpKeys:
    """The jump keys of `ReplayScreen` (a mixin: it holds no state of its own).

    Message handlers stay on the screen: Textual gathers `@on` handlers only from classes
    of its own (a mixin's would never run).
    """

    if TYPE_CHECKING:
        app: App[object]
        playback: Playback
        jumps: Jumps
        panes: Panes
        player: PlayTimer
        live: LiveFollow
        analysed: bool
        reading: str
        status: str
        came_from: str
        pending_at: int | None
        end_at: int | None

        def moved(self, target: int | None, what: str = "") -> None: ...
        def say(self, status: str) -> None: ...

    def action_next_pivot(self) -> None:
        self.at_pivot(self.jumps.go(self.playback.next_pivot), self.no_pivot("later"))

    def action_prev_pivot(self) -> None:
        self.at_pivot(self.jumps.go(self.playback.prev_pivot), self.no_pivot("earlier"))

    def no_pivot(self, which: str) -> str:
        """Why ] or [ did not move: no such pivot, or none is known while the file is read."""
        if self.analysed:
            return f"no {which} pivot"
        return "still reading: no pivot known yet"

    def at_pivot(self, target: int | None, what: str) -> None:
        """After ] or [: the explanation shows (a narrow screen opens its drawer).

        While playing, ] is the quick way on: playback stops at that pivot as
        auto-pause would have (or plays on from it, with auto-pause off).
        """
        if target is not None:
            self.panes.reveal()
        self.moved(target, what)
        if target is not None and self.playback.playing:
            self.playback.playing = not self.playback.autopause
            self.player.schedule()
            if self.playback.autopause:
                self.say(f"skipped to {self.pivot_name()} (turn #{target + 1}): auto-paused")

    def pivot_name(self) -> str:
        """`pivot 2` or `possible pivot 1`: the one the panel explains."""
        pivot = self.jumps.panel_pivot()
        if pivot is None:
            return "no pivot"
        number, _ = self.playback.number_of(pivot)
        return f"{'possible pivot' if pivot.possible else 'pivot'} {number}"

    def action_next_possible(self) -> None:
        self.at_pivot(self.jumps.go(self.playback.next_possible), "no later possible pivot")

    def action_prev_possible(self) -> None:
        self.at_pivot(self.jumps.go(self.playback.prev_possible), "no earlier possible pivot")

    def action_next_failure(self) -> None:
        self.moved(self.jumps.go(self.playback.next_failure), "no later failure")

    def action_prev_failure(self) -> None:
        self.moved(self.jumps.go(self.playback.prev_failure), "no earlier failure")

    def action_first(self) -> None:
        self.moved(self.jumps.go(self.playback.first))

    def action_last(self) -> None:
        self.moved(self.jumps.go(self.playback.last))
        self.pending_at = None
        reading = self.reading.startswith("reading") and not self.live.on  # more are coming
        if reading and self.playback.turns:
            self.end_at = self.playback.cursor
            self.say("still reading: following the end as it arrives")

    def action_percent(self, tenth: int) -> None:
        self.moved(self.jumps.go(lambda: self.playback.percent(tenth)))

    def action_seek(self, direction: int) -> None:
        self.moved(self.jumps.go(lambda: self.playback.seek(direction)))

    def action_goto(self) -> None:
        def done(value: str | None) -> None:
            text = (value or "").strip()
            if not text:
                return
            if not text.isdigit():
                self.say(f"not a turn number: {one_line(text, 30)}")
                return
            turn = int(text) - 1
            self.moved(self.jumps.go(lambda: self.playback.goto(turn)))
            clamped = self.outside(turn)
            if clamped:
                self.say(clamped)

        total = len(self.playback.turns)
        self.app.push_screen(PromptScreen(f"Go to turn (1–{total})", "turn number"), done)

    def outside(self, turn: int) -> str:
        """What to say when turn index `turn` (`:`, `--at`) is not in the session and the
        cursor went to the nearest end instead ("" when it is in it)."""
        total = len(self.playback.turns)
        if not total or 0 <= turn < total:
            return ""
        where = "the last turn" if turn >= total else "the first turn"
        return f"turn {turn + 1} is not in 1–{total}: at {where}, #{self.playback.cursor + 1}"

    def start_at(self, turn: int) -> None:
        """Open on turn index `turn` (`--at`, a search hit); one the session does not have
        opens at the nearest end and says so, as `:` does and after whatever the status line
        says already (`--speed` out of range). The caller syncs."""
        self.playback.goto(turn)
        clamped = self.outside(turn)
        if clamped:
            self.status = one_line(f"{self.status} · {clamped}" if self.status else clamped, 300)

    def action_jump(self, turn: int) -> None:
        """Evidence links in the pivot panel run this: the panel stays on the pivot."""
        self.moved(self.jumps.go(lambda: self.playback.goto(turn), link=True))
        if self.jumps.pinned is not None:
            name = self.pivot_name()
            self.say(f"evidence of {name}: the panel stays on it (Backspace goes back)")

    def action_jump_back(self) -> None:
        target = self.jumps.back()
        if target is None and self.came_from:  # a sub-agent's transcript: back to the session
            self.app.close_subagent(self)  # type: ignore[attr-defined]
            return
        self.moved(target, "no jump to go back from")
