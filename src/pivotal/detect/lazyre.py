"""Regular expressions compiled on first use, so importing the detector stays cheap.

The detector holds a few dozen large alternations; compiling them all at import
cost several milliseconds of every `pivotal` start, even for commands that never
detect anything. A `lazy` pattern compiles on its first method call and then
binds the compiled methods onto itself, so later calls cost nothing extra.
Case-insensitive searches run on lower-cased text instead (`casefold`: the same
matches at the same positions, several times faster).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, cast

from pivotal.detect.casefold import FoldedSearch, SplitSearch, lower_pattern

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_FAST_METHODS = ("search", "finditer", "findall")
"""The methods a case-insensitive pattern may run on lower-cased text (`casefold`)."""


@lru_cache(maxsize=1)
def _special() -> re.Pattern[str]:
    """Everything up to the next bracket, parenthesis or bar, escapes skipped."""
    return re.compile(r"(?:[^\\\[\]()|]++|\\.)*+[\[\]()|]", re.DOTALL)


def _structure(pattern: str) -> Iterator[tuple[int, str]]:
    """Where `(`, `)` and `|` stand in a pattern, outside escapes and character classes.

    The engine skips to the next character that matters in C (a loop over every
    character of the detector's patterns cost a millisecond per process).
    """
    step = _special().match
    in_class = False
    skip = -1
    pos = 0
    while (found := step(pattern, pos)) is not None:
        pos = found.end()
        i = pos - 1
        ch = pattern[i]
        if i < skip:
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]":
                skip = i + 2  # "[]...]": a literal ] first in a class
        elif ch != "]":
            yield i, ch


def _alternatives(pattern: str) -> list[str]:
    """The top-level `|` branches of a pattern (escapes, groups and classes respected)."""
    out: list[str] = []
    depth = 0
    start = 0
    for i, ch in _structure(pattern):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


def _whole_group(branch: str) -> str | None:
    """The inside of an inline-flag group `(?i:...)` that spans the whole branch, else None."""
    if not branch.startswith("(?") or ":" not in branch[:6] or not branch.endswith(")"):
        return None
    inner = branch[branch.index(":") + 1 : -1]
    # parentheses that balance inside keep the group open to the end: one branch
    return inner if _balanced(inner) else None


def _balanced(inner: str) -> bool:
    """Whether the parentheses of `inner` balance on their own."""
    depth = 0
    for _, ch in _structure(inner):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def factored(pattern: str) -> str:
    """The same pattern with a leading `\\b` pulled out of its top-level branches.

    Python's engine tries every branch at every position; `\\b(?:a|b|c)` first checks
    the word boundary once and skips the branches in mid-word, 3x faster on prose.
    A branch that is one inline-flag group (`(?i:...)`) is factored inside. The first
    match found may end elsewhere when two branches match at one position, never start
    elsewhere.
    """
    branches = []
    for branch in _alternatives(pattern):
        inner = _whole_group(branch)
        if inner is not None:
            branch = branch[: branch.index(":") + 1] + factored(inner) + ")"
        branches.append(branch)
    bounded = [b[2:] for b in branches if b.startswith("\\b")]
    if len(bounded) < 2:
        return "|".join(branches)
    rest = [b for b in branches if not b.startswith("\\b")]
    return "|".join([f"\\b(?:{'|'.join(bounded)})", *rest])


def _fast_searcher(
    source: str, flags: int, exact: Callable[[], re.Pattern[str]]
) -> FoldedSearch | SplitSearch | None:
    """A faster way to search with a case-insensitive pattern (`casefold`), when one is exact.

    `source` is the pattern as `factored` gives it.
    """
    if flags & (re.ASCII | re.VERBOSE):
        return None
    if flags & re.IGNORECASE:
        lowered = lower_pattern(source)
        if lowered is None:
            return None
        return FoldedSearch(re.compile(lowered, flags & ~re.IGNORECASE), exact)
    if "(?i:" not in source:
        return None
    # a case-sensitive head and a case-insensitive `(?i:...)` tail (FAIL_NARRATIVE)
    branches = _alternatives(source)
    inners = [_whole_group(b) if b.startswith("(?i:") else None for b in branches]
    first = next((i for i, inner in enumerate(inners) if inner is not None), None)
    if first is None or None in inners[first:]:
        return None  # no `(?i:...)` branch, or a case-sensitive branch after one
    lowered = [lower_pattern(inner or "") for inner in inners[first:]]
    if None in lowered:
        return None
    folded = re.compile("|".join(part or "" for part in lowered), flags)
    if first == 0:
        return FoldedSearch(folded, exact)
    return SplitSearch(re.compile("|".join(branches[:first]), flags), folded, exact)


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags
        self._exact: re.Pattern[str] | None = None
        self._source: str | None = None
        self._planned = False

    def source(self) -> str:
        """The pattern as `factored` gives it (worked out once)."""
        if self._source is None:
            self._source = factored(self.pattern)
        return self._source

    def exact(self) -> re.Pattern[str]:
        """The (factored) pattern as written, compiled."""
        if self._exact is None:
            self._exact = re.compile(self.source(), self.flags)
        return self._exact

    def __getattr__(self, name: str) -> Any:  # reached once per method, on its first use
        if name in _FAST_METHODS and not self._planned:
            self._planned = True
            fast = _fast_searcher(self.source(), self.flags, self.exact)
            if fast is not None:
                for method in fast.methods:
                    setattr(self, method, getattr(fast, method))
                if name in fast.methods:
                    return getattr(fast, name)
        value = getattr(self.exact(), name)
        if name in _METHODS:
            setattr(self, name, value)
        return value


def lazy(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """A pattern that behaves like `re.compile(pattern, flags)` but compiles when first used.

    Case-insensitive searches run on lower-cased text (`casefold`): their matches'
    positions are the text's own, their `group()` is lower-cased.
    """
    return cast("re.Pattern[str]", _LazyPattern(pattern, int(flags)))
