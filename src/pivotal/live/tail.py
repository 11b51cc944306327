"""Live follow: read a session again whenever its files change, without busy-waiting.

`follow(reader)` yields the initial read of a session and then one `Update`
per change. The reader does the byte-level work (partial lines held back,
truncation and replacement reloaded, a vanished file reported as gone); this
module only decides *when* to call `reader.poll()`:

- with OS notifications on the session's directory: Linux inotify read by
  the event loop itself (`pivotal.live.inotify`: no thread, no wake-up while
  idle), else watchfiles with a small `step`; plus a safety check once a
  second in case a notification was lost or the directory was replaced;
- or, where notifications are unavailable or `force_polling=True` (tests,
  network file systems), with an `os.stat` fingerprint every `poll_interval`.

Following a folder (or the whole machine) and switching to a newer session
lives in `tail_newest.py`. No UI imports here: the app and the headless
`scan --follow` share this core.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass

from msgspec.structs import replace

from pivotal.live.target import (
    Fingerprint,
    WatchTarget,
    directory_identity,
    fingerprint,
    target_for,
)
from pivotal.readers.base import SessionReader, Update, shown_name

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_POLL_INTERVAL",
    "DEFAULT_STEP_MS",
    "SAFETY_INTERVAL",
    "Tail",
    "changes",
    "follow",
    "merge_updates",
]

DEFAULT_STEP_MS = 5
"""watchfiles' sampling step (non-Linux). Idle CPU on a 2-core VM: 1 ms ~1.5 %, 5 ms ~0.5 %."""
DEFAULT_POLL_INTERVAL = 0.02
SAFETY_INTERVAL = 1.0
"""Seconds between fingerprint checks even when notifications are on."""
DEFAULT_BUDGET = 4 << 20
"""Bytes per `poll()` slice, so a huge initial read or append never blocks the loop for long."""


@dataclass(slots=True)
class _Outcome:
    """How a notification watch ended."""

    failed: bool = False


class _Halt:
    """Stop flag the watchfiles thread polls: the caller's event or our own."""

    def __init__(self, stop: asyncio.Event | None) -> None:
        self._stop = stop
        self._flag = False

    def is_set(self) -> bool:
        return self._flag or (self._stop is not None and self._stop.is_set())

    def set(self) -> None:
        self._flag = True


def merge_updates(first: Update, second: Update) -> Update:
    """One Update that says what two consecutive polls said."""
    changed = [i for i in (first.first_changed, second.first_changed) if i is not None]
    notices = [n for n in (first.notice, second.notice) if n]
    notice = "; ".join(dict.fromkeys(notices)) or None
    return Update(
        first_changed=min(changed) if changed else None,
        reloaded=first.reloaded or second.reloaded,
        notice=notice,
        new_skipped=first.new_skipped + second.new_skipped,
        gone=second.gone,
    )


class Tail:
    """Polls one reader and filters out what the caller need not hear twice.

    A deleted file is reported once (the reader says `gone` on every poll);
    when it comes back that is said once too. Reading is sliced by a byte
    budget and yields to the event loop between slices.
    """

    def __init__(self, reader: SessionReader, budget: int | None = DEFAULT_BUDGET) -> None:
        self.reader = reader
        self.budget = budget
        self.gone = False
        self._last_error: str | None = None

    async def read(self) -> Update:
        """Read everything that is new now, as one Update."""
        total = Update()
        before = -1
        while True:
            try:
                update = self.reader.poll(budget=self.budget)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                update = Update(notice=f"cannot read {shown_name(self.reader.ref.path)}: {reason}")
            total = merge_updates(total, update)
            done, size = self.reader.progress
            if update.gone or done >= size or done <= before:
                return total
            before = done
            await asyncio.sleep(0)

    async def first(self) -> Update:
        """The initial read (remembers whether the session was there at all)."""
        update = await self.read()
        self.gone = update.gone
        return update

    async def check(self) -> Update | None:
        """Read what is new; None when there is nothing the caller needs to hear."""
        update = await self.read()
        if update.gone:
            if self.gone:
                return None
            self.gone = True
            return update
        if self.gone:
            self.gone = False
            name = shown_name(self.reader.ref.path)
            notice = update.notice or f"{name} is back; following it again"
            return replace(update, notice=notice)
        if update.notice and not update.changed:
            if update.notice == self._last_error:
                return None
            self._last_error = update.notice
            return update
        self._last_error = None
        return update if update.changed or update.notice else None


