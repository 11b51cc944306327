"""Case-insensitive patterns searched on lower-cased text find what IGNORECASE finds, where.

The detector's rules only use match positions, so positions are what must agree:
for every pattern the detector holds, on prose, logs and the Unicode characters
whose case folding is irregular (İ ı ſ K Σ µ).
"""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.detect import (
    activity,
    answers,
    asks,
    compaction,
    evidence,
    figures,
    lexicon,
    lexicon_intl,
    phase,
    signals_after,
    signals_before,
    silence,
)
from pivotal.detect.casefold import FoldedSearch, SplitSearch, fold, lower_pattern
from pivotal.detect.lazyre import factored, first, lazy

from .pattern_texts import PROSE

MODULES = (
    activity,
    answers,
    asks,
    compaction,
    evidence,
    figures,
    lexicon,
    lexicon_intl,
    phase,
    signals_after,
    signals_before,
    silence,
)
PATTERNS = {
    f"{module.__name__.rsplit('.', 1)[-1]}.{name}": value
    for module in MODULES
    for name, value in vars(module).items()
    if type(value).__name__ == "_LazyPattern"
}

TEXTS = [
    *PROSE,
    # irregular case folding: IGNORECASE matches İ and ı with i, ſ with s, K with k
    "İt works now, the ſerver is up and TIMED OUT ıs gone. BUİLD SUCCESSFUL",
    "Still ſtuck: the run tımed out; FAİLED again. ✅ 3.2× faster, 40 µs → 12 μs, 5 ΜS",
    "ΣΊΣΥΦΟΣ failed. The Kelvin sign: KILLED, OK (3 tests), 2 PASSED, Plan: ſteps",
    "  Error: disk full\n\tFatal: out of memory\nexit status 2\nCOMMAND NOT FOUND",
    "Ready to proceed? Shall I go ahead, or do you prefer the other option? WHICH ONE?",
    "",
]


def _exact(pattern: re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(factored(pattern.pattern), pattern.flags)


def _spans(pattern: re.Pattern[str], text: str) -> tuple[object, ...]:
    found = pattern.search(text)
    return (
        found.span() if found else None,
        [m.span() for m in pattern.finditer(text)],
        len(pattern.findall(text)),
    )


def test_the_detector_patterns_are_found() -> None:
    assert len(PATTERNS) > 40
    assert "lexicon.MILESTONE_STRONG" in PATTERNS and "lexicon.FAIL_NARRATIVE" in PATTERNS


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_fast_pattern_finds_the_same_spans(name: str) -> None:
    source = PATTERNS[name]
    exact = _exact(source)
    fast = lazy(source.pattern, source.flags)
    for text in TEXTS:
        assert _spans(fast, text) == _spans(exact, text), (name, text)
        for pos in (1, 7, 40):
            mine, theirs = fast.search(text, pos), exact.search(text, pos)
            assert (mine and mine.span()) == (theirs and theirs.span()), (name, text, pos)


ALPHABET = st.sampled_from(
    list("aeiklnorstuxAEIKLNORSTUX0123456789 \n.,:?!-_/()|*#~×≈✅µμΜ")
    + ["\u0130", "\u0131", "\u017f", "\u212a", "Σ", "ς"]
    + [
        " failed ",
        " timed out ",
        " FAILED ",
        "Error",
        " works ",
        " tests pass",
        " ready",
        " plan ",
        " should i ",
        " 12 passed",
        " ms",
        "## Goal\n",
        "**Status**",
        " not ready",
        " successfully",
        " exit code 1",
    ]
)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(ALPHABET, max_size=40))
def test_fast_patterns_agree_on_generated_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    for name, source in PATTERNS.items():
        fast = lazy(source.pattern, source.flags)
        assert _spans(fast, text) == _spans(_exact(source), text), (name, text)


def _first_span(pattern: re.Pattern[str], text: str, pos: int) -> tuple[int, int] | None:
    found = pattern.search(text, pos)
    return found.span() if found else None


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_first_gives_the_span_search_gives(name: str) -> None:
    source = PATTERNS[name]
    exact = _exact(source)
    fast = lazy(source.pattern, source.flags)
    for text in TEXTS:
        for pos in (0, 1, 7, 40):
            assert first(fast, text, pos) == _first_span(exact, text, pos), (name, text, pos)


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(ALPHABET, max_size=40), pos=st.integers(0, 5))
def test_first_agrees_on_generated_text(pieces: list[str], pos: int) -> None:
    text = "".join(pieces)
    for name, source in PATTERNS.items():
        fast = lazy(source.pattern, source.flags)
        assert first(fast, text, pos) == _first_span(_exact(source), text, pos), (name, text)


