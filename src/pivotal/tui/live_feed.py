"""The reading side of live follow: a followed session, read and analysed off the UI thread.

`follow_ref` follows one session file (`live.tail.follow`), `follow_folder` the
newest session of a folder (`live.newest.follow_newest`); both run in the
follow thread's own asyncio loop and hand each change to `post` as a
`Snapshot`, with the incremental detector's pivots, possible pivots and turned-down
silences (one pass) and the failures when the turns changed. The followed session is
kept in the search index meanwhile (`catalog.search_live`). `tui.live.LiveFollow` runs
them and shows what they post. No widgets here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass
from pathlib import Path

from pivotal.catalog.search_live import LiveIndexer
from pivotal.detect import PivotConfig, PivotTracker
from pivotal.detect.evaluate import Rejection
from pivotal.live.newest import follow_newest
from pivotal.live.tail import DEFAULT_BUDGET, follow
from pivotal.model import Pivot, SessionRef, Turn
from pivotal.readers import open_reader
from pivotal.readers.base import SessionReader, Update, shown_name
from pivotal.tui.loading import FIRST_BUDGET, find_failures


@dataclass(slots=True)
class Snapshot:
    """What the reading thread saw after one change."""

    turns: list[Turn]
    first_changed: int | None
    reset: bool
    """Drop everything shown: the file was reloaded, or another session is followed."""
    pivots: list[Pivot] | None
    """The pivots and the possible pivots (`Pivot.possible`), when the turns changed."""
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
    rejections: list[Rejection] | None = None
    """The silences judged no pivot, with why (None: not analysed in this snapshot)."""


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
        rejections=new.rejections if new.pivots is not None else old.rejections,
    )


Post = Callable[[Snapshot], None]
"""Hands one snapshot to the UI thread (thread-safe)."""


class Analyser:
    """Pivots (incremental detector) and failures of a growing turn list."""

    def __init__(self, config: PivotConfig | None = None) -> None:
        self.config = config or PivotConfig()
        self.tracker = PivotTracker(self.config)
        self.failures: list[int] = []
        self.rejections: list[Rejection] = []
        """The silences judged no pivot after the last update (why each is none)."""

    def update(self, turns: list[Turn], first: int) -> tuple[list[Pivot], list[int]]:
        """The pivots and possible pivots (`Pivot.possible`) now, and the failures; the
        turned-down silences are left in `rejections` (the same pass of the detector)."""
        if first == 0:
            self.tracker.reset()
        self.tracker.update(turns, first)
        pivots = self.tracker.all_pivots()
        self.rejections = self.tracker.rejections()
        kept = [index for index in self.failures if index < first]
        self.failures = kept + find_failures(turns[first:])
        return pivots, list(self.failures)


def _name(ref: SessionRef) -> str:
    return ref.title or ref.label


async def follow_ref(
    post: Post,
    ref: SessionRef,
    stop: asyncio.Event,
    initial: bool,
    config: PivotConfig | None = None,
) -> None:
    """Follow one session file; `initial`: nothing is on screen yet (read it in slices first)."""
    try:
        reader = open_reader(ref)
    except (OSError, KeyError, ValueError) as exc:
        notice = f"cannot open {shown_name(ref.path)}: {exc}"
        post(Snapshot([], None, False, None, None, 0, 0, notice=notice))
        return
    analyser = Analyser(config)
    indexer = LiveIndexer(ref).start()  # the search index keeps up with it too
    try:
        if initial:
            await read_in_slices(post, reader, stop)
        first_update = True
        async for update in follow(reader, stop=stop):
            if stop.is_set():
                return
            reset = update.reloaded
            send(post, reader, update, analyser, reset=reset, force=first_update)
            first_update = False
    finally:
        reader.close()
        indexer.close()


async def read_in_slices(post: Post, reader: SessionReader, stop: asyncio.Event) -> None:
    """The initial read of a big file: show the first slice at once, then the rest.

    A poll that gets no further than the one before ends it too: a half-written
    whole-document session reads nothing until it is rewritten (the follow loop
    waits for that), and looping here spun a core.
    """
    budget = FIRST_BUDGET
    last: int | None = None
    while not stop.is_set():
        update = reader.poll(final=False, budget=budget)
        budget = DEFAULT_BUDGET
        done, total = reader.progress
        if done >= total or update.gone or (done == last and update.first_changed is None):
            return  # the follow loop's first read posts the whole session with its pivots
        last = done
        turns = list(reader.session.turns)
        snapshot = Snapshot(turns, 0, False, None, None, done, total, reading=True)
        post(snapshot)
        await asyncio.sleep(0)


async def follow_folder(
    post: Post, folder: Path, stop: asyncio.Event, config: PivotConfig | None = None
) -> None:
    """Follow the newest session in `folder`, starting over when a newer one starts."""
    analyser = Analyser(config)
    stream = follow_newest(folder, stop=stop)
    indexer: LiveIndexer | None = None
    try:
        async with aclosing(stream) as followed:
            async for item in followed:
                if stop.is_set():
                    return
                if item.switched:
                    analyser = Analyser(config)
                    if indexer is not None:
                        indexer.close()
                    indexer = LiveIndexer(item.ref).start()
                title = _name(item.ref) if item.switched else ""
                send(
                    post,
                    item.reader,
                    item.update,
                    analyser,
                    reset=item.switched,
                    force=item.switched,
                    title=title,
                    switched_to=item.ref if item.switched else None,
                )
    finally:
        if indexer is not None:
            indexer.close()


def send(
    post: Post,
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
    pivots = failures = rejections = None
    if first is not None:
        pivots, failures = analyser.update(turns, first)
        rejections = analyser.rejections
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
        rejections=rejections,
    )
    post(snapshot)
