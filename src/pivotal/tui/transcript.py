"""TranscriptView: the replayed conversation, drawn with Textual's Line API.

Only the lines on screen are built. A turn is rendered to strips the first
time it is on screen (cached by turn index and `TurnLook`); turns never seen
get an estimated height, replaced by the real one once they are measured. This
keeps stepping and jumping in a 5,000-turn session within a frame, where one
Markdown widget per message would take minutes (PERF.md §2).
"""

from __future__ import annotations

import textwrap
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from itertools import accumulate

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer

from pivotal.model import Turn
from pivotal.spend.words import turn_usage
from pivotal.tui.heights import Heights
from pivotal.tui.highlight import Highlighter
from pivotal.tui.render import (
    ALL_PARTS,
    PIVOT_GLYPH,
    Palette,
    RenderedTurn,
    TurnLook,
    estimate_height,
    render_turn,
    with_cursor,
)

WARM_SLICE = 2000
"""Turns whose height is estimated per idle step (see `_warm_soon`): ~3 ms, so a key that
arrives during one waits no longer than that."""
WARM_PAUSE = 0.01


class TranscriptView(ScrollView, can_focus=False):
    """The turns revealed so far (the visible ones up to the cursor), the cursor turn last.

    Not focusable: every key belongs to the replay screen (j/k, PgUp/PgDn scroll
    the pane that has them, `panes.py`), so Home / End / arrows mean turns.
    """

    COMPONENT_CLASSES = {
        "transcript--human",
        "transcript--agent",
        "transcript--synthetic",
        "transcript--system",
        "transcript--tool",
        "transcript--failed",
        "transcript--ok",
        "transcript--cursor",
        "transcript--pivot",
        "transcript--possible",
        "transcript--match",
    }

    class PivotClicked(Message):
        """The person clicked a pivot banner: show the panel for it."""

        def __init__(self, turn: int) -> None:
            super().__init__()
            self.turn = turn

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.turns: list[Turn] = []
        self.shown: list[int] = []
        self.cursor = 0
        self.reasoning = False
        self.banners: dict[int, str] = {}
        self.expanded: dict[int, frozenset[int]] = {}
        self._cache: LRUCache[tuple[int, TurnLook], RenderedTurn] = LRUCache(256)
        self._heights = Heights()
        self._offsets: list[int] = [0]
        self._offsets_of: list[int] = []
        """The `shown` list `_offsets` were summed for."""
        self._layout_width = 0
        self._palette: Palette | None = None
        self._stale = False
        self._line_style: Style | None = None
        self._frame: dict[int, list[Strip]] | None = None
        """While a frame is drawn: each turn's strips, looked up once, not once per line."""
        self._geometry: tuple[int, int, int] | None = None
        """While a frame is drawn: (scroll x, scroll y, content width)."""
        self.renders = 0
        """How many turns were rendered to strips (cache misses): proof of laziness."""
        self._warm_from = 0
        self._warm_timer: Timer | None = None
        self._spare_width = 0
        """A width `p` will lay the turns out at (the screen says): guessed for while idle."""
        self._spare_from = 0
        self.follow_cursor = True
        """Keep the cursor turn in view on resize; off once the person scrolls by hand."""
        self.highlighter = Highlighter()
        """Marks the last search's matches where they are drawn."""
        self.model: str | None = None
        """The session's model: prices turns that name none in their headers."""
        self.subagents: dict[int, tuple[tuple[str, str], ...]] = {}
        """Turn -> (call id, what its sub-agent did) for the calls that ran one."""
        self._placeholder = ""
        self._hidden: tuple[int, str] | None = None
        """(the cursor's turn, the filter's words) while the filter hides the turn the cursor
        is on: it is drawn as its header and a line saying so (`TurnLook.hidden`)."""
        self.marks: dict[int, str] = {}
        """Turn -> its note's first line ("" when marked without a note): ▼ in its header."""
        self._with_reasons = False
        self.reason_of: Callable[[int], str] = lambda turn: ""
        """What happened at the pivot anchored at a turn, in plain words (the screen's)."""
        self.scrolled: Callable[[], None] = lambda: None
        """Called when the view scrolled (the prefetch draws the pages around it ahead)."""

    # -- inputs from the app -------------------------------------------------
    @property
    def placeholder(self) -> str:
        """Said at the top while no turn is shown (an empty live file is not a blank screen)."""
        return self._placeholder

    @placeholder.setter
    def placeholder(self, text: str) -> None:
        if text != self._placeholder:
            self._placeholder = text
            self.refresh()

    def set_turns(self, turns: list[Turn], first_changed: int | None = None) -> None:
        """New turn list; forget everything measured from `first_changed` on."""
        self.turns = turns
        self._warm_soon()
        if first_changed is not None:
            self._forget(lambda index: index >= first_changed)
            if self.shown and first_changed <= self.shown[-1]:
                # a turn on screen grew or was replaced: its strips and offsets are stale
                # (only those: live follow grows the last turn on every tool result)
                for key in [key for key in self._cache.keys() if key[0] >= first_changed]:
                    self._cache.discard(key)
                self._stale = True

    def show(self, shown: list[int], cursor: int, *, follow: bool = True, hidden: str = "") -> None:
        """Show `shown` turns with `cursor` marked; scroll so the cursor turn is in view.

        `hidden`: the filter's words when it hides the cursor's turn (`Playback.hiding`),
        which is then drawn as its header alone: the filter holds for every turn shown.
        """
        old, moved = self.shown, cursor != self.cursor
        stand_in = (cursor, hidden) if hidden else None
        if stand_in != self._hidden:  # a turn changes height: that turn alone is measured again
            self._heights.redo({turn for turn, _ in filter(None, (stand_in, self._hidden))})
            self._hidden, self._stale = stand_in, True
        self.shown = shown
        self.cursor = cursor
        if not moved and shown == old and not self._stale and not follow:
            return  # a status line changed, not this: a full repaint here cost ~10 ms a frame
        if self.content_width != self._layout_width or self._stale:
            self._stale = False
            self._relayout()
        elif len(shown) > len(old) and shown[: len(old)] == old:  # revealed: a step, a jump on
            new = self._heights_of(shown[len(old) :])
            self._offsets += list(accumulate(new, initial=self._offsets[-1]))[1:]
            self._set_virtual_height(self._layout_width, self._offsets[-1])
        elif len(shown) < len(old) and old[: len(shown)] == shown:  # hidden: back a step or more
            del self._offsets[len(shown) + 1 :]
            self._set_virtual_height(self._layout_width, self._offsets[-1])
        elif shown != old:
            self._relayout()
        self._offsets_of = shown
        if follow:
            self.follow_cursor = True
            self.scroll_to_cursor()
        self.refresh()

    def set_reasoning(self, shown: bool) -> None:
        self.reasoning = shown  # another layout (`heights.py`): the other one is kept
        self._relayout()
        self.scroll_to_cursor()

    def set_banners(self, banners: dict[int, str]) -> None:
        changed = set(banners.items()) ^ set(self.banners.items())
        self.banners = banners
        touched = {index for index, _ in changed}
        self._forget(lambda index: index in touched)
        self._relayout()
        self.refresh()

    def set_spend(
        self, model: str | None, subagents: dict[int, tuple[tuple[str, str], ...]]
    ) -> None:
        """The session's model (headers price turns with it) and its sub-agents' notes."""
        touched = {
            i
            for i in set(subagents) | set(self.subagents)
            if subagents.get(i) != self.subagents.get(i)
        }
        self.model, self.subagents = model, subagents
        if touched:  # a note is a line under its call: those turns are taller
            self._forget(lambda index: index in touched)
            self._relayout()
        self.refresh()

    def toggle_expanded(self, turn: int, part: int = ALL_PARTS) -> bool:
        """Fold or unfold one tool call (or the whole turn); True when now expanded."""
        current = self.expanded.get(turn, frozenset())
        if part == ALL_PARTS and current:
            current, opened = frozenset(), False
        elif part in current:
            current, opened = current - {part}, False
        else:
            current, opened = current | {part}, True
        self.expanded[turn] = current
        self._heights.drop(turn)
        self._relayout()
        if turn == self.cursor:
            self.scroll_to_cursor()
        self.refresh()
        return opened

    def open_part(self, turn: int, part: int) -> None:
        """Unfold one tool call (no-op when it is already open)."""
        current = self.expanded.get(turn, frozenset())
        if part not in current:
            self.expanded[turn] = current | {part}
            self._heights.drop(turn)
            self._stale = True

    # -- layout ----------------------------------------------------------------
    @property
    def content_width(self) -> int:
        return max(self.scrollable_content_region.width, 20)

    def _warm_soon(self) -> None:
        """Estimate the heights of turns never laid out, a slice at a time, between frames.

        The first jump to the end of a 100,000-turn session otherwise estimates
        every turn at once (~0.2 s); a slice costs ~3 ms of the UI thread (5,000 turns
        a slice cost 8 ms, added to any key pressed meanwhile).
        """
        self._warm_from = 0
        if self._warm_timer is None and self.is_mounted:
            self._warm_timer = self.set_timer(WARM_PAUSE, self._warm)

    def _warm(self) -> None:
        self._warm_timer = None
        width, turns, estimates = self._layout_width, self.turns, self._heights.estimates
        if not width:
            self._warm_soon()
            return
        start = self._warm_from
        end = min(start + WARM_SLICE, len(turns))
        for index in range(start, end):
            if index not in estimates:
                self._height(index)
        self._warm_from = end
        if end < len(turns) or self._warm_spare():
            self._warm_timer = self.set_timer(WARM_PAUSE, self._warm)

    def _warm_spare(self) -> bool:
        """One slice of guesses at the spare width; True while there are more to make."""
        spare, turns = self._spare_width, self.turns
        if not spare or spare == self._layout_width or self._spare_from >= len(turns):
            return False
        guesses = self._heights.spare(spare)
        start = self._spare_from
        end = min(start + WARM_SLICE, len(turns))
        for index in range(start, end):
            if index not in guesses:
                guesses[index] = self._guess(index, spare)
        self._spare_from = end
        return end < len(turns)

    def expect_width(self, width: int) -> None:
        """The screen says a key may soon lay the turns out `width` wide (the panel hidden):
        their guesses there are made between frames, so that key need not make them all."""
        if width != self._spare_width:
            self._spare_width, self._spare_from = width, 0
            self._warm_soon()

    def _forget(self, which) -> None:  # type: ignore[no-untyped-def]
        self._warm_from = self._spare_from = 0
        self._heights.forget(which)

    def _height(self, index: int) -> int:
        height = self._heights.measured.get(index)
        if height is not None:
            return height
        estimate = self._heights.estimates.get(index)
        if estimate is None:
            estimate = self._guess(index, self._layout_width)
            self._heights.guess(index, estimate)
        return estimate

    def _guess(self, index: int, width: int) -> int:
        """Turn `index`'s height at `width` before it is rendered (its banner's row included)."""
        return estimate_height(self.turns[index], width) + (1 if index in self.banners else 0)

    def _relayout(self) -> None:
        width = self.content_width
        self._layout_width = width
        self._heights.kept = (self._offsets_of, self._offsets)
        if self._heights.switch((width, self.reasoning), width):
            self._warm_soon()
            kept = self._heights.kept
            if isinstance(kept, tuple) and kept[0] == self.shown:
                # back to a layout with the same turns shown (p, Tab, t toggled back): its
                # offsets still hold (on 100,000 turns summing them again cost ~3.5 ms)
                self._offsets, self._offsets_of = kept[1], self.shown
                self._set_virtual_height(width, self._offsets[-1])
                return
        self._offsets = [0, *accumulate(self._heights_of(self.shown))]
        self._offsets_of = self.shown
        self._set_virtual_height(width, self._offsets[-1])

    def _heights_of(self, indices: list[int]) -> list[int]:
        """`_height` of each turn, looked up in C (70,000 turns revealed by End: ~3 ms, not 16).

        `estimates` holds every measured height too (see `_measure`), so it alone
        answers `_height` for each index it has; turns never laid out get one first.
        """
        estimates = self._heights.estimates
        try:
            return list(map(estimates.__getitem__, indices))
        except KeyError:
            for index in indices:
                if index not in estimates:
                    estimates[index] = self._height(index)
            return list(map(estimates.__getitem__, indices))

    def _set_virtual_height(self, width: int, height: int) -> None:
        """Grow or shrink the scrollable area without a screen-wide layout pass.

        `virtual_size` is a layout reactive: setting it re-lays out every widget
        (~10-25 ms per step here). The vertical scrollbar is always shown, so a new
        height only needs the scrollbar and this view refreshed.
        """
        size = Size(width, height)
        if size == self.virtual_size:
            return
        if width != self.virtual_size.width or not self.is_mounted:
            self.virtual_size = size
            return
        self.set_reactive(TranscriptView.virtual_size, size)
        self._scroll_update(size)
        self.refresh()

    def _measure(self, index: int) -> bool:
        """Render turn `index` now; True when its height differed from what layout assumed.

        Only the offsets after it move, so revealing or measuring turns near the end
        of a 5,000-turn session costs next to nothing.
        """
        height = len(self.rendered(index).strips)
        assumed = self._height(index)
        self._heights.measured[index] = height
        self._heights.estimates[index] = height  # the best guess from now on (`_heights_of`)
        if height == assumed:
            return False
        pos = self.position_of(index)
        if pos is not None and len(self._offsets) == len(self.shown) + 1:
            offsets, delta = self._offsets, height - assumed
            for i in range(pos + 1, len(offsets)):
                offsets[i] += delta
            self._set_virtual_height(self._layout_width, offsets[-1])
        return True

    def _measure_range(self, top: int, height: int) -> bool:
        """Measure the shown turns covering lines [top, top + height)."""
        changed = False
        pos = max(bisect_right(self._offsets, top) - 1, 0)
        line = self._offsets[pos] if pos < len(self._offsets) else 0
        while pos < len(self.shown) and line < top + height:
            index = self.shown[pos]
            if index not in self._heights.measured:
                changed |= self._measure(index)
            line += self._heights.measured.get(index, 0)
            pos += 1
        return changed

    def scroll_to_cursor(self) -> None:
        """Scroll so the cursor turn ends at the bottom (or starts at the top when taller)."""
        if not self.shown:
            self.scroll_to(y=0, animate=False, force=True)
            return
        viewport = max(self.scrollable_content_region.height, 1)
        pos = self.position_of(self.cursor)
        if pos is None:
            return
        # measure the cursor turn and everything above it that fits on screen
        filled, back = 0, pos
        while back >= 0 and filled < viewport:
            index = self.shown[back]
            if index not in self._heights.measured:
                self._measure(index)
            filled += self._heights.measured[index]
            back -= 1
        top, bottom = self._offsets[pos], self._offsets[pos + 1]
        target = top if bottom - top > viewport else bottom - viewport
        self.scroll_to(y=max(target, 0), animate=False, immediate=True, force=True)

    def position_of(self, index: int) -> int | None:
        pos = bisect_right(self.shown, index) - 1
        return pos if pos >= 0 and self.shown[pos] == index else None

    # -- rendering ---------------------------------------------------------------
    def palette(self) -> Palette:
        if self._palette is None:
            style = partial(self.get_component_rich_style, partial=True)
            self._palette = Palette.of(style, self.rich_style.bgcolor)
        return self._palette

    def notify_style_update(self) -> None:
        """Restyled (a theme; or only focus, a class on the screen): re-render if colours moved."""
        super().notify_style_update()
        old, self._palette = self._palette, None
        if old is not None and self.palette() != old:
            self._cache.clear()
            self._heights.restyled()

    def set_marks(self, marks: dict[int, str]) -> None:
        """The marked turns and their notes' first lines (their headers say ▼ marked)."""
        if marks != self.marks:
            self.marks = marks
            self.refresh()  # a header's words, not its height: nothing moves

    @property
    def with_reasons(self) -> bool:
        """Under each banner, what happened at its pivot (the pivots filter lists them)."""
        return self._with_reasons

    @with_reasons.setter
    def with_reasons(self, on: bool) -> None:
        if on != self._with_reasons:
            self._with_reasons = on
            # the pivots' turns are taller or shorter: measured again (a few turns of
            # thousands: forgetting by a test over every height cost ~20 ms a key)
            for index, banner in self.banners.items():
                if banner.startswith(PIVOT_GLYPH):
                    self._heights.drop(index)
                    self._heights.estimates.pop(index, None)
                    self._stale = True

    def reason(self, index: int) -> str:
        return self.reason_of(index) if self._with_reasons and index in self.banners else ""

    def look(self, index: int) -> TurnLook:
        return TurnLook(
            width=self._layout_width or self.content_width,
            reasoning=self.reasoning,
            expanded=self.expanded.get(index, frozenset()),
            pivot=self.banners.get(index),
            reason=self.reason(index),
            mark=self.marks.get(index),
            spend=turn_usage(self.turns[index], self.model) if index < len(self.turns) else "",
            subagents=self.subagents.get(index, ()),
            hidden=self._hidden[1] if self._hidden and self._hidden[0] == index else "",
        )

    def prerender(self, visible: list[int], target: int) -> bool:
        """Render one turn a jump to `target` would draw and that is not drawn yet: `target`
        or a visible turn above it in the view it would fill. False when none is left.

        Only the cache is filled (`prefetch.py`): heights and offsets stay as they are, so
        nothing on screen moves; the jump measures them and finds the strips ready.
        """
        pos = bisect_right(visible, target) - 1
        if pos < 0 or visible[pos] != target or not self._layout_width:
            return False
        viewport, filled = max(self.scrollable_content_region.height, 1), 0
        while pos >= 0 and filled < viewport:
            index = visible[pos]
            found, new = self._render_cached((index, self.look(index)))
            if new:
                return True
            filled += len(found.strips)
            pos -= 1
        return False

    def prerender_marked(self, index: int, mark: str | None) -> bool:
        """Render turn `index` as it looks with `mark` (None: unmarked), if not done yet:
        `m` on the cursor turn then finds it drawn. True when it had to render it."""
        if not 0 <= index < len(self.turns) or not self._layout_width:
            return False
        return self._render_cached((index, replace(self.look(index), mark=mark)))[1]

    def prerender_pages(self) -> bool:
        """Render one turn of the pages above the view or the page below it that is not
        drawn yet (PgUp / Ctrl+U / k scroll into them); False when they are ready.

        Two pages above: heights there are guesses until drawn, and a page up that
        measures the turns it lands on moves the view by what the guesses missed.
        """
        height = max(self.scrollable_content_region.height, 1)
        top, offsets = int(self.scroll_offset.y), self._offsets
        if len(offsets) != len(self.shown) + 1:
            return False  # laid out again at the next frame
        for start, end in ((top - 2 * height, top), (top + height, top + 2 * height)):
            pos = max(bisect_right(offsets, max(start, 0)) - 1, 0)
            while pos < len(self.shown) and offsets[pos] < end:
                index = self.shown[pos]
                if self._render_cached((index, self.look(index)))[1]:
                    return True
                pos += 1
        return False

    def _render_cached(self, key: tuple[int, TurnLook]) -> tuple[RenderedTurn, bool]:
        """The turn (index, look) from the cache, rendered into it first when missing; and
        whether it had to be."""
        found = self._cache.get(key)
        if found is not None:
            return found, False
        turn, console = self.turns[key[0]], self.app.console
        found = self._cache[key] = render_turn(turn, key[1], self.palette(), console)
        self.renders += 1
        return found, True

    def rendered(self, index: int) -> RenderedTurn:
        """The turn's strips; the cursor look is derived from the cached plain one."""
        key = (index, self.look(index))
        found, _ = self._render_cached(key)
        if index == self.cursor:
            cursor_key = (index, replace(key[1], cursor=True))
            marked = self._cache.get(cursor_key)
            if marked is None:
                marked = with_cursor(found, self.palette())
                self._cache[cursor_key] = marked
            return marked
        return found

    def render_lines(self, crop: Region) -> list[Strip]:
        self._line_style = self.rich_style  # once per frame: a DOM walk (~70 µs) per line adds up
        if self.content_width != self._layout_width:
            self._relayout()
        top = int(self.scroll_offset.y)
        anchor = self._anchor(top)
        if self._measure_range(top + crop.y, crop.height):
            self._restore_anchor(anchor)
        # nothing a turn looks like changes while one frame is drawn: each line of a turn
        # reuses its strips (working out a turn's look and cache key per line cost ~1.5 ms)
        # and where the view is scrolled to, and how wide, is asked once, not once per line
        self._frame = {}
        scroll_x, scroll_y = self.scroll_offset
        self._geometry = (scroll_x, scroll_y, self.scrollable_content_region.width)
        try:
            return super().render_lines(crop)
        finally:
            self._frame = self._geometry = None

    def _anchor(self, top: int) -> tuple[int, int] | None:
        """(position in `shown`, distance from the top) of the first turn starting on screen."""
        pos = bisect_right(self._offsets, top - 1)
        if pos >= len(self.shown):
            return None
        return pos, self._offsets[pos] - top

    def _restore_anchor(self, anchor: tuple[int, int] | None) -> None:
        """Keep the anchor turn where it was when heights above it turned out different."""
        if anchor is None or self.follow_cursor:
            return
        pos, distance = anchor
        target = max(0, min(self._offsets[pos] - distance, self.max_scroll_y))
        if target != int(self.scroll_offset.y):
            self.set_scroll(None, target)

    def render_line(self, y: int) -> Strip:
        if self._geometry is None:
            scroll_x, scroll_y = self.scroll_offset
            width = self.scrollable_content_region.width
        else:
            scroll_x, scroll_y, width = self._geometry
        line = scroll_y + y
        style = self._line_style or self.rich_style
        strip = self._strip_at(line)
        if strip is None:
            if not self.shown and self._placeholder:
                lines = textwrap.wrap(self._placeholder, max(width - 4, 10))
                if 1 <= line <= len(lines):
                    note = Segment(f"  {lines[line - 1]}", style + Style(italic=True))
                    return Strip([note]).crop_extend(0, width, style)
            return Strip.blank(width, style)
        strip = self.highlighter.apply(strip)
        return strip.crop_extend(scroll_x, scroll_x + width, style).apply_style(style)

    def _strip_at(self, line: int) -> Strip | None:
        found = self.locate(line)
        if found is None:
            return None
        index, row = found
        frame = self._frame
        if frame is None:
            strips = self.rendered(index).strips
        else:
            strips = frame.get(index)
            if strips is None:
                strips = frame[index] = self.rendered(index).strips
        return strips[row] if row < len(strips) else None

    def locate(self, line: int) -> tuple[int, int] | None:
        """(turn index, row within the turn) at content line `line`."""
        pos = bisect_right(self._offsets, line) - 1
        if pos < 0 or pos >= len(self.shown):
            return None
        return self.shown[pos], line - self._offsets[pos]

    def on_resize(self, event: events.Resize) -> None:
        if self.content_width != self._layout_width:  # a frame may have laid it out already
            self._relayout()
        if self.follow_cursor:
            self.scroll_to_cursor()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if round(old_value) != round(new_value):
            self.scrolled()

    def scroll_by_hand(self, lines: int) -> None:
        """Scroll `lines` (negative = up) and stop keeping the cursor in view."""
        self.follow_cursor = False
        target = max(0, min(self.scroll_y + lines, self.max_scroll_y))
        self.scroll_to(y=target, animate=False, immediate=True, force=True)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.follow_cursor = False

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.follow_cursor = False

    # -- mouse -----------------------------------------------------------------
    def on_click(self, event: events.Click) -> None:
        self.screen.query("#panel").remove_class("-keys")  # the scroll keys follow the mouse
        found = self.locate(int(self.scroll_offset.y) + event.y)
        if found is None:
            return
        index, row = found
        rendered = self.rendered(index)
        if row in rendered.tool_rows:
            self.toggle_expanded(index, rendered.tool_rows[row])
            event.stop()
        elif row == 0 and index in self.banners:
            self.post_message(self.PivotClicked(index))
            event.stop()
