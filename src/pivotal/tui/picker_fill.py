"""The session picker shown at once from the quick listing, its counts filled in behind it.

Counting turns and pivots reads every new or changed session in full; with
hundreds of new sessions that is many seconds. `FillingPicker` shows the
stat-only listing at once and runs `details()` (e.g. `discover_details`,
one file's refs at a time) in a thread worker, replacing rows as their counts
arrive. Choosing a session does not wait for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import Static
from textual.worker import get_current_worker

from pivotal.model import SessionRef
from pivotal.tui.picker import PickerScreen
from pivotal.tui.session_list import SessionList

Details = Callable[[], Iterable[list[SessionRef]]]


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
        self, refs: list[SessionRef], details: Details, query: str = "", *, back: bool = False
    ) -> None:
        super().__init__(list(refs), query, back=back)
        self.details = details
        self.rows = {ref_key(ref): n for n, ref in enumerate(self.refs)}
        self.filled = 0
        self.complete = False
        self._inbox: list[SessionRef] = []
        """Refs the thread found and the UI has not shown yet (a burst is shown in one go)."""
        self._lock = threading.Lock()

    def on_mount(self) -> None:
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
            for refs in self.details():
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
            self.refilter()  # rows still without counts say so (— instead of …)
        self.query_one("#picker-title", Static).update(self.title_text(), layout=False)

    @property
    def counting(self) -> bool:
        return not self.complete

    def title_text(self) -> Text:
        text = super().title_text()
        if not self.complete:
            count = len(self.refs)
            text.append(f" · counting turns and pivots ({min(self.filled, count)}/{count})")
        return text
