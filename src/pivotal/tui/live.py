"""Live follow inside the replayer: a reading thread, the message it posts, the screen's state.

`LiveFollow` belongs to one `ReplayScreen`. `start()` runs a thread worker
with its own asyncio loop (reading, parsing and the incremental detector stay
off the UI thread); the loop follows one session (`tail.follow`) or the newest
session of a folder (`pivotal.live.newest.follow_newest`) and posts a `LiveUpdate`
per change. `apply()` (UI thread) shows it: the view stays pinned to the
newest turn unless the person moved away (toolong's tail: then a "N new
turns" badge, End re-pins), a silence at the live edge shows as a candidate
pivot until the detector confirms, re-classifies or drops it, and a pivot
confirmed while pinned auto-pauses there. Idle, the thread sleeps in the OS
watch (plus the core's once-a-second safety check): no UI timer runs.
"""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message
from textual.worker import Worker, get_current_worker

from pivotal.detect import PivotConfig, PivotTracker
from pivotal.live.newest import follow_newest
from pivotal.live.tail import DEFAULT_BUDGET, follow
from pivotal.model import Pivot, SessionRef, Turn
from pivotal.readers import open_reader
from pivotal.readers.base import SessionReader, Update
from pivotal.tui.loading import FIRST_BUDGET, find_failures
from pivotal.tui.render import pivot_banner

if TYPE_CHECKING:
    from pivotal.tui.replay_screen import ReplayScreen

WATCHDOG = 0.5
"""Seconds between checks that the worker was cancelled (the screen went away)."""
FREEZE_EVERY = 200
"""Turns that arrive between two `gc.freeze()` calls (see `LiveFollow.apply`)."""


@dataclass(slots=True)
class Snapshot:
    """What the reading thread saw after one change."""

    turns: list[Turn]
    first_changed: int | None
    reset: bool
    """Drop everything shown: the file was reloaded, or another session is followed."""
    pivots: list[Pivot] | None
    failures: list[int] | None
    done: int
    total: int
    reading: bool = False
    """Still inside the initial read (more slices follow)."""
    notice: str = ""
    title: str = ""
    gone: bool = False
    switched_to: SessionRef | None = None
    """The session now followed, when following a folder moved to a newer one."""


def merge(old: Snapshot, new: Snapshot) -> Snapshot:
    """One snapshot saying what two consecutive ones said (the newer turn list wins)."""
    firsts = [f for f in (old.first_changed, new.first_changed) if f is not None]
    reset = old.reset or new.reset
    first = 0 if reset else (min(firsts) if firsts else None)
    notices = [n for n in (old.notice, new.notice) if n]
    return Snapshot(
        new.turns,
        first,
        reset,
        new.pivots if new.pivots is not None else old.pivots,
        new.failures if new.failures is not None else old.failures,
        new.done,
        new.total,
        reading=new.reading,
        notice="; ".join(dict.fromkeys(notices)),
        title=new.title or old.title,
        gone=new.gone,
        switched_to=new.switched_to or old.switched_to,
    )


class LiveUpdate(Message):
    """The followed session changed: `LiveFollow.apply` takes the newest snapshot.

    Snapshots that arrive while the UI is still busy with an earlier one are
    merged into it (the turn list is always complete), so a burst of writes
    costs the UI one update, not one per line.
    """

    def __init__(self, generation: int) -> None:
        super().__init__()
        self.generation = generation


class Analyser:
    """Pivots (incremental detector) and failures of a growing turn list."""

    def __init__(self) -> None:
        self.tracker = PivotTracker(PivotConfig())
        self.failures: list[int] = []

    def update(self, turns: list[Turn], first: int) -> tuple[list[Pivot], list[int]]:
        if first == 0:
            self.tracker.reset()
        pivots = self.tracker.update(turns, first)
        kept = [index for index in self.failures if index < first]
        self.failures = kept + find_failures(turns[first:])
        return pivots, list(self.failures)


def _name(ref: SessionRef) -> str:
    return ref.title or ref.label


