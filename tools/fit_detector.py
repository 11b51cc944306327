"""Fit the detector's weights and bars to labelled sessions; write `weights.json`.

    python tools/fit_detector.py [--sets realworld,tuning,dev,heldout2] [--own-share 1]
                                 [--penalty 1] [--dry-run]

Reads every labelled set present (`fitting.labelled`: the real corpus beside the repository
in `../shared/realworld/`, and the project's own sample sets), lets the detector measure
every silence, and fits one weight per signal (L2-regularised logistic regression, the
signs its definition allows, `fitting.model`) on all of them: real sessions weigh 1 each,
the project's own together `--own-share` (1) times the real ones, so they never outweigh
them. The bars come from cross-validation by repository on the real sets in `--sets` (fit on
all other repositories, judge the held-out one, pool the verdicts of every real set): `normal`
is the lowest bar whose pooled precision is at least 0.85 (the best recall there), `high`
the bar of the best F1 (never above `normal`), and possible pivots start at the bar where
the pooled precision falls to 0.5. `low` is always strictly above `normal` (`low_bar`): the
lowest bar whose pooled precision is at least 0.95 if one is above `normal`; else, among the
bars strictly above `normal` that find a pivot, the one of the highest pooled precision (the
best recall among equals); else `normal` + 0.05. The kinds are fitted on the labelled
pivots of every set.

Deterministic and offline (numpy only: `pip install -e '.[fit]'`). Needs the real corpus:
without it, it refuses rather than fit the bars to the project's own samples alone.
`bench/eval_detector.py` prints the same cross-validated figures per agent.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from fitting.crossval import (  # noqa: E402
    Judged,
    bar_for_f1,
    bar_for_precision,
    cross_validate,
    curve,
    pooled,
    tally,
)
from fitting.labelled import OWN_SETS, REAL_SETS, REALWORLD, load  # noqa: E402
from fitting.model import KIND_SIGNALS, SIGNAL_SETS, FitSpec  # noqa: E402

from pivotal.detect.fitted import WEIGHTS  # noqa: E402

DEFAULT_SETS = ("realworld", *OWN_SETS)
PRECISION_NORMAL = 0.85
PRECISION_LOW = 0.95
PRECISION_POSSIBLE = 0.5
LOW_STEP = 0.05
"""How far above `normal` the `low` bar goes when the curve has no pivot-finding bar above it."""
PENALTY = 1.0
OWN_SHARE = 1.0


def low_bar(judged: Judged, normal: float) -> tuple[float, str]:
    """The `low` bar, always strictly above `normal` (so `--sensitivity low` is always
    stricter than the default), and the rule that gave it. Among the bars of the pooled
    curve strictly above `normal` that find at least one pivot:

    1. `precision 0.95`: those whose pooled precision is at least 0.95, the best recall
       (`bar_for_precision`'s bar, whenever that is above `normal`);
    2. `highest precision above normal`: if none, the one of the highest pooled precision
       (ties: the best recall). It may be less precise than `normal` itself, but it stops
       at fewer silences, never more;
    3. `normal + 0.05`: if there is no such bar, a fixed step (`LOW_STEP`) above `normal`,
       capped at 1 (a `normal` of 1 leaves no room: the fit refuses).

    Equal tallies keep the highest bar, as `bar_for_precision` does.
    """
    above = [(bar, t) for bar, t in curve(judged) if round(bar, 4) > round(normal, 4) and t.tp]
    sure = [(bar, t) for bar, t in above if t.precision >= PRECISION_LOW]
    if sure:
        bar, _ = max(sure, key=lambda p: p[1].recall)  # the first (highest) among equals
        return bar, f"precision {PRECISION_LOW}"
    if above:
        bar, _ = max(above, key=lambda p: (p[1].precision, p[1].recall))
        return bar, "highest precision above normal"
    step = min(1.0, normal + LOW_STEP)
    if round(step, 4) <= round(normal, 4):
        raise SystemExit(
            f"the normal bar is {normal}: no stricter low bar is left; not writing weights"
        )
    return step, f"normal + {LOW_STEP}"


def bars(judged: Judged) -> dict[str, float]:
    """low / normal / high and the floor of the possible band, from the pooled CV curve."""
    normal = bar_for_precision(judged, PRECISION_NORMAL)
    if normal is None:
        raise SystemExit(
            f"no bar reaches a cross-validated precision of {PRECISION_NORMAL}: "
            "not writing weights that cannot keep the promise"
        )
    low, _ = low_bar(judged, normal[0])
    best = bar_for_f1(judged) or normal
    high = min(best[0], normal[0])
    floor = min(
        (bar for bar, t in curve(judged) if t.tp and t.precision >= PRECISION_POSSIBLE),
        default=high,
    )
    return {
        "low": round(low, 4),
        "normal": round(normal[0], 4),
        "high": round(high, 4),
        "possible": round(min(floor, high), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--own-share", type=float, default=OWN_SHARE)
    parser.add_argument("--penalty", type=float, default=PENALTY)
    parser.add_argument(
        "--signals", choices=sorted(SIGNAL_SETS), default="all", help="which signals are weighed"
    )
    parser.add_argument(
        "--kind-own-share",
        type=float,
        default=None,
        help="the own sets' share in the kind's fit (default: --own-share)",
    )
    parser.add_argument(
        "--prior",
        type=float,
        default=None,
        help="fit on the own sets first, then on the real sets with this penalty pulling "
        "towards that fit (default: one fit on both)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    if "realworld" not in names or not (REALWORLD / "labels.json").exists():
        print(f"the real corpus is needed (looked in {REALWORLD})", file=sys.stderr)
        return 2
    began = time.perf_counter()
    sets = load(names)

    fit = FitSpec(
        args.own_share, args.penalty, args.signals, args.kind_own_share, prior=args.prior
    ).train
    real = [name for name in REAL_SETS if name in sets]
    each = {name: cross_validate(name, sets, fit, names) for name in real}
    judged = pooled("real", list(each.values())) if len(real) > 1 else each["realworld"]
    levels = bars(judged)
    model = fit([e for s in sets.values() for e in s.examples])
    at = tally(each["realworld"], levels["normal"])
    at_real = tally(judged, levels["normal"])
    counts = {
        name: {
            "silences": len(s.examples),
            "pivots": sum(e.pivot for e in s.examples) + len(s.missed),
            "groups": len({e.group for e in s.examples}),
        }
        for name, s in sets.items()
    }
    doc = {
        "weights": model.weights(),
        "levels": {k: levels[k] for k in ("low", "normal", "high")},
        "possible": levels["possible"],
        "kinds": model.kind_weights(),
        "fitted": {
            "by": " ".join(
                ["tools/fit_detector.py", *(argv if argv is not None else sys.argv[1:])]
            ),
            "sets": counts,
            "low_bar": low_bar(judged, levels["normal"])[1],
            "own_share": args.own_share,
            "kind_own_share": args.own_share
            if args.kind_own_share is None
            else args.kind_own_share,
            "penalty": args.penalty,
            "prior": args.prior,
            "signal_set": args.signals,
            "signals": list(SIGNAL_SETS[args.signals]),
            "kind_signals": list(KIND_SIGNALS),
            "bars_from": "+".join(real),
            "cross_validated_real_at_normal": {
                "precision": round(at_real.precision, 3),
                "recall": round(at_real.recall, 3),
                "tp": at_real.tp,
                "fp": at_real.fp,
                "fn": at_real.fn,
            },
            "cross_validated_realworld_at_normal": {
                "precision": round(at.precision, 3),
                "recall": round(at.recall, 3),
                "kind_accuracy": round(at.kind_accuracy or 0.0, 3),
                "tp": at.tp,
                "fp": at.fp,
                "fn": at.fn,
            },
        },
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if len(real) > 1:
        print(
            f"cross-validated on {' + '.join(real)} (pooled) at the normal bar "
            f"{levels['normal']}: P {at_real.precision:.3f} R {at_real.recall:.3f} "
            f"(tp {at_real.tp}, fp {at_real.fp}, fn {at_real.fn})"
        )
    print(
        f"cross-validated on the real corpus at the normal bar {levels['normal']}: "
        f"P {at.precision:.3f} R {at.recall:.3f} kind {at.kind_accuracy or 0:.3f} "
        f"(tp {at.tp}, fp {at.fp}, fn {at.fn}); {time.perf_counter() - began:.1f} s"
    )
    if args.dry_run:
        print(text)
    else:
        WEIGHTS.write_text(text, encoding="utf-8")
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
