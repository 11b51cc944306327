"""Sub-agents kept in files of their own that say which session ran them.

Codex writes a sub-agent (`spawn_agent`) as a rollout of its own whose `session_meta`
names the parent thread; Gemini CLI writes one as `chats/<parent session id>/<id>.jsonl`.
Their readers put that id in `SessionRef.parent`, and the parent's reader lists, as its
`children`, those it reaches: the threads its calls or notifications name (Codex), the
chats tied to the agent call they ran during (Gemini CLI). A listing that holds the
parent leaves such a child to it, as Claude Code's `subagents/` files are (read, measured
and searched through the session that ran them). Any other file stays a session of its
own, so nothing is lost: one whose parent is not listed (deleted, or not among the paths
given), and one its parent's file never names (a spawn that reported no id, a chat tied
to no call).

Which children a parent reaches is known from a full read of it (`reaches_of`, kept as
`SessionRef.reaches` in the listing index, `catalog.index`); a listing that has not read
the parent asks a `Reaches` (the index, or a read), and a parent it knows nothing of
reaches nothing. A child is left only to a parent that is listed itself, or is in turn
left to one, within the depth that parents' reads follow sub-agents (`DEPTH`): a loop of
files naming each other, or a chain deeper than that, stays listed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable, Sequence

from pivotal.model import Session, SessionRef

_ROLLOUT = re.compile(
    r"rollout-.*-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
    r"\.jsonl"
)
"""`rollout-<local time>-<thread id>.jsonl`: Codex names each rollout by its thread."""

DEPTH = 3
"""Sub-agents of sub-agents are read this deep (`spend.subagents`): a file deeper under a
listed session than this is not read through it, so it stays listed."""
OWN_FILES = frozenset({"codex", "gemini"})
"""Formats whose sub-agents are files a listing finds (and that name their parent)."""

Reaches = Callable[[SessionRef], Container[str] | None]
"""The ids (lower-cased) of the sub-agents a session's read found it ran, for a session
whose ref does not carry them (`SessionRef.reaches`); None: not known."""


def rollout_thread(name: str) -> str | None:
    """The thread id a Codex rollout's file name ends with (None: not a rollout's name)."""
    match = _ROLLOUT.fullmatch(name)
    return match.group(1).lower() if match else None


def reaches_of(session: Session) -> tuple[str, ...] | None:
    """What `SessionRef.reaches` holds for `session` as read: its children's ids (None for
    a format whose sub-agents have no files a listing finds)."""
    if session.format not in OWN_FILES:
        return None
    return tuple(sorted({c.session_id.lower() for c in session.children if c.session_id}))


class _Every(Container[str]):
    """Holds every id: the reach of a parent taken to run whatever names it."""

    def __contains__(self, item: object) -> bool:
        return True


_EVERY = _Every()
_NONE: Container[str] = frozenset()
"""The reach of a parent not read: it is taken to run nothing (its sub-agents stay listed)."""


def by_name(ref: SessionRef) -> Container[str]:
    """A `Reaches` that takes every sub-agent naming a listed session to be run by it,
    whatever its ref says: not for a listing (it could lose files) but to choose which
    session to follow (a sub-agent starting is not a new session)."""
    return _EVERY


class Reach:
    """Which of the refs learnt so far are left to the sessions that ran them."""

    def __init__(
        self, refs: Iterable[SessionRef] = (), known: Reaches | None = None, depth: int = DEPTH
    ) -> None:
        self._known = known
        self._depth = depth
        self._by_id: dict[tuple[str, str], list[SessionRef]] = {}
        self._reach: dict[int, Container[str]] = {}
        self.add(refs)

    def add(self, refs: Iterable[SessionRef]) -> None:
        """Learn these sessions (a parent among them may reach refs learnt before)."""
        for ref in refs:
            if ref.session_id and ref.format in OWN_FILES:
                self._by_id.setdefault((ref.format, ref.session_id.lower()), []).append(ref)

    def held(self, ref: SessionRef) -> bool:
        """`ref` is a sub-agent a listed session reaches (through the sub-agents between
        them, within `DEPTH`): listed through it."""
        return any(self._rooted(p, self._depth - 1, {id(ref)}) for p in self._claimers(ref))

    def _rooted(self, ref: SessionRef, budget: int, path: set[int]) -> bool:
        """`ref` names no session that reaches it, or is reached from one that does not at
        most `budget` levels up (files in a loop, with none outside to start from: none)."""
        claimers = self._claimers(ref)
        if not claimers:
            return True
        if budget <= 0:
            return False
        seen = path | {id(ref)}
        return any(self._rooted(p, budget - 1, seen) for p in claimers if id(p) not in seen)

    def _claimers(self, ref: SessionRef) -> list[SessionRef]:
        """The learnt sessions that `ref` names as its parent and that reach it."""
        if not ref.parent or not ref.session_id:
            return []
        own, parent = ref.session_id.lower(), ref.parent.lower()
        if parent == own:
            return []  # a file that names itself as its parent would hide itself
        return [
            p
            for p in self._by_id.get((ref.format, parent), ())
            if p is not ref and own in self._reach_of(p)
        ]

    def _reach_of(self, ref: SessionRef) -> Container[str]:
        found = self._reach.get(id(ref))
        if found is None:
            found = ref.reaches if self._known is not by_name else None
            if found is None and self._known is not None:
                found = self._known(ref)
            found = found if found is not None else _NONE
            self._reach[id(ref)] = found
        return found


def listed_alone(
    refs: Sequence[SessionRef], known: Reaches | None = None, held: list[SessionRef] | None = None
) -> list[SessionRef]:
    """`refs` without the sub-agents a listed session among them reaches (`Reach`);
    `known` tells what a parent reaches when its ref does not say, `held` receives the
    refs left out."""
    if not any(ref.parent for ref in refs):
        return list(refs)
    reach = Reach(refs, known)
    shown = []
    for ref in refs:
        if ref.parent and reach.held(ref):
            if held is not None:
                held.append(ref)
        else:
            shown.append(ref)
    return shown
