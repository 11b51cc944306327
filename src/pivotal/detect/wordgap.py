"""Where a word list first matches, looked for from the gaps between words.

A pattern that opens with `\\b` (every word list of the lexicon, once `factored`)
makes the engine test for a word start at every position of the text, some 10 ns
a character: most of the detector's search time. The same words are found by a
pattern that opens with the character before the word, `[^a-z0-9_](?<=\\W)(words)`,
searched in the text with one space put in front: that opening is a character class,
so the engine jumps from gap to gap in C and tries the words only there.

That rewrite finds exactly what `\\b(words)` finds when every match of the words
starts with a word character and nothing in them looks at what comes before their
start (no look-behind, `^`, `\\A` or `\\B`); `gap_form` says whether it does. The
branches after the `\\b` group (`|✅|...`) are searched as written, and the earlier of
the two matches wins (the word group on a tie, as in the pattern). Only the span of
the match is given (`first`): a match in the spaced copy is not the text's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from pivotal.detect.casefold import fold
from pivotal.detect.compiled import compile_pattern
from pivotal.detect.syntax import alternatives, group_end

Span = tuple[int, int]
"""Where a match starts and ends: the rules quote around it and compare where it stands."""

_ZERO_OR_MORE = ("?", "*", "{")
"""What may follow a pattern's first element and let it match nothing (`{` conservatively)."""
_WORD_CLASS = re.compile(r"\[(?:[A-Za-z0-9](?:-[A-Za-z0-9])?)+\]")


def _opens_with_word(branch: str) -> bool:
    """Whether every match of `branch` starts with a word character (False when unsure)."""
    if branch.startswith("("):
        if branch.startswith("(?:"):
            start = 3
        elif branch.startswith("(?"):
            return False
        else:
            start = 1
        end = group_end(branch)
        if end < 0 or branch[end + 1 : end + 2] in _ZERO_OR_MORE:
            return False
        return all(_opens_with_word(part) for part in alternatives(branch[start:end]))
    if branch.startswith("["):
        found = _WORD_CLASS.match(branch)
        if found is None:
            return False
        after = branch[found.end() : found.end() + 1]
    elif branch.startswith("\\"):
        if branch[1:2] not in ("d", "w"):
            return False
        after = branch[2:3]
    elif branch[:1].isascii() and (branch[:1].isalnum() or branch[:1] == "_"):
        after = branch[1:2]
    else:
        return False
    return after not in _ZERO_OR_MORE


def _looks_back(words: str) -> bool:
    """Whether anything in `words` may read text before the match (conservatively)."""
    if "(?<" in words or "\\A" in words or "\\B" in words or "(?P" in words:
        return True
    if "^" in words.replace("[^", ""):
        return True
    if re.search(r"\\[1-9]", words):
        return True  # a back-reference: the groups are renumbered below
    i = words.find("(?")
    while i >= 0:
        if words[i + 2 : i + 3] not in (":", "=", "!"):
            return True  # an inline flag
        i = words.find("(?", i + 2)
    return False


def gap_form(branch: str, folded: bool) -> str | None:
    """The gap pattern for a `\\b...` branch, or None when the rewrite may not be exact."""
    if not branch.startswith("\\b"):
        return None
    words = branch[2:]
    if not _opens_with_word(words) or _looks_back(words):
        return None
    gap = "[^a-z0-9_]" if folded else "[^A-Za-z0-9_]"  # a fast class; the look-behind decides
    return f"{gap}(?<=\\W)({words})"


_SPECIAL = frozenset("\\[](){}|.^$*+?")


def _required(branch: str) -> str:
    """A piece of text every match of `branch` contains ('' when none is sure).

    The longest run of plain characters outside groups, classes and escapes; a character
    followed by `?`, `*` or `{` may be absent and ends the run before it.
    """
    if "(?" in branch.replace("(?:", "").replace("(?=", "").replace("(?!", "").replace("(?<", ""):
        return ""  # an inline flag may change what the characters mean
    best = ""
    run: list[str] = []
    i = 0
    depth = 0
    while i < len(branch):
        ch = branch[i]
        if ch == "\\" or ch == "[" or ch in "()" or depth:
            if run and len(run) > len(best):
                best = "".join(run)
            run = []
            if ch == "\\":
                i += 2
                continue
            if ch == "[":
                close = _class_end(branch, i)
                if close < 0:
                    return ""
                i = close + 1
                continue
            depth += 1 if ch == "(" else -1 if ch == ")" else 0
            i += 1
            continue
        if ch in _ZERO_OR_MORE:
            run = run[:-1]
        if ch == "{":  # a count: skip it whole
            close = branch.find("}", i)
            if close < 0:
                return ""
            if run and len(run) > len(best):
                best = "".join(run)
            run = []
            i = close + 1
            continue
        if ch in _SPECIAL:
            if run and len(run) > len(best):
                best = "".join(run)
            run = []
        else:
            run.append(ch)
        i += 1
    if run and len(run) > len(best):
        best = "".join(run)
    return best


