"""What the agent did on its own after the silence, until the person spoke again.

An approved plan runs on: 20 to 100 calls, code changed in many places, before the person
says anything (PIVOTS.md, "What real sessions add"). A small offer answered is a few calls
and a hand-back, often with the next offer ("Want me to also ...?"). These signals measure
that run: how much code it changed, how long it ran against the person's usual rhythm, and
whether it ended by asking again. `approved plan` joins the two halves the labels agree
on: a plan or offer with nothing carried out before, code changed after.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.detect.activity import changes_code
from pivotal.detect.asks import question_of
from pivotal.detect.clock import latest
from pivotal.detect.evidence import plain, scaled
from pivotal.detect.routine import reruns_failed_check, retries_cut_call
from pivotal.detect.silence_words import after_what
from pivotal.detect.window import Window
from pivotal.model import Role, Signal, Turn, TurnFlag
from pivotal.text.plural import plural

EDITS_FULL = 20
"""This many code-changing calls after the silence count fully."""
MINUTES_FULL = 60.0
"""An hour on its own counts fully."""
RUN_FULL = 10
"""A run this many times the person's usual gap counts fully."""
_HUMAN = int(TurnFlag.HUMAN)


def code_changed_signal(w: Window) -> Signal | None:
    """Calls after the silence that changed the work (edits of code, commits, pushes)."""
    turns = [v.index for v in w.agent_after if any(changes_code(t) for t in v.tools)]
    if not turns:
        return None
    count = sum(1 for v in w.agent_after for t in v.tools if changes_code(t))
    names = [
        plain(f"{t.name}: {t.key}", 80) for v in w.agent_after for t in v.tools if changes_code(t)
    ]
    return Signal(
        "code changed",
        turns[:6],
        f"{plural(count, 'call')} after {after_what(w.silence)} changed the work (edits, commits)",
        0.0,
        "after",
        names[:3],
        value=scaled(count, EDITS_FULL),
    )


def usual_gap(turns: Sequence[Turn], anchor: int, limit: int, gaps: int = 5) -> float:
    """The mean number of agent turns between the person's turns before `anchor` (up to
    `gaps` gaps, within `limit` turns): the person's usual rhythm. Cheap fields only."""
    seen: list[int] = []
    count = 0
    j = anchor - 1
    stop = max(-1, anchor - 1 - limit)
    while j > stop and len(seen) < gaps:
        turn = turns[j]
        if turn.role is Role.USER and int(turn.flags) & _HUMAN:
            seen.append(count)
            count = 0
        elif turn.role is Role.ASSISTANT:
            count += 1
        j -= 1
    return sum(seen) / len(seen) if seen else 0.0


def long_run_signal(w: Window, turns: Sequence[Turn], anchor: int, limit: int) -> Signal | None:
    """The agent ran much longer on its own than it usually did between the person's turns."""
    steps = len(w.agent_after)
    if steps < 2:
        return None
    usual = usual_gap(turns, anchor, limit)
    ratio = steps / (1.0 + usual)
    if ratio <= 1.0:
        return None
    more = "+" if not w.complete or w.next_human is None else ""
    return Signal(
        "long run",
        [w.agent_after[0].index, w.agent_after[-1].index],
        f"the agent took {steps}{more} steps on its own; before, it took {usual:.0f} between "
        "your messages",
        0.0,
        "after",
        value=scaled(ratio - 1.0, RUN_FULL - 1.0),
    )


def time_alone_signal(w: Window, turns: Sequence[Turn], anchor: int) -> Signal | None:
    """How long the agent worked after the silence before the person spoke again (or the
    after-window ended): minutes on a clock that never runs backwards (`detect.clock`),
    from the latest time among the silence and the turns before it in its window (a go-on
    copied into a resumed file keeps the time it was typed, hours before the copied work
    around it) to the latest time after it."""
    if not w.after or turns[anchor].timestamp is None:
        return None
    start = latest(
        [turns[anchor].timestamp, *(_timestamp_of(turns, anchor, v.index) for v in w.before)]
    )
    end = latest(_timestamp_of(turns, anchor, v.index) for v in w.after)
    if start is None or end is None or end <= start:
        return None
    last = w.after[-1].index
    minutes = (end - start) / 60.0
    if minutes < 1.0:
        return None
    return Signal(
        "time on its own",
        [w.after[0].index, last],
        f"the agent worked {minutes:.0f} min on its own after {after_what(w.silence)}",
        0.0,
        "after",
        value=scaled(minutes, MINUTES_FULL),
    )


