"""Pacing named as asciinema names it (issue 16: 9): turns per second or real time with an
idle limit, shown in the status line; any speed in range is kept, a clamp is said; `]`
while playing skips ahead to the next pivot and stops there.
"""

from __future__ import annotations

from pivotal.tui.app import ReplayerApp

from .conftest import make_app, replay, wait_for
from .sessions import demo_pivots, demo_session

WIDE = (160, 48)


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


async def test_the_status_says_which_pace_and_a_clamped_speed_is_said() -> None:
    app = make_app(speed=3.0)
    async with app.run_test(size=WIDE) as pilot:
        assert "3 turns/s" in status(app)  # 3 stays 3 (it became 2x before)
        await pilot.press("R")
        assert "real time ×3 · idle ≤ 2 s" in status(app)
    app = ReplayerApp(session=demo_session(), pivots=demo_pivots(), speed=5000.0)
    async with app.run_test(size=WIDE):
        assert "speed 5000 is outside 1/16–1000: playing at 1000" in status(app)
        assert "1000 turns/s" in status(app)


async def test_real_time_from_the_command_line_options() -> None:
    app = make_app(speed=2.0, realtime=True, idle_limit=10.0)
    async with app.run_test(size=WIDE):
        pb = replay(app).playback
        assert pb.realtime and "real time ×2 · idle ≤ 10 s" in status(app)
        assert pb.delay_to_next() == 10 / 2  # the demo's turns are 30 s apart: cut to 10 s


async def test_the_top_speed_plays_a_session_in_moments() -> None:
    app = make_app(autopause=False, speed=1000.0)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("space")
        await wait_for(lambda: screen.playback.cursor == 27)  # 28 turns, 1000/s: at once
        assert "■ end of session" in status(app) or not screen.playback.playing


async def test_right_bracket_while_playing_skips_to_the_next_pivot_and_stops() -> None:
    app = make_app(at=0, speed=1 / 16)  # so slow that only the skip can get there
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("space")
        assert screen.playback.playing
        await pilot.press("right_square_bracket")
        assert screen.playback.cursor == 5 and not screen.playback.playing
        assert "skipped to pivot 1 (turn #6): auto-paused" in status(app)
        await pilot.press("space", "right_square_bracket")
        assert screen.playback.cursor == 24 and not screen.playback.playing


async def test_with_autopause_off_the_skip_plays_on_from_the_pivot() -> None:
    app = make_app(at=0, speed=1 / 16, autopause=False)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("space", "right_square_bracket")
        assert screen.playback.cursor == 5 and screen.playback.playing and screen.player.running
