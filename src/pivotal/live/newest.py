"""Follow the newest session in a folder (or on the machine) and switch when a new one starts.

People run an agent again and again in the same project; a second terminal
should keep up without being restarted. `follow_newest()` follows the most
recently updated session it finds, and when a session that was not there
before appears, it switches to it and says so (`Followed.switched`).

The source is either a directory (watched recursively, so a new file wakes
it at once; Codex files land in new dated sub-folders) or a callable that
lists sessions (e.g. `pivotal.catalog.discovery.discover_sessions`), which is asked
again every `rescan_interval` seconds. Which sessions are new, which is the
newest, and the notice saying which is followed, is `pivotal.live.chooser`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path

from pivotal.live.chooser import Chooser, ListRefs, newest, refs_in, switch_notice
from pivotal.live.tail import DEFAULT_BUDGET, DEFAULT_POLL_INTERVAL, DEFAULT_STEP_MS, Tail, changes
from pivotal.live.target import Fingerprint, WatchTarget, fingerprint, target_for
from pivotal.model import SessionRef
from pivotal.readers import open_reader
from pivotal.readers.base import SessionReader, Update

__all__ = ["Followed", "follow_newest"]

OpenRef = Callable[[SessionRef], SessionReader]

MIN_RESCAN = 0.2
"""Seconds between two listings caused by notifications (other sessions may write a lot)."""
WATCHED_RESCAN_FACTOR = 10
"""A watched folder announces new files itself; its periodic listing is only a safety net."""


@dataclass(frozen=True, slots=True)
class Followed:
    """One step of following the newest session.

    `switched` is True on the first update of a session (the first one too):
    the caller should drop what it showed and show `reader.session` from the
    start. `update.notice` then says which session is followed and why.
    """

    ref: SessionRef
    reader: SessionReader
    update: Update
    switched: bool = False


async def follow_newest(
    source: Path | str | ListRefs,
    *,
    list_refs: ListRefs | None = None,
    open_ref: OpenRef = open_reader,
    stop: asyncio.Event | None = None,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    force_polling: bool = False,
    step_ms: int = DEFAULT_STEP_MS,
    rescan_interval: float = 1.0,
    budget: int | None = DEFAULT_BUDGET,
    backend: str = "auto",
) -> AsyncIterator[Followed]:
    """Follow the newest session of `source`; switch when a new session appears.

    `source` is a folder (watched; listed with the format registry unless
    `list_refs` says how, again when a file other than the followed one
    changes, and every 10 x `rescan_interval` in case a notification was
    lost) or a callable listing sessions (asked again every `rescan_interval`
    seconds). Yields `Followed` items until `stop` is set.
    """
    folder: WatchTarget | None = None
    if isinstance(source, str | Path):
        folder = WatchTarget(Path(os.path.realpath(source)), None, True)
        listing = list_refs or refs_in(Path(source))
    else:
        listing = source
    chooser = Chooser(listing)
    notified = folder is not None and not force_polling and backend != "polling"
    periodic = rescan_interval * (WATCHED_RESCAN_FACTOR if notified else 1)
    ref = newest(await chooser.scan())
    reader: SessionReader | None = None
    tail: Tail | None = None
    previous: SessionRef | None = None
    since: Fingerprint | None = None
    try:
        while not (stop is not None and stop.is_set()):
            if ref is not None:
                if reader is not None:
                    reader.close()
                reader = open_ref(ref)
                tail = Tail(reader, budget)
                since = fingerprint(target_for(ref.path))  # a write before the watch counts
                update = await tail.first()
                yield Followed(ref, reader, switch_notice(update, ref, previous), True)
                previous = ref
            current = target_for(ref.path) if ref is not None else None
            watch = folder if folder is not None and _inside(current, folder) else current
            ref = None
            if watch is None:
                # nothing to follow and nothing to watch: ask again later
                await asyncio.sleep(rescan_interval)
                ref = newest(await chooser.scan())
                continue
            stream = changes(
                watch,
                stop=stop,
                poll=current or watch,
                force_polling=force_polling,
                poll_interval=poll_interval,
                step_ms=step_ms,
                tick=rescan_interval,
                every_tick=True,
                backend=backend,
                since=since,
            )
            since = None
            async with aclosing(stream):
                async for paths in stream:
                    if tail is not None and reader is not None and previous is not None:
                        mine = current is None or not paths or any(map(current.matches, paths))
                        if mine:
                            update = await tail.check()
                            if update is not None:
                                yield Followed(previous, reader, update)
                    others = current is None or any(not current.matches(p) for p in paths)
                    if (others and chooser.due(MIN_RESCAN)) or chooser.due(periodic):
                        ref = newest(await chooser.scan())
                        if ref is not None:
                            break
    finally:
        if reader is not None:
            reader.close()


def _inside(current: WatchTarget | None, folder: WatchTarget) -> bool:
    if current is None:
        return True
    return current.directory == folder.directory or folder.directory in current.directory.parents
