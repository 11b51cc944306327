"""Search on the replay screen (/, n, N): the prompt, the thread that looks, where matches are.

`Search` belongs to one `ReplayScreen`, which creates it with the widget it
works through (the thread worker, the messages, the transcript it marks
matches in), the `Playback` it searches (the turns the filter shows), the
`Jumps` a match is one of, `say`, which puts a line on the status bar, and
`show`, which says a line after a move. `/` opens `SearchPrompt` (Ctrl+R toggles regex); the search
starts in the current turn. A thread first finds the nearest match from the
cursor and posts `Search.Found` (the screen goes there at once), then goes on
to find every match and posts `Search.Counted`: from then on `n` / `N` are a
bisect in that list, the status says "match 3/9", and when a move wraps
round the end it says so. `find.Finder` does the looking. A long search (a
1 GB file) says how far it got (`Search.Progress`, a few times a second) and
Esc stops it (`cancel`).
"""

from __future__ import annotations

import re
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.worker import Worker, get_current_worker

from pivotal.model import Turn
from pivotal.tui.find import Finder, Query, SpanIndex
from pivotal.tui.jumps import Jumps
from pivotal.tui.playback import Playback
from pivotal.tui.reveal import in_folded_reasoning, parts_to_open
from pivotal.tui.screens import PromptInput, PromptScreen, close_once
from pivotal.tui.transcript import TranscriptView

PROGRESS_EVERY = 0.25
"""Seconds between two lines saying how far a long search got."""


class SearchPrompt(PromptScreen):
    """The `/` prompt: the text, and Ctrl+R to switch between plain text and a regex."""

    BINDINGS = [Binding("ctrl+r", "toggle_regex", "Regex", priority=True)]

    def __init__(self, query: Query) -> None:
        super().__init__("", "text in messages and tool output", query.text)
        self.regex = query.regex

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box"):
            yield Static(self.title_line(), id="prompt-label")
            yield PromptInput(value=self.value, placeholder=self.placeholder, id="prompt-input")

    def title_line(self) -> Text:
        mode = "regex" if self.regex else "plain text"
        return Text(f"Search ({mode} · Ctrl+R switches · a capital letter makes case matter)")

    def action_toggle_regex(self) -> None:
        self.regex = not self.regex
        self.query_one("#prompt-label", Static).update(self.title_line())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.prevent_default()  # the plain prompt's handler would answer with the bare text
        event.stop()
        close_once(self, event.value and Query(event.value, self.regex))


@dataclass(frozen=True, slots=True)
class Shown:
    """Where a search result moves the cursor, and the status line that says so."""

    turn: int | None
    status: str
    pattern: re.Pattern[str] | None = None


