"""Landing on a hit of the cross-session search: the replay opened at the hit's turn.

The picker's search mode (`picker_search`) found a turn in another session; the
app opens that session at the turn (`ReplayScreen.pending_at`) and, once its
pivots are known, `land` marks the query's matches there as `/` would (so `n`
and `N` go on from it), unfolds the tool calls that hold them, and puts the
pivot panel on the pivot nearest the hit (pinned, as an evidence link pins it,
until the next jump), opening the panel on a narrow screen.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pivotal.catalog.search_query import SearchQuery
from pivotal.model import Pivot
from pivotal.tui.find import Query

if TYPE_CHECKING:
    from pivotal.tui.replay_screen import ReplayScreen


def find_query(query: SearchQuery) -> Query:
    """The `/` query that marks what the cross-session search matched: any of its terms,
    case ignored (the index ignores case, so a capital letter must not make it matter)."""
    ordered = sorted((term.lower() for term in query.terms), key=len, reverse=True)
    return Query("|".join(re.escape(term) for term in ordered), regex=True, typed=query.text)


def nearest_pivot(pivots: list[Pivot], turn: int) -> Pivot | None:
    """The pivot closest to `turn` (the earlier one of two as close)."""
    if not pivots:
        return None
    return min(pivots, key=lambda p: (abs(p.turn - turn), p.turn > turn))


def land(screen: ReplayScreen, turn: int, query: SearchQuery) -> None:
    """Mark the hit's matches at `turn` and put the panel on the nearest pivot."""
    pb = screen.playback
    if not pb.turns:
        return
    turn = min(turn, len(pb.turns) - 1)
    pivot = nearest_pivot(pb.pivots, turn)
    screen.search.mark(find_query(query), turn)
    if pivot is not None:
        if pb.pivot_at_or_before(turn) is not pivot:
            screen.jumps.pinned = pivot  # let go of at the next jump, as a link's pin is
        screen.panes.reveal()
    screen.sync(follow=True)
    number = pb.pivots.index(pivot) + 1 if pivot is not None else 0
    where = f" · panel on pivot {number} (turn #{pivot.turn + 1})" if pivot is not None else ""
    # before the panel's words, which a narrow line cuts; a drawer takes the first Esc
    back = "Esc Esc back to the results" if screen.panes.open else "Esc back to the results"
    screen.say(f"“{query.text}” at turn #{turn + 1} · {back}{where}")
