"""Short plain-text quotes for the evidence a signal shows.

Session text is untrusted: quotes drop every control character (ESC, C1,
bidi overrides), collapse whitespace and are cut short, so a caller can
print them as plain text without any further cleaning.
"""

from __future__ import annotations

import math

from pivotal.detect.lazyre import lazy

_CONTROL = lazy(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]"
)
_ESCAPE_SEQ = lazy(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|.)")


def plain(text: str, limit: int = 100) -> str:
    """One short line of plain text."""
    text = text[: limit * 8]
    if "\x1b" in text:
        text = _ESCAPE_SEQ.sub("", text)
    text = " ".join(_CONTROL.sub(" ", text).split())  # (split's whitespace is re's \s)
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def around(text: str, start: int, end: int, limit: int = 90) -> str:
    """A plain quote of the line around a match."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end < 0:
        line_end = len(text)
    line = text[line_start:line_end]
    offset = start - line_start
    if len(line) > limit and offset > limit // 3:
        line = "…" + line[offset - limit // 3 :]
    return plain(line, limit)


def scaled(count: float, full: float) -> float:
    """A count as a signal's value in [0, 1]: log-scaled, so the first few count most, and
    `full` or more counts fully ("2 calls" is far from "0"; "40" is not far from "30")."""
    if count <= 0:
        return 0.0
    return round(min(1.0, math.log1p(count) / math.log1p(full)), 3)
