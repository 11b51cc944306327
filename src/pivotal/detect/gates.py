"""The non-pivots PIVOTS.md names outright, and why a silence was turned down, in plain words.

A hard gate turns a silence down whatever its signals say, because the spec says it is no
pivot: no agent work since the person last spoke (the session start, or only an error or a
notice came), a message the client never sent, the agent only asked what the person wants,
or it did nothing at all after. Everything else is judged by the fitted confidence; a
silence under the bar is explained by the signals that held it down most (`below_the_bar`),
so the person reads "the agent made 2 calls, then asked you again", not a score.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.detect.facts import AfterFacts
from pivotal.detect.window import Window
from pivotal.model import Role, Signal, Turn, TurnFlag

Gate = tuple[str, str]
"""(name, why): which gate turned a silence down, in a few words and in a sentence."""

BELOW = "below the bar"
SESSION_START = ("session start", "the session had only just begun: nothing to pivot from")
NO_REPLY = "no reply"
"""The gate of a silence with no agent turn since the person last spoke, past the start."""
_HUMAN = int(TurnFlag.HUMAN)
_ERROR = int(TurnFlag.ERROR)
_INTERRUPTED = int(TurnFlag.INTERRUPTED)
_COMPACTION = int(TurnFlag.COMPACTION_BOUNDARY | TurnFlag.COMPACTION_SUMMARY)


def nothing_to_pivot_from(turns: Sequence[Turn], anchor: int, cap: int) -> Gate:
    """Why a silence with no agent turn since the person last spoke is no pivot, in words
    true of where it stands: the session's first message of the person's, or a go-on after
    a message the agent never answered (a usage limit, an API error, a cancelled request
    came instead). Called only when that gate fires (`Window.work_before` false, which looked
    back `cap` turns and met no agent turn): the walk stops at the person's nearest turn."""
    came: list[str] = []
    j = anchor - 1
    while j >= 0 and anchor - j <= cap:
        turn = turns[j]
        flags = int(turn.flags)
        if turn.role is Role.USER and flags & _HUMAN:
            since = "the agent had done nothing since your last message"
            return (NO_REPLY, f"{since}{_only(came)}: nothing to pivot from")
        came.append(_what(flags))
        j -= 1
    if j < 0:
        return SESSION_START
    done = f"the agent had done nothing in the {cap} turns before it"
    return (NO_REPLY, f"{done}{_only(came)}: nothing to pivot from")


def _what(flags: int) -> str:
    if flags & _ERROR:
        return "an error"
    if flags & _INTERRUPTED:
        return "an interruption"
    if flags & _COMPACTION:
        return "a compaction"
    return "the tool's own text"


def _only(came: list[str]) -> str:
    """What stood between the person's message and the silence, in the order it came:
    " (only an error and the tool's own text came)"; "" when nothing did (two messages of
    the person's in a row)."""
    kinds = list(dict.fromkeys(reversed(came)))
    if not kinds:
        return ""
    words = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
    return f" (only {words} came)"


def hard_veto(w: Window, a: AfterFacts) -> Gate | None:
    """Why this silence, past the gates `evaluate.judge` asks first (no agent work since the
    person last spoke: `nothing_to_pivot_from`; unsent; one cluster), can never be a pivot
    (None when it can)."""
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
