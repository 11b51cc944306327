"""The turn a step reveals is rendered between frames, and draws as a fresh render would.

A new turn's Markdown and highlighting cost 2-20 ms, most of a step's frame on a
big session; the screen names the turn a step would reveal (`render_soon`) and
the transcript renders it once the frame is out, as the cursor will draw it.
"""

from __future__ import annotations

from dataclasses import replace

from pivotal.tui.playback import Filter

from .conftest import make_app, replay, screen_text, wait_for


async def test_the_turn_after_the_cursor_is_ready_before_the_step() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.ready)
        screen.playback.goto(10)
        screen.sync()
        view = screen.transcript
        await wait_for(lambda: view._ahead_timer is None)
        assert view._ahead == 11
        ready = (11, replace(view.look(11), cursor=True))
        assert ready in view._cache  # rendered as the cursor will show it
        renders = view.renders
        await pilot.press("right")
        await wait_for(lambda: screen.playback.cursor == 11)
        assert view.renders <= renders + 1  # at most the turn after 11, rendered ahead in turn
        stepped = screen_text(app)
    fresh = make_app()
    async with fresh.run_test(size=(120, 40)):
        other = replay(fresh)
        await wait_for(lambda: other.ready)
        other.playback.goto(11)
        other.sync()
        await wait_for(lambda: other.transcript._ahead_timer is None)
        assert screen_text(fresh) == stepped  # what was rendered ahead draws the same


async def test_under_a_filter_the_next_shown_turn_is_the_one_made_ready() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)):
        screen = replay(app)
        await wait_for(lambda: screen.ready)
        screen.playback.set_filter(Filter.HUMAN)
        screen.playback.first()
        screen.sync()
        view = screen.transcript
        expected = screen.playback.following()
        assert expected is not None and expected > screen.playback.cursor + 1
        await wait_for(lambda: view._ahead_timer is None)
        assert view._ahead == expected
        assert (expected, replace(view.look(expected), cursor=True)) in view._cache
