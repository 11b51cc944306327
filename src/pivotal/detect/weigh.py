"""Turn measured signals into a confidence and a kind, with the fitted weights.

Each signal arrives with a value in [0, 1] and no weight; here it gets its fitted weight
times that value (`Signal.weight`), and the confidence is the sum of those weights, clamped
to [0, 1]. A signal whose fitted weight is zero adds nothing and is left out of the list, so
the listed weights always add up to the confidence (before the clamp). The kind is the one
whose fitted score over the same signals is highest.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from pivotal.detect.fitted import Fitted, load, silence_key
from pivotal.model import PivotKind, Signal

SILENCE = "silence"
"""The silent turn's own signal: its weight is the base of the sum for that kind of silence."""


def feature_key(signal: Signal, silence: str) -> str:
    """The name a signal's weight is stored under (the silence's depends on its kind)."""
    return silence_key(silence) if signal.name == SILENCE else signal.name


def features(signals: Iterable[Signal], silence: str) -> dict[str, float]:
    """What the fit sees of one silence: each signal's value by weight name."""
    out: dict[str, float] = {}
    for signal in signals:
        key = feature_key(signal, silence)
        out[key] = max(out.get(key, 0.0), signal.value)
    return out


def weigh(signals: Iterable[Signal], silence: str, fitted: Fitted | None = None) -> list[Signal]:
    """The signals that count, each with its weight (fitted weight × value)."""
    weights = (fitted or load()).weights
    out: list[Signal] = []
    for signal in signals:
        weight = weights.get(feature_key(signal, silence), 0.0)
        if weight == 0.0:
            continue
        out.append(replace(signal, weight=round(weight * signal.value, 3)))
    return out


def confidence(weighted: Iterable[Signal]) -> float:
    return round(max(0.0, min(1.0, sum(s.weight for s in weighted))), 3)


EVIDENCE = {
    PivotKind.IMPLICIT_APPROVAL: ("proposal pending", "plan laid out", "offer to go ahead"),
    PivotKind.DELEGATION_AFTER_DEAD_END: ("failure streak", "inconclusive ending"),
    PivotKind.CONTINUE_AFTER_MILESTONE: ("milestone", "work reported done"),
}
"""What PIVOTS.md's table says each archetype has before the silence: a kind is only given
to a silence that has at least one of its signals (`other` needs none)."""


def choose_kind(values: dict[str, float], fitted: Fitted | None = None) -> PivotKind | None:
    """The kind whose fitted score is highest among those whose evidence is there (`other`
    when none is), or None when no kind model was fitted."""
    kinds = (fitted or load()).kinds
    if not kinds:
        return None
    scored = []
    for name, weights in kinds.items():
        score = weights.get("bias", 0.0) + sum(
            w * values.get(key, 0.0) for key, w in weights.items() if key != "bias"
        )
        scored.append((-score, name))
    for _, name in sorted(scored):
        kind = PivotKind(name)
        if any(values.get(key, 0.0) > 0 for key in EVIDENCE.get(kind, ("",))) or (
            kind is PivotKind.OTHER
        ):
            return kind
    return PivotKind.OTHER
