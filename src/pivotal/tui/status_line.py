"""The status line under the timeline, fitted to the width it has.

Every part has a full and a short form and a rank: at 160 columns the line
reads `⏸ paused │ turn 17/68 · 25% │ 1:03:17 / 3:12:40 │ 1 turn/s │ 3 pivots │ …`;
at 80 the same facts shrink (`⏸ │ 17/68 25% │ 1h03m`) and the least useful go first,
so the notice at the end (what the last key did) is never cut off. Pure: no
Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pivotal.text.fit import cells, clip

SEPARATOR = " │ "


@dataclass(frozen=True, slots=True)
class Part:
    full: str
    short: str
    rank: int
    """Lower ranks are dropped first when even the short forms do not fit."""


DAY = 86_400


def clock(seconds: float) -> str:
    """`1:03:17`, or `4:05` under an hour; from a day on `9d 19h` (a clock of `235:38:24`
    hours is read as nothing; the seconds of a span of days say nothing)."""
    total = max(int(seconds), 0)
    if total >= DAY:
        return days(total)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def since_start(seconds: float) -> str:
    """`22m31s`, `1h03m`: time since the session started, in a form no one reads as the time
    of day (the short status line has no `/ total` beside it to say so)."""
    total = max(int(seconds), 0)
    if total >= DAY:
        return days(total, "")
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def days(seconds: int, gap: str = " ") -> str:
    """`9d 19h` (`9d19h` with no `gap`): whole days and hours, as a clock counts them."""
    whole, rest = divmod(seconds, DAY)
    return f"{whole}d{gap}{rest // 3600:02d}h"


def fit(parts: list[Part], width: int) -> str:
    """The parts joined to fit `width` cells (a title in a notice may take two a character).

    Full forms first; then, lowest rank first, each part takes its short form;
    then the lowest ranks go; what still does not fit is cut at the end.
    """
    shown = {id(p): p.full for p in parts}
    kept = [p for p in parts if p.full or p.short]

    def joined() -> str:
        return SEPARATOR.join(shown[id(p)] for p in kept if shown[id(p)])

    text = joined()
    for part in sorted(kept, key=lambda p: p.rank):
        if cells(text) <= width:
            return text
        shown[id(part)] = part.short
        text = joined()
    while cells(text) > width and len(kept) > 2:
        kept.remove(min(kept, key=lambda p: p.rank))
        text = joined()
    return clip(text, width)
