"""Judge one silence: gather its windows, collect signals, decide.

Returns the pivot (or None) and how far into the session the judgement
looked, so the tracker knows when appended turns make it stale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pivotal.detect.answers import answer_then_act_signal
from pivotal.detect.archetype import choose_kind, confidence, delegation, reason
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import plain
from pivotal.detect.gates import Gate, hard_veto, routine_veto
from pivotal.detect.phase import phase_label
from pivotal.detect.signals_after import after_signals
from pivotal.detect.signals_before import before_signals
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.state import state_change
from pivotal.detect.summary import summary
from pivotal.detect.view import TurnView
from pivotal.detect.window import Window, build_window
from pivotal.model import Pivot, Role, Signal, Silence, Turn, TurnFlag

_HUMAN = int(TurnFlag.HUMAN)
_UNSENT = int(TurnFlag.UNSENT)
UNSENT_GATE = ("unsent", "the client logged it but never sent it to the model: nothing answered it")

_SILENCE_DETAIL = {
    Silence.EMPTY: "the person sent nothing (empty, whitespace or empty wrapper tags)",
    Silence.ACK: "the person only said go on",
    Silence.COMPACTION: "the format records a context-compaction boundary here",
}


class Rejection:
    """A silence judged not to be a pivot: the gate that turned it down, and its score."""

    __slots__ = ("turn", "silence", "confidence", "gate", "reason")

    def __init__(
        self, turn: int, silence: Silence, confidence: float, gate: str, reason: str
    ) -> None:
        self.turn = turn
        self.silence = silence
        self.confidence = confidence
        """The clamped sum of its signals (0 when it was turned down before any were read)."""
        self.gate = gate
        self.reason = reason

    def __repr__(self) -> str:
        return f"Rejection({self.turn}, {self.silence}, {self.confidence}, {self.gate!r})"


class Judgement:
    """A silence's verdict, and how far into the session the judgement looked."""

    __slots__ = ("pivot", "reach", "complete", "rejection")

    def __init__(
        self, pivot: Pivot | None, reach: int, complete: bool, rejection: Rejection | None = None
    ) -> None:
        self.pivot = pivot
        self.reach = reach
        """Position one past the last turn read: changes from here on do not matter ..."""
        self.complete = complete
        """... provided the after-window was full."""
        self.rejection = rejection
        """Why the silence is no pivot (None for a pivot)."""


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

    def turned_down(gate: Gate, score: float = 0.0) -> Judgement:
        rejection = Rejection(w.anchor.index, w.silence, score, *gate)
        return Judgement(None, w.reach, w.complete, rejection)

    if not w.work_before:
        # session start (checked first: it needs no content at all)
        return turned_down(("session start", "nothing to pivot from"))
    if int(w.anchor.flags) & _UNSENT:
        return turned_down(UNSENT_GATE)
    if attached_compaction(w):
        return turned_down(("cluster", "part of the silence just before it (one pivot)"))
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
    answer = answer_then_act_signal(w, cfg, bfacts, afacts)
    if answer is not None:
        after.append(answer)
        signals.append(answer)
    kind = choose_kind(bfacts)
    score = confidence(signals)
    # the structural gates first, so a silence turned down says which rule it fell under
    gate = hard_veto(w, afacts) or routine_veto(w, kind, bfacts, afacts, after, cfg)
    if gate is None and score < cfg.min_confidence:
        against = ", ".join(f"{s.name} {s.weight:+.2f}" for s in signals if s.weight < 0)
        why = f"confidence {score:.2f} is under {cfg.min_confidence:.2f}"
        gate = ("below the bar", why + (f" ({against})" if against else ""))
    if gate is not None:
        return turned_down(gate, score)
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
        summary=summary(w, kind, bfacts, afacts, candidate),
    )
    return Judgement(pivot, w.reach, w.complete)