def _timestamp_of(turns: Sequence[Turn], anchor: int, index: int) -> float | None:
    """The timestamp of the turn whose `Turn.index` is `index`, looked for from `anchor` on
    (positions and indices agree in a session; a joined conversation shifts both alike)."""
    offset = index - turns[anchor].index
    pos = anchor + offset
    if 0 <= pos < len(turns) and turns[pos].index == index:
        return turns[pos].timestamp
    return None


def asked_again_signal(w: Window) -> Signal | None:
    """The run ended with the agent asking the person again (the next offer, a question)."""
    if w.next_human is None:
        return None
    texts = [v for v in w.agent_after if v.text.strip()]
    if not texts:
        return None
    last = texts[-1]
    question = question_of(last)
    if not question:
        return None
    return Signal(
        "asked again",
        [last.index],
        "the agent's run ended by asking you again",
        0.0,
        "after",
        [plain(question, 90)],
    )


def approved_plan_signal(w: Window, before: Sequence[Signal], code: Signal | None) -> Signal | None:
    """A plan, offer or proposal was on the table with nothing carried out, and after the
    go-on the agent changed the work: the two halves of an implicit approval, as one."""
    if code is None:
        return None
    names = {s.name for s in before}
    if "nothing carried out" not in names:
        return None
    if not names & {"plan laid out", "offer to go ahead", "proposal pending"}:
        return None
    on_table = [s for s in before if s.name in ("plan laid out", "offer to go ahead")]
    turns = sorted({*(t for s in on_table for t in s.turns), *code.turns[:3]})
    return Signal(
        "approved plan",
        turns,
        "what the agent laid out was then carried out: nothing had been changed before "
        f"{after_what(w.silence)}, code was changed after it",
        0.0,
        "after",
        value=code.value,
    )


_REORIENTED = ("context dump", "new tasks", "new phase announced")


def archetype_signals(before: Sequence[Signal], after: Sequence[Signal]) -> list[Signal]:
    """The other two archetypes of PIVOTS.md, each as its before and after halves joined:
    a run of failures with no verdict, then the agent re-orients (a summary, a new task
    list, a new phase) and acts on its own; a milestone, then a new phase the agent starts
    on its own. The value is the weaker half's (both must be there)."""
    by_name = {s.name: s for s in (*before, *after)}
    acted = by_name.get("autonomous action")
    if acted is None:
        return []
    turned = [by_name[n] for n in _REORIENTED if n in by_name]
    out: list[Signal] = []
    failed = [by_name[n] for n in ("failure streak", "inconclusive ending") if n in by_name]
    if failed and turned:
        value = min(max(s.value for s in failed), acted.value)
        out.append(
            Signal(
                "dead end handed over",
                sorted({t for s in (*failed[:1], *turned[:1]) for t in s.turns})[:6],
                "after the failures the agent re-oriented and went on by itself",
                0.0,
                "after",
                value=round(value, 3),
            )
        )
    milestone = by_name.get("milestone")
    fresh = [by_name[n] for n in ("new phase announced", "new tasks") if n in by_name]
    if milestone is not None and fresh:
        out.append(
            Signal(
                "next phase taken up",
                sorted({*milestone.turns[-1:], *fresh[0].turns})[:6],
                "after the milestone the agent took up the next phase by itself",
                0.0,
                "after",
                value=round(acted.value, 3),
            )
        )
    return out


def failed_step_again_signal(w: Window) -> Signal | None:
    """The agent ran again a check or call that had failed just before the silence (the build,
    the test, the publish it was on): the same step went on, whatever the silence said."""
    again = retries_cut_call(w.agent_before, w.agent_after) or reruns_failed_check(
        w.agent_before, w.agent_after
    )
    if not again:
        return None
    return Signal(
        "failed step again",
        again[:6],
        "the agent ran again the step that had failed just before",
        0.0,
        "after",
    )
