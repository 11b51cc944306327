"""The silent-pivot detector (spec: PIVOTS.md, kept beside this repository in ../shared/).

`detect_pivots(turns, config)` finds the moments where the person went
silent and the agent took over, with the evidence for each; `PivotTracker`
does the same incrementally for a live session. Pure: no I/O beyond the
turns' own lazy parts (read only inside the windows around silences), no UI.

How one silence is judged (one module per step, `evaluate` runs them):
`silence` (empty / ack / compaction, clusters) → `window` (turns before and
after, capped `view`s, each turn decoded once by `decode`) → the hard gates of
PIVOTS.md (`gates`: session start, never sent, only asked, nothing done) → the
signals, each a number in [0, 1] a person can point at, with the turns that show
it: `failures`, `signals_before` (milestone, proposal, open question, mid-task …),
`shape` (what the agent laid out: a plan, an offer, a follow-up offer, nothing
carried out, a step gate), `cadence` (the person's rhythm, the go-on's words, the
compaction's trigger), `signals_after` (dump, actions, clarification, shift …) and
`run` (what the agent did on its own: code changed, how long, asked again, and the
archetypes' two halves joined) → `weigh`: each signal's fitted weight × value,
confidence = their sum, the kind by its fitted score (`fitted`, `weights.json`,
written by `tools/fit_detector.py`) → a pivot at the bar, a possible pivot in the
band under it, else a rejection that says what held it down → `state` (phase,
initiative, open threads, tallies, `figures`, `tasks`) and the words (`archetype`,
`summary`, `listing`: a list of steps or of items). Window sizes and bars live in
`config.PivotConfig`; word lists in `lexicon`, compiled on first use (`lazyre`).

Quality is measured by `bench/eval_detector.py`: cross-validated by repository on
real sessions, never on the sessions the weights were fitted to.

Imports only the model and `pivotal.text`: a pure function of turns, knowing
nothing of files, commands or the replayer.
"""

from __future__ import annotations

from pivotal.detect.config import PivotConfig
from pivotal.detect.tracker import PivotTracker, detect_pivots

__all__ = ["PivotConfig", "PivotTracker", "detect_pivots"]
