"""The cyclic garbage collector runs between key presses, never inside one.

A loaded session is long-lived: `gc.freeze()` takes it out of every later
collection. What is left to collect is the rendering's own garbage: Textual's
strips keep caches that point back at them, so every frame leaves a few
thousand objects in reference cycles, and a full collection of them costs
10-25 ms (up to ~100 ms on a 100 MB session after a search). Left to itself
the collector runs whenever enough objects have piled up, which is in the
middle of some key press. `IdleCollector` turns the automatic collector off
and collects when no key has come for `QUIET` seconds, or, if `CEILING`
objects are waiting (keys keep coming), collects the youngest generation
alone right after the next frame is drawn, so memory stays bounded either way.
That collection once ran straight from the timer, which could fire between a
key and its frame: with 200,000 objects waiting it took 50-210 ms of that key
(a full collection there cost 171 ms on 100,000 turns); fewer waiting make it
shorter, and after the frame the key's answer is already on screen. A reader
that pauses the collector for its own work (readers/base.py) may turn it back
on when done; each tick turns it off again.
"""

from __future__ import annotations

import gc
from time import monotonic

from textual.app import App

EVERY = 0.25
"""Seconds between two looks at the collector."""
QUIET = 0.3
"""No key for this long: the person is reading, a collection goes unnoticed."""
FLOOR = 2_000
"""Fewer objects than this waiting: not worth a collection yet."""
CEILING = 50_000
"""This many waiting: collect even while keys keep coming (after the next frame)."""
SETTLE = 0.05
"""Seconds after a key before that collection may run (the key's frame first)."""


class IdleCollector:
    """Garbage collection paced by the person's keys, for one app."""

    def __init__(self, app: App[object]) -> None:
        self.app = app
        self.last_key = 0.0
        self.started = False
        self.collections = 0
        self._young_pending = False

    def start(self) -> None:
        """The session is loaded: freeze it and take collections off the key path."""
        gc.freeze()
        if not self.started:
            self.started = True
            gc.disable()
            self.app.set_interval(EVERY, self.tick, name="idle collector")

    def key(self) -> None:
        self.last_key = monotonic()

    def tick(self) -> None:
        if gc.isenabled():
            gc.disable()  # a reader's pause ended and turned it back on
        waiting = gc.get_count()[0]
        quiet = monotonic() - self.last_key >= QUIET
        if quiet and waiting >= FLOOR:
            gc.collect()
            self.collections += 1
        elif waiting >= CEILING and not self._young_pending:  # keys keep coming
            self._young_pending = True
            self.app.call_after_refresh(self._collect_young)

    def _collect_young(self) -> None:
        """Only the young objects, once the frame a key asked for is on screen.

        A key whose frame waits on a scroll (Ctrl+D) leaves the screen idle before
        that frame: a key that came less than `SETTLE` ago puts it off a little, unless
        far too many are waiting.
        """
        wait = SETTLE - (monotonic() - self.last_key)
        if wait > 0 and gc.get_count()[0] < 4 * CEILING:
            self.app.set_timer(wait, lambda: self.app.call_after_refresh(self._collect_young))
            return
        self._young_pending = False
        gc.collect(0)
        self.collections += 1

    def stop(self) -> None:
        if self.started:
            gc.enable()
