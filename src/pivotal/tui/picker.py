"""The session picker: type to filter, arrows to choose, Enter to replay.

Typing goes to the filter line at the top: every word typed must appear, in
order but not necessarily together (fuzzy, as in fzf), in a session's agent,
project, title or path; rows that hold it as one piece rank first. Arrows,
PgUp/PgDn and Home/End move in the list; Esc clears the filter, or leaves
when it is empty. The columns (agent, project, when the session started,
turns, pivots, what it cost (its sub-agents included; `no price` when its model has
none, and from 120 columns its tokens beside it), title and path) have headers and fit 80
columns (narrower project and start under 100, `Columns.for_width`, so the title keeps
19 characters); counts that
are still being read show as `…` (see `picker_fill`). Unfiltered, the rows come
newest change first, as the callers list them (the empty filter line says so:
a session resumed today may have started months ago). Ctrl+F switches to searching
every session's text instead (`picker_search`); Enter there opens the hit's turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from pivotal.model import SessionRef
from pivotal.text.fit import cell
from pivotal.text.project import last_folders, project_cell
from pivotal.tui.picker_search import (
    PLACEHOLDER,
    HitsFound,
    Picked,
    TextSearch,
    hit_header,
    hit_label,
    started_cell,
)
from pivotal.tui.safe import one_line
from pivotal.tui.session_list import SessionList

AGENT, PROJECT, STARTED, TURNS, PIVOTS, TOKENS, COST = 8, 16, 16, 5, 6, 6, 8
"""Column widths from 100 columns on; the title and path take what is left. The cost holds
`no price`, `≥$1,026`; the tokens `45.5M`, `1.5B`."""
NARROW = 100
"""Under this many columns the project and the start get narrower (`Columns.for_width`), so
the title - what tells sessions apart - keeps 19 characters at 80 columns, not 10."""
ROOMY = 120
"""From this many columns on, the tokens get a column of their own (beside `no price`, they
say what an unpriced session used)."""


@dataclass(frozen=True)
class Columns:
    """The widths of the columns that change with the terminal, and the start's form."""

    project: int = PROJECT
    started: int = STARTED
    started_label: str = "started (UTC)"
    short_dates: bool = False
    """The start as `12-01 08:33` (this year) or `2025-12-01` (an earlier one)."""
    tokens: int = 0
    """The tokens column's width (0: none)."""

    @classmethod
    def for_width(cls, width: int) -> Columns:
        if 0 < width < NARROW:
            return cls(12, 11, "started", True)
        return cls(tokens=TOKENS) if width >= ROOMY else cls()


WIDE = Columns()
SHORT = {"claude-code": "claude", "qwen-code": "qwen", "continue-cli": "continue"}


def _project(cwd: str | None, width: int) -> str:
    """The last two folders of the working directory, their end kept when cut (`…/kimi-short`
    tells projects apart where `work/kimi-s…` does not); `—` when there is none."""
    return project_cell(cwd, width) if last_folders(cwd) else "—"


def header(cols: Columns = WIDE) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis", style="bold dim")
    text.append(cell("agent", AGENT) + " " + cell("project", cols.project) + " ")
    text.append(cell(cols.started_label, cols.started) + " ")
    text.append(cell("turns", TURNS, True) + " " + cell("pivots", PIVOTS, True) + " ")
    if cols.tokens:
        text.append(cell("tokens", cols.tokens, True) + " ")
    text.append(cell("cost", COST, True) + "  ")
    text.append("title · path")
    return text


def cost_cell(ref: SessionRef, unknown: str) -> str:
    """ "$3.40", "≥$3.40" (part had no price), "no price", "—" (no usage), as everywhere
    (`spend.words.cost_cell`); `unknown` while the session is not read yet."""
    from pivotal.spend.words import cost_cell as said

    return unknown if ref.turns is None else said(ref.tokens, ref.cost, ref.cost_whole)


def tokens_cell(ref: SessionRef, unknown: str) -> str:
    """ "45.5M", "—" (no usage); `unknown` while the session is not read yet."""
    from pivotal.spend.words import tokens_cell as said

    return unknown if ref.turns is None else said(ref.tokens)


