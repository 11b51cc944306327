"""What a listed session reaches, for a listing that does not read it: the listing index.

A sub-agent with a file of its own (a Codex spawned thread, a Gemini CLI agent's chat) is
left to its parent only when the parent reaches it (`readers.subagent_refs`), which only a
full read of the parent tells. The listing pass keeps that per file version in the
listing index (`SessionRef.reaches`), so the quick listing, the picker over a folder and
`find_sessions` on a folder ask it here, and read nothing: a parent whose file changed
since (or was never counted) reaches nothing yet, so its sub-agents are listed (a
sub-agent shown once too often is better than one lost). `read_missing` reads such a
parent instead, for a command that reads every session anyway (`stats`, `search`).
"""

from __future__ import annotations

import os
from collections.abc import Container
from typing import TYPE_CHECKING

from pivotal.model import SessionRef
from pivotal.readers import read_reaches

if TYPE_CHECKING:  # opened at the first question: a scan of one file never asks one
    from pivotal.catalog.index import SessionIndex


class IndexedReaches:
    """A `subagent_refs.Reaches` that asks the listing index (opened once, at the first
    question, and only if it exists: a listing never makes it)."""

    def __init__(self, read_missing: bool = False) -> None:
        self.read_missing = read_missing
        self._index: SessionIndex | None = None
        self._opened = False

    def __call__(self, ref: SessionRef) -> Container[str] | None:
        found = self._indexed(ref)
        if found is None and self.read_missing:
            found = read_reaches(ref)
        return found

    def _indexed(self, ref: SessionRef) -> tuple[str, ...] | None:
        from pivotal.catalog.index import file_stamp

        index = self._open()
        stamp = file_stamp(ref.path) if index is not None else None
        if index is None or stamp is None:
            return None
        for cached in index.lookup(ref.path, stamp) or ():
            if cached.key == ref.key:
                return cached.reaches
        return None

    def _open(self) -> SessionIndex | None:
        from pivotal.catalog.index import DB_NAME, IndexUnavailable, cache_dir, open_index

        if not self._opened:
            self._opened = True
            if os.path.exists(cache_dir() / DB_NAME):
                try:
                    self._index = open_index()
                except IndexUnavailable:
                    self._index = None
                else:
                    self._index.close()  # what it holds is in memory: no connection kept
        return self._index
