"""PivotPanel: explains the pivot at or before the cursor, with links to its evidence.

Shows what `pivot_story` writes: the plain-language reason, before → after,
then the evidence. Each evidence turn is a link (`screen.jump(n)` on click).
The explanation is one `Text` drawn with the Line API: rebuilding dozens of
widgets on every pivot change cost ~0.3 s of layout, and even one growing
Static re-lays out the whole screen.

While a live session grows, the newest pivot's evidence changes with every
turn that arrives, and a candidate may come, go and come back as it does.
Redrawing the panel for each was most of a frame, and the transcript's new
lines waited behind it: what the live feed changes is drawn at most every
`REDRAW_EVERY` seconds. What the person does (a key, a click) shows at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from time import monotonic

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from pivotal.detect.evaluate import Rejection
from pivotal.model import Pivot
from pivotal.tui.markdown_source import markdown_text
from pivotal.tui.pivot_story import (
    GLOSS,
    NO_BREAK,
    Context,
    no_pivot_text,
    pivot_text,
    rejection_text,
)
from pivotal.tui.safe import clean

DIM = Style(dim=True)
REDRAW_EVERY = 0.25
"""Seconds between two redraws the live feed asks for."""
RECENT = 40
"""Explanations kept wrapped, the latest shown first (the prefetch fills up to ~20)."""


@dataclass(frozen=True, slots=True)
class Verdicts:
    """What the panel says beside a pivot: the counts, the bar, and the silences turned down."""

    pivots: int = 0
    possible: int = 0
    here: Rejection | None = None
    """The turned-down silence under the cursor: explained instead of the pivot."""
    rejections: tuple[Rejection, ...] = ()
    """Every turned-down silence, listed when there is no pivot to explain."""
    bar: float | None = None
    """The confidence a pivot needs (`PivotConfig.min_confidence`)."""


def _place(shown: tuple[object, ...]) -> tuple[object, ...]:
    """Which pivot (and note) a shown state is about: an update of the same keeps the scroll."""
    pivot, note, verdicts = shown[0], shown[-1], shown[-2]
    here = verdicts.here.turn if isinstance(verdicts, Verdicts) and verdicts.here else None
    return (pivot.turn if isinstance(pivot, Pivot) else None, note, here)


def note_block(index: int, note: str) -> RenderableType:
    """The panel's section for a marked turn: its note as written, styled as Markdown."""
    title = Text(f"✎ Note · turn #{index + 1}", style="bold reverse")
    if not note.strip():
        hint = Text("Marked. a adds a note; m unmarks.", style="dim")
        return Group(title, hint, Text(""))
    return Group(title, markdown_text(clean(note)), Text(""))


GLUE = "\u2800"
"""Stands in for a no-break space while Rich wraps the panel: Rich breaks a line at any
whitespace, the no-break space included. U+2800 (braille blank) is one cell wide and no
whitespace, and `clean` never lets it through from a session (it looks like a space and is
none), so every one on a wrapped line is a no-break space, drawn as a space."""


def _glued(text: Text) -> Text:
    """`text` with its no-break spaces (`pivot_story.NO_BREAK`) as `GLUE` (same length, its
    styles kept): Rich keeps a figure and its unit on one line."""
    if NO_BREAK not in text.plain:
        return text
    glued = text.copy()
    glued.plain = text.plain.replace(NO_BREAK, GLUE)
    return glued


def fit_heading(text: Text, width: int) -> Text:
    """`text` with its title fitted to `width` cells: whole when it fits; else without the
    gloss after the kind ("implicit approval — silence taken as a yes"), which only pushed
    the story down; else broken before the kind, so that no name is cut in two
    ("continue after" / "milestone"), the gloss kept if the kind's line has room for it."""
    plain = text.plain
    end = plain.find("\n")
    end = len(plain) if end < 0 else end
    if cell_len(plain[:end]) <= width:
        return text
    gloss = plain.rfind(GLOSS, 0, end)
    bare = end if gloss < 0 else gloss
    if cell_len(plain[:bare]) <= width:
        return text[:bare] + text[end:]
    kind = plain.rfind(" · ", 0, bare)
    if kind < 0:
        return text
    start = kind + len(" · ")
    second = text[start:] if cell_len(plain[start:end]) <= width else text[start:bare] + text[end:]
    return text[:kind] + Text("\n") + second


