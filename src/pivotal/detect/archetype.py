"""Which of the three essays a pivot resembles (by rule), and why, in words.

The kind is chosen by the fitted kind scores (`weigh.choose_kind`); the rule here is the
fallback when no kind model was fitted: the strongest before-evidence (a proposal on the
table, a run of failures, a milestone). Delegation signals restate the evidence in the
essays' words; they carry no weight of their own.
"""

from __future__ import annotations

from pivotal.detect.evidence import plain
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.silence_words import compaction_phrase
from pivotal.detect.summary import calls_words
from pivotal.detect.window import Window
from pivotal.model import PivotKind, Signal, Silence
from pivotal.text.plural import plural


def choose_kind(b: BeforeFacts) -> PivotKind:
    # a dead end leaves the agent without a next step: one it names makes a fix loop
    dead_end = not b.next_step and (
        b.failures >= 2
        or (b.failures >= 1 and b.inconclusive)
        or (b.inconclusive and b.milestone < 2)
    )
    if b.proposal and not (b.proposal_by_agent and dead_end):
        # the person's proposal always; the agent's own plan unless it is a way out of a dead end
        return PivotKind.IMPLICIT_APPROVAL
    if b.answered:
        return PivotKind.OTHER  # the failures were what the person asked about
    if dead_end and not (b.milestone == 2 and not b.inconclusive):
        return PivotKind.DELEGATION_AFTER_DEAD_END
    if b.milestone:
        return PivotKind.CONTINUE_AFTER_MILESTONE
    if b.failures and not b.next_step:
        return PivotKind.DELEGATION_AFTER_DEAD_END
    return PivotKind.OTHER


def _turns(signals: list[Signal], *names: str) -> list[int]:
    out: list[int] = []
    for signal in signals:
        if signal.name in names:
            out.extend(t for t in signal.turns if t not in out)
    return out


def delegation(w: Window, signals: list[Signal], b: BeforeFacts, a: AfterFacts) -> list[Signal]:
    """The essays' delegation signals, each backed by the evidence turns."""
    out: list[Signal] = []
    if w.silence is not Silence.COMPACTION:
        what = (
            "an empty message"
            if w.silence is Silence.EMPTY
            else f"only '{plain(w.anchor.text, 20)}'"
        )
        out.append(
            Signal("no instruction", [w.anchor.index], f"the person sent {what}", 0.0, "silence")
        )
    if b.research_turns and b.proposal:
        out.append(
            Signal(
                "trust after research",
                b.research_turns[-3:],
                "the research was accepted without follow-up questions",
                0.0,
                "before",
            )
        )
    if b.inconclusive or b.failures:
        out.append(
            Signal(
                "acceptance of uncertainty",
                _turns(signals, "failure streak", "inconclusive ending"),
                "the outcome was still unknown or failing, and no fix was demanded",
                0.0,
                "before",
            )
        )
    if a.actions or a.dump:
        out.append(
            Signal(
                "transfer of initiative",
                _turns(signals, "autonomous action", "context dump")[:6],
                "the agent chose the next step on its own",
                0.0,
                "after",
            )
        )
    if b.proposal or b.open_question:
        out.append(
            Signal(
                "implicit decision",
                _turns(signals, "proposal pending", "open question"),
                "a proposal or question was on the table; silence read as yes",
                0.0,
                "before",
            )
        )
    if b.milestone and not b.failures:
        out.append(
            Signal(
                "satisfaction with status quo",
                b.milestone_turns,
                "results were reported and met no complaint",
                0.0,
                "before",
            )
        )
    return out


def reason(
    w: Window,
    kind: PivotKind,
    b: BeforeFacts,
    a: AfterFacts,
    candidate: bool,
    trigger: str | None = None,
) -> str:
    """One line a person can read in a table (`trigger`: a compaction's, when recorded)."""
    if w.silence is Silence.ACK:
        head = f"Bare go-on ('{plain(w.anchor.text, 20)}')"
    elif w.silence is Silence.EMPTY:
        head = "Empty message"
    else:
        head = compaction_phrase(trigger)
    if kind is PivotKind.IMPLICIT_APPROVAL:
        before = (
            "after the agent's plan awaited a go-ahead"
            if b.proposal_by_agent
            else "after the agent researched the person's proposal"
        )
    elif kind is PivotKind.DELEGATION_AFTER_DEAD_END:
        parts = []
        if b.failures:
            parts.append(plural(b.failures, "failed attempt"))
        if b.inconclusive:
            parts.append("an inconclusive last action")
        before = "after " + " and ".join(parts or ["a dead end"])
    elif kind is PivotKind.CONTINUE_AFTER_MILESTONE:
        before = "after a mixed milestone" if b.mixed else "after a milestone"
    elif b.open_question:
        before = "to the agent's open question"
    else:
        before = "in ongoing work"
    if a.clarification:
        after = "the agent asked what to do"
    elif a.dump and a.actions:
        after = "the agent re-oriented with a status summary, then acted on its own"
    elif a.dump:
        after = "the agent re-oriented with a status summary"
    elif a.new_tasks and a.executing:
        after = f"the agent took up new work on its own ({calls_words(w, a)})"
    elif a.executing:
        after = f"the agent acted on its own ({calls_words(w, a)})"
    elif a.actions:
        after = "the agent kept looking around on its own"
    else:
        after = "nothing after it yet" if candidate else "little changed after it"
    line = f"{head} {before}; {after}."
    if candidate:
        line += " (after-window still filling)"
    return line
