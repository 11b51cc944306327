"""The validation scenarios, written in every format, against their labels."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from pivotal.detect import detect_pivots

from . import validation_scenarios as vs  # puts tools/ (the sample generator) on sys.path
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


def test_validation_scenarios_match_their_labels(written: list[Path]) -> None:
    problems = []
    for path in written:
        doc = json.loads(path.with_name(path.name + ".expected.json").read_text())
        turns = conversation(path)
        found = {}
        for p in detect_pivots(turns):
            anchor = turns[p.turn]
            found[(anchor.source.line, anchor.message_id)] = (p.kind.value, p.silence.value)
        labels = {}
        for label in doc["pivots"]:
            hit = next(
                (
                    k
                    for k in found
                    if (label["line"] is not None and k[0] == label["line"])
                    or (label["message_id"] is not None and k[1] == label["message_id"])
                ),
                None,
            )
            labels[hit] = (label["kind"], label["silence"])
        if labels != found:
            problems.append((doc["format"], doc["scenario"], labels, found))
    assert not problems, problems
