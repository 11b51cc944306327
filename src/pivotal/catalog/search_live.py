"""A followed session kept in the search index as it grows.

While the replayer (or `scan --follow`) follows a session, `LiveIndexer` reads
the same file with a reader of its own, in a thread of its own, every few
seconds: only what was appended is read, and only the turns from the first one
that changed are written again (`SearchIndex.store_session`). Its own reader
means nothing is shared with the follow loop (a lazily decoded turn reads its
file), and a slow index never holds up what is shown. The file's stamp is set
to `PARTIAL`: the next listing pass reads it whole once more and keeps what
did not change.
"""

from __future__ import annotations

import threading
from pathlib import Path

from pivotal.catalog.search_index import SearchIndex, SearchUnavailable, open_search_index
from pivotal.catalog.search_text import Doc, turn_texts
from pivotal.model import SessionRef

EVERY = 2.0
"""Seconds between two looks at the followed file."""


class LiveIndexer:
    """Index one followed session in the background until `close()`."""

    def __init__(
        self, ref: SessionRef, *, every: float = EVERY, directory: Path | None = None
    ) -> None:
        self.ref = ref
        self.every = every
        self.directory = directory
        self.updates = 0
        """Writes done (tests wait on it)."""
        self.problem = ""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="search index (live)", daemon=True)

    def start(self) -> LiveIndexer:
        self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop after one last look (what was written last is in the index)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def __enter__(self) -> LiveIndexer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        from pivotal.readers import open_reader

        try:
            index = open_search_index(self.directory)
        except SearchUnavailable as exc:
            self.problem = str(exc)
            return
        try:
            reader = open_reader(self.ref)
        except Exception as exc:  # noqa: BLE001 - the follow says what is wrong with the file
            self.problem = str(exc)
            index.close()
            return
        try:
            whole = True
            while True:
                stopping = self._stop.is_set()
                update = reader.poll(final=False)
                if whole or update.reloaded or update.first_changed is not None:
                    first = 0 if whole or update.reloaded else update.first_changed or 0
                    self._write(index, reader.session, first, whole)
                    whole = False
                if stopping or self._stop.wait(self.every):
                    if not stopping:
                        continue  # one last look after the stop
                    break
        except SearchUnavailable as exc:
            self.problem = str(exc)
        except Exception as exc:  # noqa: BLE001 - indexing must never break a follow
            self.problem = f"{type(exc).__name__}: {exc}"
        finally:
            reader.close()
            index.close()

    def _write(self, index: SearchIndex, session: object, first: int, whole: bool) -> None:
        turns = session.turns  # type: ignore[attr-defined]
        docs = [
            Doc(turn.index, who, turn.timestamp, body)
            for turn in turns[first:]
            for who, body in turn_texts(turn)
        ]
        # whole: what the index held of this session stays where it did not change
        index.store_session(self.ref, docs, None if whole else first)
        self.updates += 1
