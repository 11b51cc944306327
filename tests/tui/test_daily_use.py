"""Small things a daily user meets: no notes file until the first mark, where the replay
is (turn, percentage, session time), and a clear end of the session."""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp

from .conftest import make_app, replay
from .sessions import demo_pivots, demo_session

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.render_line(1).text


async def test_opening_a_session_creates_no_notes_file_until_the_first_mark(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(data))
    app = ReplayerApp(find_sessions([DEMO]).refs[0], demo=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = replay(app)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.marking.identity is not None and screen.analysed
        await pilot.press("l", "]", "u")
        await pilot.pause()
        assert not data.exists()  # reading, stepping, looking for marks: nothing written
        await pilot.press("m")
        await pilot.pause()
        assert (data / "notes.sqlite3").is_file()
        assert "marked turn" in screen.status


async def test_marks_already_saved_still_show_when_the_store_exists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    app = make_app(at=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("m")
        await pilot.pause()
    again = make_app()
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert replay(again).marking.marked_turns() == (3,)


async def test_the_status_shows_the_turn_its_percentage_and_the_session_time() -> None:
    app = make_app(at=10)  # demo turns are 30 s apart: turn 11 is 5:00 into 13:30
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        line = status(app)
        assert "turn 11/28 · 37%" in line
        assert "5:00 / 13:30" in line
        assert "2 pivots" in line
    narrow = make_app(at=10)
    async with narrow.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = status(narrow)
        assert "11/28" in line and "37%" in line and "5:00" in line


async def test_one_pivot_is_one_pivot() -> None:
    app = ReplayerApp(session=demo_session(), pivots=demo_pivots()[:1])
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert "1 pivot │" in status(app) and "1 pivots" not in status(app)


async def test_reaching_the_last_turn_says_the_session_ended() -> None:
    app = make_app(at=25, autopause=False)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        await pilot.pause()
        assert "end of session" not in status(app)
        await pilot.press("space")
        while screen.playback.playing:  # tick by hand: no waiting on the clock
            screen.tick()
            await pilot.pause()
        assert screen.playback.cursor == 27
        assert status(app).lstrip().startswith("■ end of session")
        await pilot.press("h")
        await pilot.pause()
        assert "end of session" not in status(app)