async def changes(
    watch: WatchTarget,
    *,
    stop: asyncio.Event | None = None,
    poll: WatchTarget | None = None,
    force_polling: bool = False,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    step_ms: int = DEFAULT_STEP_MS,
    tick: float = SAFETY_INTERVAL,
    every_tick: bool = False,
    backend: str = "auto",
    since: Fingerprint | None = None,
) -> AsyncIterator[set[str]]:
    """Yield the changed paths under `watch` each time something changes there.

    An empty set is a tick: yielded every `tick` seconds when the fingerprint
    of `poll` (default `watch`) changed behind the notifications' back (or
    always with `every_tick`, for callers with periodic work), and whenever
    notifications had to be restarted. `backend` is "auto" (inotify on Linux,
    else watchfiles), "inotify", "watchfiles" or "polling"; a backend that
    cannot be set up gives way to the next, and polling `poll` every
    `poll_interval` is the last resort. Ends when `stop` is set. `since` is
    `poll`'s fingerprint when the caller last read: a change made before the
    watch was in place is reported (a tick) as soon as it is.
    """
    poll = poll or watch
    backends = _backends("polling" if force_polling else backend)
    while not _stopped(stop):
        if backends and directory_identity(watch) is not None:
            outcome = _Outcome()
            if backends[0] == "inotify":
                notified = _inotified(watch, poll, stop, tick, every_tick, outcome, since)
            else:
                notified = _notified(watch, poll, stop, step_ms, tick, every_tick, outcome, since)
            since = None
            async with aclosing(notified):
                async for batch in notified:
                    yield batch
            if _stopped(stop):
                return
            if outcome.failed:
                backends.pop(0)
            yield set()  # the watch ended: something may have been missed
            continue
        until_back = bool(backends)
        every = tick if every_tick else None
        polled = _polled(watch, poll, stop, poll_interval, until_back, every, since)
        since = None
        async with aclosing(polled):
            async for batch in polled:
                yield batch
        if not _stopped(stop):
            yield set()  # the directory is back: look before the watch starts


def _stopped(stop: asyncio.Event | None) -> bool:
    return stop is not None and stop.is_set()


def _backends(choice: str) -> list[str]:
    if choice == "polling":
        return []
    if choice == "auto":
        from pivotal.live.inotify import available

        return ["inotify", "watchfiles"] if available() else ["watchfiles"]
    if choice in ("inotify", "watchfiles"):
        return [choice]
    raise ValueError(f"unknown watch backend {choice!r}")


async def _inotified(
    watch: WatchTarget,
    poll: WatchTarget,
    stop: asyncio.Event | None,
    tick: float,
    every_tick: bool,
    outcome: _Outcome,
    since: Fingerprint | None = None,
) -> AsyncIterator[set[str]]:
    """Notifications from inotify on the loop; returns when the directory is gone or replaced."""
    from pivotal.live.inotify import Inotify

    identity = directory_identity(watch)
    try:
        notify = Inotify(watch.directory, watch.recursive)
    except OSError:
        if directory_identity(watch) is not None:
            outcome.failed = True
        return
    stopper: asyncio.Future[object] | None = None
    if stop is not None:
        stopper = asyncio.ensure_future(stop.wait())
        stopper.add_done_callback(lambda _f: notify.wake())
    last = fingerprint(poll)
    directory = str(watch.directory)
    try:
        if since is not None and last != since:
            yield set()  # written between the caller's read and the watch
        while not _stopped(stop):
            batch = await notify.events(tick)
            if _stopped(stop):
                return
            if batch is None or "" in batch or directory in batch:
                if not notify.watching or directory_identity(watch) != identity:
                    return
                now = fingerprint(poll)
                if now != last or every_tick or batch:
                    last = now
                    yield set()
                continue
            mine = {path for path in batch if watch.matches(path)}
            if mine:
                last = fingerprint(poll)
                yield mine
    finally:
        notify.close()
        if stopper is not None:
            stopper.cancel()


