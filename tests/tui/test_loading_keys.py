"""Keys while a big file is still read (issue 35: 8).

`]` and `[` say the pivots are not known yet instead of "no later pivot", the
status does not claim "0 pivots", and `G` follows the end as more turns arrive
until the person moves. The reading is held at a gate between two slices, so
the keys land while it is under way, every time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pivotal.model import Session, SessionRef
from pivotal.tui.app import ReplayerApp
from pivotal.tui.loading import Batch

from .conftest import replay, wait_for
from .sessions import demo_turns

FIRST = 10


class Held:
    """A reader whose session arrives in two slices, the second once `gate` is set."""

    def __init__(self, turns: list) -> None:  # type: ignore[type-arg]
        self.session = Session("claude-code", Path("held.jsonl"), turns=turns)
        self.gate = threading.Event()

    def batches(self, reader: object, cancelled: Callable[[], bool]) -> Iterator[Batch]:
        turns = self.session.turns
        yield Batch(turns[:FIRST], 0, 100, 1000, False)
        self.gate.wait(20)
        yield Batch(list(turns), FIRST, 1000, 1000, True)

    def close(self) -> None:
        pass


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Held:
    reader = Held(demo_turns())
    monkeypatch.setattr("pivotal.tui.app.open_reader", lambda ref: reader)
    monkeypatch.setattr("pivotal.tui.app.read_batches", reader.batches)
    return reader


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_pivot_keys_say_the_file_is_still_read(held: Held, size: tuple[int, int]) -> None:
    app = ReplayerApp(SessionRef("claude-code", Path("held.jsonl")))
    async with app.run_test(size=size) as pilot:
        screen = replay(app)
        await wait_for(lambda: len(screen.playback.turns) == FIRST)
        assert "0 pivots" not in status(app) and "pivots …" in status(app)
        await pilot.press("right_square_bracket")
        assert "still reading" in status(app) and "no later pivot" not in status(app)
        assert screen.playback.cursor == 0
        held.gate.set()
        await wait_for(lambda: screen.analysed)
        await pilot.press("G", "right_square_bracket")
        assert "no later pivot" in status(app)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_g_follows_the_end_while_the_file_is_read(held: Held, size: tuple[int, int]) -> None:
    app = ReplayerApp(SessionRef("claude-code", Path("held.jsonl")))
    async with app.run_test(size=size) as pilot:
        screen = replay(app)
        await wait_for(lambda: len(screen.playback.turns) == FIRST)
        await pilot.press("G")
        assert screen.playback.cursor == FIRST - 1
        assert "following the end" in status(app) and "end" not in status(app).split("│")[0]
        held.gate.set()
        await wait_for(lambda: len(screen.playback.turns) == len(held.session.turns))
        assert screen.playback.cursor == len(held.session.turns) - 1
        assert screen.transcript.shown[-1] == screen.playback.cursor
        assert "still reading" not in status(app)  # read to the end: no longer true
        assert "■ end" in status(app)


async def test_a_move_after_g_stops_following_the_end(held: Held) -> None:
    app = ReplayerApp(SessionRef("claude-code", Path("held.jsonl")))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        await wait_for(lambda: len(screen.playback.turns) == FIRST)
        await pilot.press("G", "h")  # to the end, then a step back: the person took over
        assert screen.playback.cursor == FIRST - 2
        held.gate.set()
        await wait_for(lambda: len(screen.playback.turns) == len(held.session.turns))
        assert screen.playback.cursor == FIRST - 2
