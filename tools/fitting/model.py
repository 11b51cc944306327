"""What is fitted: the signals, which way each may count, and how logits become confidences.

`SIGNS` lists every signal the detector measures (a test holds that it misses none), with
the direction its definition allows: +1 may only make a pivot likelier, -1 only less
likely, 0 either way (the fit decides). One unpenalised intercept is shared by every
silence; an empty message and a compaction may differ from a go-on by a penalised amount
(so a kind of silence the real corpus barely holds cannot take an extreme weight from the
project's own samples alone). A fitted logit becomes a confidence in [0, 1] by
`0.5 + logit / SCALE`, so a signal's weight in `weights.json` is its coefficient / SCALE,
and each kind of silence carries the intercept and the 0.5: the confidence is the sum of
the listed weights, as the detector shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fitting.labelled import NOT_PIVOT, REAL_SETS, Example
from fitting.logistic import fit, softmax_fit

SCALE = 8.0
"""Logit units per unit of confidence: a logit of ±4 (odds 55:1) reaches 0 or 1."""

KIND_PENALTY = 1.0
SILENCES = ("silence: empty", "silence: ack", "silence: compaction")
BIAS = "intercept"
"""A constant column: the base every silence starts from (folded into the silence weights)."""
FREE = (BIAS, "silence: compaction")
"""Not penalised: the base, and how a compaction differs from a go-on (both kinds are common in
every set; an empty message is not, so its difference stays penalised)."""
SIGNS: dict[str, int] = {
    BIAS: 0,
    "silence: empty": 0,
    "silence: compaction": 0,
    # before the silence
    "failure streak": 0,
    "inconclusive ending": 0,
    "milestone": 0,
    "work reported done": 0,
    "proposal pending": 0,
    "plan laid out": 0,
    "offer to go ahead": 0,
    "small offer": -1,  # one short step offered: by definition no plan to hand over
    "follow-up offer": -1,  # more of the work the person leads: nothing handed over
    "nothing carried out": 0,
    "open question": 0,
    "next step named": 0,
    "out of ideas": 0,
    "mid-task": -1,  # the agent had not stopped: nothing was handed over
    "hands-off streak": 0,
    "go-on cadence": -1,  # a go-on among go-ons keeps a rhythm; it hands nothing over
    "step gate": -1,  # a workflow's own gate: the person set the steps up
    "workflow running": 0,
    "stopped by an error": 0,
    "interrupted": 0,
    # the silence itself
    "resume word": 0,
    "wordless": 0,
    "auto compaction": 0,
    "manual compaction": 0,
    # after the silence
    "context dump": 0,
    "summary recorded": 0,
    "autonomous action": 0,
    "code changed": 0,
    "long run": 0,
    "time on its own": 0,
    "approved plan": 1,  # the spec's own definition of an implicit approval
    "dead end handed over": 1,  # ... of a delegation after a dead end
    "next phase taken up": 1,  # ... of a continuation after a milestone
    "asked again": 0,
    "clarification": -1,  # the agent asked instead of acting: the person still decides
    "same steps": 0,
    "failed step again": 0,
    "topic shift": 0,
    "phase change": 0,
    "new phase announced": 0,
    "new tasks": 0,
    "resumed after interruption": 0,
    "initiative after an answer": 0,
}
NAMES = tuple(SIGNS)

APPROVAL_SIGNALS = (
    BIAS,
    "silence: empty",
    "silence: compaction",
    "plan laid out",
    "nothing carried out",
    "approved plan",
    "autonomous action",
    "long run",
    "mid-task",
    "asked again",
    "go-on cadence",
    "small offer",
    "follow-up offer",
    "step gate",
    "code changed",
    "offer to go ahead",
    "proposal pending",
)
"""What PIVOTS.md names for an implicit approval and against it: a plan or offer with
nothing carried out, then a long run that changes the work; a small or follow-up offer, a
step gate, a go-on cadence, the agent asking again or still mid-task."""
SIGNAL_SETS: dict[str, tuple[str, ...]] = {
    "all": NAMES,
    "spec": (
        *APPROVAL_SIGNALS,
        "failure streak",
        "milestone",
        "work reported done",
        "context dump",
        "new phase announced",
        "new tasks",
        "dead end handed over",
        "next phase taken up",
    ),
}
"""The signals a fit may weigh. `spec`: the approval signals and the halves and joins of
the other two archetypes of PIVOTS.md's table (failures then a re-orientation; a milestone
then a new phase); the rest (topic shift, phase change, resume words, …) measured and
shown, weighed 0."""

KINDS = ("delegation_after_dead_end", "continue_after_milestone", "implicit_approval", "other")
KIND_SIGNALS = (
    "failure streak",
    "inconclusive ending",
    "milestone",
    "work reported done",
    "proposal pending",
    "plan laid out",
    "offer to go ahead",
    "nothing carried out",
    "approved plan",
    "dead end handed over",
    "next phase taken up",
    "next step named",
    "out of ideas",
    "context dump",
    "new phase announced",
    "initiative after an answer",
    "silence: compaction",
)
"""What the kind is chosen from: the evidence before the silence that tells the essays apart."""


def matrix(examples: Sequence[Example], names: Sequence[str] = NAMES) -> np.ndarray:
    return np.array(
        [[1.0 if n == BIAS else (e.features or {}).get(n, 0.0) for n in names] for e in examples]
    )


def targets(examples: Sequence[Example]) -> np.ndarray:
    return np.array([1.0 if e.pivot else 0.0 for e in examples])


class Model:
    """Fitted coefficients (logit units) for the pivot/no-pivot decision and the kind."""

    def __init__(
        self, beta: np.ndarray, kind_beta: np.ndarray | None, names: Sequence[str] = NAMES
    ) -> None:
        self.beta = beta
        self.kind_beta = kind_beta
        self.names = tuple(names)

    def logits(self, examples: Sequence[Example]) -> np.ndarray:
        return matrix(examples, self.names) @ self.beta

    def confidences(self, examples: Sequence[Example]) -> np.ndarray:
        return np.clip(0.5 + self.logits(examples) / SCALE, 0.0, 1.0)

    def kinds(self, examples: Sequence[Example]) -> list[str]:
        if self.kind_beta is None:
            return ["" for _ in examples]
        x = np.hstack([matrix(examples, KIND_SIGNALS), np.ones((len(examples), 1))])
        return [KINDS[i] for i in np.argmax(x @ self.kind_beta.T, axis=1)]

    def weights(self) -> dict[str, float]:
        coef = dict(zip(self.names, (float(b) for b in self.beta), strict=True))
        base = coef.pop(BIAS)
        out = {n: round((base + coef.pop(n, 0.0)) / SCALE + 0.5, 4) for n in SILENCES}
        for name, b in coef.items():
            if round(b / SCALE, 4) != 0.0:
                out[name] = round(b / SCALE, 4)
        return out

    def kind_weights(self) -> dict[str, dict[str, float]]:
        if self.kind_beta is None:
            return {}
        out: dict[str, dict[str, float]] = {}
        for kind, row in zip(KINDS, self.kind_beta, strict=True):
            weights = {n: round(float(w), 4) for n, w in zip(KIND_SIGNALS, row[:-1], strict=True)}
            out[kind] = {
                "bias": round(float(row[-1]), 4),
                **{n: w for n, w in weights.items() if w},
            }
        return out


def own_weight(examples: Sequence[Example], share: float) -> float:
    """The weight of one of the project's own silences such that all of them together weigh
    `share` times the real ones (so the written samples never drown the real sessions)."""
    real = sum(1 for e in examples if e.features is not None and e.set in REAL_SETS)
    own = sum(1 for e in examples if e.features is not None and e.set not in REAL_SETS)
    return share * real / own if own and real else 1.0


def train(
    examples: Sequence[Example],
    own_share: float,
    penalty: float,
    kind_penalty: float,
    names: Sequence[str] = NAMES,
    kind_share: float | None = None,
    prior: float | None = None,
) -> Model:
    """Fit on the examples a hard gate did not turn down: each real silence weighs 1, the
    project's own silences together weigh `own_share` times the real ones (`kind_share`
    times in the kind's fit, by default the same). Only `names` are weighed.

    With `prior`, the decision is fitted in two steps instead: on the own sets alone, then
    on the real sessions alone with a penalty of `prior` pulling towards the first fit's
    weights. What the real sessions say decides where they say it; the archetypes the own
    sets are written about keep their evidence where real sessions are silent."""
    usable = [e for e in examples if e.features is not None]
    signs = [SIGNS[n] for n in names]
    free = [n in FREE for n in names]
    if prior is None:
        ow = own_weight(usable, own_share)
        x = matrix(usable, names)
        y = targets(usable)
        w = np.array([1.0 if e.set in REAL_SETS else ow for e in usable])
        beta = fit(x, y, w, penalty, signs, free)
    else:
        own = [e for e in usable if e.set not in REAL_SETS]
        real = [e for e in usable if e.set in REAL_SETS]
        center = fit(matrix(own, names), targets(own), np.ones(len(own)), penalty, signs, free)
        beta = fit(
            matrix(real, names),
            targets(real),
            np.ones(len(real)),
            prior,
            signs,
            free,
            center=center,
        )
    ow = own_weight(usable, own_share if kind_share is None else kind_share)
    pivots = [e for e in usable if e.pivot and e.label in KINDS]
    kind_beta = None
    if pivots:
        xk = np.hstack([matrix(pivots, KIND_SIGNALS), np.ones((len(pivots), 1))])
        yk = np.array([KINDS.index(e.label) for e in pivots])
        wk = np.array([1.0 if e.set in REAL_SETS else ow for e in pivots])
        kind_beta = softmax_fit(xk, yk, len(KINDS), wk, kind_penalty)
    return Model(beta, kind_beta, names)


class Mixture:
    """Two tables over the same signals, and a silence's confidence is the higher sum.

    `main` leans on the real sessions; `archetypes` is fitted with the project's own
    samples in full, so the milestones and dead ends they (and the seeds) are about keep
    the evidence the real sessions, 90 % approvals, barely give them. Its sum counts
    `offset` less, so it only decides where it is much surer than the main table. Each
    sum is a list of weighted signals as in one table: the detector lists the terms of
    the table that gave the higher one."""

    def __init__(self, main: Model, archetypes: Model, offset: float) -> None:
        self.main = main
        self.archetypes = archetypes
        self.offset = offset

    def confidences(self, examples: Sequence[Example]) -> np.ndarray:
        main = 0.5 + self.main.logits(examples) / SCALE
        other = 0.5 + self.archetypes.logits(examples) / SCALE - self.offset
        return np.clip(np.maximum(main, other), 0.0, 1.0)  # each sum clamped once, as shown

    def kinds(self, examples: Sequence[Example]) -> list[str]:
        return self.main.kinds(examples)

    def weights(self) -> dict[str, float]:
        return self.main.weights()

    def kind_weights(self) -> dict[str, dict[str, float]]:
        return self.main.kind_weights()


@dataclass(frozen=True)
class FitSpec:
    """How a fit is made (the same for every fold of a cross-validation and the shipped
    fit): the own sets' share, the penalty, the signals weighed, the kind's own share, and,
    when `offset` is set, a second table with the own sets in full (`Mixture`)."""

    own_share: float = 1.0
    penalty: float = 1.0
    signals: str = "all"
    kind_share: float | None = None
    offset: float | None = None
    prior: float | None = None

    def train(self, examples: Sequence[Example]) -> Model | Mixture:
        main = train(
            examples,
            self.own_share,
            self.penalty,
            KIND_PENALTY,
            SIGNAL_SETS[self.signals],
            self.kind_share,
            self.prior,
        )
        if self.offset is None:
            return main
        other = train(examples, 1.0, self.penalty, KIND_PENALTY, NAMES, 1.0)  # own sets in full
        return Mixture(main, other, self.offset)


def is_pivot_label(label: str) -> bool:
    return label != NOT_PIVOT
