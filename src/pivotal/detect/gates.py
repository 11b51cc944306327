"""The non-pivots of PIVOTS.md, as vetoes applied after the signals are in.

Hard vetoes always apply: no work before the silence (session start), the
agent only asked what to do, or the agent did nothing after it. Routine
vetoes recognise silences inside unchanged work; `PivotConfig.strict` turns
them off (high sensitivity), trading precision for recall.
"""

from __future__ import annotations

from pivotal.detect.config import PivotConfig
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.window import Window
from pivotal.model import PivotKind, Signal, Silence


def hard_veto(w: Window, a: AfterFacts) -> str | None:
    """Why this silence can never be a pivot (None when it can)."""
    if not w.work_before:
        return "session start: nothing to pivot from"
    if a.clarification and a.executing == 0:
        return "the agent only asked what the person wants"
    stopped = bool(w.agent_after) and not w.agent_after[-1].ends_with_tool
    if (w.complete or stopped) and not (a.actions or a.dump):
        return "the agent replied without doing anything"
    return None


def routine_veto(
    w: Window,
    kind: PivotKind,
    b: BeforeFacts,
    a: AfterFacts,
    after: list[Signal],
    cfg: PivotConfig,
) -> str | None:
    """Why this silence looks like routine, unchanged work (None when it does not)."""
    if not cfg.strict:
        return None
    # empty and "." are one behaviour in different clients (Claude Code refuses an empty
    # prompt), so the routine rules do not depend on which of the two the file holds
    if a.routine and not b.proposal:
        return "the same steps went on after the silence"
    changed = (
        a.dump
        or a.shift
        or a.new_tasks
        or a.next_phase
        or any(s.name == "phase change" for s in after)
    )
    if w.silence is Silence.ACK and kind is PivotKind.OTHER:
        # a bare go-on outside the archetypes counts only if the agent then chose: it
        # answered its own open question by acting, or took up new work
        decided = b.open_question and a.executing > 0 and not b.mid_task
        if not (decided or a.new_tasks):
            return "a go-on in routine work"
    if (
        w.silence is not Silence.COMPACTION
        and w.complete
        and not (b.proposal or changed or b.open_question)
    ):
        # PIVOTS.md: at a pivot "the work before and after it differs in mode"; without a
        # proposal or question on the table, the work after the silence must show that
        return "the work after the silence did not change"
    if w.silence is Silence.COMPACTION and not (a.agent_dump or b.proposal):
        # no person spoke: only a re-orientation or work on other things shows a turn
        if kind is PivotKind.OTHER or not a.shift or b.mid_task:
            return "the tool compacted and the agent carried straight on"
    if b.mid_task and not b.proposal:
        return "a silence or an automatic compaction between two ordinary steps"
    if kind is PivotKind.CONTINUE_AFTER_MILESTONE and w.complete and not changed:
        return "a success noted in passing; the same work simply went on"
    return None
