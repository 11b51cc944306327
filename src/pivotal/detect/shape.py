"""What the agent laid out before the silence: a plan of several steps, one small offer, or
a question, and whether anything was carried out since the person last gave direction.

Real sessions (PIVOTS.md, "What real sessions add") separate the two things a bare "yes" can
answer: an approved plan - the agent investigated, laid out several steps with nothing
executed, and asked - and a small offer ("Want me to also add X?") answered with one step.
These signals say which was on the table; what the agent then did is `run`'s to say.
"""

from __future__ import annotations

import re

from pivotal.detect.activity import carries_out
from pivotal.detect.asks import (
    first_step,
    is_go_ahead,
    listed_questions,
    listed_steps,
    question_of,
)
from pivotal.detect.evidence import plain, scaled
from pivotal.detect.figures import prose
from pivotal.detect.lazyre import lazy
from pivotal.detect.lexicon import OUT_OF_IDEAS
from pivotal.detect.listing import listed_words
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window
from pivotal.model import Role, Signal, TurnFlag

STEPS_FULL = 8
"""A plan of this many listed steps counts fully."""
SMALL_OFFER_CHARS = 400
"""An offer in fewer characters than this, with at most one step, is a small one."""
_STEP_GATE = lazy(
    r"\(\s*y(es)?\s*/\s*n(o)?\b|\[\s*y\s*/\s*n\s*\]|\by/n\b|\byes/no\b|"
    r"\b(continue|proceed|move on|go on) (to|with) (the )?(next )?(step|phase|stage)\b|"
    r"\bnext (step|phase|stage)\s*\?|\bready for (the )?(next )?(step|phase|stage)\b",
    re.IGNORECASE,
)
"""A workflow's own gate: "Continue to step 2? (y/n)", "Ready for the next phase?"."""


def _last_agent(w: Window) -> TurnView | None:
    return w.agent_before[-1] if w.agent_before else None


def nothing_carried_out(w: Window) -> bool:
    """No call since the person's last direction carried anything out (edits, installs,
    launches): the agent only looked and talked."""
    return bool(w.agent_before) and not any(carries_out(t) for v in w.agent_before for t in v.tools)


def plan_signal(w: Window) -> Signal | None:
    """The agent's last message lists several steps (a plan, findings to fix, options), with
    nothing carried out since the person's direction: a plan on the table. Its words say
    whether the list reads as steps or as items (`listing`); its value counts either."""
    last = _last_agent(w)
    if last is None or last.ends_with_tool or not nothing_carried_out(w):
        return None
    steps = listed_steps(last)
    if steps < 2:
        return None
    return Signal(
        "plan laid out",
        [last.index],
        f"the agent's last message asks {steps} questions"
        if listed_questions(last)
        else f"the agent's last message lists {listed_words(last)}",
        0.0,
        "before",
        [plain(first_step(last), 90)],
        value=scaled(steps - 1, STEPS_FULL - 1),
    )


def offer_signals(w: Window) -> list[Signal]:
    """The agent asked to go ahead; "small offer" when it offered one short step, "follow-up
    offer" when it had already carried out work since the person's direction and offers more
    ("Done. Want me to also add X?"): the next increment of work the person is leading."""
    last = _last_agent(w)
    if last is None or last.ends_with_tool:
        return []
    question = question_of(last)
    if not question or not is_go_ahead(question):
        return []
    if not nothing_carried_out(w):
        return [
            Signal(
                "follow-up offer",
                [last.index],
                "after doing what was asked the agent offered more: the next increment, not a "
                "plan handed over",
                0.0,
                "before",
                [plain(question, 90)],
            )
        ]
    out = [
        Signal(
            "offer to go ahead",
            [last.index],
            "the agent's last message asks whether to go ahead",
            0.0,
            "before",
            [plain(question, 90)],
        )
    ]
    if listed_steps(last) <= 1 and last.full_len < SMALL_OFFER_CHARS:
        out.append(
            Signal(
                "small offer",
                [last.index],
                _small_offer_words(last),
                0.0,
                "before",
                [plain(question, 90)],
            )
        )
    return out