class Search:
    """The search keys of one screen."""

    class Found(Message):
        """The nearest match from where the search started (None: there is none)."""

        def __init__(self, generation: int, turn: int | None, wrapped: bool) -> None:
            super().__init__()
            self.generation = generation
            self.turn = turn
            self.wrapped = wrapped

    class Progress(Message):
        """How far the search thread got (a status line for the person)."""

        def __init__(self, generation: int, status: str) -> None:
            super().__init__()
            self.generation = generation
            self.status = status

    class Counted(Message):
        """Every matching turn is known (ascending)."""

        def __init__(self, generation: int, matches: list[int]) -> None:
            super().__init__()
            self.generation = generation
            self.matches = matches

    def __init__(
        self,
        owner: Widget,
        playback: Playback,
        jumps: Jumps,
        say: Callable[[str], None],
        show: Callable[[str, bool], None],
    ) -> None:
        self.owner = owner
        self.playback = playback
        self.jumps = jumps
        self.say = say
        self.show_status = show
        self.path: Callable[[], str | None] = lambda: None
        """The session file the turns were read from (the screen sets it)."""
        self.query = Query("")
        self.pattern: re.Pattern[str] | None = None
        """The last query compiled (None before the first: n and N are then off)."""
        self.matches: list[int] | None = None
        """Every matching turn, once counted (None while the thread counts)."""
        self._counted_at = -1
        """The turns' revision `matches` was made from (`Playback.revision`: a live
        session grows, and its last turn changes without a new one)."""
        self._generation = 0
        self._searched_at = -1
        """The revision the newest search started from."""
        self._wrapped = False
        """The newest search's first match was found past an end of the session."""
        self._spans: tuple[int, SpanIndex] | None = None
        self._spans_lock = threading.Lock()
        """Held while `_spans` is built (by `prepare` or a search): one builds, the other waits."""
        self._worker: Worker[None] | None = None
        self._note = ""
        """What the status says of the match shown when it is not drawn (`not_drawn`)."""

    @property
    def busy(self) -> bool:
        """A search thread is still looking (or counting)."""
        return self._worker is not None and not self._worker.is_finished

    def cancel(self) -> bool:
        """Esc: stop the search thread; False when none was running."""
        if not self.busy:
            return False
        assert self._worker is not None
        self._worker.cancel()
        self._worker = None
        self._generation += 1  # what it still posts is stale
        self.say(f"search for “{self.query.label}” stopped (n searches again)")
        return True

    @property
    def needle(self) -> str:
        return self.query.label if self.pattern is not None else ""

    # -- the keys -------------------------------------------------------------------------
    def ask(self) -> None:
        """/: the prompt, then a search from the current turn on (it included)."""

        def done(query: Query | None) -> None:
            if query:
                self.find(query)

        self.owner.app.push_screen(SearchPrompt(self.query), done)

    def next(self, forward: bool) -> None:
        """n / N: the next match after the cursor (before it); a thread looks if not counted."""
        if self.pattern is None:
            return
        matches = self.visible_matches()
        if matches is None:
            self._start(forward=forward, include_current=False)
        else:
            self.show(self.step(matches, forward))

    def find(self, query: Query | str) -> None:
        """Look for `query` from the current turn on (it included)."""
        query = Query(query) if isinstance(query, str) else query
        try:
            pattern = query.pattern()
        except re.error as exc:
            self.say(f"not a regular expression: {exc}")
            return
        self.query, self.pattern, self.matches = query, pattern, None
        self._start(forward=True, include_current=True)

    def mark(self, query: Query, turn: int) -> None:
        """Mark `query`'s matches and go to `turn`, where they are (a hit of the search across
        sessions): no thread looks, and `n` / `N` go on from there."""
        try:
            pattern = query.pattern()
        except re.error:
            return
        self.query, self.pattern, self.matches = query, pattern, None
        self.show(Shown(turn, f"“{query.label}” at turn #{turn + 1}"))

    def prepare(self) -> None:
        """Build, while the person reads, what the first search of a session builds: where
        each turn's records are in the file and the text of the turns held in memory,
        lower-cased (1 GB: ~0.2 s of a first search that took ~1 s). Nothing when a search
        is already under way (it builds them); not the text when that would decode turns
        a reader keeps out of memory (`SpanIndex.memory_is_cheap`): a search may never come."""
        if self.busy:
            return
        pb = self.playback
        turns, revision = pb.turns, pb.revision

        def thread() -> None:
            with self._spans_lock:
                index = self._index_of(turns, revision)
                if index.memory_is_cheap(turns):
                    index.memory_of(turns).folded()

        self.owner.run_worker(
            thread,
            name="search index",
            group="search-index",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Preparing the search",
        )

    def _index_of(self, turns: list[Turn], revision: int) -> SpanIndex:
        """The span index of `revision`'s turns: the one built already, else a new one."""
        if self._spans is not None and self._spans[0] == revision:
            return self._spans[1]
        index = SpanIndex.of(turns)
        self._spans = (revision, index)
        return index

    def _start(self, *, forward: bool, include_current: bool) -> None:
        path = self.path()
        self._generation += 1
        generation, query = self._generation, self.query
        pb = self.playback
        visible, cursor, turns, revision = pb.visible, pb.cursor, pb.turns, pb.revision
        self._searched_at = revision
        self.say(f"searching “{query.label}”… (Esc stops)")
        progress = self._progress(generation, query.label)

        def thread() -> None:
            worker = get_current_worker()
            cancelled = lambda: worker.is_cancelled  # noqa: E731
            with self._spans_lock:  # `prepare` may be building it: wait, then use it
                index = self._index_of(turns, revision)
            finder = Finder(turns, query, path, cancelled, index, progress)
            order, wrap_at = search_order(visible, cursor, forward, include_current)
            found, wrapped = None, False
            for n, turn in enumerate(order):
                if finder.stopped(n, len(order)):
                    return
                if finder.matches(turn):
                    found, wrapped = turn, n >= wrap_at
                    break
            self.owner.post_message(Search.Found(generation, found, wrapped))
            matches = finder.all()
            if matches is not None and not cancelled():
                self.owner.post_message(Search.Counted(generation, matches))

        self._worker = self.owner.run_worker(
            thread,
            name="search",
            group="search",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Searching the session",
        )

    def _progress(self, generation: int, text: str) -> Callable[[str, int, int], None]:
        """What the thread calls as it goes: a `Search.Progress` at most every PROGRESS_EVERY s."""
        last = [time.monotonic()]

        def progress(phase: str, done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] < PROGRESS_EVERY:
                return
            last[0] = now
            if phase == "file":
                where = f"{done * 100 // max(total, 1)}% of the file"
            else:
                where = f"{done:,} of {total:,} turns read"
            status = f"searching “{text}”… {where} (Esc stops)"
            self.owner.post_message(Search.Progress(generation, status))

        return progress

    # -- results ------------------------------------------------------------------------
    def show(self, shown: Shown | None) -> None:
        """Go to a match, unfold the parts that fold it away (`reveal`), keep it in view, mark
        it; say where it is when it is not drawn. None: nothing to show."""
        if shown is None:
            return
        pattern, turn = self.pattern, shown.turn
        transcript = self.owner.query_one(TranscriptView)
        style = transcript.get_component_rich_style("transcript--match")
        if transcript.highlighter.set(pattern, style):
            transcript.refresh()
        self._note = ""
        if turn is not None and pattern is not None:
            self.jumps.go(lambda: self.playback.goto(turn))
            found = self.playback.turns[turn]
            for part in parts_to_open(found, pattern, transcript.reasoning):
                transcript.open_part(turn, part)  # a match in folded text or output shows
            transcript.match_turn = turn  # kept in view, however far down the turn it is
            # (a hit of the search across sessions may be a turn the filter hides: the
            # transcript says so itself, under its header)
            if not self.playback.hiding() and transcript.match_row(turn) is None:
                self._note = not_drawn(found, pattern, transcript.reasoning)
        self.show_status(shown.status + self._note, turn is not None)

    def show_progress(self, message: Progress) -> None:
        if message.generation == self._generation and self.busy:
            self.say(message.status)

    def show_count(self, message: Counted) -> None:
        if (status := self.counted(message)) is not None:
            self.say(status)

    def visible_matches(self) -> list[int] | None:
        """The counted matches the filter shows (None: not counted, or the turns changed since)."""
        pb = self.playback
        if self.matches is None or self._counted_at != pb.revision:
            return None
        if pb.filter.value == "all":
            return self.matches
        shown = set(pb.visible)
        return [m for m in self.matches if m in shown]

    def found(self, message: Found) -> Shown | None:
        """The thread's nearest match (None: a newer search replaced it)."""
        if message.generation != self._generation:
            return None
        if message.turn is None:
            return Shown(None, f"“{self.query.label}” not found")
        self._wrapped = message.wrapped
        wrapped = " · wrapped round" if message.wrapped else ""
        return Shown(message.turn, f"“{self.query.label}” at turn #{message.turn + 1}{wrapped}")

    def counted(self, message: Counted) -> str | None:
        """Every match is known: the status line now (None: stale or the cursor is not on one)."""
        if message.generation != self._generation:
            return None
        self.matches, self._counted_at = message.matches, self._searched_at
        matches = self.visible_matches() or []
        pos = bisect_left(matches, self.playback.cursor)
        if pos < len(matches) and matches[pos] == self.playback.cursor:
            # the count replaces the line that said the search went round the end: keep that
            end = " · wrapped round" if self._wrapped else ""
            return f"“{self.query.label}”: match {pos + 1}/{len(matches)}{end}{self._note}"
        return None

    def step(self, matches: list[int], forward: bool) -> Shown:
        """The next counted match after (or before) the cursor, wrapping round the ends."""
        text = self.query.label
        if not matches:
            return Shown(None, f"“{text}” not found")
        cursor = self.playback.cursor
        if forward:
            pos = bisect_right(matches, cursor)
            wrapped = pos == len(matches)
            pos = 0 if wrapped else pos
        else:
            pos = bisect_left(matches, cursor) - 1
            wrapped = pos < 0
            pos = len(matches) - 1 if wrapped else pos
        end = ""
        if wrapped:
            end = " · wrapped to the top" if forward else " · wrapped to the bottom"
        return Shown(matches[pos], f"“{text}”: match {pos + 1}/{len(matches)}{end}")


def not_drawn(turn: Turn, pattern: re.Pattern[str], reasoning: bool) -> str:
    """What the status line adds when the turn found does not draw its match: in reasoning
    `t` hides, else past where a long text or output is cut, or split by a line end (short:
    an 80-column status line keeps it whole)."""
    if not reasoning and in_folded_reasoning(turn, pattern):
        return " · in the agent's reasoning: t shows it"
    return " · not drawn here: v reads it whole"


def search_order(
    visible: list[int], cursor: int, forward: bool, include_current: bool
) -> tuple[list[int], int]:
    """The turns to look at, nearest first, and where the order wraps round the end."""
    if forward:
        start = bisect_left(visible, cursor) if include_current else bisect_right(visible, cursor)
        ahead, behind = visible[start:], visible[:start]
    else:
        start = bisect_left(visible, cursor)
        ahead, behind = visible[:start][::-1], visible[start:][::-1]
    return ahead + behind, len(ahead)
