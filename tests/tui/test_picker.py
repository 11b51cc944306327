"""The session picker (issue 16: 7): type to filter (fuzzy over agent, project, title and
path), column headers, the session's start rather than the file's last change, rows that fit
80 columns, and a way back to it from a replay (`o`, and the palette).
"""

from __future__ import annotations

from pathlib import Path

from pivotal.model import SessionRef
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker import PickerScreen, fuzzy_score, matching
from pivotal.tui.session_list import SessionList

from .conftest import make_app, replay, wait_for

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "src" / "pivotal" / "_demo" / "demo.jsonl"
DAY = 86_400.0
REFS = [
    SessionRef(
        "claude-code",
        DEMO,
        title="Speed up the inference server",
        cwd="/home/dev/work/qwen-serve",
        started=20_000 * DAY + 3_600,  # 2024-10-04 01:00 UTC
        updated=20_001 * DAY,  # the file changed a day later
        turns=68,
        pivots=3,
    ),
    SessionRef(
        "codex",
        Path("/home/dev/.codex/sessions/2024/10/03/rollout-fix-flaky-tests.jsonl"),
        cwd="/home/dev/src/billing-api",
        started=19_999 * DAY,
        turns=12,
        pivots=0,
    ),
    SessionRef(
        "gemini",
        Path("/home/dev/.gemini/tmp/f00d/chats/session-2024-10-02.json"),
        title="Write the release notes",
        cwd="/home/dev/docs",
        started=19_998 * DAY,
        turns=5,
        pivots=1,
    ),
]


def rows(app: ReplayerApp) -> list[str]:
    """The rows as drawn (every row of these short lists is on screen)."""
    shown = app.screen.query_one(SessionList)
    return [shown.render_line(y).text.rstrip() for y in range(shown.count)]


def plain_rows(app: ReplayerApp) -> list[str]:
    return rows(app)


def test_fuzzy_matching_ranks_whole_words_first() -> None:
    assert fuzzy_score(["serve"], "claude /home/dev/work/qwen-serve") == 0
    assert fuzzy_score(["qsrv"], "qwen-serve") is not None  # letters in order, apart
    assert fuzzy_score(["vrsq"], "qwen-serve") is None
    hay = ["codex qsrv-tools", "claude qwen-serve", "gemini docs"]
    assert matching([None] * 3, "qsrv", hay) == [0, 1]  # type: ignore[list-item]


async def test_typing_filters_and_enter_opens_the_best_match() -> None:
    app = ReplayerApp(None, refs=list(REFS))
    async with app.run_test(size=(120, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen) and len(rows(app)) == 3
        await pilot.press(*"billing")  # a project
        assert len(rows(app)) == 1 and "codex" in rows(app)[0]
        assert "1 of 3 sessions match" in str(app.screen.query_one("#picker-title").render())
        await pilot.press(*["backspace"] * 7, *"release")  # a title
        assert len(rows(app)) == 1 and "release notes" in rows(app)[0]
        await pilot.press("escape")  # clears the filter
        assert len(rows(app)) == 3 and isinstance(app.screen, PickerScreen)
        await pilot.press(*"gem tmp")  # two words: agent and path, fuzzy
        assert len(rows(app)) == 1 and "gemini" in rows(app)[0]
        await pilot.press(*["backspace"] * 7, *"qwsrv")  # letters of "qwen-serve" in order
        assert len(rows(app)) == 1
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay.live.ref == REFS[0])


async def test_columns_have_headers_show_the_start_and_fit_80_columns() -> None:
    app = ReplayerApp(None, refs=list(REFS))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        head = str(app.screen.query_one("#picker-header").render())
        for name in ("agent", "project", "started", "turns", "pivots", "title"):
            assert name in head
        first = plain_rows(app)[0]
        assert "2024-10-04" in first  # when the session started (an earlier year: the day)
        assert "2024-10-05" not in first  # not when its file last changed
        assert "68" in first and "3" in first
        lines = app.screen.query_one(SessionList).render_line(0).text
        assert len(lines) <= 80 and lines.rstrip().endswith("…")  # cut, never wrapped
        assert app.screen.query_one(SessionList).virtual_size.height == 3  # one line a row


