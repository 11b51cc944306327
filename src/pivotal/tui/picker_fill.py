"""The session picker shown at once from the quick listing, its counts filled in behind it.

Counting turns and pivots reads every new or changed session in full; with
hundreds of new sessions that is many seconds. `FillingPicker` shows the
stat-only listing at once and runs `details(wanted=...)` (e.g.
`discover_details`, one file's refs at a time) in a thread worker, replacing
rows as their counts arrive (the same reads fill the search index, whose progress
search mode shows). `wanted()` names the files of the rows on screen
that have no counts yet, so a person who scrolls or filters sees those counted
next. Choosing a session does not wait for any of it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from textual import on
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from pivotal.model import SessionRef
from pivotal.tui.picker import PickerScreen
from pivotal.tui.picker_search import takes_progress
from pivotal.tui.session_list import SessionList

Details = Callable[..., Iterable[list[SessionRef]]]
"""Called with `wanted=`, a callable naming the files to read next (see the module's docstring)."""
ON_SCREEN_EVERY = 0.1
"""Seconds between looks at which rows are on screen while counting."""


class DetailsArrived(Message):
    """More detailed refs wait in the picker's inbox (`done`: the listing is complete)."""

    def __init__(self, done: bool) -> None:
        super().__init__()
        self.done = done


def ref_key(ref: SessionRef) -> tuple[str, str | None]:
    return str(ref.path), ref.key


class FillingPicker(PickerScreen):
    """`PickerScreen` over the quick listing; turn and pivot counts appear as they are known."""

    def __init__(
        self,
        refs: list[SessionRef],
        details: Details,
        query: str = "",
        *,
        back: bool = False,
        unlisted: int = 0,
        search: str | None = None,
    ) -> None:
        super().__init__(list(refs), query, back=back, unlisted=unlisted, search=search)
        self.details = details
        self.rows = {ref_key(ref): n for n, ref in enumerate(self.refs)}
        self.filled = 0
        self.complete = False
        self._inbox: list[SessionRef] = []
        """Refs the thread found and the UI has not shown yet (a burst is shown in one go)."""
        self._lock = threading.Lock()
        self._on_screen: tuple[Path, ...] = ()
        """Files of the rows on screen without counts (read by the counting thread)."""

    def on_mount(self) -> None:
        # (Textual runs PickerScreen's own on_mount after this one)
        self._looking = self.set_interval(ON_SCREEN_EVERY, self._note_on_screen)
        self._extra: dict[str, object] = {}
        if takes_progress(self.details):  # the same reads fill the search index: say how far
            from pivotal.catalog.discovery import Progress

            progress = Progress()
            self.text_search.watch(progress)
            self._extra["progress"] = progress
        self.run_worker(
            self.fill,
            name="session details",
            group="details",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Counting turns and pivots",
        )

    def fill(self) -> None:
        """Thread: put each file's refs in the inbox; wake the UI when the inbox was empty."""
        worker = get_current_worker()
        try:
            for refs in self.details(wanted=lambda: self._on_screen, **self._extra):
                if worker.is_cancelled:
                    return
                with self._lock:
                    wake = not self._inbox and bool(refs)
                    self._inbox.extend(refs)
                if wake:
                    self.post_message(DetailsArrived(False))
        finally:
            if not worker.is_cancelled:
                self.post_message(DetailsArrived(True))

    @on(DetailsArrived)
    def show_details(self, message: DetailsArrived) -> None:
        rows = self.query_one(SessionList)
        with self._lock:
            arrived, self._inbox = self._inbox, []
        for ref in arrived:
            n = self.rows.get(ref_key(ref))
            if n is None:
                continue  # not in the quick listing (appeared since): left for the next run
            self.refs[n] = ref
            row = self.row_of.get(n)
            if row is not None:  # filtered out: shown with its counts when the filter lets it in
                rows.forget(row)
            self.filled += 1
        if arrived:
            self.forget_haystack()  # titles may have arrived with the counts
        if message.done and not self.complete:
            self.complete = True
            self._looking.stop()
            self.refilter()  # rows still without counts say so (— instead of …)
        self.query_one("#picker-title", Static).update(self.title_text(), layout=False)

    def _note_on_screen(self) -> None:
        rows = self.query_one(SessionList)
        top = int(rows.scroll_offset.y)
        shown = self.shown[top : top + rows.scrollable_content_region.height]
        self._on_screen = tuple(self.refs[n].path for n in shown if self.refs[n].turns is None)

    @property
    def counting(self) -> bool:
        return not self.complete

    def progress(self) -> str:
        if self.complete:
            return ""
        count = len(self.refs)
        text = self.text_search.progress
        if self.filled >= count and text is not None and text.reading:
            # every count was known: the pass reads the files again for their text only
            return f" · indexing text for search {text.read}/{text.reading}"
        return f" · counting turns and pivots {min(self.filled, count)}/{count}"
