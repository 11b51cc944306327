"""Figures with units quoted in a turn: "82 tok/s", "30 ms", "53 GB/s", "38%".

The state panel shows the last figures quoted before a silence and the next
ones after it; the milestone rule counts them as results being reported.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pivotal.detect.lazyre import lazy

_UNITS = (
    r"tok(?:en)?s?/s(?:ec)?|t/s|req(?:uest)?s?/s(?:ec)?|rps|qps|it/s|samples?/s|img/s|"
    r"[KMGT]i?B/s|[KMGT]bps|[KMGT]i?B|TFLOPS|GFLOPS|FLOPS|"
    r"(?:ms|s|µs|us)/(?:frame|step|token|tok|iter|it|batch|req|request|query|epoch|image|img)|"
    r"ms|µs|us|ns|sec(?:onds?)?|s(?![a-z])|min(?:utes?)?|%|x(?![a-z0-9])|×|"
    r"tokens|ops/s|MHz|GHz|W(?![a-z])"
)
_NUMBER = r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?"
_NUMBER_REST = r"\d{0,2}(?:,\d{3})+|\d*(?:\.\d+)?"
"""A number after its first digit (which the figure pattern has already consumed)."""
FIGURE = lazy(
    r"[^\x00-\x2f\x3a-\x7d\x7f](?<=[~≈\d])(?<![\w.].)"
    r"(?:(?<=[~≈])(" + _NUMBER + r")|(?<=\d)(" + _NUMBER_REST + r"))"
    r"\s?(" + _UNITS + r")(?![\w/])",
)
r"""A number with a unit: `(?<![\w.])(~|≈)?(number)\s?(unit)(?![\w/])`, written so that it
starts with a character class. The engine then skips in C to the next character that may
begin a figure: an ASCII digit, ~, or any non-ASCII character (≈, and \d takes other
scripts' digits too), as a negated ASCII class (a class reaching U+10FFFF costs milliseconds
to compile); the look-behinds check that character and the one before it. Read the parts
with `figure_parts`. Twice as fast as a pattern that opens with a look-around, which runs at
every position of a 5 KB tool output."""


def figure_parts(match: re.Match[str]) -> tuple[str, str, str]:
    """(sign, number, unit) of a FIGURE match: the sign is "~", "≈" or ""."""
    start = match.start()
    if match.group(1) is not None:
        return match.string[start], match.group(1), match.group(3)
    return "", match.string[start : match.end(2)], match.group(3)


_STRONG_UNITS = lazy(
    r"/s|/sec|/\w+$|B$|FLOPS|%|ms|µs|us|ns|x|×|rps|qps|^\d+\.\d+ s$", re.IGNORECASE
)
_SPEEDUP = lazy(r"\s*(faster|slower|speed|improvement|better|worse|over|more|less)", re.I)
TABLE_ROW = lazy(r"^\s*\|.*\d.*\|\s*$", re.MULTILINE)
_ANY_TABLE_ROW = lazy(r"^\s*\|.*\|\s*$\n?", re.MULTILINE)


def without_code(text: str) -> str:
    """`text` without fenced code blocks: `re.sub(r"```.*?(```|$)", "", text, flags=re.S)`.

    A fence left open runs to the end (`$` stops before a final newline). Found with
    `str.find`: the lazy pattern took a step per character of every block.
    """
    start = text.find("```")
    if start < 0:
        return text
    kept: list[str] = []
    pos = 0
    while start >= 0:
        kept.append(text[pos:start])
        close = text.find("```", start + 3)
        if close < 0:
            pos = len(text) - 1 if text.endswith("\n") else len(text)
            break
        pos = close + 3
        start = text.find("```", pos)
    kept.append(text[pos:])
    return "".join(kept)


def prose(text: str) -> str:
    """The agent's own sentences: without table rows and fenced code.

    A results table quotes data ("37 failed" in a *before* column) and code quotes
    programs; the verdict of a message is in its prose.
    """
    if "|" in text:
        text = _ANY_TABLE_ROW.sub("", text)
    return without_code(text)


FIGURES_KEPT = 12
"""The most figures a rule asks for (`has_results`); a smaller limit takes a prefix of them."""


def figures(text: str, limit: int = 8) -> list[str]:
    """Figures with units in order of appearance, de-duplicated, at most `limit`."""
    if 0 < limit <= FIGURES_KEPT:
        return list(_first_figures(text)[:limit])
    return _find_figures(text, limit)


@lru_cache(maxsize=256)
def _first_figures(text: str) -> tuple[str, ...]:
    """Found once per text: several rules and windows ask for the figures of one message."""
    return tuple(_find_figures(text, FIGURES_KEPT))


def _find_figures(text: str, limit: int) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for match in FIGURE.finditer(text):
        sign, number, unit = figure_parts(match)
        prose = ("s", "sec", "seconds", "second", "min", "minutes", "tokens", "W")
        if unit in prose and "." not in number:
            continue  # "3 s" / "5 minutes" are usually durations in prose, not results
        if unit in ("x", "×") and "." not in number:
            if not _SPEEDUP.match(text, match.end()):
                continue  # "8x RTX" counts GPUs; "2x faster" is a result
        gap = "" if unit in ("%", "x", "×") else " "
        value = f"{sign}{number}{gap}{unit}".strip()
        if value not in seen:
            seen.add(value)
            out.append(value)
            if len(out) >= limit:
                break
    return out


@lru_cache(maxsize=256)
def has_results(text: str) -> bool:
    """A benchmark-like report: a table with numbers, or at least two result figures."""
    if "|" in text and len(TABLE_ROW.findall(text)) >= 2:
        return True
    strong = [f for f in figures(text, 12) if _STRONG_UNITS.search(f.lstrip("~≈0123456789.,"))]
    return len(strong) >= 2


def headline(words: str) -> str:
    """The first line of a message's prose: where a report states its verdict."""
    for line in words.splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""
