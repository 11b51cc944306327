"""Judge one silence: gather its windows, measure its signals, weigh them, decide.

Returns the pivot (or None) and how far into the session the judgement looked, so the
tracker knows when appended turns make it stale. The hard gates of PIVOTS.md come first;
then every signal is measured (a value in [0, 1] each), weighed with the fitted weights
(`weigh`), and the confidence decides: a pivot at the bar, a possible pivot in the band
under it, else a rejection that says in plain words what held it down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pivotal.detect.answers import answer_then_act_signal
from pivotal.detect.archetype import choose_kind as rule_kind
from pivotal.detect.archetype import delegation, reason
from pivotal.detect.cadence import (
    cadence_signal,
    compaction_trigger_signal,
    resume_word_signal,
    wordless_signal,
)
from pivotal.detect.config import PivotConfig
from pivotal.detect.evidence import plain
from pivotal.detect.facts import AfterFacts, BeforeFacts
from pivotal.detect.gates import Gate, below_the_bar, hard_veto, nothing_to_pivot_from
from pivotal.detect.phase import phase_label
from pivotal.detect.run import (
    approved_plan_signal,
    archetype_signals,
    asked_again_signal,
    code_changed_signal,
    failed_step_again_signal,
    long_run_signal,
    time_alone_signal,
)
from pivotal.detect.shape import shape_signals
from pivotal.detect.signals_after import after_signals, cut_off_signal
from pivotal.detect.signals_before import before_signals
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.silence_words import compaction_trigger
from pivotal.detect.state import state_change
from pivotal.detect.summary import summary
from pivotal.detect.view import TurnView
from pivotal.detect.weigh import SILENCE, choose_kind, confidence, features, weigh
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
_SUMMARY_ALONE = (
    "the context was compacted here: the format records its summary (no boundary record)"
)
"""A compaction silence anchored on its summary (Claude Code 1.0 wrote no boundary record)."""
_BOUNDARY = int(TurnFlag.COMPACTION_BOUNDARY)


def silence_detail(w: Window) -> str:
    """The silence signal's words, true of the record the silence stands on."""
    if w.silence is Silence.COMPACTION and not int(w.anchor.flags) & _BOUNDARY:
        return _SUMMARY_ALONE
    return _SILENCE_DETAIL[w.silence]


class Rejection:
    """A silence judged not to be a pivot: the gate that turned it down, and its score."""

    __slots__ = ("turn", "silence", "confidence", "gate", "reason", "signals")

    def __init__(
        self,
        turn: int,
        silence: Silence,
        confidence: float,
        gate: str,
        reason: str,
        signals: list[Signal] | None = None,
    ) -> None:
        self.turn = turn
        self.silence = silence
        self.confidence = confidence
        """The clamped sum of its signals (0 when it was turned down before any were read)."""
        self.gate = gate
        self.reason = reason
        """Why, in plain words."""
        self.signals = signals or []
        """The weighted signals (empty when a hard gate turned it down before weighing)."""

    def __repr__(self) -> str:
        return f"Rejection({self.turn}, {self.silence}, {self.confidence}, {self.gate!r})"


class Judgement:
    """A silence's verdict, and how far into the session the judgement looked."""

    __slots__ = ("pivot", "reach", "complete", "rejection", "measured", "features")

    def __init__(
        self,
        pivot: Pivot | None,
        reach: int,
        complete: bool,
        rejection: Rejection | None = None,
        measured: list[Signal] | None = None,
        features: dict[str, float] | None = None,
    ) -> None:
        self.pivot = pivot
        """The pivot, or the possible pivot (`Pivot.possible`), or None."""
        self.reach = reach
        """Position one past the last turn read: changes from here on do not matter ..."""
        self.complete = complete
        """... provided the after-window was full."""
        self.rejection = rejection
        """Why the silence is no pivot (None for a pivot or a possible one)."""
        self.measured = measured
        """Every signal measured at the silence, unweighted (None when a hard gate turned it
        down first)."""
        self.features = features
        """Every measured signal's value by weight name (None when a hard gate turned the
        silence down first): what `tools/fit_detector.py` learns from."""


def attached_compaction(w: Window) -> bool:
    """A compaction whose only "work" since a silent human turn is the model's summary reply
    (Codex writes it as an assistant message before the `compacted` record)."""
    if w.silence is not Silence.COMPACTION or not w.before:
        return False
    last = w.before[-1]
    silent_human = last.role is Role.USER and bool(int(last.flags) & _HUMAN)
    return silent_human and (w.direction is None or w.direction.index != last.index)


