"""The picker's search mode (Ctrl+F): every session's text searched as you type.

`TextSearch` belongs to one `PickerScreen`. While it is on, what is typed is
a query for the search index (`pivotal.catalog.search_query`: words, "exact
phrases", any part of a word, any script) instead of a filter over the
listing; each change runs the look-up in a thread worker and the list shows
the hits, best first: agent, project, when, turn, who, and a snippet with the
matches marked (a hit in a sub-agent says which, before its snippet, in fewer
words on a narrow row; under 100 columns the project and the time take less, as
the picker's rows do). Enter opens the replayer at the hit's turn (`Picked`),
and a sub-agent's hit in that sub-agent. The index is brought up to date by the
picker's own counting pass when it has one (`FillingPicker`), else by a pass
over the picker's sessions started the first time search mode is turned on;
while either runs, the title says how far it got and the results are looked up
again as it goes.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from pivotal.catalog.search_query import (
    Hit,
    SearchQuery,
    SubagentHit,
    parse_query,
    snippet,
    subagent_title,
)
from pivotal.catalog.search_text import WHO_NAMES
from pivotal.model import SessionRef
from pivotal.text.fit import cell, cells, clip
from pivotal.text.project import last_folders, project_cell
from pivotal.tui.safe import one_line

if TYPE_CHECKING:
    from pivotal.catalog.discovery import Progress

LIMIT = 200
"""Hits shown for one query (the best ones; the list scrolls)."""
AGAIN_EVERY = 1.0
"""Seconds between look-ups of the same query while the index is being filled."""
AGENT, PROJECT, WHEN, TURN, WHO = 8, 14, 16, 6, 7
NARROW_PROJECT, NARROW_WHEN = 12, 11
"""The project and the time of a hit under 100 columns (as the picker's rows: `narrow`), so
the snippet, and a sub-agent's title before it, have room at 80."""
SHORT = {"claude-code": "claude", "qwen-code": "qwen", "continue-cli": "continue"}
PLACEHOLDER = 'search every session\'s text: words, "exact phrases", any part of a word'
SUB_TITLE = 30
"""Characters of a sub-agent's title a hit in it shows."""
SNIPPET_LEAST = 12
"""Cells a sub-agent's hit keeps for its snippet (what says why it matched) on a narrow row:
the sub-agent's words give way first (`subagent_words`)."""
TITLE_LEAST = 4
"""Cells of a sub-agent's title worth showing in the short form; fewer: the arrow alone."""


@dataclass(frozen=True, slots=True)
class Picked:
    """A hit chosen in the picker: the session to open, the turn, and what to mark there."""

    ref: SessionRef
    turn: int
    query: SearchQuery
    subagent: SubagentHit | None = None
    """A hit in a sub-agent: `turn` is the session's that ran it, and the sub-agent is opened
    over it at the hit (`search_hit.land_in_subagent`)."""


class HitsFound(Message):
    """A look-up finished (`generation` says which; `problem` when the index could not answer)."""

    def __init__(self, generation: int, hits: list[Hit], problem: str = "") -> None:
        super().__init__()
        self.generation = generation
        self.hits = hits
        self.problem = problem


def _widths(narrow: bool) -> tuple[int, int]:
    return (NARROW_PROJECT, NARROW_WHEN) if narrow else (PROJECT, WHEN)


def hit_header(narrow: bool = False) -> Text:
    project, when = _widths(narrow)
    text = Text(no_wrap=True, overflow="ellipsis", style="bold dim")
    text.append(cell("agent", AGENT) + " " + cell("project", project) + " ")
    label = "when" if narrow else "when (UTC)"
    text.append(cell(label, when) + " " + cell("turn", TURN, True) + " ")
    text.append(cell("who", WHO) + " what matched")
    return text


def fixed(narrow: bool = False) -> int:
    """Columns the row takes before its snippet."""
    return AGENT + sum(_widths(narrow)) + TURN + WHO + 5


def hit_label(
    hit: Hit, query: SearchQuery, match_style: str = "reverse", width: int = 0, narrow: bool = False
) -> Text:
    """One row: agent, project, when, turn, who, and the snippet with its matches marked,
    cut to the `width` of the row in cells (0: 160) with the first match in view (`narrow`:
    the project and the time take less, as the picker's rows do under 100 columns)."""
    row = hit.session
    project_width, when_width = _widths(narrow)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(cell(one_line(SHORT.get(row.format, row.format), 40), AGENT) + " ", style="bold")
    project = project_cell(row.cwd, project_width) if last_folders(row.cwd) else "—"
    text.append(cell(project, project_width) + " ")  # its end kept, as the picker's
    text.append(cell(started_cell(hit.time, narrow), when_width) + " ", style="dim")
    text.append(cell(f"#{hit.turn + 1}", TURN, True) + " ")
    text.append(cell(WHO_NAMES[hit.who].split()[-1], WHO) + " ", style="dim")
    before = fixed(narrow)
    where = subagent_words(hit, width - before if width else 0)
    text.append(where, style="dim")
    room = max(SNIPPET_LEAST if where else 20, width - before - cells(where)) if width else 160
    snip = snippet(hit.body, query.pattern, width=room)
    start = len(text)
    text.append(snip.text)
    for begin, end in snip.spans:
        text.stylize(match_style, start + begin, start + end)
    return text


def subagent_words(hit: Hit, room: int = 0) -> str:
    """`sub-agent "Explore the parser" #3 › ` before the snippet of a hit in a sub-agent (its
    title and the turn there; the turn column is the session's, whose call ran it). `room`:
    the cells the row has after its columns (0: enough); where the snippet would keep less
    than `SNIPPET_LEAST` beside them, the short form `↳ "Explore th…" `, its title cut in
    cells to leave the snippet that much (or half the room), or `↳ ` alone."""
    sub = hit.subagent
    if sub is None:
        return ""
    title = one_line(subagent_title(sub.row), SUB_TITLE)
    words = f'sub-agent "{title}" #{sub.turn + 1} › '
    if not room or cells(words) + SNIPPET_LEAST <= room:
        return words
    left = min(room - SNIPPET_LEAST, room // 2) - cells('↳ "" ')
    return f'↳ "{clip(title, left)}" ' if left >= TITLE_LEAST else "↳ "


def started_cell(when: float | None, short: bool = False) -> str:
    """When a session started (or a hit's turn was written), in UTC: `2026-12-01 08:33`, or
    short `12-01 08:33` (this year) and `2025-12-01` (an earlier one, where the day says
    more than the hour): the picker's rows and its hits alike."""
    if not when:
        return "—"
    stamp = datetime.fromtimestamp(when, UTC)
    if not short:
        return stamp.strftime("%Y-%m-%d %H:%M")
    if stamp.year == datetime.now(UTC).year:
        return stamp.strftime("%m-%d %H:%M")
    return stamp.strftime("%Y-%m-%d")


def takes_progress(details: Callable[..., object]) -> bool:
    try:
        return "progress" in inspect.signature(details).parameters
    except (TypeError, ValueError):
        return False


class TextSearch:
    """Search mode of one picker: the query, the hits, the thread that looks them up."""

    def __init__(self, picker: Screen, refs: Callable[[], list[SessionRef]]) -> None:
        self.picker = picker
        self.refs = refs
        self.active = False
        self.query = parse_query("")
        self.hits: list[Hit] = []
        self.problem = ""
        self.searched = False
        """A look-up of the current query has answered (before it: "searching…")."""
        self.progress: Progress | None = None
        """How far the pass filling the index got (None: none runs for this picker)."""
        self._generation = 0
        self._indexing = False
        self._again: object | None = None

    # -- the mode ------------------------------------------------------------------------
    def start(self, text: str) -> None:
        self.active = True
        self.ensure_indexed()
        if self._again is None and not (self.progress is not None and self.progress.finished):
            self._again = self.picker.set_interval(AGAIN_EVERY, self._look_again)
        self.look_up(text)

    def stop(self) -> None:
        self.active = False
        self._generation += 1
        self.hits, self.problem, self.searched = [], "", False

    def watch(self, progress: Progress) -> None:
        """The picker's own pass reports here (it fills the index as it counts)."""
        self.progress = progress
        self._indexing = True

    def ensure_indexed(self) -> None:
        """Bring the index up to date for the picker's sessions unless a pass already does."""
        if self._indexing:
            return
        self._indexing = True
        from pivotal.catalog.discovery import Progress, refresh_index

        files: dict[str, tuple[Path, str]] = {}
        for ref in self.refs():
            files.setdefault(str(ref.path), (ref.path, ref.format))
        self.progress = Progress()
        progress = self.progress

        def thread() -> None:
            refresh_index(list(files.values()), warn=lambda _: None, progress=progress)

        self.picker.run_worker(
            thread,
            name="search index",
            group="search-index",
            thread=True,
            exit_on_error=False,
            description="Indexing the sessions' text",
        )

    def _look_again(self) -> None:
        """While the index fills, the same query again (new sessions may hold hits)."""
        if self.active and self.query.terms:
            self.look_up(self.query.text)
        progress = self.progress
        if progress is not None and progress.finished and self._again is not None:
            self._again.stop()  # type: ignore[attr-defined]
            self._again = None

    def filling(self) -> str:
        """How far filling the index got, for the title ("" when it is done)."""
        progress = self.progress
        if progress is None or progress.finished:
            return ""
        if not progress.searchable:
            return ""
        if progress.reading:
            return f" · indexing {progress.read}/{progress.reading}"
        return " · indexing…"

    # -- looking up ----------------------------------------------------------------------
    def look_up(self, text: str) -> None:
        """Look `text` up in a thread; `HitsFound` comes back to the picker."""
        self.query = parse_query(text)
        self._generation += 1
        generation, query = self._generation, self.query
        if not query.terms:
            self.hits, self.problem, self.searched = [], "", True
            self.picker.post_message(HitsFound(generation, []))
            return
        self.searched = False
        paths = {os.path.abspath(ref.path) for ref in self.refs()}

        def thread() -> None:
            worker = get_current_worker()
            hits, problem = _look_up(query, paths, lambda: worker.is_cancelled)
            if not worker.is_cancelled:
                self.picker.post_message(HitsFound(generation, hits, problem))

        self.picker.run_worker(
            thread,
            name="text search",
            group="text-search",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Searching the sessions' text",
        )

    def take(self, message: HitsFound) -> bool:
        """Keep what a look-up found; False when a newer one replaced it."""
        if message.generation != self._generation or not self.active:
            return False
        self.hits, self.problem, self.searched = message.hits, message.problem, True
        return True

    def picked(self, row: int) -> Picked | None:
        if not 0 <= row < len(self.hits):
            return None
        hit = self.hits[row]
        return Picked(self.ref_of(hit), hit.turn, self.query, hit.subagent)

    def ref_of(self, hit: Hit) -> SessionRef:
        """The picker's own ref of the hit's session (counts and all), else one made from it."""
        row = hit.session
        for ref in self.refs():
            if str(ref.path) == row.path and (ref.key or None) == row.key:
                return ref
        return SessionRef(
            format=row.format,
            path=Path(row.path),
            key=row.key,
            session_id=row.session_id,
            title=row.title,
            cwd=row.cwd,
            started=row.started,
            updated=row.updated,
        )

    def title(self, count: int) -> str:
        """The picker's title line in search mode."""
        if not self.query.terms:
            found = f"Search the text of {count} session{'s' if count != 1 else ''}"
        elif self.problem:
            found = f"Search unavailable: {one_line(self.problem, 120)}"
        elif not self.searched:
            found = "Searching…"
        else:
            shown = len(self.hits)
            found = f"{shown}{'+' if shown >= LIMIT else ''} hit{'s' if shown != 1 else ''}"
        return f"{found}{self.filling()} · Enter opens the hit · ^F filters sessions"


def _look_up(
    query: SearchQuery, paths: set[str], cancelled: Callable[[], bool]
) -> tuple[list[Hit], str]:
    """The best hits among the sessions of `paths` (the picker's), or why there are none."""
    from pivotal.catalog.search_index import SearchUnavailable, open_search_index
    from pivotal.catalog.search_query import Filters, search

    try:
        index = open_search_index()
    except SearchUnavailable as exc:
        return [], str(exc)
    try:
        sessions = set(index.sessions_of(paths).values())
        every = len(sessions) == index.session_count()
        filters = Filters(sessions=None if every else sessions)
        return search(index, query, filters, limit=LIMIT, cancelled=cancelled), ""
    except SearchUnavailable as exc:
        return [], str(exc)
    finally:
        index.close()
