"""Which session to follow: what a source holds, which sessions are new, which is newest.

`pivotal.live.newest` follows one session and switches when another starts;
this is how it chooses: a `Chooser` lists the source again (a folder through
the format registry, or any callable), remembers every session it has seen,
and hands back only those that appeared since; `switch_notice` says which
session was chosen and which it replaced.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path

from msgspec.structs import replace

from pivotal.model import SessionRef, last_change
from pivotal.readers import find_sessions
from pivotal.readers.base import Update, shown_name
from pivotal.readers.subagent_refs import by_name

__all__ = ["Chooser", "ListRefs", "newest", "refs_in", "switch_notice"]

ListRefs = Callable[[], Iterable[SessionRef]]


def refs_in(directory: Path) -> ListRefs:
    """List the sessions under `directory` with the format registry; a sub-agent whose
    session is there too is none to switch to (following the session shows it), and no
    session is read to know whether it reaches it."""

    def listing() -> list[SessionRef]:
        return find_sessions([directory], by_name).refs

    return listing


def _key(ref: SessionRef) -> tuple[str, str | None]:
    return (str(ref.path), ref.key)


def newest(refs: Iterable[SessionRef]) -> SessionRef | None:
    """The most recently updated of `refs` (None if there are none)."""
    return max(refs, key=last_change, default=None)


class Chooser:
    """Remembers which sessions exist, and picks a new one when it appears."""

    def __init__(self, list_refs: ListRefs) -> None:
        self.list_refs = list_refs
        self.known: set[tuple[str, str | None]] = set()
        self.last = float("-inf")

    async def scan(self) -> list[SessionRef]:
        """List the source again (in a thread): the sessions not seen before."""
        self.last = asyncio.get_running_loop().time()
        try:
            refs = list(await asyncio.to_thread(self.list_refs))
        except OSError:
            return []
        new = [ref for ref in refs if _key(ref) not in self.known]
        self.known.update(_key(ref) for ref in refs)
        return new

    def due(self, interval: float) -> bool:
        """Whether `interval` seconds have passed since the last listing."""
        return asyncio.get_running_loop().time() - self.last >= interval


def switch_notice(update: Update, ref: SessionRef, previous: SessionRef | None) -> Update:
    """`update` with a notice saying which session is now followed (and which it replaced)."""
    name = shown_name(ref.path) + (f"#{ref.key}" if ref.key else "")
    if previous is None:
        text = f"following {name}"
    else:
        text = f"new session {name}: switched from {shown_name(previous.path)}"
    notice = f"{text}; {update.notice}" if update.notice else text
    return replace(update, notice=notice)