async def test_o_goes_back_to_the_picker_and_esc_returns_to_the_replay() -> None:
    app = ReplayerApp(None, refs=list(REFS))

    def typing_goes_to_the_filter() -> bool:  # the picker focuses its filter once drawn
        return isinstance(app.screen, PickerScreen) and getattr(app.focused, "id", None) == (
            "picker-filter"
        )

    async with app.run_test(size=(120, 24)) as pilot:
        await wait_for(typing_goes_to_the_filter)
        await pilot.press(*"qwen")
        await wait_for(lambda: len(rows(app)) == 1)  # the filter applied before Enter
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay.playback.turns != [])
        first = app.replay
        await pilot.press("o")
        await wait_for(lambda: isinstance(app.screen, PickerScreen))
        assert app.screen.query_one("#picker-filter").value == "qwen"  # as it was left
        await pilot.press("escape", "escape")  # clear, then back to the replay
        await wait_for(lambda: app.screen is first)
        await pilot.press("o")
        await wait_for(typing_goes_to_the_filter)
        assert app.screen.query_one("#picker-filter").value == ""  # cleared as it was left
        # "billing" (its folder), not "dex" or "codex": a checkout's own path may hold those
        # letters (the demo's row is a file in it), and then two rows match
        await pilot.press(*"billing")
        await wait_for(lambda: len(rows(app)) == 1)
        await pilot.press("enter")
        await wait_for(lambda: app.replay is not None and app.replay is not first)
        assert app.replay.live.ref == REFS[1]  # type: ignore[union-attr]
        assert [type(s).__name__ for s in app.screen_stack].count("ReplayScreen") == 1


async def test_a_replay_opened_on_its_own_lists_sessions_for_o_and_the_palette() -> None:
    listed: list[int] = []

    def lister():  # type: ignore[no-untyped-def]
        listed.append(1)
        return list(REFS), None

    app = make_app(lister=lister)
    async with app.run_test(size=(120, 24)) as pilot:
        titles = {c.title for c in app.get_system_commands(replay(app))}
        assert "Open another session (the picker)" in titles
        await pilot.press("o")
        assert isinstance(app.screen, PickerScreen) and listed == [1]
        assert len(rows(app)) == 3


async def test_under_100_columns_the_title_keeps_19_characters() -> None:
    """At 80 columns the project keeps its end and the start drops its year: the title,
    what tells sessions apart, gets 19 cells (18 letters and the …), not 10 (the cost
    column holds `no price`, a cell more than it had). Wider, the full stamp is back."""
    app = ReplayerApp(None, refs=list(REFS))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = plain_rows(app)[0]
        assert "…/qwen-serve" in first  # the project's end, where projects differ
        assert "Speed up the infer…" in first  # 19 cells of the title
        head = str(app.screen.query_one("#picker-header").render())
        assert "started (UTC)" not in head and "started" in head
        await pilot.resize_terminal(130, 24)
        await pilot.pause()
        first = plain_rows(app)[0]
        assert "2024-10-04 01:00" in first and "work/qwen-serve" in first
        assert "started (UTC)" in str(app.screen.query_one("#picker-header").render())


def test_a_short_start_gives_the_hour_this_year_and_the_day_before() -> None:
    from datetime import UTC, datetime

    from pivotal.tui.picker import started_cell

    this_year = datetime(datetime.now(UTC).year, 3, 9, 14, 5, tzinfo=UTC).timestamp()
    assert started_cell(this_year, short=True) == "03-09 14:05"
    assert started_cell(this_year) == f"{datetime.now(UTC).year}-03-09 14:05"
    assert started_cell(20_000 * DAY + 3_600, short=True) == "2024-10-04"
    assert started_cell(None, short=True) == "—"
