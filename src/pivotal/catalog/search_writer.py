"""The listing pass's texts written to the search index by a thread of its own.

Writing a batch of texts (tokenising them into trigrams) takes the index a
good part of a second; done in the loop that hands files to the workers, it
left them idle meanwhile (the first listing of 2,000 sessions: 14 s instead
of ~6 without text). SQLite lets go of the GIL while it writes, so a thread
overlaps it with the reading. Batches wait in a short queue (memory stays
bounded); the first failure stops the writing and is kept for the pass.
"""

from __future__ import annotations

import queue
import threading

from pivotal.catalog.search_index import FileText, SearchIndex, SearchUnavailable

QUEUED = 3
"""Batches waiting to be written at most (the reading waits beyond that)."""


class TextWriter:
    """Write batches of `FileText` into `search` in the background, in order."""

    def __init__(self, search: SearchIndex) -> None:
        self.search = search
        self.written = 0
        self.error: SearchUnavailable | None = None
        self._queue: queue.Queue[list[FileText] | None] = queue.Queue(maxsize=QUEUED)
        self._thread = threading.Thread(target=self._run, name="search index writer", daemon=True)
        self._thread.start()

    def put(self, batch: list[FileText]) -> None:
        if batch and self.error is None:
            self._queue.put(batch)

    def close(self) -> SearchUnavailable | None:
        """Write what is queued, stop, and say what went wrong (None: nothing)."""
        self._queue.put(None)
        self._thread.join()
        return self.error

    def _run(self) -> None:
        while True:
            batch = self._queue.get()
            if batch is None:
                return
            if self.error is not None:
                continue  # drained, not written: the pass says why
            try:
                self.written += self.search.store(batch)
            except SearchUnavailable as exc:
                self.error = exc
            except Exception as exc:  # noqa: BLE001 - a bug here must not hang the listing
                self.error = SearchUnavailable(f"search index not updated ({exc!r})")
