"""The person's rhythm: how often they went silent lately, and what the go-on itself says.

Most real silences are resumes or gates, not hand-overs (PIVOTS.md, "What real sessions
add"): a "continue" / 继续 / "retry" after an API error, a usage limit or a stall, and a
"y" at each step of a workflow the person set up, or a lockstep "Shall I go ahead?" /
"yes" loop. A person who has answered the last several turns with go-ons is keeping a
cadence, not handing over at this one; a go-on that says "continue" asks to resume what
was under way rather than approving something new.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.detect.config import PivotConfig
from pivotal.detect.lexicon_intl import folded
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.silence_words import TRIGGERS, trigger_signal_name
from pivotal.detect.window import Window
from pivotal.model import Role, Signal, Silence, Turn, TurnFlag

SILENCE_SIDE = "silence"
EARLIER_HUMAN_TURNS = 6
"""How many of the person's earlier turns the cadence looks at."""
_HUMAN = int(TurnFlag.HUMAN)
_RESUME = folded(
    r"\bcont\w*|\bproce+d|\bresume|\bretry|\btry again\b|\bagain\b|\bkeep (going|on)\b|"
    r"\bcarry on\b|\bgo on\b|\bweiter|\bavanti\b|\bsigue\b|\bseguir\b|продолж|дальше|"
    r"继续|繼續|続け|続行|계속|\bjixu\b",
    foreign=False,
)
"""Go-on words that ask to resume what was under way, in the languages people type them."""


def earlier_human(
    turns: Sequence[Turn], anchor: int, silences: SilenceIndex, cfg: PivotConfig
) -> list[tuple[int, bool]]:
    """The person's turns before `anchor`, newest first (at most `EARLIER_HUMAN_TURNS`,
    within `hands_off_cap` turns): (position, whether it was a silence). Cheap fields only."""
    out: list[tuple[int, bool]] = []
    j = anchor - 1
    stop = max(-1, anchor - 1 - cfg.hands_off_cap)
    while j > stop and len(out) < EARLIER_HUMAN_TURNS:
        turn = turns[j]
        if turn.role is Role.USER and int(turn.flags) & _HUMAN:
            out.append((j, silences.silence(turns, j) is not None))
        j -= 1
    return out


def cadence_signal(
    turns: Sequence[Turn], anchor: int, silences: SilenceIndex, cfg: PivotConfig
) -> Signal | None:
    """The share of the person's last turns that were go-ons too ("too" only where the
    silence is a message: a compaction is none)."""
    earlier = earlier_human(turns, anchor, silences, cfg)
    silent = [pos for pos, was in earlier if was]
    if len(earlier) < 2 or not silent:
        return None
    too = "" if silences.silence(turns, anchor) is Silence.COMPACTION else " too"
    return Signal(
        "go-on cadence",
        [turns[pos].index for pos in reversed(silent)],
        f"{len(silent)} of your last {len(earlier)} messages "
        + (f"was a go-on{too}" if len(silent) == 1 else f"were go-ons{too}"),
        0.0,
        "before",
        value=round(len(silent) / len(earlier), 3),
    )


def wordless_signal(w: Window) -> Signal | None:
    """A go-on without a single letter or digit (".", "…", "👍"): what a person sends where
    the client refuses an empty message (Claude Code), so it reads as an empty one."""
    if w.silence is not Silence.ACK or any(ch.isalnum() for ch in w.anchor.text):
        return None
    return Signal(
        "wordless",
        [w.anchor.index],
        "you sent only punctuation or a symbol: an empty message where the client refuses one",
        0.0,
        SILENCE_SIDE,
    )


def resume_word_signal(w: Window) -> Signal | None:
    """The go-on asks to resume ("continue", "retry", "继续"), not to approve something."""
    if w.silence is not Silence.ACK:
        return None
    if not _RESUME.search(w.anchor.text.strip()):
        return None
    return Signal(
        "resume word",
        [w.anchor.index],
        "your go-on asks to resume what was under way",
        0.0,
        SILENCE_SIDE,
    )


def compaction_trigger_signal(
    turns: Sequence[Turn], cluster: Sequence[int], silence: Silence
) -> Signal | None:
    """Why the tool compacted, when the file says: `auto` (the context filled, inside the
    agent's work) or `manual` (the person typed /compact). Either way no person handed
    anything over at the boundary itself (PIVOTS.md: compactions are almost never pivots)."""
    if silence is not Silence.COMPACTION:
        return None
    for pos in cluster:
        extra = turns[pos].extra or {}
        trigger = extra.get("trigger")
        if trigger in TRIGGERS:
            what = "the context filled" if trigger == "auto" else "the person asked (/compact)"
            return Signal(
                trigger_signal_name(trigger),
                [turns[pos].index],
                f"the tool compacted because {what}",
                0.0,
                SILENCE_SIDE,
            )
    return None