def short_path(label: str) -> str:
    """The path's last two parts, which tell sessions apart (`…/claude/seed_dead_end.jsonl`)."""
    parts = label.replace("\\", "/").split("/")
    return label if len(parts) <= 2 else "…/" + "/".join(parts[-2:])


def ref_label(ref: SessionRef, counting: bool = True, cols: Columns = WIDE) -> Text:
    """One picker row: agent, project, start, turns, pivots, cost, title and path.

    Counts not known yet show `…` while `counting`, else `—`.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    agent = SHORT.get(ref.format, ref.format)
    text.append(cell(one_line(agent, 40), AGENT) + " ", style="bold")
    text.append(cell(_project(ref.cwd, cols.project), cols.project) + " ")
    when = ref.started or ref.updated  # the file's change only when its start is unknown
    text.append(cell(started_cell(when, cols.short_dates), cols.started) + " ", style="dim")
    unknown = "…" if counting else "—"
    turns = unknown if ref.turns is None else str(ref.turns)
    pivots = unknown if ref.pivots is None else str(ref.pivots)
    text.append(cell(turns, TURNS, True) + " " + cell(pivots, PIVOTS, True) + " ")
    if cols.tokens:
        text.append(cell(tokens_cell(ref, unknown), cols.tokens, True) + " ", style="dim")
    text.append(cell(cost_cell(ref, unknown), COST, True) + "  ", style="dim")
    title = one_line(ref.title, 80)
    if title:
        text.append(title)
        text.append(f" · {short_path(one_line(ref.label, 400))}", style="dim")
    else:
        text.append(short_path(one_line(ref.label, 400)))
    return text


def haystack(ref: SessionRef) -> str:
    """The fields the filter looks in, lower-cased, one per line (a word matches in one)."""
    fields = [ref.format, ref.cwd or "", ref.title or "", str(ref.path)]
    return "\n".join(field.lower().replace("\n", " ") for field in fields)


def _spread(word: str, field: str) -> int | None:
    """Letters skipped between the word's letters in `field` (None: not there in order)."""
    best = None
    start = field.find(word[0])
    while start >= 0:
        position, gaps = start, 0
        for letter in word[1:]:
            found = field.find(letter, position + 1)
            if found < 0:
                return best
            gaps += found - position - 1
            position = found
        best = gaps if best is None else min(best, gaps)
        start = field.find(word[0], start + 1)
    return best


def fuzzy_score(words: list[str], text: str) -> int | None:
    """How loosely the words match `text`'s fields (0: each is there as one piece).

    A word matches when its letters appear in order inside one field with at most
    two skipped letters per letter of the word (`qwsrv` is in `qwen-serve`);
    looser than that, letters of any word turn up in any long path. None: no match.
    """
    fields = text.split("\n")
    score = 0
    for word in words:
        if word in text:
            continue
        spreads = [s for f in fields if (s := _spread(word, f)) is not None]
        if not spreads or min(spreads) > 2 * len(word):
            return None
        score += 1 + min(spreads)
    return score


def matching(refs: list[SessionRef], query: str, hay: list[str] | None = None) -> list[int]:
    """Indices of the refs the query matches, best first (listing order among equals)."""
    words = query.lower().split()
    if not words:
        return list(range(len(refs)))
    texts = hay if hay is not None else [haystack(ref) for ref in refs]
    scored = []
    for n, text in enumerate(texts):
        score = fuzzy_score(words, text)
        if score is not None:
            scored.append((score, n))
    scored.sort()
    return [n for _, n in scored]


FILTER_PLACEHOLDER = "type to filter: agent, project, title, path · newest change first"