def measure(
    w: Window,
    turns: Sequence[Turn],
    anchor: int,
    silences: SilenceIndex,
    cfg: PivotConfig,
) -> tuple[list[Signal], BeforeFacts, AfterFacts, str, str]:
    """Every signal of one silence, unweighted (each with its value), and the facts and
    phase labels the kind, state and wording are built from."""
    quote = [plain(w.anchor.text, 60)] if w.anchor.text.strip() else []
    signals = [Signal(SILENCE, [w.anchor.index], silence_detail(w), 0.0, SILENCE, quote)]
    before, bfacts = before_signals(w, cfg)
    failing = bfacts.failures >= 2 or (bfacts.failures >= 1 and bfacts.inconclusive)
    phase_before = phase_label(w.before, failing)
    # the phase-change signal compares activities, not the "hitting failures" decoration
    after, afacts, phase_after = after_signals(w, cfg, phase_label(w.before))
    before.extend(shape_signals(w))
    for extra in (
        cadence_signal(turns, anchor, silences, cfg),
        resume_word_signal(w),
        wordless_signal(w),
        compaction_trigger_signal(turns, silences.cluster(turns, anchor), w.silence),
        cut_off_signal(w),
    ):
        if extra is not None:
            (signals if extra.side == SILENCE else before).append(extra)
    code = code_changed_signal(w)
    for extra in (
        code,
        long_run_signal(w, turns, anchor, cfg.hands_off_cap),
        time_alone_signal(w, turns, anchor),
        asked_again_signal(w),
        failed_step_again_signal(w),
        approved_plan_signal(w, before, code),
        answer_then_act_signal(w, cfg, bfacts, afacts),
    ):
        if extra is not None:
            after.append(extra)
    after.extend(archetype_signals(before, after))
    signals.extend(before)
    signals.extend(after)
    return signals, bfacts, afacts, phase_before, phase_after


def judge(
    turns: Sequence[Turn],
    anchor: int,
    silences: SilenceIndex,
    view: Callable[[int], TurnView],
    cfg: PivotConfig,
) -> Judgement:
    w = build_window(turns, anchor, silences, view, cfg)

    def turned_down(
        gate: Gate,
        score: float = 0.0,
        weighted: list[Signal] | None = None,
        measured: list[Signal] | None = None,
        values: dict[str, float] | None = None,
    ) -> Judgement:
        rejection = Rejection(w.anchor.index, w.silence, score, *gate, weighted)
        return Judgement(None, w.reach, w.complete, rejection, measured, values)

    if not w.work_before:
        # no agent turn since the person last spoke (checked first: it needs no content):
        # the session start, or a go-on after an error or a notice
        return turned_down(nothing_to_pivot_from(turns, anchor, cfg.hands_off_cap))
    if int(w.anchor.flags) & _UNSENT:
        return turned_down(UNSENT_GATE)
    if attached_compaction(w):
        return turned_down(("cluster", "part of the silence just before it (one pivot)"))
    measured, bfacts, afacts, phase_before, phase_after = measure(w, turns, anchor, silences, cfg)
    gate = hard_veto(w, afacts)
    if gate is not None:
        return turned_down(gate, measured=measured)
    values = features(measured, w.silence.value)
    weighted = weigh(measured, w.silence.value)
    score = confidence(weighted)
    if score < min(cfg.possible_confidence, cfg.min_confidence):
        gate = below_the_bar(weighted)
        return turned_down(gate, score, weighted, measured, values)
    kind = choose_kind(values) or rule_kind(bfacts)
    candidate = not w.complete
    trigger = compaction_trigger(measured)
    before = [s for s in weighted if s.side == "before"]
    pivot = Pivot(
        turn=w.anchor.index,
        kind=kind,
        silence=w.silence,
        confidence=score,
        cluster=[v.index for v in w.cluster],
        signals=weighted,
        delegation=delegation(w, weighted, bfacts, afacts),
        state=state_change(w, before, bfacts, afacts, phase_before, phase_after),
        reason=reason(w, kind, bfacts, afacts, candidate, trigger),
        candidate=candidate,
        summary=summary(w, kind, bfacts, afacts, candidate, trigger),
        possible=score < cfg.min_confidence,
    )
    return Judgement(pivot, w.reach, w.complete, None, measured, values)
