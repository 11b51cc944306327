"""A long, fixed renderable (the help) drawn with the Line API: laid out once, then cheap.

A `Static` in a `VerticalScroll` measures and renders its content several
times per layout: for the ~90-row help table that was ~150 ms every time `?`
opened it. `LinesView` renders the renderable to strips once per width (kept
across openings) and draws only the lines on screen.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class LinesView(ScrollView, can_focus=True, inherit_bindings=False):
    """`renderable`, wrapped at the view's width; `key` names it for the cache."""

    _rendered: dict[tuple[str, int, str], list[Strip]] = {}
    """(key, width, theme) -> strips, shared by every view of the same renderable."""

    def __init__(self, renderable: RenderableType, key: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.renderable = renderable
        self.key = key
        self._width = 0
        self._lines: list[Strip] = []
        self._style: Style | None = None

    def lines(self) -> list[Strip]:
        width = max(self.scrollable_content_region.width, 10)
        if width != self._width:
            cache_key = (self.key, width, self.app.theme)
            found = self._rendered.get(cache_key)
            if found is None:
                console = self.app.console
                options = console.options.update(width=width, highlight=False, markup=False)
                found = [
                    Strip(line, width) for line in console.render_lines(self.renderable, options)
                ]
                self._rendered[cache_key] = found
            self._lines, self._width = found, width
            self.virtual_size = Size(width, len(found))
        return self._lines

    def render_lines(self, crop):  # type: ignore[no-untyped-def]
        self._style = self.rich_style  # once per frame
        self.lines()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        lines = self._lines
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        style = self._style or self.rich_style
        if index >= len(lines):
            return Strip.blank(width, style)
        return lines[index].crop_extend(0, width, style).apply_style(style)