async def _notified(
    watch: WatchTarget,
    poll: WatchTarget,
    stop: asyncio.Event | None,
    step_ms: int,
    tick: float,
    every_tick: bool,
    outcome: _Outcome,
    since: Fingerprint | None = None,
) -> AsyncIterator[set[str]]:
    """Notifications from watchfiles; returns when the directory is gone or replaced.

    Sets `outcome.failed` when watchfiles could not watch at all (the caller
    then polls instead of retrying).
    """
    from watchfiles import awatch

    halt = _Halt(stop)
    identity = directory_identity(watch)
    last = fingerprint(poll)
    if since is not None and last != since:
        yield set()  # written between the caller's read and the watch
    try:
        async for batch in awatch(
            watch.directory,
            watch_filter=lambda _change, path: watch.matches(path),
            debounce=max(3 * step_ms, 10),
            step=step_ms,
            stop_event=halt,  # type: ignore[arg-type]  # duck-typed: only is_set()/set() are used
            rust_timeout=max(int(tick * 1000), 1),
            yield_on_timeout=True,
            recursive=watch.recursive,
            force_polling=False,
        ):
            if batch:
                last = fingerprint(poll)
                yield {path for _change, path in batch}
                continue
            if directory_identity(watch) != identity:
                return
            now = fingerprint(poll)
            if now != last or every_tick:
                last = now
                yield set()
    except (OSError, RuntimeError):
        # e.g. the inotify watch limit is reached; the directory vanishing is not a failure
        if directory_identity(watch) is not None:
            outcome.failed = True
    finally:
        halt.set()


async def _polled(
    watch: WatchTarget,
    poll: WatchTarget,
    stop: asyncio.Event | None,
    interval: float,
    until_back: bool,
    tick: float | None,
    since: Fingerprint | None = None,
) -> AsyncIterator[set[str]]:
    """Fingerprint `poll` every `interval` (and yield a tick every `tick` seconds if set).

    With `until_back`, returns as soon as the watched directory exists again
    (so notifications can take over).
    """
    loop = asyncio.get_running_loop()
    last = fingerprint(poll) if since is None else since
    paths = {str(p) for p in poll.files()}
    next_tick = loop.time() + tick if tick is not None else None
    while not _stopped(stop):
        await asyncio.sleep(interval)
        now = fingerprint(poll)
        if now != last:
            last = now
            yield paths
        elif tick is not None and next_tick is not None and loop.time() >= next_tick:
            next_tick = loop.time() + tick
            yield set()
        if until_back and directory_identity(watch) is not None:
            return


async def follow(
    reader: SessionReader,
    *,
    stop: asyncio.Event | None = None,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    force_polling: bool = False,
    step_ms: int = DEFAULT_STEP_MS,
    budget: int | None = DEFAULT_BUDGET,
    backend: str = "auto",
) -> AsyncIterator[Update]:
    """Yield the initial read of `reader`'s session, then one Update per change.

    Runs until `stop` is set (or the caller stops iterating). Turns read so
    far stay in `reader.session` when the file is deleted; reading resumes if
    it reappears. The session's files are only ever opened for reading.
    """
    tail = Tail(reader, budget)
    target = target_for(reader.ref.path)
    since = fingerprint(target)  # before reading: what is written after it is not missed
    yield await tail.first()
    if os.environ.get("WATCHFILES_FORCE_POLLING"):
        force_polling = True
    async with aclosing(
        changes(
            target,
            stop=stop,
            force_polling=force_polling,
            poll_interval=poll_interval,
            step_ms=step_ms,
            backend=backend,
            since=since,
        )
    ) as stream:
        async for _paths in stream:
            update = await tail.check()
            if update is not None:
                yield update
