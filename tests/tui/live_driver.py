"""Drive a replay screen's live follow by hand: no thread, no watch, no waiting.

`FollowDriver` does what the follow thread does (`live.tail.Tail` reads the file,
`tui.live_feed.send` analyses it and hands a `Snapshot` over) and then shows it
as the screen does when `LiveFollow.Updated` arrives, all in the test's own
steps: a test appends bytes or replaces the file, calls `read()`, and looks at
what the screen says. What the real thread adds (the OS watch, the slicing) is
held by tests/tail and tests/tui/test_live.py.
"""

from __future__ import annotations

from pathlib import Path

from pivotal.live.tail import Tail
from pivotal.model import Session
from pivotal.readers import find_sessions, open_reader
from pivotal.tui.app import ReplayerApp
from pivotal.tui.live import LiveFollow
from pivotal.tui.live_feed import Analyser, Snapshot, send
from pivotal.tui.replay_screen import ReplayScreen


def empty_app(path: Path, **kwargs: object) -> ReplayerApp:
    """An app showing nothing yet, to be fed by a `FollowDriver` (the file names it)."""
    return ReplayerApp(session=Session("claude-code", path), pivots=[], **kwargs)  # type: ignore[arg-type]


class FollowDriver:
    """Follows `path` on `screen` the way `LiveFollow`'s thread does, one read per call."""

    def __init__(self, screen: ReplayScreen, path: Path) -> None:
        self.screen = screen
        self.ref = find_sessions([path]).refs[0]
        self.reader = open_reader(self.ref)
        self.tail = Tail(self.reader, budget=None)
        self.analyser = Analyser(getattr(screen.app, "config", None))
        self.first = True
        live = screen.live
        live.ref, live.on, live.mark, live.confirmed = self.ref, True, None, None
        live.generation += 1

    async def read(self) -> bool:
        """Read what is new in the file and show it; False when nothing was to be said."""
        live = self.screen.live
        update = await (self.tail.first() if self.first else self.tail.check())
        if update is None:
            return False
        posted: list[Snapshot] = []
        send(
            posted.append,
            self.reader,
            update,
            self.analyser,
            reset=update.reloaded,
            force=self.first,
        )
        self.first = False
        if not posted:
            return False
        with live._lock:  # as `LiveFollow._post` leaves it for the UI thread
            live._pending[live.generation] = posted[0]
        self.screen.show_live_update(LiveFollow.Updated(live.generation))
        return True

    def close(self) -> None:
        self.reader.close()


def following_app(path: Path, monkeypatch: object, **kwargs: object) -> ReplayerApp:
    """`pivotal follow PATH` as the command line opens it, its reading thread left out: the
    test's `FollowDriver` reads instead."""
    monkeypatch.setattr(LiveFollow, "start", lambda self, *, initial: None)  # type: ignore[attr-defined]
    ref = find_sessions([path]).refs[0]
    return ReplayerApp(ref, follow=True, **kwargs)  # type: ignore[arg-type]
