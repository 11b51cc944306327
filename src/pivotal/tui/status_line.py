"""The status line under the timeline, fitted to the width it has.

Every part has a full and a short form and a rank: at 160 columns the line
reads `⏸ paused │ turn 17/68 · 25% │ 1:03:17 / 3:12:40 │ 1 turn/s │ 3 pivots │ …`;
at 80 the same facts shrink (`⏸ │ 17/68 25% │ 1h03m`) and the least useful go first,
so the notice at the end (what the last key did) is never cut off. Pure: no
Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pivotal.text.fit import cells, clip, head, tail

SEPARATOR = " │ "


@dataclass(frozen=True, slots=True)
class Part:
    full: str
    short: str
    rank: int
    """Lower ranks are dropped first when even the short forms do not fit."""
    cut: str | tuple[str, ...] = ()
    """A name inside the part (a session's file name), or names (a quoted query and a title),
    that may be cut in their middle, the first first, down to `CUT_FLOOR` cells each, before
    any part is dropped: the counters stay, the names shrink."""

    @property
    def names(self) -> tuple[str, ...]:
        return (self.cut,) if isinstance(self.cut, str) else self.cut


ROOMY = 24
"""Cells a cut name keeps while the other parts still have their full forms."""
CUT_FLOOR = 12
"""Cells a cut name keeps at least, before any part is dropped."""


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

    Full forms first; the names a part may cut (`Part.cut`) give up what the line is over
    down to `ROOMY` cells; then, lowest rank first, each part takes its short form (a part
    with names tries them down to `CUT_FLOOR` before that); then the names go down to
    `CUT_FLOOR`; then the lowest ranks go (the room they leave goes back to the names);
    what still does not fit is cut at the end.
    """
    form = {id(p): p.full for p in parts}
    kept = [p for p in parts if p.full or p.short]

    def joined(floor: int) -> str:
        shown = dict(form)

        def line() -> str:
            return SEPARATOR.join(shown[id(p)] for p in kept if shown[id(p)])

        for part in kept:
            whole = form[id(part)]
            for name in part.names:
                over = cells(line()) - width
                if name and name in whole and over > 0:
                    room = max(cells(name) - over, floor)
                    whole = whole.replace(name, middle(name, room), 1)
                    shown[id(part)] = whole
        return line()

    text = joined(ROOMY)
    for part in sorted(kept, key=lambda p: p.rank):
        if cells(text) <= width:
            return text
        if part.cut and part.short != part.full:  # its name gives up all it can first
            text = joined(CUT_FLOOR)
            if cells(text) <= width:
                return text
        form[id(part)] = part.short
        text = joined(ROOMY)
    text = joined(CUT_FLOOR)
    while cells(text) > width and len(kept) > 2:
        kept.remove(min(kept, key=lambda p: p.rank))
        text = joined(CUT_FLOOR)
    return clip(text, width)


def middle(name: str, room: int) -> str:
    """`name` in at most `room` cells, its middle replaced by `…`: a file name's start and
    its end (the extension, an id's last digits) both stay."""
    if cells(name) <= room:
        return name
    end = tail(name, (room - 1) // 3)
    return head(name, room - 1 - cells(end)) + "…" + end