_INLINE_STEP = lazy(r"(?:^|[\s:;(])(\d{1,2})[.)][ \t]+\S", re.MULTILINE)
"""A numbered step inside a line of prose ("Plan: 1. survey the cart 2. find callers")."""


def inline_steps(text: str) -> int:
    """How many steps a message numbers 1, 2, 3 … inside its lines, which `listed_steps`
    (items that start a line) does not count. Words only: no rule decides on it."""
    expected = 1
    for match in _INLINE_STEP.finditer(prose(text)):
        if int(match.group(1)) == expected:
            expected += 1
    return expected - 1


def _small_offer_words(last: TurnView) -> str:
    """What the small offer measured, in words: a short message with at most one listed
    step. A plan numbered inside a line is a short plan, never "not a plan"."""
    steps, size = inline_steps(last.text), last.full_len
    if steps >= 2:
        return f"a short plan ({steps} steps in {size} characters): a small thing to say yes to"
    return f"a short offer of one step ({size} characters), not a plan"


def nothing_carried_out_signal(w: Window) -> Signal | None:
    if not nothing_carried_out(w):
        return None
    last = w.agent_before[-1]
    return Signal(
        "nothing carried out",
        [last.index],
        "since your last direction the agent only looked and talked: nothing was changed",
        0.0,
        "before",
    )


def step_gate_signal(w: Window) -> Signal | None:
    """The agent's last words are a workflow's step gate ("Continue to step 2? (y/n)")."""
    last = _last_agent(w)
    if last is None:
        return None
    tail = last.text[-600:]
    match = _STEP_GATE.search(tail)
    if match is None:
        return None
    return Signal(
        "step gate",
        [last.index],
        "the agent stopped at a step of a workflow and asked to go on",
        0.0,
        "before",
        [plain(tail[max(0, match.start() - 40) : match.end() + 20], 90)],
    )


def out_of_ideas_signal(w: Window) -> Signal | None:
    """The agent's last words say it has no next step ("I am out of ideas", "not sure which
    route is right"): the dead end of essay 000, not a fix loop with the fix in view."""
    last = _last_agent(w)
    if last is None:
        return None
    tail = prose(last.text)[-600:]
    match = OUT_OF_IDEAS.search(tail)
    if match is None:
        return None
    return Signal(
        "out of ideas",
        [last.index],
        "the agent said it had no next step",
        0.0,
        "before",
        [plain(tail[max(0, match.start() - 40) : match.end() + 30], 90)],
    )


def shape_signals(w: Window) -> list[Signal]:
    out: list[Signal] = []
    for signal in (
        plan_signal(w),
        nothing_carried_out_signal(w),
        step_gate_signal(w),
        workflow_signal(w),
        out_of_ideas_signal(w),
    ):
        if signal is not None:
            out.append(signal)
    out.extend(offer_signals(w))
    return out


WORKFLOW_CHARS = 400
"""An injected prompt this long is a command's template (a custom prompt, a slash command's
expansion), not a harness nudge."""
_INJECTED = int(TurnFlag.SYNTHETIC | TurnFlag.META)


def workflow_signal(w: Window) -> Signal | None:
    """Since the person's last direction, a command injected its template (spec-kit's
    `/speckit.implement`, a custom prompt, a slash command's expansion): the agent is running
    a workflow the person started, and a go-on answers that workflow's own gate."""
    for view in reversed(w.before):
        if (
            view.role is Role.USER
            and int(view.flags) & _INJECTED
            and view.full_len >= WORKFLOW_CHARS
        ):
            return Signal(
                "workflow running",
                [view.index],
                "a command you ran is driving the work: its template was injected",
                0.0,
                "before",
                [plain(view.text, 90)],
            )
    return None
