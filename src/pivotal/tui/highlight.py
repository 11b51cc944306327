"""Search matches marked in the transcript's lines as they are drawn.

The transcript caches each turn's strips by its look; a match is painted on
top when a line is drawn (`Highlighter.apply`), so a new search costs no
re-render, only the lines on screen that hold a match (a regex over ~50
short strings per frame). A match that a line break splits is not marked.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip


class Highlighter:
    """The pattern to mark (None: nothing) and the style to mark it with."""

    def __init__(self) -> None:
        self.pattern: re.Pattern[str] | None = None
        self.style = Style(reverse=True, bold=True)

    def set(self, pattern: re.Pattern[str] | None, style: Style | None = None) -> bool:
        """Mark `pattern` from now on; True when that changes what is drawn."""
        changed = pattern != self.pattern
        self.pattern = pattern
        if style is not None:
            changed = changed or style != self.style
            self.style = style
        return changed

    def apply(self, strip: Strip) -> Strip:
        """`strip` with every match of the pattern in its text marked."""
        pattern = self.pattern
        if pattern is None:
            return strip
        text = strip.text
        spans = [m.span() for m in pattern.finditer(text) if m.end() > m.start()]
        if not spans:
            return strip
        cuts: list[int] = []
        for start, end in spans:
            cuts += [cell_len(text[:start]), cell_len(text[:end])]
        pieces = strip.divide(sorted(set(cuts)) + [strip.cell_length])
        marked = set()
        for start, _ in spans:
            marked.add(cell_len(text[:start]))
        out = []
        offset = 0
        for piece in pieces:
            if offset in marked:  # on top of the line's own colours
                piece = Strip(Segment.apply_style(list(piece), post_style=self.style))
            out.append(piece)
            offset += piece.cell_length
        return Strip.join(out)
