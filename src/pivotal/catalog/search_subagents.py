"""A session's sub-agents' texts for the search index, taken from the read that measures them.

The listing pass reads every sub-agent of a session anyway (the session's tokens and
dollars count theirs: `pivotal.spend.subagents`), so their texts come from that same
read: a sub-agent's file is read once a pass, not once more for search. Each sub-agent
becomes a `SubText`: its texts (`search_text`, as a session's) and where it ran, the turn
of the session (or of the sub-agent that ran it) whose call ran it or, tied to no call,
the turn it started during: a hit in it opens there. A child that is one of its file's
own sessions (opencode's and Kilo's child sessions are listed as sessions too) gives no
texts here: they are indexed as that session's, which only learns where it ran.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence

from pivotal.catalog.search_text import Doc, SubText, session_docs
from pivotal.model import Session
from pivotal.spend.subagents import Subagent, read_subagents

Listed = Collection[tuple[str, str]]
"""(absolute path, key or "") of the sessions a file lists itself."""


def subagent_texts(session: Session, listed: Listed = ()) -> tuple[list[Subagent], list[SubText]]:
    """The sub-agents of `session`, read and tied as spend reads them (what the session's
    tokens need), and the texts of each, outer ones before those they ran."""
    if not session.children:
        return [], []
    seen: dict[int, tuple[list[Doc] | None, list[float | None]]] = {}

    def visit(sub: Subagent, child: Session) -> None:
        own = (os.path.abspath(sub.ref.path), sub.ref.key or "") in listed
        try:
            docs = None if own else session_docs(child)
        except Exception:  # noqa: BLE001 - a sub-agent that cannot be decoded has no text
            docs = []
        seen[id(sub)] = (docs, [turn.timestamp for turn in child.turns])

    subs = read_subagents(session, visit=visit)
    texts: list[SubText] = []
    _walk(subs, None, [turn.timestamp for turn in session.turns], seen, texts)
    return subs, texts


def _walk(
    subs: Sequence[Subagent],
    runner: str | None,
    times: list[float | None],
    seen: dict[int, tuple[list[Doc] | None, list[float | None]]],
    out: list[SubText],
) -> None:
    taken: set[str] = set()
    for sub in subs:
        found = seen.get(id(sub))
        if found is None:
            continue  # not read (its file is gone, or not a session): nothing to find in it
        docs, own_times = found
        own = sub.ref.session_id or sub.ref.key or sub.ref.path.name
        base, n = own, 1
        while own in taken:  # two children known by one id: each keeps its own texts
            n += 1
            own = f"{base}~{n}"
        taken.add(own)
        ident = own if runner is None else f"{runner}/{own}"
        turn = sub.parent_turn if sub.parent_turn is not None else turn_at(times, sub.started)
        out.append(SubText(sub.ref, ident, runner, turn, sub.title, docs))
        _walk(sub.nested, ident, own_times, seen, out)


def turn_at(times: Sequence[float | None], moment: float | None) -> int:
    """The last turn started at or before `moment` (0 when none is known to be)."""
    found = 0
    if moment is None:
        return found
    for index, when in enumerate(times):
        if when is not None and when <= moment:
            found = index
    return found
