"""Fit the detector's weights and bars to labelled sessions; write `weights.json`.

    python tools/fit_detector.py [--sets realworld,tuning,dev,heldout2] [--own-share 0.5]
                                 [--penalty 3] [--dry-run]

Reads every labelled set present (`fitting.labelled`: the real corpus beside the repository
in `../shared/realworld/`, and the project's own sample sets), lets the detector measure
every silence, and fits one weight per signal (L2-regularised logistic regression, the
signs its definition allows, `fitting.model`) on all of them: real sessions weigh 1 each,
the project's own together `--own-share` (0.5) of the real ones, so they never drown them.
The bars come from cross-validation by repository
on the real corpus (fit on all other repositories, judge the held-out one, pool): `normal`
is the lowest bar whose pooled precision is at least 0.85 (the best recall there), `low`
at 0.95, `high` the bar of the best F1, and possible pivots start at the bar where the
pooled precision falls to 0.5. The kinds are fitted on the labelled pivots of every set.

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
    tally,
)
from fitting.labelled import OWN_SETS, REALWORLD, load  # noqa: E402
from fitting.model import KIND_SIGNALS, NAMES, train  # noqa: E402

from pivotal.detect.fitted import WEIGHTS  # noqa: E402

DEFAULT_SETS = ("realworld", *OWN_SETS)
PRECISION_NORMAL = 0.85
PRECISION_LOW = 0.95
PRECISION_POSSIBLE = 0.5
PENALTY = 3.0
KIND_PENALTY = 1.0
OWN_SHARE = 0.5


def bars(judged: Judged) -> dict[str, float]:
    """low / normal / high and the floor of the possible band, from the pooled CV curve."""
    normal = bar_for_precision(judged, PRECISION_NORMAL)
    if normal is None:
        raise SystemExit(
            f"no bar reaches a cross-validated precision of {PRECISION_NORMAL}: "
            "not writing weights that cannot keep the promise"
        )
    low = bar_for_precision(judged, PRECISION_LOW) or normal
    best = bar_for_f1(judged) or normal
    high = min(best[0], normal[0])
    floor = min(
        (bar for bar, t in curve(judged) if t.tp and t.precision >= PRECISION_POSSIBLE),
        default=high,
    )
    return {
        "low": round(max(low[0], normal[0]), 4),
        "normal": round(normal[0], 4),
        "high": round(high, 4),
        "possible": round(min(floor, high), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--own-share", type=float, default=OWN_SHARE)
    parser.add_argument("--penalty", type=float, default=PENALTY)
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.sets.split(",") if s.strip()]
    if "realworld" not in names or not (REALWORLD / "labels.json").exists():
        print(f"the real corpus is needed (looked in {REALWORLD})", file=sys.stderr)
        return 2
    began = time.perf_counter()
    sets = load(names)

    def fit(examples: list) -> object:  # type: ignore[type-arg]
        return train(examples, args.own_share, args.penalty, KIND_PENALTY)

    judged = cross_validate("realworld", sets, fit, names)  # type: ignore[arg-type]
    levels = bars(judged)
    model = fit([e for s in sets.values() for e in s.examples])
    at = tally(judged, levels["normal"])
    counts = {
        name: {
            "silences": len(s.examples),
            "pivots": sum(e.pivot for e in s.examples) + len(s.missed),
            "groups": len({e.group for e in s.examples}),
        }
        for name, s in sets.items()
    }
    doc = {
        "weights": model.weights(),  # type: ignore[attr-defined]
        "levels": {k: levels[k] for k in ("low", "normal", "high")},
        "possible": levels["possible"],
        "kinds": model.kind_weights(),  # type: ignore[attr-defined]
        "fitted": {
            "by": "tools/fit_detector.py "
            + " ".join(argv if argv is not None else sys.argv[1:]).strip(),
            "sets": counts,
            "own_share": args.own_share,
            "penalty": args.penalty,
            "signals": list(NAMES),
            "kind_signals": list(KIND_SIGNALS),
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
