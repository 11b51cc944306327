"""`pivotal scan --json` on every tuning sample gives exactly its labelled pivots.

The labels (`<sample>.expected.json`) were written with the scenarios, by what
PIVOTS.md says, not produced by the detector. A reported pivot matches a label
by its anchor's line (line-based files) or message id, and must agree on kind
and silence.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pivotal.cli.scan_batch import run_scan

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
EXPECTED = sorted(
    p
    for p in SAMPLES.rglob("*.expected.json")
    if not any(part.startswith("heldout") for part in p.relative_to(SAMPLES).parts)
)


def scan_json(path: Path) -> list[dict]:
    out = io.StringIO()
    code = run_scan([path], as_json=True, out=out)
    assert code == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_there_are_samples_in_every_format():
    formats = {p.relative_to(SAMPLES).parts[0] for p in EXPECTED}
    assert formats >= {"claude", "codex", "gemini", "opencode", "aider", "generic"}


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_scan_reports_the_labelled_pivots(expected: Path):
    labels = json.loads(expected.read_text())["pivots"]
    sample = expected.with_name(expected.name.removesuffix(".expected.json"))
    sessions = scan_json(sample)
    assert sessions, "the sample must be readable"
    assert all(s["skipped"] == [] for s in sessions)
    # a labelled moment is reported as a pivot, or as a possible pivot just under the bar
    found = [p for s in sessions for p in (*s["pivots"], *s["possible"]) if not p["candidate"]]
    assert all(not p["possible"] for s in sessions for p in s["pivots"])
    assert all(p["possible"] for s in sessions for p in s["possible"])

    def matches(label: dict, pivot: dict) -> bool:
        if label.get("line") is not None and pivot["line"] is not None:
            return label["line"] == pivot["line"]
        return label.get("message_id") is not None and label["message_id"] == pivot["message_id"]

    placed = [lab for lab in labels if lab.get("line") is not None or lab.get("message_id")]
    for label in placed:
        hits = [p for p in found if matches(label, p)]
        assert len(hits) == 1, f"label {label} not reported (found {[p['line'] for p in found]})"
        assert (hits[0]["kind"], hits[0]["silence"]) == (label["kind"], label["silence"])
    assert len(found) == len(placed), "reported pivots that are not labelled"
    for pivot in found:
        total = sum(s["weight"] for s in pivot["signals"])
        assert abs(min(1.0, max(0.0, total)) - pivot["confidence"]) < 0.011
