"""Live follow inside the replayer: the follow thread, the messages it posts, the live state.

`LiveFollow` belongs to one `ReplayScreen`, which creates it with the widget it
works through (the thread worker, messages, notifications) and the `Playback`
it shares. `start()` runs a thread worker with its own asyncio loop (reading,
parsing and the incremental detector stay off the UI thread: `tui.live_feed`)
and posts `LiveFollow.Updated` to the screen per change. `apply()` (UI thread)
shows it: the view stays pinned to the newest turn unless the person moved
away (toolong's tail: then a "N new turns" badge, End re-pins), a silence at
the live edge shows as a candidate pivot until the detector confirms,
re-classifies or drops it, and a pivot confirmed while pinned auto-pauses
there. What belongs to the screen itself (its status and progress lines, the
panel, the play timer) goes back to it as `Shown`. Idle, the thread sleeps in
the OS watch (plus the core's once-a-second safety check): no UI timer runs.
"""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, get_current_worker

if TYPE_CHECKING:  # the feed (the detector, the tail) loads in the follow thread, when it starts
    from pivotal.tui.live_feed import Snapshot

from pivotal.model import Pivot, SessionRef
from pivotal.text.plural import plural

if TYPE_CHECKING:
    from pivotal.detect.evaluate import Rejection
from pivotal.tui.collector import IdleCollector
from pivotal.tui.playback import Playback
from pivotal.tui.safe import clean
from pivotal.tui.transcript import TranscriptView

WATCHDOG = 0.5
"""Seconds between checks that the worker was cancelled (the screen went away)."""
FREEZE_EVERY = 200
"""Turns that arrive between two `gc.freeze()` calls (see `LiveFollow.apply`)."""


@dataclass(slots=True)
class Shown:
    """What one live update means for the screen's own lines (`LiveFollow.apply` did the rest)."""

    pinned: bool
    """The view was at the live edge (and stays there)."""
    loading: str | None = None
    """The progress line now ("" once analysed); None leaves it as it is."""
    analysed: bool = False
    paused_at: int | None = None
    """A pivot was just confirmed at the live edge: playback stopped on it."""
    restarted: bool = False
    """The file was read again from its start (truncated, replaced): what was said of the
    old turns (an auto-pause) no longer holds."""


