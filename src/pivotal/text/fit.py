"""Lines fitted to a terminal's width: broken between words, never inside one.

`scan` and `sessions` print to a terminal of `$COLUMNS` columns (and in full
when piped, where no width applies): a row the terminal wrapped itself broke
mid-word and lost its indent. Widths are counted in cells (a CJK character
takes two, a combining mark none), as the terminal draws them. Pure Python.
"""

from __future__ import annotations

import re
import unicodedata

HANG = 4
"""A broken line's next rows start this many columns further in than the line itself."""
SPACES = re.compile("( +)")


def cells(text: str) -> int:
    """Columns `text` takes on a terminal."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def wrap(line: str, width: int, hang: int | None = None) -> list[str]:
    """`line` as rows of at most `width` columns, broken at spaces (runs of them kept).

    Each row after the first starts `hang` spaces in (the line's own indent plus
    `HANG` when not given). A word longer than a row is broken after a `/` (or
    where the row ends), unless it starts the line: that is a session's path, which
    a person copies, and the terminal wraps it whole.
    """
    if cells(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    hang = indent + HANG if hang is None else hang
    if hang > width // 2:
        hang = min(indent, width // 4)
    lead = " " * hang
    rows: list[str] = []
    row, used, gap, first = line[:indent], indent, "", True
    for token in SPACES.split(line[indent:]):
        if not token:
            continue
        if token.startswith(" "):
            gap = token
            continue
        size = cells(token)
        if not first and used + len(gap) + size > width:
            rows.append(row)
            row, used = lead, hang
        elif not first:
            row, used = row + gap, used + len(gap)
        gap = ""
        while not first and used + size > width:
            head, token = _split(token, width - used)  # a word no row holds: in pieces
            rows.append(row + head)
            row, used, size = lead, hang, cells(token)
        row, used, first = row + token, used + size, False
    rows.append(row)
    return rows


def _split(word: str, room: int) -> tuple[str, str]:
    """`word` cut to at most `room` columns, after its last `/` there if it has one."""
    head = ""
    for char in word:
        if cells(head + char) > room:
            break
        head += char
    cut = head.rfind("/") + 1
    if cut > room // 2:
        head = head[:cut]
    head = head or word[:1]
    return head, word[len(head) :]


def fit(text: str, width: int | None) -> str:
    """Every line of `text` wrapped to `width` (None: `text` as it is, for a pipe)."""
    if width is None:
        return text
    return "\n".join(row for line in text.split("\n") for row in wrap(line, width))
