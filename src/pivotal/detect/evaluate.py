"""Judge one silence: gather its windows, collect signals, decide.

Returns the pivot (or None) and how far into the session the judgement
looked, so the tracker knows when appended turns make it stale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pivotal.detect.archetype import choose_kind, confidence, delegation, reason
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import plain
from pivotal.detect.phase import phase_label
from pivotal.detect.signals_after import after_signals
from pivotal.detect.signals_before import before_signals
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.state import state_change
from pivotal.detect.view import TurnView
from pivotal.detect.window import build_window
from pivotal.model import Pivot, PivotKind, Signal, Silence, Turn

_SILENCE_DETAIL = {
    Silence.EMPTY: "the person sent nothing (empty, whitespace or empty wrapper tags)",
    Silence.ACK: "the person only said go on",
    Silence.COMPACTION: "the format records a context-compaction boundary here",
}


@dataclass(slots=True)
class Judgement:
    pivot: Pivot | None
    reach: int
    """Position one past the last turn read: changes from here on do not matter ..."""
    complete: bool
    """... provided the after-window was full."""


def silence_weight(kind: Silence, cfg: PivotConfig) -> float:
    return {Silence.EMPTY: cfg.w_empty, Silence.ACK: cfg.w_ack}.get(kind, cfg.w_compaction)


def judge(
    turns: Sequence[Turn],
    anchor: int,
    silences: SilenceIndex,
    view: Callable[[int], TurnView],
    cfg: PivotConfig,
) -> Judgement:
    w = build_window(turns, anchor, silences, view, cfg)
    done = Judgement(None, w.reach, w.complete)
    if not w.work_before:
        return done  # session start: nothing to pivot from
    quote = [plain(w.anchor.text, 60)] if w.anchor.text.strip() else []
    signals = [
        Signal(
            "silence",
            [w.anchor.index],
            _SILENCE_DETAIL[w.silence],
            silence_weight(w.silence, cfg),
            "silence",
            quote,
        )
    ]
    before, bfacts = before_signals(w, cfg)
    failing = bfacts.failures >= 2 or (bfacts.failures >= 1 and bfacts.inconclusive)
    phase_before = phase_label(w.before, failing)
    after, afacts, phase_after = after_signals(w, cfg, phase_before)
    signals.extend(before)
    signals.extend(after)
    if afacts.clarification and afacts.executing == 0:
        return done  # the agent only asked what the person wants
    kind = choose_kind(bfacts)
    score = confidence(signals)
    if score < cfg.min_confidence:
        return done
    if w.silence is Silence.ACK and kind is PivotKind.OTHER:
        return done  # a go-on in routine work
    if w.silence is Silence.COMPACTION and not (afacts.agent_dump or bfacts.proposal):
        return done  # the tool compacted and the agent carried straight on
    if bfacts.mid_task and w.silence is not Silence.EMPTY and not bfacts.proposal:
        return done  # a go-on or an automatic compaction between two ordinary steps
    stopped = bool(w.agent_after) and not w.agent_after[-1].ends_with_tool
    if (w.complete or stopped) and not (afacts.actions or afacts.dump):
        return done  # the agent replied without doing anything (or nothing happened)
    changed = afacts.dump or afacts.shift or any(sg.name == "phase change" for sg in after)
    if kind is PivotKind.CONTINUE_AFTER_MILESTONE and w.complete and not changed:
        return done  # a success noted in passing; the same work simply went on
    candidate = not w.complete
    pivot = Pivot(
        turn=w.anchor.index,
        kind=kind,
        silence=w.silence,
        confidence=score,
        cluster=[v.index for v in w.cluster],
        signals=signals,
        delegation=delegation(w, signals, bfacts, afacts),
        state=state_change(w, before, bfacts, afacts, phase_before, phase_after),
        reason=reason(w, kind, bfacts, afacts, candidate),
        candidate=candidate,
    )
    return Judgement(pivot, w.reach, w.complete)