def _class_end(pattern: str, start: int) -> int:
    """Where the character class opening at `start` closes (-1 when it does not)."""
    i = start + 1
    if pattern[i : i + 1] == "^":
        i += 1
    if pattern[i : i + 1] == "]":
        i += 1  # a literal ] first in the class
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
        elif pattern[i] == "]":
            return i
        else:
            i += 1
    return -1


@lru_cache(maxsize=32)
def _spaced(text: str) -> str:
    """`text` with a gap in front (cached: several word lists read one message in a row)."""
    return " " + text


class Part:
    """One run of branches searched on the text (or its lower-cased copy): a gap-searched
    `\\b` group first, the other branches as written (and only when the text holds a
    piece one of them needs, `needs`; () when that is not known)."""

    __slots__ = ("gap", "rest", "folded", "needs")

    def __init__(
        self,
        gap: re.Pattern[str] | None,
        rest: re.Pattern[str] | None,
        folded: bool,
        needs: tuple[str, ...] = (),
    ) -> None:
        self.gap = gap
        self.rest = rest
        self.folded = folded
        self.needs = needs

    def first(self, text: str, pos: int) -> Span | None:
        best: Span | None = None
        if self.gap is not None:
            found = self.gap.search(_spaced(text), pos)
            if found is not None:
                best = (found.start(1) - 1, found.end(1) - 1)
        if self.rest is not None and (not self.needs or any(n in text for n in self.needs)):
            other = self.rest.search(text, pos)
            if other is not None and (best is None or other.start() < best[0]):
                best = other.span()
        return best


def make_part(source: str, flags: int, folded: bool) -> Part:
    """`source` as a Part: its first branch gap-searched when that is exact."""
    return part_from_plan(part_plan(source, folded), flags)


def part_plan(source: str, folded: bool) -> list[Any]:
    """What `make_part` compiles, as strings (a plan `compiled.remembered` can keep):
    [the first branch's gap form or None, the other branches (all of `source` when there
    is no gap form) or None, `folded`, the pieces the other branches need]."""
    branches = alternatives(source)
    form = gap_form(branches[0], folded)
    if form is None:
        return [None, source, folded, []]
    others = branches[1:]
    if not others:
        return [form, None, folded, []]
    needs = [_required(branch) for branch in others]
    return [form, "|".join(others), folded, needs if all(needs) else []]


def part_from_plan(plan: list[Any], flags: int) -> Part:
    """The Part a `part_plan` describes, its patterns compiled with `flags`."""
    form, rest, folded, needs = plan
    return Part(
        None if form is None else compile_pattern(form, flags),
        None if rest is None else compile_pattern(rest, flags),
        bool(folded),
        tuple(needs),
    )


class FirstSpan:
    """`first(text, pos)`: the span `pattern.search(text, pos)` would give, found faster."""

    __slots__ = ("_parts", "_folds", "_exact")

    def __init__(self, parts: list[Part], exact: Callable[[], re.Pattern[str]]) -> None:
        self._parts = parts
        self._folds = any(part.folded for part in parts)
        self._exact = exact

    def first(self, string: str, pos: int = 0) -> Span | None:
        lowered = fold(string) if self._folds else string
        if lowered is None:  # İ ı ſ: the pattern as written
            found = self._exact().search(string, pos)
            return found.span() if found is not None else None
        best: Span | None = None
        for part in self._parts:  # in the pattern's order: the earlier part wins a tie
            span = part.first(lowered if part.folded else string, pos)
            if span is not None and (best is None or span[0] < best[0]):
                best = span
        return best


def first_by_search(pattern: re.Pattern[str], string: str, pos: int = 0) -> Span | None:
    """The span of `pattern.search(string, pos)`, for patterns no faster way fits."""
    found = pattern.search(string, pos)
    return found.span() if found is not None else None
