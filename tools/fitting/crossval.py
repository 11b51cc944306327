"""Quality measured on sessions the weights were not fitted to: cross-validation by group.

For each group of a judged set (a repository of the real corpus, a scenario of an own set),
the model is fitted on every other group of every training set and judges that group's
silences; the verdicts are pooled. Precision, recall and kind accuracy come from the pooled
verdicts at a bar, and the precision-recall curve from moving the bar. A labelled pivot that
no silence matched, or that a hard gate turned down, is a miss at every bar.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fitting.labelled import Example, Labelled
from fitting.model import Mixture, Model


@dataclass
class Verdict:
    """One silence judged by a model that never saw its group."""

    example: Example
    confidence: float
    """0 when a hard gate turned the silence down."""
    kind: str


@dataclass
class Judged:
    """A set's pooled cross-validated verdicts, and the labelled pivots no silence matched."""

    name: str
    verdicts: list[Verdict] = field(default_factory=list)
    missed: int = 0
    missed_by_format: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @property
    def pivots(self) -> int:
        return sum(1 for v in self.verdicts if v.example.pivot) + self.missed


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    kind_ok: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def kind_accuracy(self) -> float | None:
        return self.kind_ok / self.tp if self.tp else None


def cross_validate(
    judged_set: str,
    sets: dict[str, Labelled],
    train: Callable[[list[Example]], Model | Mixture],
    training_sets: Sequence[str],
) -> Judged:
    """Leave one group of `judged_set` out at a time; fit on the rest of `training_sets`."""
    pool = [e for name in training_sets if name in sets for e in sets[name].examples]
    target = sets[judged_set]
    out = Judged(judged_set)
    for group in sorted({e.group for e in target.examples}):
        model = train([e for e in pool if e.group != group])
        _judge(out, model, [e for e in target.examples if e.group == group])
    _count_missed(out, target)
    return out


def pooled(name: str, parts: Sequence[Judged]) -> Judged:
    """Several sets' cross-validated verdicts as one (their groups are distinct
    repositories): the real sets together, for bars that hold across all of them."""
    out = Judged(name)
    for part in parts:
        out.verdicts.extend(part.verdicts)
        out.missed += part.missed
        for fmt, n in part.missed_by_format.items():
            out.missed_by_format[fmt] += n
    return out


def held_out(
    judged_set: str,
    sets: dict[str, Labelled],
    train: Callable[[list[Example]], Model | Mixture],
    training_sets: Sequence[str],
) -> Judged:
    """Judge a whole set by one model fitted on `training_sets`, which must not include it:
    a held-out figure (no group of the set, and nothing else of it, was ever fitted)."""
    if judged_set in training_sets:
        raise ValueError(f"{judged_set} is among the training sets: it would not be held out")
    model = train([e for name in training_sets if name in sets for e in sets[name].examples])
    return judge(judged_set, sets[judged_set], model)


def judge(name: str, labelled: Labelled, model: Model | Mixture) -> Judged:
    """Every silence of a set judged by one model (a training figure when it was fitted on
    them, a held-out one when it never saw them)."""
    out = Judged(name)
    _judge(out, model, labelled.examples)
    _count_missed(out, labelled)
    return out


def _judge(out: Judged, model: Model | Mixture, held: list[Example]) -> None:
    scored = [e for e in held if e.features is not None]
    confidences = model.confidences(scored) if scored else []
    kinds = model.kinds(scored) if scored else []
    for example, confidence, kind in zip(scored, confidences, kinds, strict=True):
        out.verdicts.append(Verdict(example, float(confidence), kind))
    for example in held:
        if example.features is None:
            out.verdicts.append(Verdict(example, 0.0, ""))


def _count_missed(out: Judged, target: Labelled) -> None:
    out.missed = len(target.missed)
    for miss in target.missed:
        out.missed_by_format[miss.format] += 1


def tally(judged: Judged, bar: float, fmt: str | None = None) -> Tally:
    """The pooled verdicts at a bar (a confidence at or above it is a pivot)."""
    t = Tally()
    for v in judged.verdicts:
        if fmt is not None and v.example.format != fmt:
            continue
        said = v.example.features is not None and v.confidence >= bar
        if v.example.pivot and said:
            t.tp += 1
            t.kind_ok += v.kind == v.example.label
        elif v.example.pivot:
            t.fn += 1
        elif said:
            t.fp += 1
    t.fn += judged.missed if fmt is None else judged.missed_by_format.get(fmt, 0)
    return t


def curve(judged: Judged) -> list[tuple[float, Tally]]:
    """Every distinct bar that changes the verdicts, highest first, with the tally at it."""
    bars = sorted(
        {round(v.confidence, 4) for v in judged.verdicts if v.example.features}, reverse=True
    )
    return [(bar, tally(judged, bar)) for bar in bars]


def bar_for_precision(judged: Judged, precision: float) -> tuple[float, Tally] | None:
    """The lowest bar whose pooled precision is at least `precision` (the best recall there);
    None when no bar reaches it with any pivot found."""
    best: tuple[float, Tally] | None = None
    for bar, t in curve(judged):
        if t.tp and t.precision >= precision:
            if best is None or t.recall > best[1].recall:
                best = (bar, t)
    return best


def bar_for_f1(judged: Judged) -> tuple[float, Tally] | None:
    points = curve(judged)
    return max(points, key=lambda p: (p[1].f1, p[0])) if points else None
