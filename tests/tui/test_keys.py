"""Every replay key, pressed through Pilot, and what it changes (cursor, play state, view)."""

from __future__ import annotations

import pytest
from textual import events

from pivotal.tui.playback import Filter
from pivotal.tui.render import ALL_PARTS
from pivotal.tui.screens import HelpScreen, PromptScreen

from .conftest import make_app, replay, screen_text, turn_text, wait_for

WIDE = (160, 48)


@pytest.mark.parametrize("keys", [[".", "l", "right"], [",", "h", "left"]])
async def test_step_keys(keys: list[str]) -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        assert pb.cursor == 10
        forward = keys[0] == "."
        for n, key in enumerate(keys, 1):
            await pilot.press(key)
            assert pb.cursor == (10 + n if forward else 10 - n)


async def test_space_plays_and_pauses() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("space")
        assert screen.playback.playing and screen.player.running
        assert "▶ playing" in screen.timeline.status().plain
        await pilot.press("space")
        assert not screen.playback.playing
        assert "⏸ paused" in screen.timeline.status().plain


async def test_playing_reveals_turns_and_autopauses_at_pivot() -> None:
    app = make_app(at=3)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("space")
        screen.tick()
        assert screen.playback.cursor == 4 and screen.playback.playing
        screen.tick()
        await pilot.pause()
        assert screen.playback.cursor == 5 and not screen.playback.playing
        assert "auto-paused" in screen.timeline.status().plain
        # the transcript now ends with the pivot turn
        assert 5 in screen.transcript.shown and screen.transcript.shown[-1] == 5


async def test_autopause_key_turns_it_off() -> None:
    app = make_app(at=4)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("A")
        assert not screen.playback.autopause
        assert "auto-pause off" in screen.timeline.status().plain
        await pilot.press("space")
        screen.tick()
        assert screen.playback.cursor == 5 and screen.playback.playing


async def test_playing_really_advances_on_the_timer() -> None:
    app = make_app(autopause=False, speed=16.0)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("space")
        await wait_for(lambda: screen.playback.cursor >= 2)  # the play timer, not a tick() call


async def test_speed_keys() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        await pilot.press("plus")
        assert pb.speed == 2.0
        await pilot.press("minus", "minus")
        assert pb.speed == 0.5
        assert "1/2 turns/s" in replay(app).timeline.status().plain
        await pilot.press("R")
        assert pb.realtime
        assert "real time ×1/2 · idle ≤ 2 s" in replay(app).timeline.status().plain


async def test_pivot_jumps_and_panel() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("right_square_bracket")
        assert screen.playback.cursor == 5
        panel_text = screen.panel.text.plain
        assert "Pivot 1/2 · turn #6 · delegation after dead end" in panel_text  # the banner's
        assert "0.86" in panel_text and "empty" in panel_text
        assert "debugging → fixing" in panel_text
        assert "agent asked how to proceed" in panel_text  # delegation signal
        await pilot.press("right_square_bracket")
        assert screen.playback.cursor == 24
        panel_text = screen.panel.text.plain
        assert "compaction boundary, not necessarily the person" in panel_text
        await pilot.press("left_square_bracket")
        assert screen.playback.cursor == 5


async def test_evidence_link_jumps_to_its_turn() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        panel = screen.panel
        lines = [strip.text for strip in panel.lines()]
        row = next(n for n, line in enumerate(lines) if "→ turn #2 " in line)
        await pilot.click(panel, offset=(lines[row].index("→ turn #2 ") + 2, row))
        assert screen.playback.cursor == 1  # turn #2 is index 1


async def test_timeline_click_jumps_to_pivot_marker() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        timeline = screen.timeline
        column = timeline.column_of(24, timeline.size.width)
        await pilot.click(timeline, offset=(column, 0))
        assert screen.playback.cursor == 24


@pytest.mark.parametrize(("key", "expected"), [("0", 0), ("5", 14), ("9", 25)])
async def test_percent_keys(key: str, expected: int) -> None:
    app = make_app(at=7)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press(key)
        assert replay(app).playback.cursor == expected


