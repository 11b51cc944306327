"""A Claude Code 1.0.x session, whose sub-agents are written into its own file, replays as
a newer one does: no sidechain turn in the transcript, a `↳ sub-agent` line under each
Task that ran one, Enter opens it and Backspace comes back."""

from __future__ import annotations

from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from readers import claude_sidechain_home as home

from .conftest import replay, screen_text, wait_for

FULL = (160, 48)


async def test_the_tasks_show_their_subagents_and_enter_opens_one(tmp_path) -> None:
    ref = find_sessions([home.home(tmp_path)]).refs[0]
    app = ReplayerApp(ref, sensitivity="1")
    async with app.run_test(size=FULL) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed, timeout=20)
        turns = screen.playback.turns
        assert len(turns) == 10  # the person, the agent and Claude Code's notes: no sidechain
        assert sum(t.is_human for t in turns) == 3
        assert {s.parent_turn for s in screen.subagents} == {1, 5, 6}
        screen.moved(screen.playback.goto(1))  # the two parallel Tasks
        await pilot.pause()
        text = screen_text(app)
        assert "sidechain" not in text
        assert text.count("↳ sub-agent") == 2, text
        assert "↳ sub-agent: 2 agent turns · 1 call · 9 s" in text  # the writer
        assert "↳ sub-agent: 3 agent turns · 2 calls · 1 failed · 14 s" in text  # the types
        await pilot.press("enter")  # two ran from this turn: which one?
        await wait_for(
            lambda: "Open which sub-agent?" in str(app.screen.query_one("#prompt-label").render())
        )
        await pilot.press("1", "enter")  # in call order: the types first
        await wait_for(lambda: app.replay is not screen and app.replay.analysed, timeout=20)
        sub = app.replay
        assert sub.came_from and "sub-agent" in app.sub_title
        assert len(sub.playback.turns) == 4  # its prompt and its three replies
        assert home.PROMPTS["types"] in screen_text(app)
        await pilot.press("backspace")
        await wait_for(lambda: app.replay is screen)
        assert screen.playback.cursor == 1
        assert "back from the sub-agent" in screen.timeline.status().plain
