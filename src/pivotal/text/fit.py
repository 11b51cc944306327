"""Text fitted to a terminal's width: lines broken between words, cells cut and padded.

`scan` and `sessions` print to a terminal of `$COLUMNS` columns (and in full
when piped, where no width applies): a row the terminal wrapped itself broke
mid-word and lost its indent. Widths are counted in cells (a CJK character
takes two, a combining mark none), as the terminal draws them: every fixed-width
column (tables, the picker, the replayer's top line) is cut (`clip`, `clip_start`)
and padded (`pad`, `cell`) here, so a row of Korean or Chinese text lines up with the
others. Pure Python.
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
    return sum(map(_width, text))


def _width(char: str) -> int:
    """Cells one character takes: 2 wide (CJK, Hangul, emoji), 0 for a mark drawn on the one
    before it (an accent, a Hangul vowel or final of a syllable spelled in jamo, as macOS
    names folders), else 1. Rich, which draws the replayer, counts the same."""
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    if unicodedata.combining(char) or "\u1160" <= char <= "\u11ff":
        return 0
    return 0 if unicodedata.category(char) in ("Mn", "Me") and char not in _SELECTORS else 1


_SELECTORS = "\ufe0e\ufe0f"
"""Emoji / text presentation: one cell, as before (a wide emoji and its selector take 2 or
3, depending on the terminal; the cleaning keeps them only after an emoji)."""


def head(text: str, room: int) -> str:
    """The longest start of `text` that takes at most `room` cells (a wide character that
    would pass it is left out whole)."""
    used = 0
    for n, char in enumerate(text):
        used += _width(char)
        if used > room:
            return text[:n]
    return text


def tail(text: str, room: int) -> str:
    """The longest end of `text` that takes at most `room` cells, starting on a character
    that takes a cell (not on a mark of one left out)."""
    used, start = 0, len(text)
    for n in range(len(text) - 1, -1, -1):
        used += _width(text[n])
        if used > room:
            break
        start = n
    while start < len(text) and not _width(text[start]):
        start += 1
    return text[start:]


def clip(text: str, width: int) -> str:
    """`text` in at most `width` cells: its end replaced by `…` when it is longer."""
    if cells(text) <= width:
        return text
    return head(text, width - 1) + "…" if width > 0 else ""


def clip_start(text: str, width: int) -> str:
    """`text` in at most `width` cells: its start replaced by `…` when it is longer (the end
    of a path is what tells it apart)."""
    if cells(text) <= width:
        return text
    return "…" + tail(text, width - 1) if width > 0 else ""


def cell(text: str, width: int, right: bool = False) -> str:
    """One column's cell: `text` in exactly `width` cells, cut at its end (`clip`), padded
    after it (before it, `right`)."""
    return pad(clip(text, width), width, right)


def pad(text: str, width: int, right: bool = False) -> str:
    """`text` with spaces after it (before it, `right`) to fill `width` cells."""
    room = " " * max(width - cells(text), 0)
    return room + text if right else text + room


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
