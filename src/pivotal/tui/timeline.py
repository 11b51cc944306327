"""Timeline: a one-line bar of the whole session plus the play state under it.

The bar maps every column to a slice of the session's turns: pivot markers,
failures and the current position are drawn on it, and clicking a column asks
the app to jump there (to the pivot, when the column holds one).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget


@dataclass(frozen=True, slots=True)
class TimelineState:
    """Everything the timeline shows; the app builds a new one on every change."""

    total: int = 0
    cursor: int = 0
    pivots: tuple[int, ...] = ()
    failures: tuple[int, ...] = ()
    playing: bool = False
    speed: float = 1.0
    realtime: bool = False
    autopause: bool = True
    filter: str = "all"
    loading: str = ""
    """Progress while the session is still being read ("" when done)."""
    notice: str = ""
    candidates: tuple[int, ...] = ()
    """Pivots the detector still calls candidates (live follow): drawn hollow."""
    live: str = ""
    """The live-follow indicator ("" when not following)."""
    marks: tuple[int, ...] = ()
    """Turns the person marked (m): drawn as ▼, over pivots."""


STYLE_OF = {"failure-done": "failure", "candidate": "pivot"}
"""Cells drawn with another cell's component style."""


class Timeline(Widget):
    """Bar with pivot markers and position; status line with play state, speed, i/N."""

    COMPONENT_CLASSES = {
        "timeline--done",
        "timeline--todo",
        "timeline--pivot",
        "timeline--failure",
        "timeline--cursor",
        "timeline--mark",
        "timeline--status",
    }

    class JumpRequested(Message):
        """The person clicked the bar: go to `turn`."""

        def __init__(self, turn: int) -> None:
            super().__init__()
            self.turn = turn

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state = TimelineState()

    def update_state(self, state: TimelineState) -> None:
        if state != self.state:
            self.state = state
            self.refresh()

    def column_of(self, turn: int, width: int) -> int:
        return min(turn * width // max(self.state.total, 1), width - 1)

    def turn_at(self, column: int, width: int) -> int:
        """The turn a click on `column` means: a pivot drawn there, else the column's first turn."""
        for pivot in self.state.pivots:
            if self.column_of(pivot, width) == column:
                return pivot
        return min(-(-column * self.state.total // width), self.state.total - 1)

    def render(self) -> Text:
        width = max(self.size.width, 1)
        return Text("\n").join([self.bar(width), self.status()])

    def bar(self, width: int) -> Text:
        state = self.state
        style = self.get_component_rich_style
        if state.total <= 0:
            return Text("─" * width, style("timeline--todo"), no_wrap=True)
        cells = ["todo"] * width
        here = self.column_of(state.cursor, width)
        cells[:here] = ["done"] * here
        for turn in state.failures:  # colour only: dense failures must not hide progress
            column = self.column_of(turn, width)
            cells[column] = "failure-done" if column < here else "failure"
        for turn in state.pivots:
            candidate = turn in state.candidates
            cells[self.column_of(turn, width)] = "candidate" if candidate else "pivot"
        for turn in state.marks:
            cells[self.column_of(turn, width)] = "mark"
        cells[here] = "cursor"
        glyphs = {"done": "━", "failure-done": "━", "todo": "─", "failure": "─"}
        glyphs.update(pivot="◆", candidate="◇", cursor="●", mark="▼")
        styles = {cell: style(f"timeline--{STYLE_OF.get(cell, cell)}") for cell in glyphs}
        text = Text(no_wrap=True)
        start = 0
        for column in range(1, width + 1):  # one span per run of equal cells
            if column == width or cells[column] != cells[start]:
                text.append(glyphs[cells[start]] * (column - start), styles[cells[start]])
                start = column
        return text

    def status(self) -> Text:
        state = self.state
        play = "▶ playing" if state.playing else "⏸ paused"
        speed = f"{state.speed:g}x" + (" real-time" if state.realtime else "")
        position = f"turn {state.cursor + 1 if state.total else 0}/{state.total}"
        auto = "auto-pause on" if state.autopause else "auto-pause off"
        parts = [play, speed, position, f"{len(state.pivots)} pivots", auto]
        if state.live:
            parts.insert(0, state.live)
        if state.filter != "all":
            parts.append(f"filter: {state.filter}")
        if state.loading:
            parts.append(state.loading)
        if state.notice:
            parts.append(state.notice)
        text = Text(" │ ".join(parts), self.get_component_rich_style("timeline--status"))
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def on_click(self, event: events.Click) -> None:
        if event.y != 0 or self.state.total <= 0:
            return
        width = max(self.size.width, 1)
        self.post_message(self.JumpRequested(self.turn_at(min(max(event.x, 0), width - 1), width)))
        event.stop()
