"""Judge one silence: gather its windows, collect signals, decide.

Returns the pivot (or None) and how far into the session the judgement
looked, so the tracker knows when appended turns make it stale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pivotal.detect.archetype import choose_kind, confidence, delegation, reason
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import plain
from pivotal.detect.gates import hard_veto, routine_veto
from pivotal.detect.phase import phase_label
from pivotal.detect.signals_after import after_signals
from pivotal.detect.signals_before import before_signals
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.state import state_change
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window, build_window
from pivotal.model import Pivot, Role, Signal, Silence, Turn, TurnFlag

_HUMAN = int(TurnFlag.HUMAN)

_SILENCE_DETAIL = {
    Silence.EMPTY: "the person sent nothing (empty, whitespace or empty wrapper tags)",
    Silence.ACK: "the person only said go on",
    Silence.COMPACTION: "the format records a context-compaction boundary here",
}


class Judgement:
    """A silence's verdict, and how far into the session the judgement looked."""

    __slots__ = ("pivot", "reach", "complete")

    def __init__(self, pivot: Pivot | None, reach: int, complete: bool) -> None:
        self.pivot = pivot
        self.reach = reach
        """Position one past the last turn read: changes from here on do not matter ..."""
        self.complete = complete
        """... provided the after-window was full."""


def attached_compaction(w: Window) -> bool:
    """A compaction whose only "work" since a silent human turn is the model's summary reply
    (Codex writes it as an assistant message before the `compacted` record)."""
    if w.silence is not Silence.COMPACTION or not w.before:
        return False
    last = w.before[-1]
    silent_human = last.role is Role.USER and bool(int(last.flags) & _HUMAN)
    return silent_human and (w.direction is None or w.direction.index != last.index)


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
        return done  # session start (checked first: it needs no content at all)
    if attached_compaction(w):
        return done  # part of the silence just before it (one cluster, one pivot)
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
    # the phase-change signal compares activities, not the "hitting failures" decoration
    after, afacts, phase_after = after_signals(w, cfg, phase_label(w.before))
    signals.extend(before)
    signals.extend(after)
    kind = choose_kind(bfacts)
    score = confidence(signals)
    if hard_veto(w, afacts) or score < cfg.min_confidence:
        return done
    if routine_veto(w, kind, bfacts, afacts, after, cfg):
        return done
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
