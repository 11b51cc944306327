"""Timeline: a one-line bar of the whole session plus the play state under it.

The bar maps every column to a slice of the session's turns: pivot markers
(✦ a pivot, ✧ a live candidate, ◇ a possible pivot), failures and the current
position are drawn on it, and clicking a column asks the app to jump there (to
the pivot, when the column holds one). The cursor ● is always drawn, over
whatever its column holds; markers closer than `GAP` columns are merged into
the first of them, so a session with more pivots than columns still shows the
bar's progress between its markers.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Span, Text
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from pivotal.text.plural import plural
from pivotal.tui.contrast import readable_style
from pivotal.tui.playback import FILTER_WORDS, Filter, Playback
from pivotal.tui.render import PIVOT_GLYPH, POSSIBLE_GLYPH
from pivotal.tui.status_line import Part, clock, fit, since_start


@dataclass(frozen=True, slots=True)
class TimelineState:
    """Everything the timeline shows; the app builds a new one on every change."""

    total: int = 0
    cursor: int = 0
    pivots: tuple[int, ...] = ()
    failures: tuple[int, ...] = ()
    playing: bool = False
    pace: str = "1 turn/s"
    """How fast playing goes (`pacing.Pace.label`): turns per second, or real time ×N."""
    pace_short: str = "1/s"
    autopause: bool = True
    filter: str = "all"
    hidden: int = 0
    """How many of the session's turns the filter hides."""
    loading: str = ""
    """Progress while the session is still being read ("" when done)."""
    notice: str = ""
    notice_cut: tuple[str, ...] = ()
    """Names inside `notice` that may be cut in their middle, the first first (the session
    followed; a hit's quoted query and its sub-agent's title)."""
    notice_short: str = ""
    """The notice's short form, when its sayer gave one (else: the notice without its last
    ` · ` hint when it holds a name to cut, or the notice itself)."""
    candidates: tuple[int, ...] = ()
    """Pivots the detector still calls candidates (live follow): drawn hollow."""
    possible: tuple[int, ...] = ()
    """Possible pivots (under the bar): ◇, never counted with the pivots."""
    live: str = ""
    """The live-follow indicator ("" when not following)."""
    live_short: str = ""
    """The indicator in a narrow status line (it keeps the count of new turns)."""
    marks: tuple[int, ...] = ()
    """Turns the person marked (m): drawn as ▼ beside a pivot, never over it."""
    elapsed: float | None = None
    """Seconds from the session's first timestamp to the cursor turn's (None: unknown)."""
    duration: float | None = None
    """Seconds from the first timestamp to the last one read."""
    at_end: bool = False
    """The cursor is on the last turn and nothing more is coming (not following live)."""
    spend: str = ""
    """Dollars and tokens up to the cursor, of the whole session ("" when not recorded)."""
    spend_short: str = ""

    @classmethod
    def of(cls, pb: Playback, *, following: bool, **lines: str | tuple[int, ...]) -> TimelineState:
        """What `pb` shows, plus the screen's own `lines` (progress, notice, live, marks)."""
        elapsed, duration = pb.clock()
        pivots, failures, candidates = pb.marked
        return cls(
            total=len(pb.turns),
            cursor=pb.cursor,
            pivots=pivots,
            failures=failures,
            playing=pb.playing,
            pace=pb.pace.label(),
            pace_short=pb.pace.short(),
            autopause=pb.autopause,
            filter=pb.filter.value,
            hidden=pb.hidden_count(),
            candidates=candidates,
            possible=pb.possible_turns,
            elapsed=elapsed,
            duration=duration,
            # the session's own last turn (a filter's last shown turn is not its end)
            at_end=pb.at_end and pb.cursor == len(pb.turns) - 1 and not following,
            **lines,  # type: ignore[arg-type]
        )


