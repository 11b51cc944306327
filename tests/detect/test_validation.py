"""The validation scenarios, written in every format, against their labels."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from pivotal.detect import detect_pivots

from .test_samples import conversation

try:  # sample_sessions/_gen (put on sys.path by validation_scenarios)
    from . import validation_scenarios as vs

    make = importlib.import_module("make")
    FORMATS = importlib.import_module("_gen.writers").FORMATS
except ImportError as exc:  # the sample generator is another engineer's work in progress
    pytest.skip(f"sample generator unavailable: {exc}", allow_module_level=True)


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
