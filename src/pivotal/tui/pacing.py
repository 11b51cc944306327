"""How fast playing goes, named as asciinema names it. A pure model, no Textual.

Two modes. *Turns per second* (the default): a turn every 1/speed seconds,
whatever the session's clock says. *Real time* (`R`, `--real-time`): the
recorded gap between two turns, divided by the speed, with any gap longer
than the idle limit cut down to it first, as `asciinema play
--idle-time-limit` does (`--idle-limit`, 2 s by default: the value
asciinema's own documentation uses; asciinema itself has no limit unless
asked, which in an agent session means waiting hours for the person's next
message). A turn without a time counts as one second after the one before.

Any speed between `SLOWEST` and `FASTEST` is kept as given (3 stays 3);
outside it, it is clamped and `set_speed` says so. `+` doubles and `-`
halves. Above one turn per frame, playing reveals several turns per frame
(`PlayTimer`), so the top speed really is 1000 turns a second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SLOWEST = 1 / 16
FASTEST = 1000.0
IDLE_LIMIT = 2.0
"""Seconds any recorded gap is cut down to in real time (asciinema's documented example)."""
UNTIMED_GAP = 1.0
"""Real time: the gap assumed when either turn has no timestamp."""
IDLE_STEPS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
"""What `i` steps the idle limit through (then back to the first)."""


def number(value: float) -> str:
    """3 -> "3", 0.5 -> "0.5", 0.0625 -> "1/16"."""
    if 0 < value < 1 and abs(1 / value - round(1 / value)) < 1e-9:
        return f"1/{round(1 / value)}"
    return f"{value:g}"


@dataclass(slots=True)
class Pace:
    """The speed, the mode and the idle limit of one replay."""

    speed: float = 1.0
    realtime: bool = False
    idle_limit: float = IDLE_LIMIT

    def set_speed(self, wanted: float) -> str:
        """Take `wanted` (clamped to the range); "" or a line saying it was clamped."""
        speed = min(max(wanted, SLOWEST), FASTEST) if not math.isnan(wanted) else 1.0
        self.speed = speed
        if speed != wanted:
            low, high = number(SLOWEST), number(FASTEST)
            return f"speed {number(wanted)} is outside {low}–{high}: playing at {number(speed)}"
        return ""

    def faster(self) -> str:
        if self.speed >= FASTEST:
            return f"already at the top speed ({self.label()})"
        self.set_speed(self.speed * 2)
        return self.label()

    def slower(self) -> str:
        if self.speed <= SLOWEST:
            return f"already at the lowest speed ({self.label()})"
        self.set_speed(self.speed / 2)
        return self.label()

    def delay(self, here: float | None, then: float | None) -> float:
        """Seconds between a turn recorded at `here` and the next at `then`."""
        if not self.realtime:
            return 1.0 / self.speed
        gap = UNTIMED_GAP if here is None or then is None else max(then - here, 0.0)
        return min(gap, self.idle_limit) / self.speed

    def label(self) -> str:
        """What the status line says: `2 turns/s`, or `real time ×2 · idle ≤ 2 s`."""
        if self.realtime:
            return f"real time ×{number(self.speed)} · idle ≤ {number(self.idle_limit)} s"
        unit = "turn/s" if self.speed == 1 else "turns/s"
        return f"{number(self.speed)} {unit}"

    def short(self) -> str:
        """The label in a narrow status line: `2/s`, `rt×2 ≤2s`."""
        if self.realtime:
            return f"rt×{number(self.speed)} ≤{number(self.idle_limit)}s"
        return f"{number(self.speed)}/s"

    def cycle_idle(self) -> str:
        """`i`: the next idle limit of `IDLE_STEPS` ("" in real time, where the status line
        shows it; else a line saying it applies there)."""
        longer = [step for step in IDLE_STEPS if step > self.idle_limit]
        self.idle_limit = longer[0] if longer else IDLE_STEPS[0]
        if self.realtime:
            return ""
        return f"idle limit {number(self.idle_limit)} s: it cuts long pauses in real time (R)"