def status_text(state: TimelineState, width: int) -> str:
    """`⏸ paused │ turn 17/68 · 25% │ 1:03:17 / 3:12:40 │ 1 turn/s │ 3 pivots │ $1.20 of ≈ $3.40
    · 1.1 M of 2.3 M tokens │ …`, fitted (the spend shrinks to `$1.20/$3.40`)."""
    if state.playing:
        play = Part("▶ playing", "▶", 9)
    elif state.at_end:
        play = Part("■ end of session", "■ end", 9)
    else:
        play = Part("⏸ paused", "⏸", 9)
    here = state.cursor + 1 if state.total else 0
    share = f"{state.cursor * 100 // max(state.total - 1, 1)}%" if state.total > 1 else "100%"
    parts = [Part(state.live, state.live_short or state.live, 10)] if state.live else []
    if not state.live or state.playing:  # following: the indicator says where the view is
        parts.append(play)
    place = f"{here}/{state.total}"
    parts.append(
        Part(f"turn {place} · {share}", f"{place} {share}", 8)
        if state.total
        else Part("no turns yet", "no turns", 8)
    )
    if state.elapsed is not None:
        whole = f" / {clock(state.duration)}" if state.duration is not None else ""
        parts.append(Part(f"{clock(state.elapsed)}{whole}", since_start(state.elapsed), 3))
    parts.append(Part(state.pace, state.pace_short, 4))
    pivots = plural(len(state.pivots), "pivot")
    if state.loading and not state.pivots:  # none is known before the whole file is read
        pivots = "pivots …"
    if state.possible:
        maybe = len(state.possible)
        parts.append(Part(f"{pivots} · {maybe} possible", f"{pivots} +{maybe}◇", 5))
    else:
        parts.append(Part(pivots, pivots, 5))
    if state.spend:
        parts.append(Part(state.spend, state.spend_short, 3))
    if state.autopause:
        parts.append(Part("auto-pause on", "", 1))
    else:
        parts.append(Part("auto-pause off", "no auto-pause", 2))
    if state.filter != "all":  # what the transcript leaves out, and how much of it
        words = FILTER_WORDS[Filter(state.filter)]
        hidden = f"{state.hidden:,} of {state.total:,} turns hidden"
        parts.append(Part(f"filter: {words} · {hidden}", f"{words}, {state.hidden:,} hidden", 6))
    if state.loading:
        parts.append(Part(state.loading, state.loading.split(" (")[0], 7))
    if state.notice:
        said, hint, _ = state.notice.rpartition(" · ")
        cut = tuple(name for name in state.notice_cut if name and name in state.notice)
        short = state.notice_short
        if not short:  # the name, not the hint
            short = said if hint and any(name in said for name in cut) else state.notice
        parts.append(Part(state.notice, short, 10, cut=cut))
    return fit(parts, width)


GLYPHS = {
    "done": "━",
    "failure-done": "━",
    "todo": "─",
    "failure": "─",
    "pivot": PIVOT_GLYPH,
    "candidate": "✧",  # a candidate pivot (live): hollow
    "possible": POSSIBLE_GLYPH,  # a possible pivot: hollow, never paused at
    "cursor": "●",
    "mark": "▼",
}
STYLE_OF = {"failure-done": "failure", "candidate": "pivot"}
"""Cells drawn with another cell's component style."""
GAP = 2
"""Columns from one marker to the next at least: closer ones merge into the first."""
MARKERS = ("pivot", "candidate", "possible")


