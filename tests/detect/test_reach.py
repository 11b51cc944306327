"""`PivotConfig.reach()` is how far a judgement reads: a silence judged on only that much of the
session, renumbered from 0 as a reader started mid-file would number it, gets the same verdict.

The two-process scan relies on it (each process sees that much beyond its half).
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.detect.silence import SilenceIndex
from pivotal.model import SessionRef, Turn
from pivotal.readers import read_session
from pivotal.scan.seam import shift_pivot

from .helpers import B, bash, edit

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
CONFIG = PivotConfig.for_sensitivity(1.0)
"""Every silence becomes a pivot, so every judgement is compared in full (signals, counts)."""


def _piece(turns: list[Turn], start: int, stop: int) -> list[Turn]:
    """turns[start:stop] numbered from 0, as a reader that started at `start` numbers them."""
    return [msgspec.structs.replace(t, index=i) for i, t in enumerate(turns[start:stop])]


def _dump(pivots: list) -> list[dict]:
    return [msgspec.to_builtins(p) for p in pivots]


def _judged_in_pieces(turns: list[Turn], back: int, ahead: int) -> list[dict]:
    """Each silence judged alone on the turns within `back` before and `ahead` after it."""
    out = []
    for anchor in SilenceIndex(CONFIG).anchors(turns, 0):
        start = max(0, anchor - back)
        piece = _piece(turns, start, anchor + ahead + 1)
        found = detect_pivots(piece, CONFIG, within=range(anchor - start, anchor - start + 1))
        out.extend(_dump([shift_pivot(p, start) for p in found]))
    return out


def _long_hands_off() -> list[Turn]:
    """A direction, then far more agent steps than the hands-off cap, then silences."""
    b = B()
    b.human("migrate the orders table to the new schema and backfill it")
    for i in range(260):
        b.agent(f"Step {i}: applying migration batch {i}.", bash(f"./migrate --batch {i}", "ok"))
    b.human("")
    for i in range(30):
        b.agent(f"Continuing with the backfill, part {i}.", edit(f"backfill_{i}.py"))
    b.human("ok")
    b.agent("Backfill done: 1.2M rows in 14 min.", bash("./verify", "all rows match"))
    return b.turns


def _long_cluster() -> list[Turn]:
    """A silence followed by a long run of harness turns before the agent resumes."""
    b = B()
    b.human("fix the flaky checkout test")
    for i in range(5):
        b.agent(
            f"Attempt {i} failed.", bash("pytest tests/test_checkout.py", "FAILED", exit_code=1)
        )
    b.human("")
    for _ in range(190):
        b.meta("<system-reminder>The user has not replied.</system-reminder>")
    for i in range(40):
        b.agent(f"Trying another approach {i}.", bash("pytest -x", "1 passed"))
    b.human("thanks")
    return b.turns


def _sessions() -> list[tuple[str, list[Turn]]]:
    found = [("long hands-off", _long_hands_off()), ("long cluster", _long_cluster())]
    for name in ("demo", "go_ahead_plan", "routine_acks", "seed_dead_end", "seed_milestone"):
        path = SAMPLES / "claude" / f"{name}.jsonl"
        found.append((name, read_session(SessionRef("claude-code", path)).turns))
    return found


@pytest.mark.parametrize(("name", "turns"), _sessions(), ids=[n for n, _ in _sessions()])
def test_a_silence_needs_no_more_than_its_reach(name, turns):
    back, ahead = CONFIG.reach()
    whole = _dump(detect_pivots(turns, CONFIG))
    assert whole, name  # every session here has pivots to get wrong
    assert _judged_in_pieces(turns, back, ahead) == whole


def test_less_than_the_reach_can_change_a_verdict():
    """The check above can fail: too little before, and the hands-off streak comes out shorter;
    too little after, and the agent's work after a long silent run is not seen."""
    back, ahead = CONFIG.reach()
    turns = _long_hands_off()
    assert _judged_in_pieces(turns, back - 120, ahead) != _dump(detect_pivots(turns, CONFIG))
    turns = _long_cluster()
    assert _judged_in_pieces(turns, back, ahead - 30) != _dump(detect_pivots(turns, CONFIG))


def test_the_reach_covers_every_lookback_of_the_config():
    back, ahead = PivotConfig(hands_off_cap=500).reach()
    assert back > 500 and ahead > CONFIG.after_window
