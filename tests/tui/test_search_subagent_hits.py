"""A hit of the picker's search (Ctrl+F) in a sub-agent says which, and Enter lands in it: the
session opens at the call that ran it, the sub-agent over it (as Enter on that call opens
it) at the hit's turn with the match marked; Backspace goes back to the call, Esc to the
results. Claude Code's sub-agent files and 1.0.x's sidechains alike."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from pivotal.catalog.discovery import discover_details, discover_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker import PickerScreen
from pivotal.tui.session_list import SessionList
from readers import claude_sidechain_home as sidechains
from readers import claude_subagent_home as explore

from .conftest import screen_text, wait_for

SIZE = (160, 40)


def app_over(home: Path) -> ReplayerApp:
    """The app as `pivotal` opens it: the quick listing, counts (and the index) filled behind."""
    refs = discover_sessions([home], details=False)
    return ReplayerApp(None, refs=refs, details=partial(discover_details, [home], warn=print))


def rows(app: ReplayerApp) -> list[str]:
    shown = app.screen.query_one(SessionList)
    return [shown.render_line(y).text.rstrip() for y in range(min(shown.count, 20))]


def in_subagent(app: ReplayerApp) -> bool:
    screen = app.replay
    return screen is not None and bool(screen.came_from) and screen.landing is None


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))


async def test_enter_on_a_subagents_hit_lands_in_the_subagent(tmp_path: Path) -> None:
    explore.write_home(tmp_path / "home")
    app = app_over(tmp_path / "home")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *"EmptyTableError")
        await wait_for(lambda: any("EmptyTableError" in r for r in rows(app)))
        [row] = rows(app)
        assert f"#{explore.TASK_TURN + 1}" in row  # the session's turn: the Task call
        assert f'sub-agent "{explore.DESCRIPTION}" #{explore.FOUND_TURN + 1} ›' in row
        await pilot.press("enter")
        await wait_for(lambda: in_subagent(app))
        sub = app.replay
        assert sub.analysed and "sub-agent" in app.sub_title
        assert len(sub.playback.turns) == 3  # its prompt, its search, its report
        assert sub.playback.cursor == explore.FOUND_TURN
        assert sub.search.pattern is not None and sub.search.pattern.search("emptytableerror")
        assert "raise EmptyTableError(name)" in screen_text(app)
        assert f"in sub-agent “{explore.DESCRIPTION}”" in sub.status
        parent = app.screen_stack[-2]
        assert parent.playback.cursor == explore.TASK_TURN
        await pilot.press("backspace")  # back to the call that ran it
        await wait_for(lambda: app.replay is parent)
        assert parent.playback.cursor == explore.TASK_TURN
        await pilot.press("escape")  # and from there to the results
        assert isinstance(app.screen, PickerScreen)
        await wait_for(lambda: any("EmptyTableError" in r for r in rows(app)))


async def test_a_sidechains_hit_opens_that_sidechain_not_the_one_beside_it(tmp_path: Path) -> None:
    """1.0.x: the types and the writer sub-agents ran from one turn; the hit is the types'."""
    sidechains.home(tmp_path / "home")
    app = app_over(tmp_path / "home")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *'"File has not been read yet"')
        await wait_for(lambda: any("has not been read" in r for r in rows(app)))
        [row] = rows(app)
        assert f'sub-agent "{sidechains.DESCRIPTIONS["types"]}" #3 ›' in row and "#2" in row
        await pilot.press("enter")
        await wait_for(lambda: in_subagent(app))
        sub = app.replay
        assert len(sub.playback.turns) == 4  # the types' prompt and its three replies
        assert sub.playback.cursor == 2  # the failed edit
        assert sidechains.PROMPTS["types"] in screen_text(app)
        assert "File has not been read yet" in screen_text(app)
        await pilot.press("escape")  # straight back to the results
        assert isinstance(app.screen, PickerScreen)


async def test_a_subagent_that_cannot_be_opened_leaves_the_session_at_its_call(
    tmp_path: Path,
) -> None:
    """Its file gone since it was indexed: the call that ran it, and a line that says so."""
    from pivotal.catalog.search_index import SessionRow
    from pivotal.catalog.search_query import SubagentHit, parse_query
    from pivotal.readers import find_sessions
    from pivotal.tui.search_hit import land_in_subagent

    path = explore.write_home(tmp_path / "home")
    gone = SessionRow(
        9, str(path), "/sub:gone", "claude-code", "gone1234", "Gone", None, None, None,
        1, explore.TASK_TURN, False, str(path.with_suffix("") / "subagents" / "agent-gone.jsonl"),
    )  # fmt: skip
    app = ReplayerApp(find_sessions([path]).refs[0])
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(lambda: app.replay is not None and app.replay.analysed)
        screen = app.replay
        land_in_subagent(screen, 3, parse_query("EmptyTableError"), SubagentHit((gone,), 0))
        await pilot.pause()
        assert app.replay is screen and screen.playback.cursor == 3
        assert "in a sub-agent that cannot be opened" in screen.timeline.status().plain