def test_the_word_lists_are_found_from_the_gaps() -> None:
    # what the speed of `first` rests on: otherwise it quietly searches as written
    from pivotal.detect.lazyre import _span_finder

    for name in ("MILESTONE_STRONG", "MILESTONE_WEAK", "PLAN", "FAIL_NARRATIVE"):
        source = getattr(lexicon, name)
        exact = _exact(source)
        finder = _span_finder(factored(source.pattern), source.flags, lambda e=exact: e)
        assert any(part.gap is not None for part in finder._parts), name


def test_the_word_lists_take_the_fast_path() -> None:
    # what the speed rests on: otherwise these silently fall back to the slow search
    for name in ("MILESTONE_STRONG", "INCONCLUSIVE", "PLAN", "SUCCESS_OUTPUT", "PROPOSAL"):
        pattern = lazy(getattr(lexicon, name).pattern, getattr(lexicon, name).flags)
        assert isinstance(pattern.search.__self__, FoldedSearch), name
    for name in ("FAIL_NARRATIVE", "FAIL_OUTPUT"):
        pattern = lazy(getattr(lexicon, name).pattern, getattr(lexicon, name).flags)
        assert isinstance(pattern.search.__self__, SplitSearch), name


def test_fold_keeps_positions_and_refuses_irregular_letters() -> None:
    assert fold("It WORKS") == "it works"
    assert fold("ΣΊΣΥΦΟΣ ✅ K") == "ΣΊΣΥΦΟΣ ✅ K".lower()
    assert len(fold("ΣΊΣΥΦΟΣ ✅ K") or "") == len("ΣΊΣΥΦΟΣ ✅ K")
    for odd in ("\u0130", "\u0131", "\u017f"):
        assert fold(f"it works {odd}") is None


def test_str_lower_agrees_with_ignorecase_on_letters_except_three() -> None:
    # the fact the folding rests on, checked against this Python's own tables
    letters = re.compile("[a-z]", re.IGNORECASE)
    odd = set()
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        lowered = ch.lower()
        if len(lowered) != 1:
            odd.add(ch)
        elif bool(letters.fullmatch(ch)) != ("a" <= lowered <= "z"):
            odd.add(ch)
        elif bool(re.fullmatch(r"\w", ch)) != bool(re.fullmatch(r"\w", lowered)):
            odd.add(ch)
    assert odd == {"\u0130", "\u0131", "\u017f"}


def test_lower_pattern() -> None:
    assert lower_pattern(r"\bOK \(|\S+\W\D\B|[A-Z]x") == r"\bok \(|\S+\W\D\B|[a-z]x"
    assert lower_pattern(r"\\S") == r"\\s"  # an escaped backslash, then a letter
    assert lower_pattern("5 µs") is None  # µ folds with Μ and μ
    assert lower_pattern("✅|×|≈") == "✅|×|≈"
    assert lower_pattern(r"(?i:a)|b") is None
    assert lower_pattern(r"(?-i:A)") is None
    assert lower_pattern(r"\x41") is None
    assert lower_pattern(r"(?:A)(?=B)(?<!C)") == r"(?:a)(?=b)(?<!c)"


def test_split_search_prefers_the_case_sensitive_branch_on_a_tie() -> None:
    pattern = lazy(r"\bFAIL\w*|(?i:\bfail)")
    assert isinstance(pattern.search.__self__, SplitSearch)
    assert pattern.search("it FAILED").span() == (3, 9)  # both start at 3: first branch
    assert pattern.search("it Failed, FAILED").span() == (3, 7)  # the earlier match
    assert pattern.search("it FAİLED") is not None  # İ: searched as written
    assert pattern.search("nothing here") is None


def test_other_methods_use_the_pattern_as_written() -> None:
    pattern = lazy(r"\bok\b", re.IGNORECASE)
    assert pattern.search("It is OK") is not None
    assert "sub" not in vars(pattern)
    assert pattern.sub("fine", "It is OK") == "It is fine"  # not lower-cased
    assert pattern.match("OK then") is not None
    assert pattern.groups == 0
