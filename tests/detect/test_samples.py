"""The detector on the project's own samples (`sample_sessions/`, never `heldout/`).

The fitted weights learnt from these samples among other sessions (`tools/fit_detector.py`),
so this is no measure of quality (that is `bench/eval_detector.py`, cross-validated): it
holds that what the product ships and demonstrates reads as labelled. Each sample has
`<file>.expected.json` beside it. Every labelled pivot is found - as a pivot, or as a
possible pivot just under the bar - with the labelled kind and silence, and nothing else
is found, not even a possible pivot. The same scenario gives the same pivots in every
format (compaction pivots aside: aider and generic cannot record a compaction).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import msgspec
import pytest

from pivotal.detect import detect_pivots
from pivotal.model import Pivot, Turn
from pivotal.readers import find_sessions, read_session

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
HELDOUT = re.compile(r"heldout\d*")
"""Held-out sets (`heldout/`, `heldout2/` ...) are measured by bench/eval_detector.py only."""


def expected_files() -> list[Path]:
    out = []
    for fmt_dir in sorted(SAMPLES.iterdir()) if SAMPLES.is_dir() else []:
        if fmt_dir.is_dir() and not HELDOUT.fullmatch(fmt_dir.name):
            out.extend(sorted(fmt_dir.rglob("*.expected.json")))
    return out


FILES = expected_files()


def conversation(session_path: Path) -> list[Turn]:
    """All turns of a sample; the runs of one aider history file form one conversation."""
    refs = find_sessions([session_path]).refs
    assert refs, f"no session in {session_path}"
    joined: list[Turn] = []
    for ref in refs:
        for turn in read_session(ref).turns:
            joined.append(msgspec.structs.replace(turn, index=len(joined)))
    return joined


def detect(expected: Path) -> tuple[dict, list[Turn], list[Pivot]]:
    doc = json.loads(expected.read_text(encoding="utf-8"))
    turns = conversation(expected.with_name(expected.name[: -len(".expected.json")]))
    return doc, turns, detect_pivots(turns, possible=True)


def key(expected: Path) -> str:
    return str(expected.relative_to(SAMPLES))


@pytest.mark.parametrize("expected", FILES, ids=key)
def test_sample_matches_its_labels(expected: Path) -> None:
    doc, turns, pivots = detect(expected)
    found = []
    for p in pivots:
        anchor = turns[p.turn]
        found.append((anchor.source.line, {anchor.message_id, anchor.source.record_id}, p))
    unmatched = list(found)
    for label in doc["pivots"]:
        hit = next(
            (
                f
                for f in unmatched
                if (label["line"] is not None and f[0] == label["line"])
                or (label["message_id"] is not None and label["message_id"] in f[1])
            ),
            None,
        )
        assert hit is not None, f"missed {label}"
        unmatched.remove(hit)
        assert (hit[2].kind.value, hit[2].silence.value) == (label["kind"], label["silence"])
    assert not unmatched, [(f[0], f[2].kind.value, f[2].reason) for f in unmatched]


def scenarios() -> dict[str, list[Path]]:
    by_name: dict[str, list[Path]] = defaultdict(list)
    for expected in FILES:
        doc = json.loads(expected.read_text(encoding="utf-8"))
        by_name[doc["scenario"]].append(expected)
    return dict(sorted(by_name.items()))


@pytest.mark.parametrize("name", list(scenarios()))
def test_same_scenario_same_pivots_in_every_format(name: str) -> None:
    kinds: dict[str, list[str]] = {}
    for expected in scenarios()[name]:
        doc, _, pivots = detect(expected)
        kinds[doc["format"]] = [p.kind.value for p in pivots if p.silence.value != "compaction"]
    assert len(set(map(tuple, kinds.values()))) == 1, kinds