class LiveFollow:
    """Live follow state of one replay screen and the thread that reads for it."""

    class Updated(Message):
        """The followed session changed: `LiveFollow.apply` takes the newest snapshot.

        Snapshots that arrive while the UI is still busy with an earlier one are
        merged into it (the turn list is always complete), so a burst of writes
        costs the UI one update, not one per line.
        """

        def __init__(self, generation: int) -> None:
            super().__init__()
            self.generation = generation

    class Switched(Message):
        """Following a folder moved on to a newer session: marks and resume belong to it now."""

        def __init__(self, ref: SessionRef) -> None:
            super().__init__()
            self.ref = ref

    def __init__(self, owner: Widget, playback: Playback) -> None:
        self.owner = owner
        """The screen: runs the thread, receives the messages, shows notifications."""
        self.playback = playback
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
        self.paused_at: int | None = None
        """The pivot a live auto-pause moved the view back to, while the view is still on it
        (the status line says why the view moved and how to get back)."""
        self.gone = False
        self.shown_hook: Callable[[int, int], None] | None = None
        """Called after the screen refreshed with an update: (bytes read, turn count)."""
        self._worker: Worker[None] | None = None
        self._stop: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None
        self._lock = threading.Lock()
        self._frozen_at = 0
        self._pending: dict[int, Snapshot] = {}
        """Per generation, the snapshot posted but not yet shown."""

    @property
    def transcript(self) -> TranscriptView:
        return self.owner.query_one(TranscriptView)

    # -- switching on and off -------------------------------------------------------
    def toggle(self) -> None:
        """The F key: start or stop following the session on screen (the screen then syncs)."""
        if self.on:
            self.stop()
            self.owner.notify("Live follow off.", timeout=3, markup=False)
            return
        if self.ref is None and self.folder is None:
            self.owner.notify(
                "Nothing to follow: this session was not read from a file.",
                timeout=4,
                markup=False,
            )
            return
        if getattr(self.owner.app, "demo", False):
            self.owner.notify(
                "Nothing to follow: the demo is a finished session that nothing writes to."
                " `pivotal follow` follows your agent's newest session as it is written.",
                timeout=6,
                markup=False,
            )
            return
        self.start(initial=False)
        self.owner.notify(
            "Live follow on: new turns appear as they are written.", timeout=3, markup=False
        )

    def start(self, *, initial: bool) -> None:
        """Follow `folder` or `ref`; `initial`: nothing is on screen yet (read it in slices)."""
        self.stop()
        self.on = True
        self.generation += 1
        self.mark = self.paused_at = None
        self.confirmed = None
        self.gone = False
        if not initial:
            self.playback.last()
            self.transcript.follow_cursor = True
        generation = self.generation
        self._worker = self.owner.run_worker(
            lambda: self._thread(generation, initial),
            name="live follow",
            group="live",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Following the session live",
        )

    def stop(self) -> None:
        """Stop the reading thread (it wakes at once) and forget the live state."""
        self.on = False
        self.mark = self.paused_at = None
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
            from pivotal.tui.live_feed import Snapshot

            self._post(generation, Snapshot([], None, False, None, None, 0, 0, notice=repr(exc)))

    def _post(self, generation: int, snapshot: Snapshot) -> None:
        from pivotal.tui.live_feed import merge

        with self._lock:
            pending = self._pending.get(generation)
            self._pending[generation] = snapshot if pending is None else merge(pending, snapshot)
            if pending is not None:
                return  # the UI has not taken the last one yet: it takes both at once
        self.owner.post_message(LiveFollow.Updated(generation))

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

        from pivotal.tui.live_feed import follow_folder, follow_ref

        guard = asyncio.create_task(watchdog())
        post = partial(self._post, generation)
        try:
            config = getattr(self.owner.app, "config", None)
            if self.folder is not None:
                await follow_folder(post, self.folder, stop, config)
            elif self.ref is not None:
                await follow_ref(post, self.ref, stop, initial, config)
        finally:
            stop.set()
            guard.cancel()

    # -- the UI side ------------------------------------------------------------------
    def at_edge(self) -> bool:
        """The view is on the newest shown turn and the person has not scrolled away."""
        pb = self.playback
        visible = pb.visible
        return (not visible or pb.cursor >= visible[-1]) and self.transcript.follow_cursor

    def moved_back(self) -> bool:
        """The person put the cursor before the newest turn, once the session was read and
        judged. Not the transcript's scroll state, nor the cursor while the first read is
        still adding turns: a frame drawn in between must not hold the view for good (it
        would never auto-pause)."""
        visible = self.playback.visible
        return self.confirmed is not None and bool(visible) and self.playback.cursor < visible[-1]

    def apply(self, generation: int) -> Shown | None:
        """Show the newest update of `generation` (UI thread, screen mounted); None: stale.

        Updates the playback, the transcript and the live state; the screen shows `Shown`.
        """
        with self._lock:
            snap = self._pending.pop(generation, None)
        if snap is None or generation != self.generation or not self.on:
            return None
        pb, transcript = self.playback, self.transcript
        shown = Shown(pinned=self.at_edge() and self.mark is None)
        old_count = len(pb.turns)
        if snap.notice:
            severity = "warning" if snap.gone else "information"
            self.owner.notify(clean(snap.notice), severity=severity, timeout=6, markup=False)
        self.gone = snap.gone or (self.gone and snap.first_changed is None)
        if snap.title:
            self.owner.app.sub_title = snap.title
        if snap.switched_to is not None:
            self.ref = snap.switched_to
            self.owner.post_message(LiveFollow.Switched(snap.switched_to))
        if snap.reset:
            transcript.expanded.clear()
            self.confirmed = None
            shown.restarted = True
            if snap.title:  # another session: start pinned at its end
                shown.pinned, self.mark = True, None
        if self.mark is not None and self.mark > len(snap.turns):
            # truncated under a held view: the turns it was held at are gone, follow anew
            shown.pinned, self.mark, shown.restarted = True, None, True
        if snap.first_changed is not None or snap.reset:
            first = 0 if snap.reset else snap.first_changed
            pb.set_turns(snap.turns, first)
            transcript.set_turns(snap.turns, first)
            ledger = getattr(self.owner, "ledger", None)  # the status line's spend
            if ledger is not None:
                ledger.update(snap.turns, first)
        if snap.reading:
            share = snap.done * 100 // max(snap.total, 1)
            shown.loading = f"reading {share}% ({snap.done >> 20}/{snap.total >> 20} MB)"
        first_analysis = self.confirmed is None
        if snap.pivots is not None and snap.failures is not None:
            shown.analysed, shown.loading = True, ""
            shown.paused_at = self._pivots(
                snap.pivots, snap.failures, shown.pinned, snap.rejections or []
            )
        if shown.restarted:
            self.paused_at = None  # said of turns that are gone
        if shown.paused_at is not None:
            pb.goto(shown.paused_at)
            pb.playing = False
            self.mark, self.paused_at = shown.paused_at + 1, shown.paused_at
        elif shown.pinned:
            pb.last()
            transcript.follow_cursor = True
        elif self.mark is None:
            self.mark = old_count
        judged = getattr(self.owner, "judged_banners", None)  # pivots, possible, turned down
        banners = judged() if shown.analysed and judged is not None else None
        if banners is not None and banners != transcript.banners:
            # banners are laid out over the turns shown, so show the new list first
            transcript.show(pb.shown(), pb.cursor, follow=False, hidden=pb.hiding())
            transcript.set_banners(banners)
        count = len(snap.turns)
        if abs(count - self._frozen_at) >= FREEZE_EVERY or (shown.analysed and first_analysis):
            # the session's turns live as long as the app: keep full collections from walking
            # them all (a ~100 ms stall at the live edge), as the app does after a normal read
            collector = getattr(self.owner.app, "collector", None)
            if isinstance(collector, IdleCollector):
                collector.start()  # freezes, and collects between keys from then on
            else:
                gc.freeze()
            self._frozen_at = count
        if self.shown_hook is not None:
            hook, done = self.shown_hook, snap.done
            self.owner.call_after_refresh(lambda: hook(done, count))
        return shown

    def _pivots(
        self, pivots: list[Pivot], failures: list[int], pinned: bool, rejections: list[Rejection]
    ) -> int | None:
        """Show the detector's verdicts (`pivots` holds the possible pivots too); the turn to
        auto-pause at, if a pivot was just confirmed (never a possible one)."""
        pb = self.playback
        # an unchanged pivot keeps its object, so the panel does not re-wrap its explanation
        known = {p.turn: p for p in (*pb.pivots, *pb.possible)}
        pivots = [known[p.turn] if known.get(p.turn) == p else p for p in pivots]
        pb.set_judged(pivots, rejections)
        pb.set_failures(failures)
        confirmed = {p.turn for p in pivots if not p.candidate and not p.possible}
        fresh = sorted(confirmed - self.confirmed) if self.confirmed is not None else []
        self.confirmed = confirmed
        if fresh and pinned and pb.autopause:
            return fresh[-1]
        return None

    def label(self) -> tuple[str, str]:
        """The LIVE indicator for the status line, full and short (("", "") when not following).

        One part says both that the session is live and where the view is: following
        its newest turn, or held where the person (or an auto-pause) left it, with the
        turns written since and End to catch up. `● LIVE │ ⏸ paused` read as a
        contradiction; at 80 columns the short form keeps the count (`● LIVE held +9 End`).
        A view the person moved back (a step, a jump, the mouse) is held from then on, not
        when the next turn arrives; one an auto-pause moved back to a pivot just confirmed
        says so, and how to get back, for as long as it stays there.
        """
        if not self.on:
            return "", ""
        pb = self.playback
        if self.mark is not None and self.at_edge():
            self.mark = None  # End (or stepping to the last turn) re-pins
        elif self.mark is None and self.moved_back():
            self.mark = len(pb.turns)  # moved away: what is written from now on is new
        if self.paused_at is not None and (self.mark is None or pb.cursor != self.paused_at):
            self.paused_at = None  # moved on from the pivot: an ordinary held view
        full, short = ["● LIVE"], ["● LIVE"]
        if self.gone:
            full.append("file gone, waiting")
            short.append("gone")
        elif not pb.turns:
            full.append("the file is empty: waiting for its first turn")
            short.append("empty")
        elif self.mark is None:
            full.append("following")
        elif self.paused_at is not None:
            after = len(pb.turns) - self.paused_at - 1
            full.append(
                f"auto-paused at the pivot just confirmed · {plural(after, 'turn')} after it"
                " (End: back to the live end)"
            )
            short.append(f"auto-paused at a new pivot +{after} (End: live end)")
        else:
            new = len(pb.turns) - self.mark
            if new > 0:
                full.append(f"held here · {new} new turn{'s' if new != 1 else ''} (End follows)")
                short.append(f"held +{new} End")
            else:
                full.append("held here (End follows)")
                short.append("held (End)")
        candidates = [p.turn for p in pb.pivots if p.candidate]
        if candidates:
            full.append(f"candidate pivot at turn #{candidates[-1] + 1}")
        return " · ".join(full), " ".join(short)

    def empty_note(self, reading: str) -> str:
        """What the transcript says while there is no turn to show."""
        if self.on and not reading:
            return (
                "The session file holds no turn yet (it may be being written): "
                "its turns appear here as they are written."
            )
        return "Reading the session…" if reading else "No turns to show."
