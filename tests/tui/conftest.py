"""Shared helpers for the replayer tests: an app over the hand-built demo session."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from pivotal.tui.app import ReplayerApp
from pivotal.tui.replay_screen import ReplayScreen
from pivotal.tui.transcript import TranscriptView

from .sessions import demo_pivots, demo_session


async def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait until `condition()` holds (polling; the cap only turns a hang into a failure)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def make_app(**kwargs: object) -> ReplayerApp:
    return ReplayerApp(session=demo_session(), pivots=demo_pivots(), **kwargs)  # type: ignore[arg-type]


def replay(app: ReplayerApp) -> ReplayScreen:
    screen = app.replay
    assert screen is not None
    return screen


def turn_text(view: TranscriptView, index: int) -> str:
    """The plain text of one rendered turn, as it appears on screen."""
    return "\n".join(strip.text for strip in view.rendered(index).strips)


def screen_text(app: ReplayerApp) -> str:
    """Every visible line of the transcript right now."""
    view = replay(app).transcript
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


@pytest.fixture
def app() -> ReplayerApp:
    return make_app()
