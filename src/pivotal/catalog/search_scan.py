"""Search without the index: every session read and its texts checked, for a SQLite without
FTS5's trigram tokenizer (before 3.34, or built without FTS5) or a cache folder that
cannot be written.

The same texts (`search_text`), the same matching and the same ranking as the index's
(`search_query`), only slower: seconds for a big home instead of milliseconds. The
sessions are read in worker processes as the listing pass reads them.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable
from pathlib import Path

from msgspec.structs import replace

from pivotal.catalog.search_index import SessionRow
from pivotal.catalog.search_query import Filters, Hit, SearchQuery, agent_matches, score
from pivotal.catalog.search_text import Doc, session_docs
from pivotal.catalog.workers import Located, run_all
from pivotal.cores import usable_cores
from pivotal.model import SessionRef

POOL_FROM = 50


def scan_search(
    candidates: list[Located],
    query: SearchQuery,
    filters: Filters | None = None,
    limit: int = 20,
    keys: set[tuple[str, str]] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Hit]:
    """The `limit` best hits in `candidates`, read one by one; `keys` keeps only those
    (absolute path, key or "") sessions."""
    if not query.terms or limit <= 0:
        return []
    filters = filters or Filters()
    terms = [re.compile(re.escape(t), re.IGNORECASE) for t in query.terms]
    found: list[tuple[SessionRow, Doc]] = []
    texts = chars = 0
    workers = min(8, usable_cores())
    items = [(path, agent, query.terms) for path, agent in candidates]
    done = 0
    numbers = itertools.count(1)
    for _, sessions in run_all(_matching, items, workers=workers, pool_from=POOL_FROM):
        for ref, docs, count, length in sessions:
            texts, chars = texts + count, chars + length
            row = _row(ref, next(numbers))
            if keys is not None and (row.path, row.key or "") not in keys:
                continue
            if filters.agents and not any(agent_matches(a, row.format) for a in filters.agents):
                continue
            for doc in docs:
                when = doc.time if doc.time is not None else row.updated
                if filters.since is not None and (when is None or when < filters.since):
                    continue
                found.append((row, doc))
        done += 1
        if progress is not None:
            progress(done, len(items))
    average = chars / texts if texts else 1.0
    best: dict[tuple[int, int], Hit] = {}
    for row, doc in found:
        value = score(doc.body, terms, doc.who, len(doc.body), average)
        if value is None:
            continue
        known = best.get((row.id, doc.turn))
        if known is None or value > known.score:
            best[(row.id, doc.turn)] = Hit(row, doc.turn, doc.who, doc.time, value, doc.body)
    return sorted(best.values(), key=lambda h: (-h.score, -(h.time or 0.0)))[:limit]


def _matching(
    path: Path, agent: str | None, terms: tuple[str, ...]
) -> list[tuple[SessionRef, list[Doc], int, int]]:
    """Each session of one file: its ref, its texts holding every term, and how many texts
    (and characters) it has in all (for the average length BM25 compares with)."""
    from pivotal.catalog.discovery import session_refs
    from pivotal.readers import read_session

    patterns = [re.compile(re.escape(t), re.IGNORECASE) for t in terms]
    out = []
    for ref in session_refs(path, agent):
        try:
            session = read_session(ref)
            docs = session_docs(session)
        except Exception:  # noqa: BLE001 - one unreadable session must not stop the search
            continue
        kept = [d for d in docs if all(p.search(d.body) for p in patterns)]
        length = sum(len(d.body) for d in docs)
        named = replace(ref, title=ref.title or session.title, cwd=ref.cwd or session.cwd)
        out.append((named, kept, len(docs), length))
    return out


def _row(ref: SessionRef, ident: int) -> SessionRow:
    return SessionRow(
        ident,
        os.path.abspath(ref.path),
        ref.key,
        ref.format,
        ref.session_id,
        ref.title,
        ref.cwd,
        ref.started,
        ref.updated,
    )
