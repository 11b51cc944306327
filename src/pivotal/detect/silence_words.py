"""How the detector's sentences name a silence: the person's go-on, their empty message, or
a compaction - theirs (/compact), the tool's own, or one whose file does not say.

A compaction is no message: what follows it follows "the compaction", never "your go-on".
And only a compaction the file records as `manual` is the person's: "not you" beside a
/compact the person typed was untrue, so "not you" is said only where the file says `auto`
and nobody is named where it says nothing (Codex and opencode compact on /compact too). The
trigger is read off the signal that records it (`cadence.compaction_trigger_signal`), so the
words never say more than the evidence.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.model import Signal, Silence

TRIGGERS = ("auto", "manual")
"""The triggers a reader records in a boundary's `extra["trigger"]` that the words follow."""
_BY_SIGNAL = {f"{trigger} compaction": trigger for trigger in TRIGGERS}


def trigger_signal_name(trigger: str) -> str:
    """ "manual compaction": the signal that records why the tool compacted."""
    return f"{trigger} compaction"


def compaction_trigger(signals: Sequence[Signal]) -> str | None:
    """ "auto" or "manual" when a signal records the compaction's trigger, else None."""
    for signal in signals:
        trigger = _BY_SIGNAL.get(signal.name)
        if trigger is not None and signal.side == "silence":
            return trigger
    return None


def after_what(silence: Silence) -> str:
    """What the agent's run came after: "your go-on", "your empty message", "the compaction"."""
    if silence is Silence.COMPACTION:
        return "the compaction"
    if silence is Silence.EMPTY:
        return "your empty message"
    return "your go-on"


def who_compacted(trigger: str | None) -> str:
    """The summary's subject at a compaction (said to the person)."""
    if trigger == "manual":
        return "You compacted the context"
    if trigger == "auto":
        return "The tool compacted the context (not you)"
    return "The context was compacted"


def compaction_phrase(trigger: str | None) -> str:
    """The reason's head at a compaction (a table's words: the person in the third person)."""
    if trigger == "manual":
        return "Compaction the person asked for"
    if trigger == "auto":
        return "Automatic compaction (the tool's, not the person's)"
    return "Compaction boundary (recorded by the tool, not necessarily the person)"


def compaction_note(trigger: str | None) -> str:
    """What the panel's last line calls the silence at a compaction."""
    if trigger == "manual":
        return "a compaction you asked for"
    if trigger == "auto":
        return "a compaction the tool made on its own (not you)"
    return "a compaction boundary, not necessarily the person"
