"""The silent-pivot detector (spec: PIVOTS.md, kept beside this repository in ../shared/).

`detect_pivots(turns, config)` finds the moments where the person went
silent and the agent took over, with the evidence for each; `PivotTracker`
does the same incrementally for a live session. Pure: no I/O beyond the
turns' own lazy parts (read only inside the windows around silences), no UI.

How one silence is judged (one module per step):
`silence` (empty / ack / compaction, clusters) → `window` (turns before and
after, capped `view`s, each turn decoded once by `decode`) → `failures` +
`signals_before` and `signals_after` (each signal names its turns and weight;
`routine` compares the steps before and after) → `archetype` (kind,
confidence = sum of weights, delegation words, reason) → `gates` (the
non-pivots) → `state` (phase, initiative, open threads, tallies, `figures`,
`tasks`). Thresholds and weights live in `config.PivotConfig`; word lists in
`lexicon`, compiled on first use (`lazyre`).

Imports only the model and `pivotal.text`: a pure function of turns, knowing
nothing of files, commands or the replayer.
"""

from __future__ import annotations

from pivotal.detect.config import PivotConfig
from pivotal.detect.tracker import PivotTracker, detect_pivots

__all__ = ["PivotConfig", "PivotTracker", "detect_pivots"]
