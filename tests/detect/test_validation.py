"""The validation scenarios, written in every format, against their labels."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from pivotal.detect import detect_pivots

from . import validation_scenarios as vs  # puts tools/ (the sample generator) on sys.path
from .helpers import EVERY
from .test_samples import conversation

make = importlib.import_module("samplegen.make")
FORMATS = importlib.import_module("samplegen.writers").FORMATS


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    root = tmp_path_factory.mktemp("validation")
    out = []
    for scenario in vs.scenarios():
        for fmt in FORMATS:
            out.append(make.write_one(scenario, fmt, root))
    return out


def test_validation_scenarios_are_judged_with_their_labelled_kinds(written: list[Path]) -> None:
    """Scenarios the fit never saw: each labelled moment passes the hard gates and is judged
    with its labelled kind and silence (its confidence, pivot or not, is the cross-validated
    bench's to report), and a scenario with no pivot yields none, not even a possible one."""
    problems = []
    for path in written:
        doc = json.loads(path.with_name(path.name + ".expected.json").read_text())
        turns = conversation(path)
        judged = {}
        for p in detect_pivots(turns, EVERY):
            anchor = turns[p.turn]
            judged[(anchor.source.line, anchor.message_id)] = (p.kind.value, p.silence.value)
        for label in doc["pivots"]:
            hit = next(
                (
                    k
                    for k in judged
                    if (label["line"] is not None and k[0] == label["line"])
                    or (label["message_id"] is not None and k[1] == label["message_id"])
                ),
                None,
            )
            if hit is None or judged[hit] != (label["kind"], label["silence"]):
                problems.append((doc["format"], doc["scenario"], label, judged.get(hit)))
        if not doc["pivots"] and detect_pivots(turns, possible=True):
            problems.append((doc["format"], doc["scenario"], "a pivot where none is labelled"))
    assert not problems, problems
