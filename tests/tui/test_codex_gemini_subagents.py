"""Codex's spawned threads and Gemini CLI's agents in the replayer, as Claude Code's
sub-agents are: the picker lists the session that ran them (not them), the call that ran
one says what it did (`↳ sub-agent`), Enter on it opens its transcript (a Codex
sub-agent's own spawn opens the next level), Backspace comes back; a search hit in one
says which."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from pivotal.catalog.discovery import discover_details, discover_sessions
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.session_list import SessionList
from readers import codex_subagent_home as codex
from readers import gemini_subagent_home as gemini

from .conftest import replay, screen_text, wait_for

FULL = (160, 48)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))


def _spawn_turn(app: ReplayerApp, call_id: str) -> int:
    turns = replay(app).playback.turns
    return next(i for i, t in enumerate(turns) for c in t.tool_calls if c.call_id == call_id)


async def test_enter_on_a_spawn_call_opens_the_codex_sub_agent_and_its_own(tmp_path: Path) -> None:
    paths = codex.write_home(tmp_path)
    [ref] = find_sessions([paths[codex.PARENT]]).refs
    app = ReplayerApp(ref, sensitivity="1")
    async with app.run_test(size=FULL) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed, timeout=20)
        at = _spawn_turn(app, codex.ADA_CALL)
        assert {s.parent_turn for s in screen.subagents} == {at, _spawn_turn(app, codex.BROOK_CALL)}
        screen.moved(screen.playback.goto(at))
        await pilot.pause()
        # Ada's three replies and two calls, and Cedar's two and one; their tokens: 900 + 300
        assert "↳ sub-agent: 5 agent turns · 3 calls · 7 s · 1.2 k tokens" in screen_text(app)
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not screen and app.replay.analysed, timeout=20)
        ada = app.replay
        assert ada.came_from and "sub-agent" in app.sub_title
        assert codex.ADA_TASK in screen_text(app)
        assert [s.ref.session_id for s in ada.subagents] == [codex.CEDAR]
        ada.moved(ada.playback.goto(_spawn_turn(app, codex.CEDAR_CALL)))
        await pilot.press("enter")  # depth 2: the thread Ada spawned
        await wait_for(lambda: app.replay not in (screen, ada) and app.replay.analysed, 20)
        assert codex.CEDAR_TASK in screen_text(app)
        await pilot.press("backspace")
        await wait_for(lambda: app.replay is ada)
        await pilot.press("backspace")
        await wait_for(lambda: app.replay is screen)
        assert screen.playback.cursor == at
        assert "back from the sub-agent" in screen.timeline.status().plain


async def test_enter_on_an_agent_call_opens_the_gemini_sub_agent(tmp_path: Path) -> None:
    path = gemini.write_home(tmp_path)
    [ref] = find_sessions([path]).refs
    app = ReplayerApp(ref, sensitivity="1")
    async with app.run_test(size=FULL) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed, timeout=20)
        assert {s.parent_turn for s in screen.subagents} == {1, 4}
        screen.moved(screen.playback.goto(1))
        await pilot.pause()
        assert "↳ sub-agent: 2 agent turns · 2 calls" in screen_text(app)
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not screen and app.replay.analysed, timeout=20)
        assert gemini.OBJECTIVE in screen_text(app)
        await pilot.press("backspace")
        await wait_for(lambda: app.replay is screen)


def _rows(app: ReplayerApp) -> list[str]:
    shown = app.screen.query_one(SessionList)
    return [shown.render_line(y).text.rstrip() for y in range(min(shown.count, 20))]


async def test_the_picker_lists_the_sessions_and_finds_their_sub_agents_text(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    codex.write_home(home)
    gemini.write_home(home)
    discover_sessions([home])  # counted once: the index knows which sub-agents each reaches
    refs = discover_sessions([home], details=False)
    assert len(refs) == 2  # the Codex session and the Gemini CLI one: no sub-agent row
    app = ReplayerApp(None, refs=refs, details=partial(discover_details, [home], warn=print))
    async with app.run_test(size=FULL) as pilot:
        await pilot.pause()
        assert app.screen.query_one(SessionList).count == 2
        await pilot.press("ctrl+f", *"parse time")  # only Cedar, spawned by Ada, saw it
        await wait_for(lambda: any("parse time" in row for row in _rows(app)))
        [row] = [r for r in _rows(app) if "parse time" in r]
        assert f'sub-agent "{codex.CEDAR_TITLE}"' in row
