"""Measure the pivot detector on sessions its weights were not fitted to.

    python bench/eval_detector.py [--sets realworld,tuning,dev,heldout2] [--curve]
                                  [--fit-on-all] [--verbose]

The figure that counts is cross-validated: for each group of a set (a repository of the
real corpus in `../shared/realworld/`, a scenario of the project's own sets) the weights
are fitted again on every other group of every set (`tools/fitting`, the same fit as
`tools/fit_detector.py`), the held-out group is judged, and the verdicts are pooled.
Per set and per agent it prints precision, recall and kind accuracy at the shipped bars
(`weights.json`: low, normal, high), beside two naive baselines on the same silences
("every empty message is a pivot", "every empty message or go-on is a pivot"), the pooled
precision-recall curve (`--curve`), and the shipped weights. `--fit-on-all` adds the
figure of the shipped weights on the very sessions they were fitted to, labelled as a
training figure: it says nothing about the next repository.

Needs numpy (`pip install -e '.[fit]'`). The real corpus is read only when it exists.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "src"))

from fit_detector import KIND_PENALTY, OWN_SHARE, PENALTY  # noqa: E402
from fitting.crossval import Judged, Tally, Verdict, cross_validate, curve, tally  # noqa: E402
from fitting.labelled import OWN_SETS, Labelled, load  # noqa: E402
from fitting.model import train  # noqa: E402

from pivotal.detect.fitted import load as load_weights  # noqa: E402

SETS = ("realworld", *OWN_SETS)


def row(name: str, t: Tally, kinds: bool = True) -> str:
    kind = t.kind_accuracy
    shown = f"{kind:5.3f}" if kinds and kind is not None else "    -"
    return (
        f"  {name:<30} P {t.precision:5.3f}  R {t.recall:5.3f}  F1 {t.f1:5.3f}  kind {shown}"
        f"  (tp {t.tp}, fp {t.fp}, fn {t.fn})"
    )


def naive(labelled: Labelled, silences: set[str]) -> Tally:
    """Every silence of the given kinds is a pivot (no weights, nothing fitted)."""
    t = Tally()
    for e in labelled.examples:
        said = e.silence in silences
        if e.pivot and said:
            t.tp += 1
        elif e.pivot:
            t.fn += 1
        elif said:
            t.fp += 1
    t.fn += len(labelled.missed)
    return t


def shipped(labelled: Labelled, name: str) -> Judged:
    """The shipped weights judging the sessions they were fitted to (a training figure)."""
    from fitting.model import BIAS, NAMES, SCALE, SILENCES, Model

    fitted = load_weights()
    import numpy as np

    base = fitted.weights.get("silence: ack", 0.5)
    beta = []
    for n in NAMES:
        if n == BIAS:
            beta.append((base - 0.5) * SCALE)
        elif n in SILENCES:
            beta.append((fitted.weights.get(n, 0.5) - base) * SCALE)
        else:
            beta.append(fitted.weights.get(n, 0.0) * SCALE)
    model = Model(np.array(beta), None)
    judged = Judged(name)
    scored = [e for e in labelled.examples if e.features is not None]
    for e, c in zip(scored, model.confidences(scored), strict=True):
        judged.verdicts.append(Verdict(e, float(c), ""))
    judged.verdicts.extend(Verdict(e, 0.0, "") for e in labelled.examples if e.features is None)
    judged.missed = len(labelled.missed)
    return judged


def report(name: str, judged: Judged, labelled: Labelled, levels: dict[str, float], args) -> None:  # type: ignore[no-untyped-def]
    groups = len({e.group for e in labelled.examples})
    print(
        f"== {name}: {len(labelled.examples)} silences, {judged.pivots} labelled pivots, "
        f"{groups} groups (cross-validated: each group judged by weights fitted without it)"
    )
    for level in ("low", "normal", "high"):
        print(row(f"detector ({level}, bar {levels[level]:.3f})", tally(judged, levels[level])))
    print(row("naive: every empty", naive(labelled, {"empty"}), kinds=False))
    print(row("naive: every empty or go-on", naive(labelled, {"empty", "ack"}), kinds=False))
    formats = sorted({e.format for e in labelled.examples})
    for fmt in formats:
        print(row(f"  {fmt} (normal)", tally(judged, levels["normal"], fmt)))
    if labelled.missed:
        print(f"  {len(labelled.missed)} labelled pivot(s) no silence matched (misses at any bar)")
    for line in labelled.errors[:5]:
        print(f"  error: {line}")
    if args.curve:
        print("  precision-recall curve (pooled, cross-validated): bar  P  R  tp fp")
        points = curve(judged)
        step = max(1, len(points) // 25)
        for bar, t in points[::step]:
            print(f"    {bar:6.3f}  {t.precision:5.3f}  {t.recall:5.3f}  {t.tp:3d} {t.fp:3d}")
    if args.verbose:
        bar = levels["normal"]
        for v in sorted(judged.verdicts, key=lambda v: -v.confidence):
            e = v.example
            said = e.features is not None and v.confidence >= bar
            if said != e.pivot or (said and v.kind != e.label):
                what = (
                    "MISS "
                    if e.pivot and not said
                    else "FALSE"
                    if said and not e.pivot
                    else "KIND "
                )
                print(
                    f"    {what} {v.confidence:.3f} {e.label:<26} {v.kind:<26} "
                    f"{e.file[-60:]} turn {e.turn} {e.text[:30]!r}"
                )
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--curve", action="store_true", help="print the precision-recall curve")
    parser.add_argument("--fit-on-all", action="store_true", help="add the training figure")
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    sets = load(names)
    if "realworld" in names and "realworld" not in sets:
        print("== realworld: ../shared/realworld not found, skipped\n")
    fitted = load_weights()
    levels = {**fitted.levels, "possible": fitted.possible}

    def fit(examples):  # type: ignore[no-untyped-def]
        return train(examples, OWN_SHARE, PENALTY, KIND_PENALTY)

    for name in sets:
        judged = cross_validate(name, sets, fit, list(sets))
        report(name, judged, sets[name], levels, args)
        if args.fit_on_all:
            print(
                row(
                    "TRAINING FIGURE (fit on all)",
                    tally(shipped(sets[name], name), levels["normal"]),
                    kinds=False,
                )
            )
            print()
    print("== shipped weights (weight per unit of value; the silence kinds carry the base)")
    for key, weight in sorted(fitted.weights.items(), key=lambda kv: -abs(kv[1])):
        print(f"  {key:<30} {weight:+.4f}")
    print(f"  bars: {levels}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
