"""The second held-out set is complete, up to date, and its labels sit on real silences.

Anchors are resolved with pivotal's own readers: a label that does not land on a human
turn (or a compaction boundary) in the parsed session would be useless for evaluation.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pivotal.model import TurnFlag
from pivotal.readers import find_sessions, read_session

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_sessions"
OUT = SAMPLES / "heldout2"
sys.path.insert(0, str(ROOT / "tools"))

from samplegen import make  # noqa: E402
from samplegen.dsl import Compact, H, Nudge  # noqa: E402

MODULES = make.heldout_modules("heldout2")
SCENARIOS = [(m, s) for m in MODULES for s in m.SCENARIOS]
EXPECTED = sorted(OUT.rglob("*.expected.json"))
SILENT = {"empty", "ack", "compaction"}


def test_regenerating_gives_the_committed_bytes(tmp_path: Path) -> None:
    for mod, scenario in SCENARIOS:
        for fmt in mod.FORMATS:
            make.write_one(scenario, fmt, tmp_path)
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(OUT) for p in OUT.rglob("*") if p.is_file())
    assert fresh == committed
    for rel in fresh:
        assert (tmp_path / rel).read_bytes() == (OUT / rel).read_bytes(), f"{rel} differs"


def test_the_set_has_the_promised_shape() -> None:
    assert len(SCENARIOS) >= 10
    assert len({fmt for mod in MODULES for fmt in mod.FORMATS}) >= 5
    labels = [
        st.expect
        for _, s in SCENARIOS
        for st in s.steps
        if isinstance(st, (H, Compact)) and st.expect
    ]
    assert 25 <= len(labels) <= 35
    kinds = {k for k, _ in labels}
    assert {"delegation_after_dead_end", "continue_after_milestone", "implicit_approval"} <= kinds
    assert {silence for _, silence in labels} <= SILENT
    negatives = [
        st
        for _, s in SCENARIOS
        for st in s.steps
        if (isinstance(st, H) and not st.expect and len(st.text.split()) <= 2)
        or isinstance(st, Nudge)
        or (isinstance(st, Compact) and not st.expect)
    ]
    assert len(negatives) >= len(labels)


def _session(expected: Path):
    path = expected.with_name(expected.name[: -len(".expected.json")])
    found = find_sessions([path])
    assert not found.problems, found.problems
    assert len(found.refs) == 1, f"{path}: {len(found.refs)} sessions"
    return read_session(found.refs[0])


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: str(p.relative_to(OUT)))
def test_anchors_land_on_silences(expected: Path) -> None:
    doc = json.loads(expected.read_text(encoding="utf-8"))
    session = _session(expected)
    assert 60 <= len(session.turns) <= 200
    for pivot in doc["pivots"]:
        key = pivot["message_id"]
        hits = [
            t
            for t in session.turns
            if (key and key in (t.message_id, t.source.record_id))
            or (not key and t.source.line == pivot["line"])
        ]
        assert hits, f"no turn for {pivot}"
        turn = hits[0]
        if pivot["silence"] == "compaction":
            assert turn.flags & TurnFlag.COMPACTION_BOUNDARY
        else:
            assert turn.flags & TurnFlag.HUMAN
            assert len(turn.preview.strip().strip('"').split()) <= 4
