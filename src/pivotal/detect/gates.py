"""The non-pivots PIVOTS.md names outright, and why a silence was turned down, in plain words.

A hard gate turns a silence down whatever its signals say, because the spec says it is no
pivot: nothing before it (the session start), a message the client never sent, the agent
only asked what the person wants, or it did nothing at all after. Everything else is
judged by the fitted confidence; a silence under the bar is explained by the signals that
held it down most (`below_the_bar`), so the person reads "the agent made 2 calls, then
asked you again", not a score.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.detect.facts import AfterFacts
from pivotal.detect.window import Window
from pivotal.model import Signal

Gate = tuple[str, str]
"""(name, why): which gate turned a silence down, in a few words and in a sentence."""

BELOW = "below the bar"


def hard_veto(w: Window, a: AfterFacts) -> Gate | None:
    """Why this silence can never be a pivot (None when it can)."""
    if not w.work_before:
        return ("session start", "nothing to pivot from")
    if a.clarification and a.executing == 0:
        return ("only asked", "the agent only asked what you want")
    stopped = bool(w.agent_after) and not w.agent_after[-1].ends_with_tool
    if (w.complete or stopped) and not (a.actions or a.dump):
        return ("nothing done", "the agent replied without doing anything")
    return None


_MISSING = "too little spoke for a hand-over"


def below_the_bar(weighted: Sequence[Signal]) -> Gate:
    """Why a silence's confidence stayed under the bar, in plain words: the signals that held
    it down most, in their own words, or - when none did - that too little spoke for it.
    (The numbers are the rejection's own fields, not part of the sentence.)"""
    against = sorted((s for s in weighted if s.weight < 0), key=lambda s: s.weight)[:2]
    words = "; ".join(s.detail for s in against) if against else _MISSING
    return (BELOW, words)