class Timeline(Widget):
    """Bar with pivot markers and position; status line with play state, speed, i/N."""

    COMPONENT_CLASSES = {
        "timeline--done",
        "timeline--todo",
        "timeline--pivot",
        "timeline--possible",
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
        self._styles: dict[str, Style] | None = None
        self._marked: tuple[tuple[object, ...], dict[int, str], set[int], dict[int, int]] | None = (
            None
        )

    def update_state(self, state: TimelineState) -> None:
        if state != self.state:
            self.state = state
            self.refresh()

    def column_of(self, turn: int, width: int) -> int:
        return min(turn * width // max(self.state.total, 1), width - 1)

    def turn_at(self, column: int, width: int) -> int:
        """The turn a click on `column` means: the pivot (or possible pivot) of a marker drawn
        there or beside it (a glyph is one cell wide; a merged marker: its first), else the
        column's first turn."""
        _, _, first = self._marked_cells(width)
        for near in (column, column - 1, column + 1):
            if near in first:
                return first[near]
        return min(-(-column * self.state.total // width), self.state.total - 1)

    def render_line(self, y: int) -> Strip:
        """The bar (line 0) or the play state (line 1), drawn straight to segments.

        Going through `render()` turned the two lines into Textual content and back on
        every cursor move: ~3-5 ms of a 12 ms key. The styles are the same.
        """
        width = max(self.size.width, 1)
        base = self.rich_style
        if y == 0:
            line = self.bar(width)
        elif y == 1:
            line = self.status()
        else:
            return Strip.blank(width, base)
        if cell_len(line.plain) > width:
            line.truncate(width, overflow="ellipsis")
        segments = [
            Segment(line.plain[span.start : span.end], base + _style(span.style))
            for span in _runs(line)
        ]
        # the rest of the line as Textual pads it: the background alone
        return Strip(segments).extend_cell_length(width, Style(bgcolor=base.bgcolor))

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None  # a new theme: work out readable marker colours again

    def cell_styles(self) -> dict[str, Style]:
        """The style of each kind of cell; pivot markers made readable on the bar (WCAG AA)."""
        if self._styles is None:
            background = self.rich_style.bgcolor
            get = self.get_component_rich_style
            styles = {cell: get(f"timeline--{STYLE_OF.get(cell, cell)}") for cell in GLYPHS}
            for cell in ("pivot", "candidate", "possible", "cursor"):
                styles[cell] = readable_style(styles[cell], background)
            self._styles = styles
        return self._styles

    def bar(self, width: int) -> Text:
        state = self.state
        styles = self.cell_styles()
        if state.total <= 0:
            return Text("─" * width, styles["todo"], no_wrap=True)
        marked, pivots, _ = self._marked_cells(width)
        here = self.column_of(state.cursor, width)
        cells = ["done"] * here + ["todo"] * (width - here)
        for column, cell in marked.items():
            cells[column] = "failure-done" if cell == "failure" and column < here else cell
        for turn in state.marks:  # a mark never hides a pivot: it moves beside it
            column = self.column_of(turn, width)
            for spot in (column, column + 1, column - 1):
                if 0 <= spot < width and spot not in pivots and cells[spot] != "mark":
                    cells[spot] = "mark"
                    break
        cells[here] = "cursor"  # always on top: where you are must never be hidden
        text = Text(no_wrap=True)
        start = 0
        for column in range(1, width + 1):  # one span per run of equal cells
            if column == width or cells[column] != cells[start]:
                text.append(GLYPHS[cells[start]] * (column - start), styles[cells[start]])
                start = column
        return text

    def _marked_cells(self, width: int) -> tuple[dict[int, str], set[int], dict[int, int]]:
        """Columns of failures and markers ("failure", "pivot", "candidate", "possible"), the
        markers' columns, and the first turn each marker stands for: worked out once per
        session state and width (a big session has thousands of failures, and a key press
        only moves the cursor).

        A marker closer than `GAP` columns to the one before merges into it (a pivot makes
        the merged marker a pivot's): 213 pivots on 150 columns drew a solid row of ✦."""
        state = self.state
        key = (width, state.total, state.pivots, state.failures, state.candidates, state.possible)
        if self._marked is not None and self._marked[0] == key:
            return self._marked[1], self._marked[2], self._marked[3]
        marked = {self.column_of(turn, width): "failure" for turn in state.failures}
        candidates = set(state.candidates)
        found = [(turn, "candidate" if turn in candidates else "pivot") for turn in state.pivots]
        found += [(turn, "possible") for turn in state.possible]
        found.sort()
        first: dict[int, int] = {}
        last = -GAP
        for turn, cell in found:
            column = self.column_of(turn, width)
            if column - last < GAP and last in first:
                column = last  # merged into the marker before it
                if marked[column] != "pivot" and cell != "possible":
                    marked[column], first[column] = cell, turn  # a click goes to the pivot
                continue
            marked[column] = cell
            first[column] = turn
            last = column
        columns = set(first)
        self._marked = (key, marked, columns, first)
        return marked, columns, first

    def status(self) -> Text:
        width = max(self.size.width, 1)
        text = Text(
            status_text(self.state, width), self.get_component_rich_style("timeline--status")
        )
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)  # the bar starts after the padding
        if offset is None or offset.y != 0 or self.state.total <= 0:
            return
        width = max(self.size.width, 1)
        column = min(max(offset.x, 0), width - 1)
        self.post_message(self.JumpRequested(self.turn_at(column, width)))
        event.stop()


def _style(style: str | Style) -> Style:
    return style if isinstance(style, Style) else Style.parse(style)


def _runs(text: Text) -> list[Span]:
    """`text` as spans that cover it end to end, in order (the gaps with no style of their own).

    The bar and the status line are built from whole runs, one style each, so no
    two spans overlap.
    """
    runs, at = [], 0
    for span in sorted(text.spans, key=lambda s: s.start):
        if span.start > at:
            runs.append(Span(at, span.start, text.style))
        runs.append(Span(span.start, min(span.end, len(text)), span.style))
        at = span.end
    if at < len(text):
        runs.append(Span(at, len(text), text.style))
    return [run for run in runs if run.end > run.start]
