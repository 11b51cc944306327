"""bench/eval_realworld.py scores pivots against hand labels the way the corpus's score.py
does: by message id (or other ids), else by line (or other lines); a pivot on a silence
labelled not_pivot, or on no labelled silence at all, is a false alarm; candidates that no
label names are left out. (The corpus itself is not needed: these labels are made up.)"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from eval_realworld import Found, score  # noqa: E402

LABELS = [
    {
        "message_id": "u1",
        "alt_ids": ["b1"],
        "line": None,
        "label": "implicit_approval",
        "silence": "ack",
    },
    {"message_id": None, "line": 40, "alt_lines": [41], "label": "not_pivot", "silence": "empty"},
    {"message_id": None, "line": 90, "label": "delegation_after_dead_end", "silence": "ack"},
]


def test_a_pivot_matches_by_another_id_and_a_wrong_kind_is_still_found() -> None:
    tally, notes = score(LABELS, [Found("b1", 7, "other")])
    assert (tally.tp, tally.kind_ok, tally.fn, tally.fp) == (1, 0, 1, 0)
    assert any(n.startswith("KIND") for n in notes) and any(n.startswith("MISS") for n in notes)


def test_a_pivot_on_a_not_pivot_silence_or_an_unlabelled_turn_is_a_false_alarm() -> None:
    found = [Found(None, 41, "other"), Found(None, 55, "other"), Found(None, 90, "x")]
    tally, _ = score(LABELS, found)
    assert (tally.tp, tally.fp, tally.neg_hits) == (1, 2, 1)


def test_an_unlabelled_candidate_is_left_out_but_a_labelled_one_counts() -> None:
    tally, _ = score(LABELS, [Found(None, 55, "other", candidate=True)])
    assert tally.fp == 0
    tally, _ = score(LABELS, [Found(None, 40, "other", candidate=True)])
    assert tally.fp == 1 and tally.neg_hits == 1
