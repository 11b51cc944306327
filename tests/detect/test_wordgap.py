"""Word lists looked for from the gaps between words find what `\\b(words)` finds.

`first(pattern, text, pos)` must give `pattern.search(text, pos).span()`; the
detector-wide agreement is in test_casefold. Here: which patterns the rewrite may
take (it must refuse whatever can read text before the match), what the pieces a
branch needs are, and small patterns written to hit each case.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.detect.lazyre import first, lazy
from pivotal.detect.wordgap import _required, gap_form


def test_gap_form_takes_branches_that_open_with_a_word_character() -> None:
    assert gap_form(r"\b(?:plan\b|steps?\b)", True) == r"[^a-z0-9_](?<=\W)((?:plan\b|steps?\b))"
    assert gap_form(r"\b(done|fixed)\b", True) is not None
    assert gap_form(r"\b[1-9]\d* passed\b", True) is not None
    assert gap_form(r"\b\d+ ms", False) is not None
    assert gap_form(r"\bFAIL", False) == r"[^A-Za-z0-9_](?<=\W)(FAIL)"


@pytest.mark.parametrize(
    "branch",
    [
        r"foo\b",  # no word start to replace
        r"\b(?<!un)success",  # a look-behind reads before the match
        r"\b(?:a|^b)",  # an anchor
        r"\b\Bx",
        r"\b(a)\1",  # a back-reference (groups are renumbered)
        r"\b(?i:abc)",  # an inline flag
        r"\b-x",  # may open with a non-word character
        r"\bx?y",  # may open with y
        r"\b(?:ab|c)?d",
        r"\b[a-]x",  # a class with a non-word character
        r"\b.x",
        r"\bx{0,2}y",
    ],
)
def test_gap_form_refuses_what_may_not_be_exact(branch: str) -> None:
    assert gap_form(branch, True) is None


def test_required_pieces() -> None:
    assert _required(r"\d\s?[x×] faster\b") == " faster"
    assert _required("✅") == "✅"
    assert _required(r"tests?") == "test"  # the optional s may be absent
    assert _required(r"a{2}bc") == "bc"  # a count is not text
    assert _required(r"[^]abc]d") == "d"  # nor is a class
    assert _required(r"foo(?=bar)") == "foo"  # nor a look-ahead
    assert _required(r"\?") == ""  # escapes are left out: nothing sure
    assert _required(r"x(?i)abc") == ""  # an inline flag: nothing sure


SMALL = [
    (r"\bfoo|\bbar|✅|\d\s?x faster\b", re.IGNORECASE),
    (r"\bcat\b|\bdog|cow", 0),
    (r"\b(it|this) works\b|\bgo\b|\d+ ms", re.IGNORECASE),
    (r"\bAB|\bA\w*Error\b|xyz", 0),
    (r"\bab|a", 0),  # both at one place: the word branch, which comes first, wins
]
PIECES = st.sampled_from(
    ["foo", "bar", "cat", "dog", "cow", "it", "this", "works", "go", "AB", "ValueError", "ab"]
    + ["x", "faster", "ms", "✅", "3", " ", " ", "_", "é", "İ", ".", "\n", "FOO", "Go"]
)


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(PIECES, max_size=14), pos=st.integers(0, 4))
def test_first_agrees_with_search_on_small_patterns(pieces: list[str], pos: int) -> None:
    text = "".join(pieces)
    for source, flags in SMALL:
        plain = re.compile(source, flags).search(text, pos)
        assert first(lazy(source, flags), text, pos) == (plain and plain.span()), (source, text)


def test_first_of_a_plain_compiled_pattern_is_its_search() -> None:
    pattern = re.compile(r"b+")
    assert first(pattern, "abba", 0) == (1, 3)
    assert first(pattern, "abba", 3) is None
