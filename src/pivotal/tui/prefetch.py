"""Where the jump keys lead from here, drawn ahead while the person reads.

A far jump (`]`, `u`, Shift+→, a digit, End…) lands on turns never drawn: rendering
them (Markdown, syntax colour, wrapping) and wrapping the explanation the panel shows
there was most of that key's frame on a 100 MB session (`bench/bench_tui.py`). After
each move, between frames, the places those keys would land on are rendered into the
transcript's and the panel's caches, one turn or one explanation per step, each once
the screen is drawn and idle (never between a key and its frame), so a key pressed
meanwhile waits at most one step and the jump itself only draws. Nothing
on screen changes; a move plans again from the new place.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Protocol

from pivotal.model import Pivot
from pivotal.tui.marking import Marking
from pivotal.tui.pivot_panel import PivotPanel
from pivotal.tui.playback import Playback
from pivotal.tui.transcript import TranscriptView

YOUNG = 20_000
"""Young objects waiting after a step that make it collect them (a few ms, while idle)."""


SETTLE = 0.05
"""Seconds after a key before a step may run: the key's frame first, whatever the key."""


class Host(Protocol):
    def call_after_refresh(self, callback: Callable[[], None]) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], None]) -> object: ...


class Prefetch:
    """Renders, between frames, the turns and explanations the jump keys would show next."""

    def __init__(
        self,
        host: Host,
        playback: Playback,
        marking: Marking,
        transcript: TranscriptView,
        panel: PivotPanel,
        panel_shows: Callable[[Pivot | None], dict[str, object]],
        panel_now: Callable[[], dict[str, object]],
        since_key: Callable[[], float] = lambda: SETTLE,
    ) -> None:
        self.host, self.playback, self.marking = host, playback, marking
        self.transcript, self.panel, self.panel_shows = transcript, panel, panel_shows
        self.panel_now = panel_now
        self.since_key = since_key
        """Seconds since the last key: a key whose frame waits on a scroll (Ctrl+D) leaves
        the screen idle before its frame, and a step must not run there."""
        """What the panel shows now (its arguments): `m` changes only the note in it."""
        self._places: list[int] | None = None
        self._panel_done: set[int] = set()
        self._due = False
        self._mark_done = False
        self.steps = 0
        """Turns and explanations prepared so far (tests)."""

    @property
    def busy(self) -> bool:
        """A step is due: places are still being drawn ahead."""
        return self._due

    def soon(self) -> None:
        """The cursor or what is shown changed: plan again from here, between frames."""
        self._places, self._panel_done, self._mark_done = None, set(), False
        self._next()

    def pages(self) -> None:
        """The view scrolled: draw the pages around it ahead (the places stay planned)."""
        self._next()

    def _after_wait(self) -> None:
        self._due = False
        self._next()

    def _next(self) -> None:
        """One more step once the screen is drawn and idle: never before a key's frame."""
        if not self._due:
            self._due = self.host.call_after_refresh(self._step)

    def landings(self) -> list[int]:
        """The turns the jump keys lead to from the cursor, the likeliest first."""
        pb, marking = self.playback, self.marking
        moves: list[Callable[[], int | None]] = [
            lambda: pb.step(1),
            lambda: pb.step(-1),
            pb.next_pivot,
            pb.prev_pivot,
            lambda: pb.seek(1),
            lambda: pb.seek(-1),
            pb.next_possible,
            pb.prev_possible,
            marking.next_mark,
            marking.prev_mark,
            pb.next_failure,
            pb.prev_failure,
            pb.next_human,
            pb.prev_human,
            pb.first,
            pb.last,
            *[lambda tenth=tenth: pb.percent(tenth) for tenth in range(10)],
        ]
        places: list[int] = []
        for move in moves:
            target = pb.landing(move)
            if target is not None and target != pb.cursor and target not in places:
                places.append(target)
        return places

    def _step(self) -> None:
        self._due = False
        wait = SETTLE - self.since_key()
        if wait > 0:
            self._due = True
            self.host.set_timer(wait, self._after_wait)
            return
        pb = self.playback
        if pb.playing or not pb.turns:
            return  # playing moves on by itself; a move plans again
        if self._places is None:
            self._places = self.landings()
        if self.transcript.prerender_pages() or self._prepare_mark():
            self._stepped()
            return
        visible = pb.visible
        while self._places:
            target = self._places[0]
            if target < len(pb.turns) and self.transcript.prerender(visible, target):
                break
            if target not in self._panel_done:
                self._panel_done.add(target)
                if self._prepare_panel(target):
                    break
            self._places.pop(0)
        else:
            return
        self._stepped()

    def _stepped(self) -> None:
        """One step done: collect its young objects now, while idle, then the next one.

        The collector is off while keys come (`collector.py`): left to pile up, a burst of
        steps' objects made one young collection of 17-158 ms, which a key could meet.
        """
        self.steps += 1
        if gc.get_count()[0] >= YOUNG:
            gc.collect(0)
        self._next()

    def _prepare_mark(self) -> bool:
        """Draw the cursor turn and the panel as `m` would leave them (marked or not)."""
        if self._mark_done:
            return False
        pb = self.playback
        note = self.marking.cursor_note()
        if self.transcript.prerender_marked(pb.cursor, None if note is not None else ""):
            return True
        self._mark_done = True
        shows = self.panel_now()
        shows["note"] = None if note is not None else (pb.cursor, "")
        return self.panel.prepare(**shows)  # type: ignore[arg-type]

    def _prepare_panel(self, target: int) -> bool:
        """Wrap the explanation a jump to `target` would show; True when it had to."""
        pb = self.playback
        here = pb.cursor
        try:
            pb.cursor = target
            shows = self.panel_shows(pb.explained_at())  # a jump unpins the panel
        finally:
            pb.cursor = here
        return self.panel.prepare(**shows)  # type: ignore[arg-type]
