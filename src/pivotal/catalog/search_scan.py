"""Search without the index: every session read and its texts checked, for a SQLite without
FTS5's trigram tokenizer (before 3.34, or built without FTS5) or a cache folder that
cannot be written.

The same texts (`search_text`, sub-agents' included), the same matching and the same
ranking as the index's (`search_query`), only slower: seconds for a big home instead of
milliseconds. The sessions are read in worker processes as the listing pass reads them.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from msgspec.structs import replace

from pivotal.catalog.search_index import LINEAGE, SessionRow
from pivotal.catalog.search_query import (
    Filters,
    Hit,
    SearchQuery,
    agent_matches,
    placed,
    score,
)
from pivotal.catalog.search_text import Doc, SubText, session_docs
from pivotal.catalog.workers import Located, run_all
from pivotal.cores import usable_cores
from pivotal.model import SessionRef
from pivotal.readers.subagent_refs import listed_alone, reaches_of

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
    (absolute path, key or "") sessions (and the sub-agents they ran)."""
    if not query.terms or limit <= 0:
        return []
    filters = filters or Filters()
    terms = [re.compile(re.escape(t), re.IGNORECASE) for t in query.terms]
    rows: dict[int, SessionRow] = {}
    found: list[tuple[int, Doc]] = []
    texts = chars = 0
    workers = min(8, usable_cores())
    items = [(path, agent, query.terms) for path, agent in candidates]
    done = 0
    read = []
    for _, found_here in run_all(_matching, items, workers=workers, pool_from=POOL_FROM):
        read.append(found_here)
        done += 1
        if progress is not None:
            progress(done, len(items))
    # a sub-agent a listed session reaches is searched through it (as the index does)
    shown = {
        id(ref) for ref in listed_alone([item[0] for found_here in read for item in found_here])
    }
    numbers = itertools.count(1)
    for found_here in read:
        sessions = [item for item in found_here if id(item[0]) in shown]
        own: dict[tuple[str, str], int] = {}
        for ref, docs, count, length, _ in sessions:
            texts, chars = texts + count, chars + length
            row = _row(ref, next(numbers))
            rows[row.id] = row
            own[(row.path, row.key or "")] = row.id
            found.extend((row.id, doc) for doc in docs)
        for ref, _, _, _, subs in sessions:
            found.extend(
                _subagents(
                    own[(os.path.abspath(ref.path), ref.key or "")], subs, own, rows, numbers
                )
            )
    average = chars / texts if texts else 1.0
    best: dict[tuple[int, int], tuple[float, Doc]] = {}
    for ident, doc in found:
        row = rows[ident]
        root = _root(row, rows)
        if keys is not None and not _kept(row, rows, keys):
            continue
        if filters.agents and not any(agent_matches(a, row.format) for a in filters.agents):
            continue
        when = doc.time if doc.time is not None else root.updated
        if filters.since is not None and (when is None or when < filters.since):
            continue
        value = score(doc.body, terms, doc.who, len(doc.body), average)
        if value is None:
            continue
        known = best.get((ident, doc.turn))
        if known is None or value > known[0]:
            best[(ident, doc.turn)] = (value, doc)
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], -(item[1][1].time or 0.0)))
    hits = []
    for (ident, turn), (value, doc) in ranked[:limit]:
        session, at, sub = placed(rows[ident], turn, rows)
        hits.append(Hit(session, at, doc.who, doc.time, value, doc.body, sub))
    return hits


def _subagents(
    parent: int,
    subs: list[SubText],
    own: dict[tuple[str, str], int],
    rows: dict[int, SessionRow],
    numbers: Iterator[int],
) -> list[tuple[int, Doc]]:
    """Rows for the sub-agents of the session `parent` (as `SearchIndex` keeps them) and
    their matching texts; a sub-agent that is one of the file's sessions is linked to it."""
    found: list[tuple[int, Doc]] = []
    runners: dict[str | None, int] = {None: parent}
    session = rows[parent]
    for sub in subs:
        runner = runners.get(sub.runner)
        if runner is None:
            continue
        path = os.path.abspath(sub.ref.path)
        if sub.docs is None:
            listed = own.get((path, sub.ref.key or ""))
            if listed is not None and listed not in (runner, parent):
                rows[listed] = rows[listed]._replace(parent=runner, parent_turn=sub.turn)
                runners[sub.ident] = listed
            continue
        row = SessionRow(
            next(numbers),
            session.path,
            f"{session.key or ''}/sub:{sub.ident}",
            sub.ref.format,
            sub.ref.session_id,
            sub.title or sub.ref.title,
            sub.ref.cwd or session.cwd,
            sub.ref.started,
            session.updated,
            runner,
            sub.turn,
            False,
            path,
            sub.ref.key,
        )
        rows[row.id] = row
        runners[sub.ident] = row.id
        found.extend((row.id, doc) for doc in sub.docs)
    return found


def _root(row: SessionRow, rows: dict[int, SessionRow]) -> SessionRow:
    return placed(row, 0, rows)[0]


def _kept(row: SessionRow, rows: dict[int, SessionRow], keys: set[tuple[str, str]]) -> bool:
    """`row` is one of the `keys` sessions, or a sub-agent one of them ran (or named by its
    own place: a sidechain's `PATH#sidechain:…`)."""
    current: SessionRow | None = row
    for _ in range(LINEAGE + 1):
        if current is None:
            return False
        path, key = (current.path, current.key) if current.listed else current.where
        if (path, key or "") in keys:
            return True
        current = rows.get(current.parent) if current.parent is not None else None
    return False


def _matching(
    path: Path, agent: str | None, terms: tuple[str, ...]
) -> list[tuple[SessionRef, list[Doc], int, int, list[SubText]]]:
    """Each session of one file: its ref, its texts holding every term, how many texts
    (and characters) it and its sub-agents have in all (for the average length BM25
    compares with), and its sub-agents with their texts holding every term."""
    from pivotal.catalog.discovery import session_refs
    from pivotal.catalog.search_subagents import subagent_texts
    from pivotal.readers import read_session

    patterns = [re.compile(re.escape(t), re.IGNORECASE) for t in terms]
    out = []
    refs = session_refs(path, agent)
    listed = {(os.path.abspath(ref.path), ref.key or "") for ref in refs}
    for ref in refs:
        try:
            session = read_session(ref)
            docs = session_docs(session)
        except Exception:  # noqa: BLE001 - one unreadable session must not stop the search
            continue
        try:
            subs = subagent_texts(session, listed)[1]
        except Exception:  # noqa: BLE001 - its own texts still stand
            subs = []
        every = docs + [d for sub in subs for d in sub.docs or ()]
        kept = [
            sub._replace(docs=[d for d in sub.docs if _holds(d, patterns)])
            if sub.docs is not None
            else sub
            for sub in subs
        ]
        length = sum(len(d.body) for d in every)
        named = replace(
            ref,
            title=ref.title or session.title,
            cwd=ref.cwd or session.cwd,
            reaches=reaches_of(session),
        )
        out.append((named, [d for d in docs if _holds(d, patterns)], len(every), length, kept))
    return out


def _holds(doc: Doc, patterns: list[re.Pattern[str]]) -> bool:
    return all(p.search(doc.body) for p in patterns)


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
