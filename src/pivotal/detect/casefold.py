"""Case-insensitive searches run as case-sensitive searches of lower-cased text.

With `re.IGNORECASE`, Python's engine cannot rule out a branch by its first
character, so a long word list tries every branch in full at every word: the
detector's lists ran 2-6x slower for the flag. Lower-casing the text once and
searching with a lower-cased pattern and no flag finds the same matches at the
same positions: `str.lower` keeps every position (one character for one) and
agrees with the engine's case folding for the patterns `lower_pattern` accepts
(ASCII letters, uncased symbols, \\w \\d \\s classes). The three characters where
it does not (İ, ı, ſ) send a text to the pattern as written instead.

A folded match is a match on the lower-cased text: `start()` and `end()` are the
text's own, `group()` is lower-cased. The detector only ever uses positions.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache

_UNSAFE = ("\u0130", "\u0131", "\u017f")
"""İ ı ſ: IGNORECASE matches them with i and s; `str.lower` keeps them (İ even grows)."""
_SAFE_ESCAPES = frozenset("bBdDsSwWAZntr")
"""Escapes whose meaning does not depend on case (others, such as \\x41, are not checked)."""
_FLAG_CHARS = frozenset("aiLmsux-")


@lru_cache(maxsize=32)
def fold(text: str) -> str | None:
    """`text` lower-cased position for position, or None where IGNORECASE would differ.

    Cached: the rules search one message with several patterns in a row.
    """
    if not text.isascii() and any(ch in text for ch in _UNSAFE):
        return None
    return text.lower()


def lower_pattern(pattern: str) -> str | None:
    """`pattern` with its literal letters lower-cased, or None when folding may not be exact."""
    if not pattern.isascii() and any(
        ch.lower() != ch or ch.upper() != ch for ch in set(pattern) if not ch.isascii()
    ):
        return None  # a cased non-ASCII letter (µ ~ Μ): the engine folds it its own way
    flag = pattern.find("(?")
    while flag >= 0:
        if pattern[flag + 2 : flag + 3] in _FLAG_CHARS:
            return None  # an inline flag group changes the rules inside it
        flag = pattern.find("(?", flag + 2)
    # lower-case everything but the escapes (\S is not \s); str methods, not a loop per char
    out: list[str] = []
    start = 0
    escape = pattern.find("\\")
    while escape >= 0:
        escaped = pattern[escape + 1 : escape + 2]
        if escaped.isalnum() and escaped not in _SAFE_ESCAPES:
            return None
        out.append(pattern[start:escape].lower())
        out.append(pattern[escape : escape + 2])
        start = escape + 2
        escape = pattern.find("\\", start)
    out.append(pattern[start:].lower())
    return "".join(out)


class FoldedSearch:
    """search / finditer / findall of an IGNORECASE pattern, on lower-cased text."""

    methods = ("search", "finditer", "findall")

    def __init__(self, folded: re.Pattern[str], exact: Callable[[], re.Pattern[str]]) -> None:
        self._folded = folded
        self._exact = exact

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self._run("search", string, pos, endpos)  # type: ignore[no-any-return]

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self._run("finditer", string, pos, endpos)  # type: ignore[no-any-return]

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[object]:
        return self._run("findall", string, pos, endpos)  # type: ignore[no-any-return]

    def _run(self, method: str, string: str, pos: int, endpos: int) -> object:
        """`method` of the lower-cased pattern on the lower-cased text, or of the pattern as
        written when lower-casing would move characters (İ ı ſ)."""
        lowered = fold(string)
        if lowered is None:
            return getattr(self._exact(), method)(string, pos, endpos)
        return getattr(self._folded, method)(lowered, pos, endpos)


class SplitSearch:
    """search of a pattern whose case-sensitive branches come before its `(?i:...)` ones.

    The engine tries the branches in order at each position, so the pattern's match
    is the earlier of the two parts' matches, the case-sensitive one on a tie.
    """

    methods = ("search",)

    def __init__(
        self,
        cased: re.Pattern[str],
        folded: re.Pattern[str],
        exact: Callable[[], re.Pattern[str]],
    ) -> None:
        self._cased = cased
        self._folded = folded
        self._exact = exact

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        lowered = fold(string)
        if lowered is None:
            return self._exact().search(string, pos, endpos)
        cased = self._cased.search(string, pos, endpos)
        other = self._folded.search(lowered, pos, endpos)
        if other is not None and (cased is None or other.start() < cased.start()):
            return other
        return cased
