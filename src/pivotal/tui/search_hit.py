"""Landing on a hit of the cross-session search: the replay opened at the hit's turn.

The picker's search mode (`picker_search`) found a turn in another session; the
app opens that session at the turn (`ReplayScreen.pending_at`) and, once its
pivots are known, `land` marks the query's matches there as `/` would (so `n`
and `N` go on from it), unfolds the tool calls that hold them, and puts the
pivot panel on the pivot nearest the hit (pinned, as an evidence link pins it,
until the next jump), opening the panel on a narrow screen. A hit in a sub-agent
opens the session at the call that ran it and, once its sub-agents are read, the
sub-agent over it as Enter on that call does (`land_in_subagent`), landing there.
"""

from __future__ import annotations

import os
import re
from functools import partial
from typing import TYPE_CHECKING

from pivotal.catalog.search_index import SessionRow
from pivotal.catalog.search_query import SearchQuery, SubagentHit, subagent_title
from pivotal.model import Pivot, SessionRef
from pivotal.tui.find import Query
from pivotal.tui.safe import one_line

if TYPE_CHECKING:
    from pivotal.tui.replay_screen import ReplayScreen


def find_query(query: SearchQuery) -> Query:
    """The `/` query that marks what the cross-session search matched: any of its terms,
    case ignored (the index ignores case, so a capital letter must not make it matter)."""
    ordered = sorted((term.lower() for term in query.terms), key=len, reverse=True)
    return Query("|".join(re.escape(term) for term in ordered), regex=True, typed=query.label)


def nearest_pivot(pivots: list[Pivot], turn: int) -> Pivot | None:
    """The pivot closest to `turn` (the earlier one of two as close)."""
    if not pivots:
        return None
    return min(pivots, key=lambda p: (abs(p.turn - turn), p.turn > turn))


def land(screen: ReplayScreen, turn: int, query: SearchQuery, title: str = "") -> None:
    """Mark the hit's matches at `turn` and put the panel on the nearest pivot (`title`: the
    sub-agent's whose transcript this is, which the status line names).

    A narrow status line keeps the turn counter and the way back: the query and the title
    are cut first, and its short form says neither the turn (the counter does) nor the
    panel's pivot."""
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
    panel = f" · panel on pivot {number} (turn #{pivot.turn + 1})" if pivot is not None else ""
    # before the panel's words, which a narrow line cuts; a drawer takes the first Esc
    back = "Esc Esc back to the results" if screen.panes.open else "Esc back to the results"
    quoted, named = f"“{one_line(query.label, 200)}”", f"“{title}”" if title else ""
    where = f" in sub-agent {named}" if title else ""
    screen.say(
        f"{quoted} at turn #{turn + 1}{where} · {back}{panel}",
        short=f"{quoted}{f' in {named}' if title else ''} · {back}",
        names=(named, quoted) if title else (quoted,),
    )


def land_in_subagent(
    screen: ReplayScreen, turn: int, query: SearchQuery, hit: SubagentHit, depth: int = 0
) -> None:
    """A hit in a sub-agent: the session is open at `turn`, the call that ran it; open the
    sub-agent over it (Enter on the call would) at the hit's turn, its matches marked there
    (Backspace goes back to the call, Esc to the results). One that cannot be opened (its
    file is gone, or unreadable) leaves the session at the call, and the status line says so."""
    row = hit.chain[depth]
    sub = next((s for s in screen.subagents if not s.error and same_subagent(s.ref, row)), None)
    if sub is None:
        pb = screen.playback
        if pb.turns:
            screen.moved(pb.goto(min(turn, len(pb.turns) - 1)))
        screen.say(f"“{query.label}” is in a sub-agent that cannot be opened: the call that ran it")
        return
    opened = screen.app.open_subagent(sub, screen)  # type: ignore[attr-defined]
    if opened is None:
        return
    last = depth == len(hit.chain) - 1
    opened.from_results = True
    if last:
        title = one_line(subagent_title(row), 120)  # a narrow line cuts it in its middle
        opened.pending_at = hit.turn
        opened.landing = partial(land, turn=hit.turn, query=query, title=title)
    else:
        inner = hit.chain[depth + 1].parent_turn or 0
        opened.pending_at = inner
        opened.landing = partial(
            land_in_subagent, turn=inner, query=query, hit=hit, depth=depth + 1
        )


def same_subagent(ref: SessionRef, row: SessionRow) -> bool:
    """Whether the replayer's sub-agent `ref` is the one the index row holds the texts of:
    the same file and key, or (a sidechain that grew since: its key names its stretch of the
    file) the same file and id."""
    path, key = row.where
    if os.path.abspath(ref.path) != path:
        return False
    if (ref.key or None) == (key or None):
        return True
    return bool(row.session_id) and ref.session_id == row.session_id
