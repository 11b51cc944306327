"""The replayer names the session it shows (issue 35, item 1): agent · project · title (or
file) on its top line, the terminal's title set to it (with no control character, whatever
the session says), `pivotal follow` says what it follows, and after `o` it says where you
are.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from pivotal.model import Session, SessionRef
from pivotal.readers import find_sessions, open_reader
from pivotal.tui.app import ReplayerApp
from pivotal.tui.session_name import (
    SEPARATOR,
    SHOWN_AT_LEAST,
    SessionName,
    session_line,
    terminal_title,
)

from .conftest import replay, wait_for
from .sessions import demo_pivots, demo_turns

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"
SIZES = [(160, 48), (80, 24)]


def read_all(path: Path) -> Session:
    """A session file read to its end (the reader's own loop, as the app's worker runs it)."""
    reader = open_reader(find_sessions([path]).refs[0])
    try:
        while True:
            reader.poll(final=True, budget=1 << 30)
            done, total = reader.progress
            if done >= total:
                return reader.session
    finally:
        reader.close()


def top_line(app: ReplayerApp) -> str:
    return replay(app).query_one("#title").render_line(0).text.strip()


@pytest.mark.parametrize("size", SIZES)
async def test_the_top_line_and_the_terminal_title_name_the_session(size) -> None:  # type: ignore[no-untyped-def]
    app = ReplayerApp(find_sessions([DEMO]).refs[0])
    async with app.run_test(size=size) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed)
        await pilot.pause()
        # the folder and agent come from the file itself (the reader reads its cwd)
        assert top_line(app) == "Claude Code · work/qwen-serve · demo.jsonl"
        assert app.terminal_title == "pivotal · Claude Code · work/qwen-serve · demo.jsonl"


async def test_a_hostile_title_cannot_drive_the_terminal_or_the_markup() -> None:
    session = Session(
        format="codex",
        path=Path("/tmp/rollout-1.jsonl"),
        title="\x1b]0;pwned\x07 fix [bold red]it[/] \x9b31m\u202eevil",
        cwd="/home/dev/src/\x1b[2Jshop",
        turns=demo_turns(),
    )
    app = ReplayerApp(session=session, pivots=demo_pivots())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        line = top_line(app)
        assert "[bold red]it[/]" in line and "␛" in line  # shown, inert
        title = app.terminal_title
        assert title.startswith("pivotal · Codex · ")
        assert all(c.isprintable() for c in title) and "\x07" not in title
        assert "\x1b" not in title and "\x9b" not in title and "\u202e" not in title


def test_a_name_says_what_is_known_and_nothing_it_is_not() -> None:
    bare = SessionName("kimi", "/x/y/wire.jsonl")
    assert bare.line() == "Kimi CLI · wire.jsonl"
    named = bare.learnt("Speed up the build", "/home/dev/src/work/ci")
    assert named.line() == "Kimi CLI · work/ci · Speed up the build · wire.jsonl"
    assert terminal_title(named) == "pivotal · Kimi CLI · work/ci · Speed up the build"
    keyed = SessionName("opencode", "/d/opencode.db", key="ses_7")
    assert keyed.line() == "opencode · opencode.db#ses_7"


async def test_follow_says_what_it_follows() -> None:
    ref = find_sessions([DEMO]).refs[0]
    app = ReplayerApp(ref, follow=True)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        await wait_for(lambda: bool(screen.playback.turns))
        await pilot.pause()
        assert "following demo.jsonl · o picks another" in screen.timeline.status().plain
        assert top_line(app).startswith("Claude Code · ")
        assert app.terminal_title.startswith("pivotal · Claude Code")


async def test_after_o_the_screen_says_which_session_you_are_in(tmp_path) -> None:  # type: ignore[no-untyped-def]
    other = tmp_path / "other.jsonl"
    other.write_bytes(DEMO.read_bytes())
    refs = [
        SessionRef("claude-code", other, title="Tune the cache", cwd="/home/dev/work/cache"),
        find_sessions([DEMO]).refs[0],
    ]
    app = ReplayerApp(find_sessions([DEMO]).refs[0], refs=refs)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_for(lambda: replay(app).analysed)
        assert "demo.jsonl" in app.terminal_title
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")  # the first row: the other session
        await wait_for(lambda: replay(app).analysed)
        await pilot.pause()
        screen = replay(app)
        assert top_line(app).startswith("Claude Code · work/qwen-serve · Tune the cache")
        assert app.terminal_title == "pivotal · Claude Code · work/qwen-serve · Tune the cache"
        assert "now replaying Tune the cache (Claude Code)" in screen.timeline.status().plain


# A Chinese title (two cells a character, no space to break at) at 80×24 and 100×30 left
# `Codex · Documents/New project ·` and nothing after; at 160 a Claude session's top line
# stopped ~40 columns short of the edge: the line wrapped inside its one row.
KOREAN = "/Users/mina/Desktop/16. 자동화 도구/safeAutoTest"
CHINESE_TITLE = "修复登录页面在移动端的布局问题并补充单元测试以及更新相关的文档说明"
CLAUDE_FILE = "/h/.claude/projects/-Users-mina/6d4e2f9a-1b2c-4d5e-8f90-cb223c2afc61.jsonl"
WIDTHS = [20, 30, 45, 60, 78, 98, 158]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_top_line_fits_its_width_and_never_ends_on_a_separator(width: int) -> None:
    names = [
        SessionName("codex", "/r/rollout-2026-01-09.jsonl", None, CHINESE_TITLE, KOREAN),
        SessionName(
            "claude-code",
            CLAUDE_FILE,
            None,
            CHINESE_TITLE * 2,
            "/Users/x/Documents/New project",
        ),
        SessionName("kimi", "/x/y/wire.jsonl", None, None, "/home/dev/수업/과제"),
    ]
    for name in names:
        line = session_line(name, width).plain
        assert cell_len(line) <= width, line
        assert not line.rstrip().endswith("·"), line
        short = len(SEPARATOR) + SHOWN_AT_LEAST  # at most a part too small to show, dropped
        assert line == name.line() or cell_len(line) >= min(width, cell_len(name.line())) - short
        assert line.startswith(name.agent)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
async def test_a_chinese_title_shows_on_the_top_line(size: tuple[int, int]) -> None:
    session = Session(
        format="codex",
        path=Path("/tmp/rollout-2026-01-09T16-11-30-019ba350-0b72-76b0-a949-4d4dbc99627a.jsonl"),
        title=CHINESE_TITLE + "并发布",
        cwd="/Users/mina/Documents/New project",
        turns=demo_turns(),
    )
    app = ReplayerApp(session=session, pivots=demo_pivots())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        top = replay(app).query_one("#title")
        line = top.render_line(0).text.rstrip()
        assert line.startswith("Codex · Documents/New project · 修复登录页面"), line
        assert not line.endswith("·")
        room = top.content_region.width
        assert room - 1 <= cell_len(line) <= room  # the width it has, cut in cells
        await pilot.resize_terminal(size[0] + 30, size[1])  # made again for the new width
        await pilot.pause()
        wider = top.render_line(0).text.rstrip()
        assert "说明并发布" in wider and cell_len(wider) > cell_len(line), wider
        assert cell_len(wider) <= top.content_region.width and not wider.endswith("·")


async def test_a_long_claude_top_line_reaches_the_edge_at_160() -> None:
    session = Session(
        format="claude-code",
        path=Path(CLAUDE_FILE),
        title="把重试逻辑移到 fetch 层 " * 4,
        cwd=KOREAN,
        turns=demo_turns(),
    )
    app = ReplayerApp(session=session, pivots=demo_pivots())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        top = replay(app).query_one("#title")
        line = top.render_line(0).text.rstrip()
        room = top.content_region.width
        assert line.startswith("Claude Code · 16. 자동화 도구/safeAutoTest · 把重试逻辑"), line
        assert room - 1 <= cell_len(line) <= room and line.endswith("…"), line
