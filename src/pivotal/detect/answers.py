"""The person asked why; the agent explained; after a silence it set about changing things.

A question that asks for an explanation ("Why did the deploy roll back?", "pourquoi …?")
is not a proposal: nothing was put on the table to approve. When the agent's answer is
words only (no offer, no plan, no question back) and, after the person's bare go-on or
empty message, the agent starts changing the work on its own, the initiative passed at the
silence: a pivot of kind `other` (PIVOTS.md: clearly a pivot, none of the three essays).
The failures the answer explains were the subject of the question, not the agent's dead end.
"""

from __future__ import annotations

from pivotal.detect.activity import changes_code
from pivotal.detect.asks import question_of
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import plain
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.lexicon_intl import folded
from pivotal.detect.window import Window
from pivotal.model import Signal, Silence

WHY = folded(
    r"\bwhy\b|\bhow come\b|\bwhat (happened|caused|went wrong|is going on|is wrong)\b|"
    r"\bwhat'?s (going on|wrong|the (reason|cause|difference))\b|"
    r"\bwhat is the (reason|cause|difference)\b|\bhow (does|did|do) (it|this|that|the)\b|"
    r"pourquoi|por qué|porqué|warum|wieso|weshalb|почему|зачем|为什么|為什麼|为何|"
    r"なぜ|どうして|왜|perché|por que",
    foreign=False,
)
"""A question asking for an explanation, not for something to be done."""
ANSWER_MIN = 80
"""An answer is at least a couple of sentences."""


def answered_why(w: Window) -> bool:
    """The person's last message asked why; the agent's last message answered in words."""
    if w.silence is Silence.COMPACTION or w.direction is None or not w.agent_before:
        return False
    asked = w.direction.text
    if len(asked) > 600 or not ("?" in asked or "？" in asked) or not WHY.search(asked):
        return False
    last = w.agent_before[-1]
    if last.ends_with_tool or len(last.text.strip()) < ANSWER_MIN:
        return False
    return not question_of(last)


def answer_then_act_signal(
    w: Window, cfg: PivotConfig, b: BeforeFacts, a: AfterFacts
) -> Signal | None:
    """The agent explained what the person asked, then changed the work unasked."""
    if not answered_why(w) or b.proposal:
        return None
    changes = [v.index for v in w.agent_after if any(changes_code(t) for t in v.tools)]
    if not changes:
        return None
    b.answered = True
    a.changed = True
    return Signal(
        "initiative after an answer",
        [w.agent_before[-1].index, *changes[:3]],
        "the person asked why; the agent answered, then set about changing things on its own",
        0.0,
        "after",
        [plain(w.direction.text if w.direction else "", 90)],
    )