class LiveFollow:
    """Live follow state of one replay screen and the thread that reads for it."""

    def __init__(self, screen: ReplayScreen) -> None:
        self.screen = screen
        self.ref: SessionRef | None = None
        """The session on screen (set by the app when it opens one)."""
        self.folder: Path | None = None
        """Follow the newest session here instead of `ref` (switching when a new one starts)."""
        self.on = False
        self.generation = 0
        self.mark: int | None = None
        """Turn count when the view left the live edge (None while pinned)."""
        self.confirmed: set[int] | None = None
        """Anchors of confirmed pivots; None until the first analysis of this follow."""
        self.gone = False
        self.shown_hook: Callable[[int, int], None] | None = None
        """Called after the screen refreshed with an update: (bytes read, turn count)."""
        self._worker: Worker[None] | None = None
        self._stop: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None
        self._lock = threading.Lock()
        self._frozen_at = 0
        self._pending: dict[int, Snapshot] = {}
        """Per generation, the snapshot posted but not yet shown."""

    # -- switching on and off -------------------------------------------------------
    def toggle(self) -> None:
        """The F key: start or stop following the session on screen."""
        if self.on:
            self.stop()
            self.screen.notify("Live follow off.", timeout=3, markup=False)
            self.screen.sync(follow=False)
            return
        if self.ref is None and self.folder is None:
            self.screen.notify(
                "Nothing to follow: this session was not read from a file.",
                timeout=4,
                markup=False,
            )
            return
        self.start(initial=False)
        self.screen.notify("Live follow on: new turns appear as they are written.", timeout=3)

    def start(self, *, initial: bool) -> None:
        """Follow `folder` or `ref`; `initial`: nothing is on screen yet (read it in slices)."""
        self.stop()
        self.on = True
        self.generation += 1
        self.mark = None
        self.confirmed = None
        self.gone = False
        if not initial:
            self.screen.playback.last()
            self.screen.transcript.follow_cursor = True
        generation = self.generation
        self._worker = self.screen.run_worker(
            lambda: self._thread(generation, initial),
            name="live follow",
            group="live",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Following the session live",
        )
        self.screen.sync()

    def stop(self) -> None:
        """Stop the reading thread (it wakes at once) and forget the live state."""
        self.on = False
        self.mark = None
        with self._lock:
            stop, self._stop = self._stop, None
        if stop is not None:
            loop, event = stop
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the loop has already finished
                pass
        if self._worker is not None:
            self._worker.cancel()
            self._worker = None

    # -- the reading thread ------------------------------------------------------------
    def _thread(self, generation: int, initial: bool) -> None:
        worker = get_current_worker()
        try:
            asyncio.run(self._follow(generation, initial, worker))
        except Exception as exc:  # noqa: BLE001 - shown to the person, never swallowed silently
            self._post(generation, Snapshot([], None, False, None, None, 0, 0, notice=repr(exc)))

    def _post(self, generation: int, snapshot: Snapshot) -> None:
        with self._lock:
            pending = self._pending.get(generation)
            self._pending[generation] = snapshot if pending is None else merge(pending, snapshot)
            if pending is not None:
                return  # the UI has not taken the last one yet: it takes both at once
        self.screen.post_message(LiveUpdate(generation))

    async def _follow(self, generation: int, initial: bool, worker: Worker[None]) -> None:
        stop = asyncio.Event()
        with self._lock:
            if generation != self.generation or not self.on:
                return
            self._stop = (asyncio.get_running_loop(), stop)

        async def watchdog() -> None:
            while not stop.is_set():
                if worker.is_cancelled:
                    stop.set()
                await asyncio.sleep(WATCHDOG)

        guard = asyncio.create_task(watchdog())
        try:
            if self.folder is not None:
                await self._follow_folder(generation, self.folder, stop)
            elif self.ref is not None:
                await self._follow_ref(generation, self.ref, stop, initial)
        finally:
            stop.set()
            guard.cancel()

    async def _follow_ref(
        self, generation: int, ref: SessionRef, stop: asyncio.Event, initial: bool
    ) -> None:
        try:
            reader = open_reader(ref)
        except (OSError, KeyError, ValueError) as exc:
            notice = f"cannot open {ref.label}: {exc}"
            self._post(generation, Snapshot([], None, False, None, None, 0, 0, notice=notice))
            return
        analyser = Analyser()
        try:
            if initial:
                await self._read_in_slices(generation, reader, stop)
            first_update = True
            async for update in follow(reader, stop=stop):
                if stop.is_set():
                    return
                reset = update.reloaded
                self._send(generation, reader, update, analyser, reset=reset, force=first_update)
                first_update = False
        finally:
            reader.close()

    async def _read_in_slices(
        self, generation: int, reader: SessionReader, stop: asyncio.Event
    ) -> None:
        """The initial read of a big file: show the first slice at once, then the rest."""
        budget = FIRST_BUDGET
        while not stop.is_set():
            update = reader.poll(final=False, budget=budget)
            budget = DEFAULT_BUDGET
            done, total = reader.progress
            if done >= total or update.gone:
                return  # the follow loop's first read posts the whole session with its pivots
            turns = list(reader.session.turns)
            snapshot = Snapshot(turns, 0, False, None, None, done, total, reading=True)
            self._post(generation, snapshot)
            await asyncio.sleep(0)

    async def _follow_folder(self, generation: int, folder: Path, stop: asyncio.Event) -> None:
        analyser = Analyser()
        stream = follow_newest(folder, stop=stop)
        async with aclosing(stream) as followed:
            async for item in followed:
                if stop.is_set():
                    return
                if item.switched:
                    analyser = Analyser()
                title = _name(item.ref) if item.switched else ""
                self._send(
                    generation,
                    item.reader,
                    item.update,
                    analyser,
                    reset=item.switched,
                    force=item.switched,
                    title=title,
                    switched_to=item.ref if item.switched else None,
                )

    def _send(
        self,
        generation: int,
        reader: SessionReader,
        update: Update,
        analyser: Analyser,
        *,
        reset: bool,
        force: bool = False,
        title: str = "",
        switched_to: SessionRef | None = None,
    ) -> None:
        """Analyse what changed and post it (nothing when nothing the person sees changed)."""
        first = 0 if reset or update.reloaded or force else update.first_changed
        if first is None and not update.notice and not update.gone and not force:
            return
        turns = list(reader.session.turns)
        pivots = failures = None
        if first is not None:
            pivots, failures = analyser.update(turns, first)
        done, total = reader.progress
        snapshot = Snapshot(
            turns,
            first,
            reset,
            pivots,
            failures,
            done,
            total,
            notice=update.notice or "",
            title=title,
            gone=update.gone,
            switched_to=switched_to,
        )
        self._post(generation, snapshot)

    # -- the UI side ------------------------------------------------------------------
    def at_edge(self) -> bool:
        """The view is on the newest shown turn and the person has not scrolled away."""
        pb = self.screen.playback
        visible = pb.visible
        return (not visible or pb.cursor >= visible[-1]) and self.screen.transcript.follow_cursor

    def apply(self, message: LiveUpdate) -> None:
        """Show one update (UI thread)."""
        if not self.screen.ready:  # posted before the screen was mounted: show it after
            self.screen.call_after_refresh(self.apply, message)
            return
        with self._lock:
            snap = self._pending.pop(message.generation, None)
        if snap is None or message.generation != self.generation or not self.on:
            return
        screen, pb = self.screen, self.screen.playback
        transcript = screen.transcript
        pinned = self.at_edge() and self.mark is None
        old_count = len(pb.turns)
        if snap.notice:
            severity = "warning" if snap.gone else "information"
            screen.notify(snap.notice, severity=severity, timeout=6, markup=False)
        self.gone = snap.gone or (self.gone and snap.first_changed is None)
        if snap.title:
            screen.app.sub_title = snap.title
        if snap.switched_to is not None:
            # marks, notes and the resume command belong to the session now shown
            self.ref = snap.switched_to
            screen.reidentify(snap.switched_to)
        if snap.reset:
            transcript.expanded.clear()
            self.confirmed = None
            if snap.title:  # another session: start pinned at its end
                pinned, self.mark = True, None
        if snap.first_changed is not None or snap.reset:
            pb.set_turns(snap.turns)
            transcript.set_turns(snap.turns, 0 if snap.reset else snap.first_changed)
        if snap.reading:
            share = snap.done * 100 // max(snap.total, 1)
            screen.loading = f"reading {share}% ({snap.done >> 20}/{snap.total >> 20} MB)"
        stop_at = None
        analysed = snap.pivots is not None and snap.failures is not None
        first_analysis = self.confirmed is None
        if snap.pivots is not None and snap.failures is not None:
            stop_at = self._pivots(snap.pivots, snap.failures, pinned)
        if stop_at is not None:
            pb.goto(stop_at)
            pb.playing = False
            self.mark = stop_at + 1
            screen.status = f"auto-paused at pivot #{stop_at + 1}, confirmed live (End follows)"
            if not screen.wide:
                screen.panel_open = True
                screen.place_panel()
        elif pinned:
            pb.last()
            transcript.follow_cursor = True
        elif self.mark is None:
            self.mark = old_count
        if pb.playing and not pinned and getattr(screen, "_timer", None) is None:
            screen.schedule()
        banners = {p.turn: pivot_banner(p) for p in pb.pivots} if analysed else None
        if banners is not None and banners != transcript.banners:
            # banners are laid out over the turns shown, so show the new list first
            transcript.show(pb.shown(), pb.cursor, follow=False)
            transcript.set_banners(banners)
        # an auto-pause moves the person's attention to the pivot: show it now
        screen.sync(follow=transcript.follow_cursor, live=stop_at is None)
        if abs(len(snap.turns) - self._frozen_at) >= FREEZE_EVERY or (analysed and first_analysis):
            # the session's turns live as long as the app: keep full collections from walking
            # them all (a ~100 ms stall at the live edge), as the app does after a normal read
            gc.freeze()
            self._frozen_at = len(snap.turns)
        if self.shown_hook is not None:
            hook, done, count = self.shown_hook, snap.done, len(snap.turns)
            screen.call_after_refresh(lambda: hook(done, count))

    def _pivots(self, pivots: list[Pivot], failures: list[int], pinned: bool) -> int | None:
        """Show the detector's pivots; the turn to auto-pause at, if one was just confirmed."""
        screen, pb = self.screen, self.screen.playback
        screen.analysed = True
        screen.loading = ""
        # an unchanged pivot keeps its object, so the panel does not re-wrap its explanation
        known = {p.turn: p for p in pb.pivots}
        pivots = [known[p.turn] if known.get(p.turn) == p else p for p in pivots]
        pb.set_pivots(pivots)
        pb.set_failures(failures)
        confirmed = {p.turn for p in pivots if not p.candidate}
        fresh = sorted(confirmed - self.confirmed) if self.confirmed is not None else []
        self.confirmed = confirmed
        if fresh and pinned and pb.autopause:
            return fresh[-1]
        return None

    def label(self) -> str:
        """The LIVE indicator for the status line ("" when not following)."""
        if not self.on:
            return ""
        if self.mark is not None and self.at_edge():
            self.mark = None  # End (or stepping to the last turn) re-pins
        pb = self.screen.playback
        parts = ["● LIVE"]
        if self.gone:
            parts.append("file gone, waiting")
        if self.mark is not None:
            new = len(pb.turns) - self.mark
            parts.append(f"{new} new turn{'s' if new != 1 else ''} (End)" if new else "End follows")
        candidates = [p.turn for p in pb.pivots if p.candidate]
        if candidates:
            parts.append(f"candidate pivot #{candidates[-1] + 1}")
        return " · ".join(parts)
