"""Search across the real, hand-labelled corpus (issue 32): every labelled silence's turn is
found by a phrase of its context.

Reads `../shared/realworld/` when it exists (other people's sessions, never copied into
the repository; CI has no ../shared and skips this). For each label the silence's turn
is found as the corpus's own `score.py` finds it (message id, else line); its context is
the nearest text before it in the session (after it when nothing before has one), and a
phrase of that text, quoted, is searched for in that session: the context's turn must be
among the hits (the replay opened there shows the silence next). Labels on a branch the
person rewound away from are not on the line the replayer plays, and are counted apart.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from pivotal.catalog import discovery
from pivotal.catalog.search_index import open_search_index
from pivotal.catalog.search_query import Filters, parse_query, search
from pivotal.catalog.search_text import Doc, session_docs
from pivotal.model import Session, SessionRef
from pivotal.readers import find_sessions, read_session

REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "realworld"
LABELS = REALWORLD / "labels.json"
WINDOW = 40
"""Characters of the context's longest stretch without a quote or a line break."""

pytestmark = pytest.mark.skipif(
    not LABELS.is_file(), reason="../shared/realworld (the labelled real sessions) is absent"
)


def phrase_of(body: str) -> str:
    """A phrase of `body`: the middle of its longest stretch without a quote or line break."""
    stretch = max(re.split(r'["\n]', body), key=len, default="")
    middle = len(stretch) // 2
    return stretch[max(0, middle - WINDOW // 2) : middle + WINDOW // 2].strip()


def silence_of(label: dict, found: list[tuple[SessionRef, Session]]):  # type: ignore[no-untyped-def]
    ids = {x for x in [label.get("message_id"), *(label.get("alt_ids") or [])] if x}
    lines = {x for x in [label.get("line"), *(label.get("alt_lines") or [])] if x}
    for ref, session in found:
        wanted = label.get("session")
        if len(found) > 1 and wanted and wanted not in (ref.key, ref.session_id, session.id):
            continue
        for turn in session.turns:
            if (ids and turn.message_id in ids) or (lines and turn.source.line in lines):
                return ref, session, turn.index
    return None


def on_a_branch(label: dict, found: list[tuple[SessionRef, Session]]) -> bool:
    ids = {x for x in [label.get("message_id"), *(label.get("alt_ids") or [])] if x}
    return any(t.message_id in ids for _, s in found for branch in s.branches for t in branch)


def context(docs: list[Doc], turn: int) -> Doc | None:
    """The nearest text before `turn` with a phrase of 12 characters or more; else after it;
    else the nearest text at all (a session of one-word messages)."""
    before = [d for d in docs if d.turn < turn and phrase_of(d.body)]
    after = [d for d in docs if d.turn > turn and phrase_of(d.body)]
    for pool in ([d for d in reversed(before)], after):
        for doc in pool:
            if len(phrase_of(doc.body)) >= 12:
                return doc
    near = sorted(before + after, key=lambda d: abs(d.turn - turn))
    return near[0] if near else None


def test_every_labelled_silence_is_found_by_a_phrase_of_its_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    labels = json.loads(LABELS.read_text(encoding="utf-8"))
    formats = {label["file"]: label["format"] for label in labels}
    discovery.refresh_index([(REALWORLD / name, fmt) for name, fmt in sorted(formats.items())])
    sessions = {
        name: [(ref, read_session(ref)) for ref in find_sessions([REALWORLD / name]).refs]
        for name in formats
    }
    index = open_search_index()
    found = missed = 0
    branches: list[str] = []
    misses: list[str] = []
    try:
        for label in labels:
            where = f"{label['file']} line={label.get('line')} id={label.get('message_id')}"
            located = silence_of(label, sessions[label["file"]])
            if located is None:
                assert on_a_branch(label, sessions[label["file"]]), f"not located: {where}"
                branches.append(where)
                continue
            ref, session, turn = located
            near = context(session_docs(session), turn)
            assert near is not None, f"no text in the session at all: {where}"
            phrase = phrase_of(near.body)
            key = (os.path.abspath(ref.path), ref.key or "")
            sid = index.sessions_of({key[0]})[key]
            hits = search(index, parse_query(f'"{phrase}"'), Filters(sessions={sid}), limit=1000)
            if any(hit.turn == near.turn for hit in hits):
                found += 1
            else:
                missed += 1
                misses.append(f"{where}: {phrase!r} -> {[h.turn for h in hits][:10]}")
    finally:
        index.close()
    assert misses == []
    assert found + len(branches) == len(labels) == 338
    assert len(branches) <= 5  # rewound away from: not on the line the replayer plays
