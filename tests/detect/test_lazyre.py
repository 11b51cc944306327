"""Lazily compiled patterns find what the plain patterns find, where they find it."""

from __future__ import annotations

import re

import pytest

from pivotal.detect import lexicon
from pivotal.detect.lazyre import factored, lazy

from .pattern_texts import PROSE

TEXTS = PROSE
PATTERNS = {
    name: value
    for name, value in vars(lexicon).items()
    if hasattr(value, "pattern") and hasattr(value, "flags")
}


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_factored_pattern_matches_at_the_same_places(name: str) -> None:
    source = PATTERNS[name].pattern
    flags = PATTERNS[name].flags
    plain = re.compile(source, flags)
    fast = re.compile(factored(source), flags)
    for text in TEXTS:
        assert [m.start() for m in plain.finditer(text)] == [
            m.start() for m in fast.finditer(text)
        ], (name, text)


def test_factoring_pulls_the_word_boundary_out() -> None:
    assert factored(r"\bfoo|\bbar|baz") == r"\b(?:foo|bar)|baz"
    assert factored(r"(?i:\bfoo|\bbar)|x") == r"(?i:\b(?:foo|bar))|x"
    assert factored(r"[|\b]a|\bb") == r"[|\b]a|\bb"  # a class is not a branch boundary


def test_lazy_pattern_compiles_on_first_use_only() -> None:
    pattern = lazy(r"\bok\b", re.IGNORECASE)
    assert "search" not in vars(pattern)
    assert pattern.search("It is OK now") is not None
    assert "search" in vars(pattern)  # bound to the compiled method from now on


def test_branches_are_split_only_at_top_level_bars() -> None:
    from pivotal.detect.syntax import alternatives

    assert alternatives(r"a|b(c|d)|[|]|\|e") == ["a", "b(c|d)", "[|]", r"\|e"]
    assert alternatives(r"[]|]x|y") == ["[]|]x", "y"]  # "]" first in a class is literal
    assert alternatives(r"[\]|]x|(?:\(|\))|z\\|w") == [r"[\]|]x", r"(?:\(|\))", "z\\\\", "w"]
    assert alternatives("a\\") == ["a\\"]  # a lone backslash at the end
    assert alternatives("") == [""]
