"""Chinese, Japanese and Korean text takes two cells a character: the picker's columns count
cells, not characters. A newcomer's audit on real sessions: a row whose project is
`…도구/safeAutoTest` had its start 2 cells right of the other rows' (at 160×48).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.cells import cell_len

from pivotal.catalog.search_index import SessionRow
from pivotal.catalog.search_query import Hit, parse_query
from pivotal.model import SessionRef
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker import PickerScreen
from pivotal.tui.picker_search import hit_label
from pivotal.tui.session_list import SessionList

DAY = 86_400.0
KOREAN = "/Users/mina/Desktop/16. 자동화 도구/safeAutoTest"
CHINESE_TITLE = "修复登录页面在移动端的布局问题并补充单元测试以及更新相关的文档说明"
"""33 characters, 66 cells, no space to break at."""
REFS = [
    SessionRef(
        "claude-code",
        Path("/h/.claude/projects/-Users-mina/6d4e2f9a-1b2c-4d5e-8f90-cb223c2afc61.jsonl"),
        title=CHINESE_TITLE,
        cwd=KOREAN,
        started=20_000 * DAY + 3_600,
        turns=68,
        pivots=3,
    ),
    SessionRef(
        "codex",
        Path("/h/.codex/sessions/2024/10/03/rollout-fix-flaky-tests.jsonl"),
        title="Fix the flaky tests",
        cwd="/home/dev/src/billing-api",
        started=19_999 * DAY,
        turns=12,
        pivots=0,
    ),
    SessionRef(
        "gemini",
        Path("/h/.gemini/tmp/f00d/chats/session-2024-10-02.json"),
        title="テストを書く",
        cwd="/home/dev/수업/과제",
        started=19_998 * DAY,
        turns=5,
        pivots=1,
    ),
]


def column(row: str, word: str) -> int:
    """The cell where `word` starts in `row`."""
    return cell_len(row[: row.index(word)])


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_picker_columns_line_up_whatever_the_script(size: tuple[int, int]) -> None:
    app = ReplayerApp(None, refs=list(REFS))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PickerScreen)
        shown = app.screen.query_one(SessionList)
        width = shown.scrollable_content_region.width
        strips = [shown.render_line(y) for y in range(3)]
        rows = [strip.text for strip in strips]
        starts = [column(row, "2024-10-0") for row in rows]
        assert starts == [starts[0]] * 3, rows
        turns = [column(row, f" {ref.turns} ") for row, ref in zip(rows, REFS, strict=True)]
        assert len({at + len(str(ref.turns)) for at, ref in zip(turns, REFS, strict=True)}) == 1
        assert all(cell_len(row.rstrip()) <= width for row in rows), rows
        first = rows[0]
        assert "…" in first[: first.index("2024")] and "AutoTest " in first  # its end kept
        assert "修复登录" in first and first.rstrip().endswith("…")  # the title, cut at the edge
        assert not first.rstrip().endswith(" …")  # not through a wide character (a blank)
        head = str(app.screen.query_one("#picker-header").render())
        assert column(head, "started") == starts[0]


def test_picker_search_columns_line_up_whatever_the_script() -> None:
    def hit(n: int, cwd: str) -> Hit:
        row = SessionRow(n, f"/s/{n}.jsonl", None, "codex", None, None, cwd, None, None)
        return Hit(row, 0, 0, 1_700_000_000.0, 1.0, "fetch 修复 the retry")

    rows = [
        hit_label(hit(n, cwd), parse_query("fetch"), width=120).plain
        for n, cwd in enumerate(["/home/ana/work/shop-api", KOREAN, "/home/dev/수업/과제"])
    ]
    starts = [column(row, "2023-11-14") for row in rows]
    assert starts == [starts[0]] * 3, rows
    assert rows[1].split("2023")[0].strip().endswith("safeAutoTest")  # the end, as the picker


@pytest.mark.parametrize("width", [80, 120])
def test_picker_search_snippet_fits_the_row_with_its_match_in_view(width: int) -> None:
    """The match near the end of a Chinese text: cut in characters, the text before it took
    twice the room and pushed the match past the row's edge."""
    body = "先检查配置文件里的端口设置，再看日志。" * 8 + "最后发现是防火墙规则"
    row = SessionRow(1, "/s/1.jsonl", None, "codex", None, None, "/home/dev/网关", None, None)
    label = hit_label(
        Hit(row, 0, 0, 1_700_000_000.0, 1.0, body), parse_query("防火墙"), width=width
    )
    assert cell_len(label.plain) <= width and "防火墙规则" in label.plain, label.plain
    assert label.plain.endswith("防火墙规则")  # the text's end in view: the room filled to it
    assert cell_len(label.plain) >= width - 1, label.plain
