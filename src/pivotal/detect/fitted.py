"""The detector's fitted weights: how much each signal counts, and where the bars are.

`weights.json` beside this module is written by `tools/fit_detector.py` from labelled
sessions (real ones from public repositories, and the project's own sample sets) and read
here once. A signal's weight times its value (in [0, 1]) is what it adds to a silence's
confidence, and the confidence is the sum, clamped to [0, 1]: `--explain`, the JSON and the
panel list every term. The silence itself carries the base of the sum (one weight per kind
of silence: empty, ack, compaction). `levels` are points on the precision-recall curve the
fit measured by cross-validation, grouped by repository; `normal` is the one whose precision
is at least 0.85 with the best recall. A confidence in [`possible`, bar) makes a *possible*
pivot. `kinds` score each pivot kind the same way (the highest wins). The `fitted` block
says what the weights were fitted on; review a change of this file like code.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

WEIGHTS = Path(__file__).with_name("weights.json")


class Fitted(msgspec.Struct, frozen=True):
    """The contents of `weights.json`."""

    weights: dict[str, float]
    """Signal name (or `silence: empty|ack|compaction`) -> weight per unit of value."""
    levels: dict[str, float]
    """low / normal / high -> the confidence a silence needs to be a pivot."""
    possible: float
    """The lowest confidence of a possible pivot (the band under the bar)."""
    kinds: dict[str, dict[str, float]] = msgspec.field(default_factory=dict)
    """Pivot kind -> {"bias": b, signal name: weight}: the kind with the highest score wins."""
    fitted: dict[str, Any] = msgspec.field(default_factory=dict)
    """Provenance: the sets, their counts, the command and the cross-validated figures."""


@lru_cache(maxsize=1)
def load() -> Fitted:
    """The shipped weights (read once per process)."""
    return msgspec.json.decode(WEIGHTS.read_bytes(), type=Fitted)


def silence_key(kind: str) -> str:
    """The weight name of a kind of silence (`silence: ack`)."""
    return f"silence: {kind}"