def _unglued(line: list[Segment]) -> list[Segment]:
    return [
        Segment(seg.text.replace(GLUE, " "), seg.style, seg.control) if GLUE in seg.text else seg
        for seg in line
    ]


Written = tuple[RenderableType | None, Text]
"""A marked turn's note block (or None) and the explanation, as the panel shows them."""


def _written(shown: tuple[object, ...]) -> Written:
    """(the note's block, the explanation) for a shown state (see `PivotPanel._draw`)."""
    pivot, number, total, loading, context, verdicts, note = shown
    assert isinstance(verdicts, Verdicts)
    block = None if note is None else note_block(*note)  # type: ignore[misc]
    if verdicts.here is not None:
        return block, rejection_text(verdicts.here, verdicts.bar)
    if pivot is None:
        return block, no_pivot_text(
            verdicts.pivots,
            verdicts.possible,
            verdicts.rejections,
            loading,  # type: ignore[arg-type]
        )
    return block, pivot_text(pivot, number, total, context, verdicts.bar)  # type: ignore[arg-type]


class PivotPanel(ScrollView, can_focus=False):
    """Side panel for the current pivot.

    The screen's scroll keys move it while it has them (Tab, or a click on it:
    the `-keys` class, see `panes.py`; `scroll_by_hand`).
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[object, ...] | None = None
        self._drawn_at = 0.0
        self._pending: tuple[object, ...] | None = None
        self._timer: Timer | None = None
        self.draws = 0
        """How many times the explanation was built and laid out (tests, benches)."""
        self.text = Text()
        self.note: RenderableType | None = None
        """The cursor turn's mark and note, shown above the pivot."""
        self._lines: list[Strip] = []
        self._recent: list[tuple[tuple[object, ...], list[Strip], Written]] = []
        """(what was shown and at which width, its lines), the latest first (`_wrapped`)."""
        self._width = 0
        self._line_style: Style | None = None
        self._geometry: tuple[int, int] | None = None
        """While a frame is drawn: (scroll y, content width)."""

    def on_mount(self) -> None:
        self.show_pivot(None, 0, 0, loading=True)  # "Looking for pivots…" until they are known

    def show_pivot(
        self,
        pivot: Pivot | None,
        number: int,
        total: int,
        loading: bool = False,
        note: tuple[int, str] | None = None,
        *,
        live: bool = False,
        context: Context | None = None,
        verdicts: Verdicts | None = None,
    ) -> None:
        """Show `pivot` (number `number` of `total`), or a hint; `note`: the turn's note on top.

        `live`: the change comes from the live feed, not the person: it may wait a little.
        `context`: what the session around the pivot says (failed calls, the person's targets).
        `verdicts`: the counts, the bar, the turned-down silence under the cursor (shown
        instead of the pivot) and, with no pivot, every turned-down silence.
        """
        # by value: a live session's analysis hands over new but equal pivots on every update
        key = (pivot, number, total, loading, context, verdicts or Verdicts(total), note)
        if key == self._shown:
            self._pending = None
            return
        wait = REDRAW_EVERY - (monotonic() - self._drawn_at)
        if live and wait > 0:
            self._pending = key
            if self._timer is None:
                self._timer = self.set_timer(wait, self._redraw_pending)
            return
        self._draw(*key)  # type: ignore[arg-type]

    def _redraw_pending(self) -> None:
        self._timer = None
        if self._pending is not None:
            self._draw(*self._pending)  # type: ignore[arg-type]

    def _draw(
        self,
        pivot: Pivot | None,
        number: int,
        total: int,
        loading: bool,
        context: Context | None,
        verdicts: Verdicts,
        note: tuple[int, str] | None,
    ) -> None:
        self._pending = None
        self._drawn_at = monotonic()
        self.draws += 1
        shown = (pivot, number, total, loading, context, verdicts, note)
        moved = self._shown is None or _place(self._shown) != _place(shown)
        self._shown = shown
        self.note, self.text = self._kept(shown) or _written(shown)
        self._lines = []
        if moved:  # the same pivot, updated, keeps the person's place in its explanation
            self.scroll_to(y=0, animate=False, immediate=True, force=True)
        self.refresh()

    def prepare(
        self,
        pivot: Pivot | None,
        number: int,
        total: int,
        loading: bool = False,
        note: tuple[int, str] | None = None,
        *,
        context: Context | None = None,
        verdicts: Verdicts | None = None,
    ) -> bool:
        """Wrap what `show_pivot` with these arguments would show, without showing it.

        The prefetch (`prefetch.py`) asks this for the places a jump key leads to: the
        jump then finds the explanation wrapped. True when there was work to do.
        """
        shown = (pivot, number, total, loading, context, verdicts or Verdicts(total), note)
        width = max(self.scrollable_content_region.width, 10)
        if shown == self._shown or any(seen == (shown, width) for seen, _, _ in self._recent):
            return False
        written = _written(shown)
        self._remember((shown, width), self._wrap(*written, width), written)
        return True

    def _kept(self, shown: tuple[object, ...]) -> Written | None:
        """The note and explanation written for `shown` earlier (by `prepare`), if kept."""
        for (seen, _), _, written in self._recent:
            if seen == shown:
                return written
        return None

    def lines(self) -> list[Strip]:
        """The text wrapped at the current width (computed once per pivot and width)."""
        width = max(self.scrollable_content_region.width, 10)
        if not self._lines or width != self._width:
            self._lines = self._wrapped(width)
            self._width = width
            size = Size(width, len(self._lines))
            if self.virtual_size.width == width and self.is_mounted:
                self.set_reactive(PivotPanel.virtual_size, size)  # no screen-wide layout
                self._scroll_update(size)
            else:
                self.virtual_size = size
        return self._lines

    def _wrapped(self, width: int) -> list[Strip]:
        """The text wrapped at `width`: from the last few pivots shown, or wrapped now.

        Wrapping one explanation costs 2-4 ms (rich), most of a key's frame when it
        moves to another pivot; going back to one (Backspace, `[` after `]`) reuses it.
        """
        key = (self._shown, width)
        for n, (seen, lines, _) in enumerate(self._recent):
            if seen == key:
                self._recent.insert(0, self._recent.pop(n))
                return lines
        lines = self._wrap(self.note, self.text, width)
        self._remember(key, lines, (self.note, self.text))
        return lines

    def _wrap(self, note: RenderableType | None, text: Text, width: int) -> list[Strip]:
        console = self.app.console
        options = console.options.update(width=width, highlight=False, markup=False)
        glued = _glued(fit_heading(text, width))
        shown = glued if note is None else Group(note, glued)
        lines = console.render_lines(shown, options)
        if NO_BREAK not in text.plain:
            return [Strip(line, width) for line in lines]
        return [Strip(_unglued(line), width) for line in lines]

    def _remember(self, key: tuple[object, ...], lines: list[Strip], written: Written) -> None:
        self._recent.insert(0, (key, lines, written))
        del self._recent[RECENT:]

    def on_click(self) -> None:
        self.add_class("-keys")  # the scroll keys follow the mouse here (Tab gives them back)

    def scroll_by_hand(self, lines: int) -> None:
        """Scroll `lines` (negative = up): j/k/PgDn/Ctrl+D while the panel has focus."""
        self.lines()  # the height is known once the text is wrapped at this width
        target = max(0, min(self.scroll_y + lines, self.max_scroll_y))
        self.scroll_to(y=target, animate=False, immediate=True, force=True)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._line_style = self.rich_style  # once per frame: a DOM walk (~70 µs) per line adds up
        self._geometry = (int(self.scroll_offset.y), self.scrollable_content_region.width)
        try:
            return super().render_lines(crop)
        finally:
            self._geometry = None

    def render_line(self, y: int) -> Strip:
        lines = self.lines()
        if self._geometry is None:
            top, width = int(self.scroll_offset.y), self.scrollable_content_region.width
        else:
            top, width = self._geometry  # asked once per frame, not once per line
        index = top + y
        style = self._line_style or self.rich_style
        if index >= len(lines):
            return Strip.blank(width, style)
        return lines[index].crop_extend(0, width, style).apply_style(style)
