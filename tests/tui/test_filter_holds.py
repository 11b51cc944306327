"""The transcript filter (\\) holds for every turn on screen, whenever it is shown.

A turn the filter hides is never drawn whole: not the one the cursor was on when
the filter was chosen, not one a jump, a seek or `:` lands on. The person's place
is kept (the cursor stays on its turn, as it always has), drawn as the turn's
header and a line saying the filter hides it; the status line says which filter
is on and how many of the session's turns it hides.

The demo session (`sessions.py`): 28 turns, failed calls at #2-#4, pivots at #6
and #25 (its cluster #25-#27), so "pivots only" shows 4 turns and hides 24.
"""

from __future__ import annotations

import re

import pytest

from pivotal.tui.app import ReplayerApp

from .conftest import make_app, replay, screen_text, turn_text

WIDE = (160, 48)
NARROW = (80, 24)
HEADER = re.compile(r"#(\d+)\s")


def on_screen(app: ReplayerApp) -> list[int]:
    """The turns whose headers are on screen (indices)."""
    return [int(m.group(1)) - 1 for m in HEADER.finditer(screen_text(app))]


def assert_filter_holds(app: ReplayerApp) -> None:
    """Every turn drawn is one the filter shows, or the cursor's drawn as its header alone."""
    screen = replay(app)
    pb, view = screen.playback, screen.transcript
    visible = set(pb.visible)
    for index in view.shown:
        if index in visible:
            continue
        assert index == pb.cursor, (index, pb.cursor)
        lines = turn_text(view, index).splitlines()
        assert len(lines) == 3 and f"#{index + 1} " in lines[0], lines  # header, note, blank
        words = {"human": "your messages only", "pivots": "pivots only"}.get(pb.filter.value)
        said = f"⊘ hidden by the filter ({words or 'failed calls only'}): you are on it"
        assert said in lines[1] and "\\ changes the filter" in lines[1], lines
        pos = view.position_of(index)
        assert view._offsets[pos + 1] - view._offsets[pos] == 3  # laid out as drawn
    for index in on_screen(app):
        assert index in visible or index == pb.cursor, (index, pb.filter, pb.cursor)


async def test_the_first_turn_under_pivots_only_is_its_header_and_why() -> None:
    """The audit's case: turn 1 still showed whole under "pivots only"."""
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("backslash", "backslash")
        await pilot.pause()
        text = screen_text(app)
        assert "Get the server to start" not in text  # turn #1's own words
        assert "#1 " in text and "hidden by the filter (pivots only)" in text
        assert_filter_holds(app)


@pytest.mark.parametrize(
    "keys",
    [
        ["full_stop", "full_stop", "full_stop"],  # stepping reveals the filter's turns only
        ["right_square_bracket", "left_square_bracket", "right_square_bracket"],
        ["shift+right", "shift+right", "shift+left", "G", "g"],
        ["colon", "1", "2", "enter", "full_stop", "comma"],  # :12 lands on a hidden turn
        ["e", "E", "e"],  # failures: hidden under pivots only
        ["5", "9", "0", "right_curly_bracket", "left_curly_bracket"],
    ],
    ids=["step", "pivot jumps", "seek", "goto", "failures", "percent and messages"],
)
@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["160x48", "80x24"])
async def test_the_filter_holds_after_every_move(keys: list[str], size: tuple[int, int]) -> None:
    app = make_app(at=1)
    async with app.run_test(size=size) as pilot:
        await pilot.press("backslash", "backslash")  # all -> your messages -> pivots only
        await pilot.pause()
        assert_filter_holds(app)
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            assert_filter_holds(app)


async def test_playing_under_a_filter_reveals_only_its_turns() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("backslash", "backslash", "backslash")  # failed calls only
        await pilot.pause()
        assert_filter_holds(app)  # turn #1 (no failure): its header alone
        await pilot.press("space")
        for _ in range(4):
            screen.tick()
            await pilot.pause()
            assert_filter_holds(app)
        assert screen.transcript.shown == [1, 2, 3]


async def test_a_hidden_turn_comes_back_whole_when_the_filter_shows_it() -> None:
    """Drawn first as the stand-in (`:22` under pivots only), turn #22 is measured at three
    lines; once the filter shows it, it is as a fresh replay draws it, not cut to three."""
    app = make_app()
    fresh = make_app(at=21)  # an agent turn: five lines whole
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("backslash", "backslash", "colon", "2", "2", "enter")
        await pilot.pause()
        assert_filter_holds(app)
        assert "Benchmark 6" not in screen_text(app)
        await pilot.press("backslash", "backslash")  # failed calls only, then all turns
        await pilot.pause()
        seen = screen_text(app)
    async with fresh.run_test(size=WIDE) as pilot:
        await pilot.pause()
        assert screen_text(fresh) == seen
    assert "Benchmark 6" in seen and "bench 6" in seen


async def test_the_status_line_says_the_filter_and_how_many_turns_it_hides() -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("backslash", "backslash", "full_stop")  # the notice goes at a key
        assert "filter: pivots only · 24 of 28 turns hidden" in screen.timeline.status().plain
    app = make_app(at=10)
    async with app.run_test(size=NARROW) as pilot:
        screen = replay(app)
        await pilot.press("backslash", "full_stop")
        assert "your messages only, 18 hidden" in screen.timeline.status().plain


async def test_enter_on_a_hidden_turn_says_so_and_unfolds_nothing() -> None:
    app = make_app(at=1)  # a turn with a tool call
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("backslash", "backslash", "enter")
        assert not screen.transcript.expanded.get(1)
        assert screen.status == "turn #2 is hidden by the filter (pivots only): \\ changes it"
