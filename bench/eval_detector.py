"""Measure the pivot detector on sessions its weights were not fitted to.

    python bench/eval_detector.py [--sets realworld,realextra,tuning,dev,heldout2] [--curve]
                                  [--fit-on-all] [--verbose] [--own-share 1]
                                  [--penalty 1] [--hold-out heldout2]

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

A candidate fit is measured the same way: `--own-share` and `--penalty` (by default those
`weights.json` was fitted with) go to every fit of the cross-validation, and when they or
the training sets differ from the shipped fit the bars are not the shipped ones but chosen
as `fit_detector.py` chooses them, from this cross-validated curve of the real corpus.
The shipped fit trains on every set, `heldout2` too, so that set's figure is cross-validated
by scenario, not held out: `--hold-out heldout2` leaves it out of every fit (and of the
bars) and judges it once by a fit on the other sets.

`realextra` and `realextra2` are more real sets (`../realextra/`, `../realextra2/`: sessions
from repositories the first does not hold, labelled blind by the project; see
docs/detector.md). A real set the shipped fit did not train on is judged held out: by one
fit on the other sets, never by a fit that saw any of it (`--train-on realextra` puts one in
every fit instead, to measure a candidate that would train on it).

Needs numpy (`pip install -e '.[fit]'`). The real sets are read only when they exist.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(REPO / "src"))

from fit_detector import OWN_SHARE, PENALTY, bars  # noqa: E402
from fitting.crossval import (  # noqa: E402
    Judged,
    Tally,
    Verdict,
    cross_validate,
    curve,
    held_out,
    judge,
    pooled,
    tally,
)
from fitting.labelled import OWN_SETS, REAL_SETS, Labelled, load  # noqa: E402
from fitting.model import SIGNAL_SETS, FitSpec  # noqa: E402

from pivotal.detect.fitted import load as load_weights  # noqa: E402

SETS = (*REAL_SETS, *OWN_SETS)


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
    how = (
        "held out: judged by one fit on the other sets, none of it in any fit or bar"
        if name in args.hold_out
        else "cross-validated: each group judged by weights fitted without it"
    )
    print(
        f"== {name}: {len(labelled.examples)} silences, {judged.pivots} labelled pivots, "
        f"{groups} groups ({how})"
    )
    if name not in ("realworld", "real (pooled)") and name not in args.hold_out:
        print(
            f"  its other groups are in every fit (as in the shipped weights): "
            f"not a held-out figure (--hold-out {name} gives one)"
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


def evaluate(
    sets: dict[str, Labelled], spec: FitSpec, hold_out: list[str]
) -> tuple[dict[str, Judged], dict[str, float] | None]:
    """Every set judged by fits made as `spec` says, and the bars these fits give (as
    `fit_detector.py` chooses them; None without the real corpus): a set in `hold_out` by
    one fit on the others, every other set by cross-validation."""
    fit = spec.train

    training = [name for name in sets if name not in hold_out]
    judged = {
        name: held_out(name, sets, fit, training)
        if name in hold_out
        else cross_validate(name, sets, fit, training)
        for name in sets
    }
    real = [judged[name] for name in REAL_SETS if name in judged and name not in hold_out]
    if "realworld" not in judged:
        return judged, None
    levels = bars(pooled("real", real) if len(real) > 1 else judged["realworld"])
    return judged, levels


def main(argv: list[str] | None = None) -> int:
    fitted = load_weights()
    shipped_share = float(fitted.fitted.get("own_share", OWN_SHARE))
    shipped_penalty = float(fitted.fitted.get("penalty", PENALTY))
    shipped_signals = str(fitted.fitted.get("signal_set", "all"))
    shipped_kind_share = float(fitted.fitted.get("kind_own_share", shipped_share))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--curve", action="store_true", help="print the precision-recall curve")
    parser.add_argument("--fit-on-all", action="store_true", help="add the training figure")
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument(
        "--own-share",
        type=float,
        default=shipped_share,
        help=f"the own sets' share in every fit (weights.json's: {shipped_share:g})",
    )
    parser.add_argument(
        "--penalty",
        type=float,
        default=shipped_penalty,
        help=f"the L2 penalty of every fit (weights.json's: {shipped_penalty:g})",
    )
    parser.add_argument(
        "--hold-out",
        default="",
        help="sets left out of every fit and of the bars, each judged by one fit on the rest",
    )
    parser.add_argument(
        "--signals",
        choices=sorted(SIGNAL_SETS),
        default=shipped_signals,
        help=f"which signals every fit weighs (weights.json's: {shipped_signals})",
    )
    parser.add_argument(
        "--kind-own-share",
        type=float,
        default=shipped_kind_share,
        help=f"the own sets' share in the kind's fit (weights.json's: {shipped_kind_share:g})",
    )
    parser.add_argument(
        "--offset",
        type=float,
        default=None,
        help="measure a mixture: a second table with the own sets in full, counted this much "
        "less (docs/detector.md; the detector reads one table)",
    )
    parser.add_argument(
        "--prior",
        type=float,
        default=fitted.fitted.get("prior"),
        help="fit on the own sets, then on the real sets with this penalty pulling towards "
        "the first fit (instead of one fit on both)",
    )
    parser.add_argument(
        "--train-on",
        default="",
        help="real sets the shipped fit does not train on to put in every fit of this run",
    )
    args = parser.parse_args(argv)
    args.train_on = [s.strip() for s in args.train_on.split(",") if s.strip()]
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    args.hold_out = [s.strip() for s in args.hold_out.split(",") if s.strip()]
    if "realworld" in args.hold_out:
        parser.error("the bars come from the real corpus: it cannot be held out")
    names += [name for name in args.hold_out if name not in names]
    sets = load(names)
    for name in REAL_SETS[1:]:
        if name in sets and name not in fitted.fitted.get("sets", {}):
            if name not in args.hold_out and name not in args.train_on:
                args.hold_out.append(name)  # the shipped fit never saw it: judge it so
    if "realworld" in names and "realworld" not in sets:
        print("== realworld: ../shared/realworld not found, skipped\n")
    training = [name for name in sets if name not in args.hold_out]
    as_shipped = (
        args.own_share == shipped_share
        and args.penalty == shipped_penalty
        and args.signals == shipped_signals
        and args.kind_own_share == shipped_kind_share
        and args.offset is None
        and args.prior == fitted.fitted.get("prior")
        and set(training) == set(fitted.fitted.get("sets", training))
    )
    spec = FitSpec(
        args.own_share, args.penalty, args.signals, args.kind_own_share, args.offset, args.prior
    )
    judged, refitted = evaluate(sets, spec, args.hold_out)
    shipped_levels = {**fitted.levels, "possible": fitted.possible}
    if as_shipped or refitted is None:
        levels = shipped_levels
        if refitted is not None and refitted != levels:
            print(f"note: this fit gives the bars {refitted}, weights.json has others: refit it")
        said = "the shipped bars (weights.json)"
    else:
        levels = refitted
        said = "bars chosen by this candidate's cross-validated real-corpus curve"
    print(
        f"fit: own share {args.own_share:g}, penalty {args.penalty:g}"
        + (f", second table offset {args.offset:g}" if args.offset is not None else "")
        + ", on "
        f"{', '.join(training)}; {said}\n"
    )

    real = [name for name in REAL_SETS if name in sets and name not in args.hold_out]
    if len(real) > 1:  # the bars come from these together: say how they do together
        together = Labelled()
        for name in real:
            together.extend(sets[name])
        report("real (pooled)", pooled("real", [judged[n] for n in real]), together, levels, args)
    for name in sets:
        report(name, judged[name], sets[name], levels, args)
        if args.fit_on_all and name not in args.hold_out:
            if as_shipped:
                training_figure = shipped(sets[name], name)
            else:
                everything = [e for n in training for e in sets[n].examples]
                model = spec.train(everything)
                training_figure = judge(name, sets[name], model)
            print(
                row(
                    "TRAINING FIGURE (fit on all)",
                    tally(training_figure, levels["normal"]),
                    kinds=False,
                )
            )
            print()
    print("== shipped weights (weight per unit of value; the silence kinds carry the base)")
    for key, weight in sorted(fitted.weights.items(), key=lambda kv: -abs(kv[1])):
        print(f"  {key:<30} {weight:+.4f}")
    print(f"  bars: {shipped_levels}")
    if not as_shipped:
        print(f"  this candidate's bars: {levels}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
