"""Exit codes and wall times in tool output, and the cheap look that skips most outputs."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.readers import tooltext
from pivotal.readers.tooltext import duration_ms_from_output, exit_code_from_output


def _plain(text: str | None) -> int | None:
    """The pattern alone over the head and the tail, as the function is documented to do."""
    if not text:
        return None
    match = tooltext._EXIT.search(text, 0, tooltext._EDGE)
    if match is None and len(text) > tooltext._EDGE:
        match = tooltext._EXIT.search(text, len(text) - tooltext._EDGE)
    return int(match.group(1)) if match else None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Exit code 3\nerror: tests failed", 3),
        ("build ok\nProcess exited with code 1", 1),
        ("  EXIT STATUS: 127", 127),
        ("exit code: -1", -1),
        ("3 passed\n[exit code 1]", 1),  # how some harnesses append it
        ("(exit status 2)", 2),
        ("Exit code: 0", 0),
        ("the exit code was 2", None),  # not at a line start
        ("Wall time: 1.5 seconds\nOutput:\nok", None),
        ("", None),
        (None, None),
    ],
)
def test_exit_codes_at_line_starts(text, code):
    assert exit_code_from_output(text) == code


def test_exit_code_in_the_tail_of_a_long_output():
    text = "x" * 10_000 + "\nProcess exited with code 4\n"
    assert exit_code_from_output(text) == 4
    assert exit_code_from_output("Exit code 9\n" + "y" * 10_000) == 9
    assert exit_code_from_output("y" * 5000 + "\nExit code 9\n" + "y" * 5000) is None


def test_only_e_and_x_match_themselves_case_insensitively():
    """Why looking for "ex" in the lower-cased text can never miss a match."""
    e, x = re.compile("e", re.I), re.compile("x", re.I)
    others = [
        c
        for c in map(chr, range(0x110000))
        if c not in "eExX" and (e.fullmatch(c) or x.fullmatch(c))
    ]
    assert others == []


_PIECES = st.sampled_from(
    ["Exit code ", "EXIT STATUS: ", "process exited with code ", "eXiT CoDe:", "İ", "ſ", "\n",
     "  ", "\t", "3", "-12", "99999", "ok", "ex", "x", "\u212a"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES | st.text(max_size=8), max_size=40), st.integers(0, 6000))
def test_same_answer_as_the_pattern_alone(pieces, pad):
    text = "".join(pieces)
    for candidate in (text, "z" * pad + text, text + "z" * pad):
        assert exit_code_from_output(candidate) == _plain(candidate)


def test_wall_time():
    assert duration_ms_from_output("Wall time: 1.5 seconds\nOutput:") == 1500.0
    assert duration_ms_from_output("no timing here") is None
