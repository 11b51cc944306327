"""The picker's rows drawn with the Line API: only the rows on screen are ever rendered.

Textual's `OptionList` measures and converts every option when options are
added: with 2,000 sessions that was ~140 ms before the first row showed, and
again on every key typed in the filter. `SessionList` is told how many rows
there are and asked for a row's text only when that row is on screen; a
rendered row is kept until it changes (`forget`) or the width does.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from pivotal.text.fit import head

RowText = Callable[[int], Text]


def _no_row(row: int) -> Text:
    return Text()


class SessionList(ScrollView, can_focus=True):
    """`count` one-line rows, row `n` being `text(n)`; a cursor row; Enter or a click chooses."""

    BINDINGS = [
        Binding("down", "cursor_down", show=False),
        Binding("up", "cursor_up", show=False),
        Binding("pagedown", "page_down", show=False),
        Binding("pageup", "page_up", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
        Binding("enter", "choose", show=False),
    ]
    COMPONENT_CLASSES = {"session-list--cursor", "session-list--hover"}
    DEFAULT_CSS = """
    SessionList {
        height: 1fr;
        color: $foreground;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        & > .session-list--hover {
            background: $block-hover-background;
        }
        & > .session-list--cursor {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .session-list--cursor {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
    }
    """
    """Drawn as Textual's `OptionList` is (the picker's look did not change with it)."""

    highlighted: reactive[int | None] = reactive(None, always_update=True)

    class Chosen(Message):
        """A row was chosen (Enter on it, or a click)."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = 0
        self._text: RowText = _no_row
        self._strips: dict[int, Strip] = {}
        """Rendered rows at `_width` (without the cursor's style)."""
        self._width = 0
        self.hovered: int | None = None
        """The row under the mouse pointer (drawn lighter, as `OptionList` draws it)."""

    # -- what is shown ------------------------------------------------------------------
    def set_rows(self, count: int, text: RowText, highlighted: int | None = None) -> None:
        """Show `count` rows made by `text`; the cursor goes to `highlighted` (or the top)."""
        self.count, self._text = count, text
        self._strips.clear()
        self.hovered = None
        self.virtual_size = Size(self._width, count)
        self.highlighted = None if not count else min(highlighted or 0, count - 1)
        self.refresh()

    def forget(self, row: int) -> None:
        """Row `row`'s text changed: make it again when it is next drawn."""
        if self._strips.pop(row, None) is not None:
            self.refresh_lines(row)  # a row of the list: `refresh_lines` subtracts the scroll

    @property
    def rows_drawn(self) -> int:
        """How many rows have been rendered at the current width (benches, tests)."""
        return len(self._strips)

    def row_text(self, row: int) -> Text:
        return self._text(row)

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        for row in (old, new):
            if row is not None:
                self.refresh_lines(row)
        if new is not None:
            self.scroll_to_region(Region(0, new, 1, 1), animate=False, force=True, immediate=True)

    # -- drawing ------------------------------------------------------------------------
    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self._strips.clear()
            self.virtual_size = Size(width, self.count)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        row = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= row < self.count:
            return Strip.blank(width, base)
        strip = self._strips.get(row)
        if strip is None:
            strip = self._strips[row] = self._render_row(row, width)
        style = base
        if row == self.highlighted:
            style = base + self.get_component_rich_style("session-list--cursor")
        elif row == self.hovered:
            style = base + self.get_component_rich_style("session-list--hover")
        return strip.crop_extend(0, width, style).apply_style(style).apply_meta({"row": row})

    def _render_row(self, row: int, width: int) -> Strip:
        text = self._text(row).copy()
        text.no_wrap, text.overflow = True, "ellipsis"
        if text.cell_len > width:  # whole characters: Rich leaves half a wide one blank
            text.plain = head(text.plain, max(width - 1, 0)) + "…"  # styled as it was there
        text.truncate(width, overflow="ellipsis")
        console = self.app.console
        options = console.options.update(width=width, highlight=False, markup=False, no_wrap=True)
        lines = console.render_lines(text, options, pad=False)
        return Strip(lines[0] if lines else [Segment("")], None)

    # -- keys and the mouse ---------------------------------------------------------------
    def _move(self, delta: int) -> None:
        if self.count:
            at = self.highlighted if self.highlighted is not None else -1 if delta > 0 else 0
            self.highlighted = max(0, min(self.count - 1, at + delta))

    def action_cursor_down(self) -> None:
        self._move(1)

    def action_cursor_up(self) -> None:
        self._move(-1)

    def action_page_down(self) -> None:
        self._move(max(1, self.scrollable_content_region.height - 1))

    def action_page_up(self) -> None:
        self._move(-max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self._move(-self.count)

    def action_last(self) -> None:
        self._move(self.count)

    def action_choose(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Chosen(self.highlighted))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = event.style.meta.get("row")
        self._hover(row if isinstance(row, int) and 0 <= row < self.count else None)

    def on_leave(self, event: events.Leave) -> None:
        self._hover(None)

    def _hover(self, row: int | None) -> None:
        if row == self.hovered:
            return
        for changed in (self.hovered, row):
            if changed is not None:
                self.refresh_lines(changed)
        self.hovered = row

    def on_click(self, event: events.Click) -> None:
        row = event.style.meta.get("row")
        if isinstance(row, int) and 0 <= row < self.count:
            self.highlighted = row
            self.post_message(self.Chosen(row))