@pytest.mark.parametrize(("key", "expected"), [("G", 27), ("end", 27), ("g", 0), ("home", 0)])
async def test_first_and_last(key: str, expected: int) -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press(key)
        assert replay(app).playback.cursor == expected


async def test_shift_arrows_seek_ten_percent() -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("shift+right")
        assert replay(app).playback.cursor == 12
        await pilot.press("shift+left", "shift+left")
        assert replay(app).playback.cursor == 8


async def test_goto_prompt() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("colon")
        assert isinstance(app.screen, PromptScreen)
        await pilot.press("1", "7", "enter")
        assert replay(app).playback.cursor == 16


async def test_search_then_n_and_shift_n() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("slash")
        await pilot.press(*"OOM", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.playback.cursor == 3  # "OOM killed" in a tool output
        assert "OOM killed" in turn_text(screen.transcript, 3)  # its call was unfolded
        await pilot.press("n")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.playback.cursor == 6  # "server crashes with OOM" in the agent's text
        await pilot.press("N")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.playback.cursor == 3


async def test_search_not_found_says_so() -> None:
    app = make_app(at=2)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("slash", *"zebra", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.playback.cursor == 2
        assert "not found" in screen.timeline.status().plain


async def test_failure_keys() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        await pilot.press("e", "e")
        assert pb.cursor == 2
        await pilot.press("E")
        assert pb.cursor == 1


async def test_filter_key_cycles_and_keeps_the_current_turn() -> None:
    app = make_app(at=27)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        pb = screen.playback
        await pilot.press("backslash")
        assert pb.filter is Filter.HUMAN and pb.cursor == 27  # it stays where the person is
        *before, last = screen.transcript.shown
        assert before and all(pb.turns[i].is_human for i in before) and last == 27
        assert "filter: your messages only" in screen.timeline.status().plain
        await pilot.press("h")  # stepping goes to the filter's turns
        assert pb.cursor == 22 and screen.transcript.shown[-1] == 22
        await pilot.press("backslash")
        assert pb.filter is Filter.PIVOTS and pb.visible == [5, 24, 25, 26]
        assert pb.cursor == 22 and screen.transcript.shown == [5, 22]
        await pilot.press("l")
        assert pb.cursor == 24
        await pilot.press("backslash")
        assert pb.filter is Filter.FAILURES and screen.transcript.shown == [1, 2, 3, 24]
        await pilot.press("ampersand")
        assert pb.filter is Filter.ALL and pb.cursor == 24  # a round of the filter: same turn


async def test_enter_expands_tool_calls() -> None:
    app = make_app(at=1)
    async with app.run_test(size=WIDE) as pilot:
        view = replay(app).transcript
        assert "Error: bind failed" not in turn_text(view, 1)
        await pilot.press("enter")
        assert ALL_PARTS in view.expanded[1]
        text = turn_text(view, 1)
        assert "Error: bind failed" in text and "command: make serve" in text
        await pilot.press("enter")
        assert "Error: bind failed" not in turn_text(view, 1)


async def test_clicking_a_tool_header_expands_just_that_call() -> None:
    app = make_app(at=1)
    async with app.run_test(size=WIDE) as pilot:
        view = replay(app).transcript
        row = next(r for r in view.rendered(1).tool_rows)
        y = view._offsets[view.position_of(1)] + row - int(view.scroll_offset.y)
        await pilot.click(view, offset=(5, y))
        assert view.expanded[1] == frozenset({2})
        assert "Error: bind failed" in turn_text(view, 1)


async def test_t_toggles_reasoning() -> None:
    app = make_app(at=1)
    async with app.run_test(size=WIDE) as pilot:
        view = replay(app).transcript
        assert "The port may be taken." not in turn_text(view, 1)
        assert "thinking (22 chars" in turn_text(view, 1)
        await pilot.press("t")
        assert "The port may be taken." in turn_text(view, 1)


async def test_panel_docked_when_wide_and_toggled() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        assert screen.panel.display
        await pilot.press("p")
        assert not screen.panel.display
        await pilot.press("p")
        assert screen.panel.display


async def test_panel_overlay_when_narrow() -> None:
    app = make_app(at=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        assert not screen.panel.display
        await pilot.press("p")
        assert screen.panel.display
        await pilot.press("escape")
        assert not screen.panel.display


async def test_narrow_autopause_opens_the_panel() -> None:
    app = make_app(at=4)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        await pilot.press("space")
        screen.tick()
        await pilot.pause()
        assert screen.panel.display


async def test_scroll_keys_move_the_transcript() -> None:
    app = make_app(at=27)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = replay(app).transcript
        bottom = view.scroll_y
        assert bottom > 0 and bottom == view.max_scroll_y
        await pilot.press("k")
        assert view.scroll_y == bottom - 1
        await pilot.press("pageup")
        assert view.scroll_y < bottom - 5
        await pilot.press("j", "pagedown", "ctrl+d")
        # measuring turns while scrolling up may correct estimated heights: compare to the end
        assert view.scroll_y == view.max_scroll_y
        end = view.scroll_y
        await pilot.press("ctrl+u")
        assert view.scroll_y < end


async def test_mouse_wheel_scrolls() -> None:
    app = make_app(at=27)
    async with app.run_test(size=(80, 24)) as pilot:
        view = replay(app).transcript
        bottom = view.scroll_y
        await pilot._post_mouse_events([events.MouseScrollUp], view, offset=(5, 5))
        await pilot.pause()
        assert view.scroll_y < bottom


async def test_help_lists_every_key_and_closes() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.screen is replay(app)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)


async def test_escape_pauses_playback() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("space")
        await pilot.press("escape")
        assert not replay(app).playback.playing


async def test_q_quits() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("q")
    assert app.return_code == 0


async def test_every_action_is_in_the_command_palette() -> None:
    app = make_app()
    async with app.run_test(size=WIDE):
        titles = {c.title for c in app.get_system_commands(replay(app))}
        for needed in (
            "Next pivot (playing: skip there, stop)",
            "Search",
            "Go to turn…",
            "Show/hide reasoning",
            "Filter: all/human/pivots/failures",
            "Play/pause",
            "Next failure",
        ):
            assert needed in titles


async def test_the_palette_offers_one_screenshot_the_one_that_saves_a_file() -> None:
    """Textual's own entry delivers to a browser and does nothing in a terminal: only the
    replay's (S, written to pivotal's screenshots folder) is offered."""
    app = make_app()
    async with app.run_test(size=WIDE):
        shots = [c for c in app.get_system_commands(replay(app)) if "creenshot" in c.title]
        assert [c.help for c in shots] == ["key: S"]


async def test_palette_command_runs_the_action() -> None:
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        command = next(
            c for c in app.get_system_commands(replay(app)) if c.title.startswith("Next pivot")
        )
        await command.callback()
        await pilot.pause()
        assert replay(app).playback.cursor == 5


async def test_transcript_shows_the_cursor_turn_last() -> None:
    app = make_app(at=6)
    async with app.run_test(size=(80, 24)):
        text = screen_text(app)
        assert "#7" in text and "#8" not in text
        assert "┃ ◆ Agent  #7" in text  # the cursor turn is marked with a heavy bar


def test_help_table_lists_every_bound_action() -> None:
    from rich.console import Console

    from pivotal.tui import keys
    from pivotal.tui.screens import help_table

    console = Console(width=120, record=True)
    console.print(help_table())
    text = console.export_text()
    for binding in keys.bindings():
        description = binding.tooltip or binding.description
        if binding.action.startswith("percent("):
            description = "Jump to 0–90 %"
        assert description in text, binding.action


async def test_help_scrolls_with_the_keys_at_80x24() -> None:
    from pivotal.tui.lines_view import LinesView

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        body = app.screen.query_one("#help-body", LinesView)
        await pilot.pause()
        assert body.max_scroll_y > 3  # the help is longer than the screen
        await pilot.press("j", "j", "j")
        assert body.scroll_y == 3
        await pilot.press("k")
        assert body.scroll_y == 2
        await pilot.press("G")
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("pageup")
        assert 0 < body.scroll_y < body.max_scroll_y
        await pilot.press("g")
        assert body.scroll_y == 0
