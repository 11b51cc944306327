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
from collections.abc import Callable
from typing import Any, cast

from pivotal.detect.casefold import FoldedSearch, SplitSearch, lower_pattern
from pivotal.detect.compiled import compile_pattern, remembered
from pivotal.detect.syntax import alternatives, factored, whole_group
from pivotal.detect.wordgap import FirstSpan, Part, Span, first_by_search, part_from_plan, part_plan

__all__ = ["factored", "first", "lazy"]

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")
_FAST_METHODS = ("search", "finditer", "findall")
"""The methods a case-insensitive pattern may run on lower-cased text (`casefold`)."""


def _parts(source: str, flags: int) -> list[tuple[str, bool]] | None:
    """A case-insensitive pattern as runs of branches searched on lower-cased text or as
    written, (source, folded) in the pattern's order; None when no such form is exact.

    `source` is the pattern as `factored` gives it.
    """
    if flags & (re.ASCII | re.VERBOSE):
        return None
    if flags & re.IGNORECASE:
        lowered = lower_pattern(source)
        return [(lowered, True)] if lowered is not None else None
    if "(?i:" not in source:
        return None
    # a case-sensitive head and a case-insensitive `(?i:...)` tail (FAIL_NARRATIVE)
    branches = alternatives(source)
    inners = [whole_group(b) if b.startswith("(?i:") else None for b in branches]
    first = next((i for i, inner in enumerate(inners) if inner is not None), None)
    if first is None or None in inners[first:]:
        return None  # no `(?i:...)` branch, or a case-sensitive branch after one
    lowered_parts = [lower_pattern(inner or "") for inner in inners[first:]]
    if None in lowered_parts:
        return None
    folded = ("|".join(part or "" for part in lowered_parts), True)
    return [("|".join(branches[:first]), False), folded] if first else [folded]


def _planned_parts(source: str, flags: int) -> list[Any] | None:
    """`_parts` as a plan `compiled.remembered` keeps: lists, not tuples."""
    parts = _parts(source, flags)
    return None if parts is None else [[text, folded] for text, folded in parts]


def _fast_searcher(
    source: str, flags: int, exact: Callable[[], re.Pattern[str]]
) -> FoldedSearch | SplitSearch | None:
    """A faster way to search with a case-insensitive pattern (`casefold`), when one is exact."""
    parts = remembered("parts", flags, source, lambda: _planned_parts(source, flags))
    if parts is None:
        return None
    compiled = [compile_pattern(text, flags & ~re.IGNORECASE) for text, _ in parts]
    if len(compiled) == 1:
        return FoldedSearch(compiled[0], exact)
    return SplitSearch(compiled[0], compiled[1], exact)


def _span_plan(source: str, flags: int) -> list[Any] | None:
    """The parts `_span_finder` compiles (`part_plan` each); None: only the exact pattern."""
    parts = _parts(source, flags)
    if parts is None:
        if flags & (re.ASCII | re.VERBOSE | re.IGNORECASE):
            return None
        parts = [(source, False)]  # case-sensitive: searched as written
    return [part_plan(text, folded) for text, folded in parts]


def _span_finder(source: str, flags: int, exact: Callable[[], re.Pattern[str]]) -> FirstSpan:
    """`first` for a pattern: its word groups searched from the gaps between words."""
    plan = remembered("span", flags, source, lambda: _span_plan(source, flags))
    if plan is None:
        return FirstSpan([Part(None, exact(), False)], exact)
    return FirstSpan([part_from_plan(part, flags & ~re.IGNORECASE) for part in plan], exact)


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags
        self._exact: re.Pattern[str] | None = None
        self._source: str | None = None
        self._planned = False

    def source(self) -> str:
        """The pattern as `factored` gives it (worked out once; kept by `compiled`)."""
        if self._source is None:
            pattern = self.pattern
            self._source = remembered("factored", 0, pattern, lambda: factored(pattern))
        return self._source

    def exact(self) -> re.Pattern[str]:
        """The (factored) pattern as written, compiled."""
        if self._exact is None:
            self._exact = compile_pattern(self.source(), self.flags)
        return self._exact

    def first(self, string: str, pos: int = 0) -> Span | None:
        """The span of `self.search(string, pos)` (`wordgap`): planned on the first call."""
        finder = _span_finder(self.source(), self.flags, self.exact).first
        self.first = finder  # type: ignore[method-assign]
        return finder(string, pos)

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


def first(pattern: re.Pattern[str], string: str, pos: int = 0) -> Span | None:
    """Where `pattern` first matches `string` from `pos`: `pattern.search(string, pos).span()`.

    A lazy pattern's word groups are looked for from the gaps between words (`wordgap`),
    several times faster on prose; use it where only the place of a match matters.
    """
    if isinstance(pattern, _LazyPattern):
        return pattern.first(string, pos)
    return first_by_search(pattern, string, pos)