class PickerScreen(Screen[SessionRef | Picked | None]):
    """Choose a session to replay (no path given, or `o` from a replay), or search their text."""

    BINDINGS = [
        Binding("escape", "clear_or_quit", "Clear filter / quit"),
        Binding("ctrl+f", "search_mode", "Search text"),
        Binding("ctrl+f", "filter_mode", "Filter sessions"),
        Binding("down", "move(1)", show=False),
        Binding("up", "move(-1)", show=False),
        Binding("pagedown", "page(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
        Binding("ctrl+c", "app.quit", "Quit", show=False),
    ]
    AUTO_FOCUS = "#picker-filter"

    def __init__(
        self,
        refs: list[SessionRef],
        query: str = "",
        *,
        back: bool = False,
        unlisted: int = 0,
        search: str | None = None,
    ) -> None:
        super().__init__()
        self.refs = refs
        self.query_text = query
        self.back = back
        if back:  # the footer words Esc as the title does: back to the replay, not quit
            self._bindings.key_to_bindings["escape"] = [
                Binding("escape", "clear_or_quit", self.esc_words.capitalize())
            ]
        """Opened from a replay (`o`): Esc goes back to it instead of quitting."""
        self.unlisted = unlisted
        """Files in the agents' folders that listed no session (`pivotal sessions` says why)."""
        self.shown: list[int] = []
        """Indices into `refs` of the rows shown, in order."""
        self.row_of: dict[int, int] = {}
        """Where each shown ref's row is (the inverse of `shown`)."""
        self._hay: list[str] | None = None
        self.text_search = TextSearch(self, lambda: self.refs)
        """Search mode (Ctrl+F): the sessions' text instead of the listing."""
        self.search_on_open = search
        """Open in search mode, looking this up (the replayer's `*`, or back to the results)."""
        self.cols = WIDE
        """The columns for the terminal's width (narrower under `NARROW` columns)."""

    def compose(self) -> ComposeResult:
        yield Static(self.title_text(), id="picker-title")
        yield Input(
            value=self.query_text if self.search_on_open is None else self.search_on_open,
            placeholder=FILTER_PLACEHOLDER,
            id="picker-filter",
        )
        yield Static(header(self.cols), id="picker-header")
        yield SessionList(id="picker-list")
        yield Footer()

    def on_mount(self) -> None:
        self.cols = Columns.for_width(self.app.size.width)
        self.query_one("#picker-header", Static).update(header(self.cols))
        self.refilter()
        if self.search_on_open is not None:
            self.action_toggle_search()

    def on_resize(self, event: events.Resize) -> None:
        cols = Columns.for_width(event.size.width)
        if cols != self.cols:
            self.cols = cols
            if not self.text_search.active:
                self.query_one("#picker-header", Static).update(header(cols))
                self.refilter()
            else:
                self.query_one("#picker-header", Static).update(hit_header(cols.short_dates))
                self.show_hits()

    def title_text(self) -> Text:
        count = len(self.refs)
        if self.text_search.active:
            return Text(self.text_search.title(count), style="bold")
        found = f"{count} session{'s' if count != 1 else ''} found"
        if self.query_text.strip():
            found = f"{len(self.shown)} of {count} sessions match"
        return Text(
            f"{found}{self.not_read()}{self.progress()} · Enter replays · Esc: {self.esc_words}",
            style="bold",
        )

    @property
    def esc_words(self) -> str:
        """What Esc does, in the title and the footer alike."""
        return f"clear filter / {'back' if self.back else 'quit'}"

    def not_read(self) -> str:
        """Session files that could not be listed are never left out without a word."""
        if not self.unlisted:
            return ""
        files = "file" if self.unlisted == 1 else "files"
        return f" · {self.unlisted} {files} not read (see pivotal sessions)"

    def progress(self) -> str:
        """What is still being worked out, said right after the count (80 columns cut the end)."""
        return ""

    def refilter(self) -> None:
        """Show the rows the filter matches (all of them for an empty filter).

        Rows are made when they come on screen (`SessionList`), so a filter over
        thousands of sessions costs the match, not the drawing. In search mode the
        rows are the hits, which only a look-up changes.
        """
        if self.text_search.active:
            return
        if self._hay is None or len(self._hay) != len(self.refs):
            self._hay = [haystack(ref) for ref in self.refs]
        rows = self.query_one(SessionList)
        was = self.chosen_index()
        self.shown = matching(self.refs, self.query_text, self._hay)
        self.row_of = {n: row for row, n in enumerate(self.shown)}
        counting = self.counting
        refs, shown = self.refs, self.shown
        # the row the person was on, when it is still there
        cols = self.cols
        rows.set_rows(
            len(shown),
            lambda row: ref_label(refs[shown[row]], counting, cols),
            self.row_of.get(was),
        )
        self.query_one("#picker-title", Static).update(self.title_text(), layout=False)

    def chosen_index(self) -> int | None:
        """The index into `refs` of the row under the cursor (None: no row)."""
        row = self.query_one(SessionList).highlighted
        return self.shown[row] if row is not None and row < len(self.shown) else None

    @property
    def counting(self) -> bool:
        """Counts not known yet are on their way (`picker_fill`)."""
        return False

    def forget_haystack(self) -> None:
        """A ref changed (its title arrived): build the filter's texts again on the next key."""
        self._hay = None

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.text_search.active:
            self.text_search.look_up(event.value)
            self.query_one("#picker-title", Static).update(self.title_text(), layout=False)
            return
        self.query_text = event.value
        self.refilter()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.text_search.active:
            self.choose_hit(self.query_one(SessionList).highlighted)
            return
        chosen = self.chosen_index()
        if chosen is not None:
            self.dismiss(self.refs[chosen])

    def on_session_list_chosen(self, event: SessionList.Chosen) -> None:
        if self.text_search.active:
            self.choose_hit(event.row)
        elif event.row < len(self.shown):
            self.dismiss(self.refs[self.shown[event.row]])

    # -- search mode (picker_search) ------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Ctrl+F's two meanings: the footer shows the one it has now."""
        if action == "search_mode":
            return not self.text_search.active
        if action == "filter_mode":
            return self.text_search.active
        return True

    def action_search_mode(self) -> None:
        self.action_toggle_search()

    def action_filter_mode(self) -> None:
        self.action_toggle_search()

    def action_toggle_search(self) -> None:
        """Ctrl+F: search the sessions' text for what is typed, or go back to filtering."""
        field = self.query_one(Input)
        search = self.text_search
        if search.active:
            search.stop()
            field.placeholder = FILTER_PLACEHOLDER
            self.query_one("#picker-header", Static).update(header(self.cols))
            self.query_text = field.value
            self.refilter()
            self.refresh_bindings()
            return
        field.placeholder = PLACEHOLDER
        self.query_one("#picker-header", Static).update(hit_header(self.cols.short_dates))
        search.start(field.value)
        self.show_hits()
        self.refresh_bindings()

    @on(HitsFound)
    def found_hits(self, message: HitsFound) -> None:
        if self.text_search.take(message):
            self.show_hits()

    def show_hits(self) -> None:
        search = self.text_search
        hits, query = search.hits, search.query
        rows = self.query_one(SessionList)

        narrow = self.cols.short_dates  # as the picker's rows: under 100 columns

        def row_text(row: int) -> Text:  # the snippet fits what the columns leave of a row
            width = rows.scrollable_content_region.width
            return hit_label(hits[row], query, width=width, narrow=narrow)

        rows.set_rows(len(hits), row_text)
        self.query_one("#picker-title", Static).update(self.title_text(), layout=False)

    def choose_hit(self, row: int | None) -> None:
        picked = self.text_search.picked(row) if row is not None else None
        if picked is not None:
            self.dismiss(picked)

    def action_move(self, delta: int) -> None:
        rows = self.query_one(SessionList)
        if delta > 0:
            rows.action_cursor_down()
        else:
            rows.action_cursor_up()

    def action_page(self, direction: int) -> None:
        rows = self.query_one(SessionList)
        if direction > 0:
            rows.action_page_down()
        else:
            rows.action_page_up()

    def action_clear_or_quit(self) -> None:
        field = self.query_one(Input)
        if field.value:
            field.value = ""
        elif self.text_search.active:
            self.action_toggle_search()
        elif self.back:
            self.dismiss(None)
        else:
            self.app.exit()
