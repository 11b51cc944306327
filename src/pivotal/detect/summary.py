"""One plain sentence per pivot, said to the person whose session it is.

"You said 'yes' after the agent laid out a 4-step plan; it then carried it out on its own
(6 calls)." It leads the pivot's line in `scan`, its `--explain` and the panel; the signal
table below it says why. Built only from the facts the signals found, so it never says
more than the evidence does.
"""

from __future__ import annotations

from pivotal.detect.asks import listed_questions
from pivotal.detect.evidence import plain
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.listing import what_is_listed
from pivotal.detect.silence_words import who_compacted
from pivotal.detect.window import Window
from pivotal.model import PivotKind, Silence
from pivotal.text.plural import plural


def window_scope(w: Window) -> str:
    """ " in its first 12 turns" when the after-window stopped before the person spoke again
    (it reads at most `after_window` turns), else "": the run a line below counts the calls
    up to the person's next message, and a count over fewer turns must say so."""
    if w.complete and w.next_human is None:
        return f" in its first {plural(len(w.agent_after), 'turn')}"
    return ""


def todo_note(a: AfterFacts) -> str:
    """ ", plus 6 to its to-do list" when the agent also updated its to-do list: those calls
    are not in `actions`, and the run's count (which has them) must add up."""
    return f", plus {a.todo} to its to-do list" if a.todo else ""


def calls_words(w: Window, a: AfterFacts) -> str:
    """ "9 calls", "9 calls in its first 12 turns, plus 6 to its to-do list": what the after-
    window counted, in words that say what they count."""
    return f"{plural(a.actions, 'call')}{window_scope(w)}{todo_note(a)}"


def _who(w: Window, trigger: str | None) -> str:
    if w.silence is Silence.COMPACTION:
        return who_compacted(trigger)
    if w.silence is Silence.EMPTY:
        return "You sent an empty message"
    return f"You said '{plain(w.anchor.text, 24)}'"


def _before(w: Window, kind: PivotKind, b: BeforeFacts) -> str:
    if kind is PivotKind.IMPLICIT_APPROVAL:
        if not b.proposal_by_agent and w.direction is not None:
            return f"after the agent looked into what you asked ('{plain(w.direction.text, 48)}')"
        last = w.agent_before[-1] if w.agent_before else None
        if last is not None and listed_questions(last):
            return f"after the agent asked you {what_is_listed(last)}"
        plan = what_is_listed(last) if last is not None else "a plan"
        asked = " and asked for a go-ahead" if b.open_question else ""
        return f"after the agent laid out {plan}{asked}"
    if kind is PivotKind.DELEGATION_AFTER_DEAD_END:
        if b.failures:
            # "in a row" names this count apart from the failed calls e/E walk (issue 35)
            tried = "a failed attempt" if b.failures == 1 else f"{b.failures} failed attempts"
            tried += " in a row" if b.failures > 1 else ""
            return f"after {tried}" + (", the last one inconclusive" if b.inconclusive else "")
        return "after the agent's last step ended without a verdict"
    if kind is PivotKind.CONTINUE_AFTER_MILESTONE:
        return "after the agent reported a " + ("mixed result" if b.mixed else "milestone")
    if b.open_question:
        return "to the agent's open question"
    return "in the middle of the work"


def _after(w: Window, kind: PivotKind, a: AfterFacts, candidate: bool) -> str:
    who = "the agent" if w.silence is Silence.COMPACTION else "it"
    n = calls_words(w, a)
    if a.clarification:
        return f"{who} then asked what to do"
    if kind is PivotKind.IMPLICIT_APPROVAL and a.executing:
        return f"{who} then carried it out on its own ({n})"
    if a.dump and a.actions:
        return f"{who} re-oriented with a status summary, then acted on its own ({n})"
    if a.dump:
        return f"{who} re-oriented with a status summary"
    if a.new_tasks and a.executing:
        return f"{who} then took up new work on its own ({n})"
    if a.executing:
        return f"{who} then acted on its own ({n})"
    if a.actions:
        return f"{who} then looked around on its own ({n})"
    return "the agent's reply is not in yet" if candidate else "little followed"


def summary(
    w: Window,
    kind: PivotKind,
    b: BeforeFacts,
    a: AfterFacts,
    candidate: bool,
    trigger: str | None = None,
) -> str:
    """The pivot in one sentence a person can read without the signal table (`trigger`: a
    compaction's, as its signal records it: whose it was)."""
    line = f"{_who(w, trigger)} {_before(w, kind, b)}; {_after(w, kind, a, candidate)}."
    return line[0].upper() + line[1:]
