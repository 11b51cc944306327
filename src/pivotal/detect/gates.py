"""The non-pivots of PIVOTS.md, as named gates applied after the signals are in.

A gate turns a silence down whatever its confidence; its name and reason stay with the
judgement, so `scan --explain` can say which gate turned each silence down. Hard gates
always apply: no work before the silence (session start), a message the client never sent,
the agent only asked what to do, or did nothing after it. Routine gates recognise silences
inside unchanged work; `PivotConfig.strict` turns them off (high sensitivity), trading
precision for recall.
"""

from __future__ import annotations

from pivotal.detect.config import PivotConfig
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.routine import reruns_failed_check, retries_cut_call
from pivotal.detect.window import Window
from pivotal.model import PivotKind, Signal, Silence, TurnFlag

Gate = tuple[str, str]
"""(name, why): which gate turned a silence down, in a few words and in a sentence."""

SHORT_FOLLOW_UP = 4
"""At most this many calls, then the agent hands back: one small step and its check."""
_INTERRUPTED = int(TurnFlag.INTERRUPTED)


def hard_veto(w: Window, a: AfterFacts) -> Gate | None:
    """Why this silence can never be a pivot (None when it can)."""
    if not w.work_before:
        return ("session start", "nothing to pivot from")
    if a.clarification and a.executing == 0:
        return ("only asked", "the agent only asked what the person wants")
    stopped = bool(w.agent_after) and not w.agent_after[-1].ends_with_tool
    if (w.complete or stopped) and not (a.actions or a.dump):
        return ("nothing done", "the agent replied without doing anything")
    return None


def short_follow_up(w: Window, a: AfterFacts) -> bool:
    """After the silence the agent made a handful of calls and handed back on its own.

    Handed back: the person spoke next, and the agent's last message before that ended in
    words (not mid-call, not cut off by an interruption).
    """
    if w.next_human is None or not 0 < a.actions <= SHORT_FOLLOW_UP:
        return False
    agent = w.agent_after
    if not agent or agent[-1].ends_with_tool:
        return False
    return not any(int(v.flags) & _INTERRUPTED for v in w.after)


def routine_veto(
    w: Window,
    kind: PivotKind,
    b: BeforeFacts,
    a: AfterFacts,
    after: list[Signal],
    cfg: PivotConfig,
) -> Gate | None:
    """Why this silence looks like routine, unchanged work (None when it does not)."""
    if not cfg.strict:
        return None
    # empty and "." are one behaviour in different clients (Claude Code refuses an empty
    # prompt), so the routine rules do not depend on which of the two the file holds
    if a.routine and not b.proposal:
        return ("same steps", "the same steps went on after the silence")
    if kind is PivotKind.IMPLICIT_APPROVAL and not a.actions and w.next_human is not None:
        # PIVOTS.md: after an implicit approval "the agent executes the proposal it laid
        # out". One that only answered in words (a recap, a restated plan) before the
        # person spoke again took nothing over: the person is still the one deciding
        return ("not acted on", "the agent only wrote, then the person spoke again")
    if a.resumed == "error":
        return ("re-sent after an error", "an API error cut the agent off; the work resumed")
    if a.resumed == "interrupt":
        return ("resumed after an interrupt", "the person's interrupt, then the same work")
    if b.next_step and not b.proposal and reruns_failed_check(w.agent_before, w.agent_after):
        # "Shall I sync the dependencies first?" - "OK" - sync, run the tests again
        return ("fix loop", "the agent applied the fix it offered and ran the failed check again")
    if (
        w.silence is Silence.COMPACTION
        and b.failures == 1
        and not b.proposal
        and retries_cut_call(w.agent_before, w.agent_after)
    ):
        # one failed call, the context filled before the agent answered it, and it ran the
        # same step again: mid-work, not the run of failures of a dead end (PIVOTS.md)
        return (
            "compaction mid-step",
            "the tool compacted right after one failed call; the agent ran that step again",
        )
    changed = (
        a.dump
        or a.shift
        or a.new_tasks
        or a.next_phase
        or any(s.name == "phase change" for s in after)
    )
    if (
        w.silence is not Silence.COMPACTION
        and (b.open_question or b.next_step)
        and not (b.proposal or a.dump or a.new_tasks or a.next_phase)
        and short_follow_up(w, a)
    ):
        # "want me to commit it too?" - "yes": one small step, then the person again
        return (
            "short follow-up",
            f"a small offer answered: {a.actions} call(s), then the agent handed back",
        )
    if w.silence is Silence.ACK and kind is PivotKind.OTHER:
        # a bare go-on outside the archetypes counts only if the agent then chose: it
        # answered its own open question by acting, or took up new work
        decided = (b.open_question and a.executing > 0 and not b.mid_task) or a.changed
        if not (decided or a.new_tasks):
            return ("routine go-on", "a go-on in routine work")
    if (
        w.silence is not Silence.COMPACTION
        and w.complete
        and not (b.proposal or changed or b.open_question)
    ):
        # PIVOTS.md: at a pivot "the work before and after it differs in mode"; without a
        # proposal or question on the table, the work after the silence must show that
        return ("unchanged work", "the work after the silence did not change")
    if w.silence is Silence.COMPACTION and not (a.agent_dump or b.proposal):
        # no person spoke: only a re-orientation or work on other things shows a turn
        if kind is PivotKind.OTHER or not a.shift or b.mid_task:
            return ("compaction carried on", "the tool compacted and the agent carried on")
    if b.mid_task and not b.proposal:
        return ("mid-task", "a silence or an automatic compaction between two ordinary steps")
    if kind is PivotKind.CONTINUE_AFTER_MILESTONE and w.complete and not changed:
        return ("success in passing", "a success noted in passing; the same work went on")
    return None
