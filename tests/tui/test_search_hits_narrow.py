"""A search hit in a sub-agent at 80×24 (a daily user's audit, on real sessions): the hits
table gave the sub-agent's label the row (`#137 agent sub-agent "DIRECTOR… ▎`) and never
showed the snippet, what says why it matched; landing there, the status line dropped the
turn counter and the Esc hint (`⏸ │ “examine the plugin system” at turn #10 in sub-agent
“DIRECTOR - Consolid…`); a quoted query was quoted twice (`“"TypeScript files …"”`).

The row keeps the snippet (a short label, `↳ "DIRECTO…"`, cut in cells, and the project and
time narrower, as the picker's rows are under 100 columns); the status line cuts the query
and the title before it drops the counter or the way back. A 1.0.x session whose Task has
a long description, written for the test."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from rich.cells import cell_len

from pivotal.catalog.discovery import discover_details, discover_sessions
from pivotal.catalog.search_index import SessionRow
from pivotal.catalog.search_query import Hit, SubagentHit, parse_query
from pivotal.catalog.search_text import OUTPUT
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker_search import hit_label
from pivotal.tui.session_list import SessionList
from readers import claude_sidechain_home as sidechains

from .conftest import wait_for

LONG = "DIRECTOR - Consolidate the export modules into one package"
QUERY = '"File has not been read yet"'


def long_home(root: Path) -> Path:
    """The sidechain session, its types sub-agent's Task described at length."""
    text = json.dumps(sidechains.records()).replace(sidechains.DESCRIPTIONS["types"], LONG)
    return sidechains.home(root, json.loads(text))


def app_over(home: Path) -> ReplayerApp:
    refs = discover_sessions([home], details=False)
    return ReplayerApp(None, refs=refs, details=partial(discover_details, [home], warn=print))


def rows(app: ReplayerApp) -> list[str]:
    shown = app.screen.query_one(SessionList)
    return [shown.render_line(y).text.rstrip() for y in range(min(shown.count, 20))]


def in_subagent(app: ReplayerApp) -> bool:
    screen = app.replay
    return screen is not None and bool(screen.came_from) and screen.landing is None


def status_line(app: ReplayerApp) -> str:
    return app.replay.timeline.render_line(1).text.rstrip()  # type: ignore[union-attr]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))


async def test_at_80_columns_a_subagents_hit_shows_its_snippet(tmp_path: Path) -> None:
    long_home(tmp_path / "home")
    app = app_over(tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *QUERY)
        await wait_for(lambda: any("#2 " in r for r in rows(app)))
        [row] = rows(app)
        width = app.screen.query_one(SessionList).scrollable_content_region.width
        assert cell_len(row) <= width, row
        label, _, snippet = row.partition('↳ "')[2].partition('" ')
        assert label.startswith("DIRECT") and label.endswith("…"), row  # cut in cells
        assert "File has" in snippet, row  # the match, in view
        assert 'sub-agent "' not in row


async def test_landing_at_80_columns_keeps_the_counter_and_the_way_back(tmp_path: Path) -> None:
    long_home(tmp_path / "home")
    app = app_over(tmp_path / "home")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *QUERY)
        await wait_for(lambda: any("#2 " in r for r in rows(app)))
        await pilot.press("enter")
        await wait_for(lambda: in_subagent(app))
        line = status_line(app)
        assert "3/4" in line, line  # the sub-agent's turn of its four: the counter
        assert line.endswith("Esc back to the results"), line
        assert "“File has" in line and "“DIRECT" in line, line  # cut, not dropped
        assert cell_len(line) <= 80


async def test_a_quoted_query_is_quoted_once(tmp_path: Path) -> None:
    long_home(tmp_path / "home")
    app = app_over(tmp_path / "home")
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+f", *QUERY)
        await wait_for(lambda: any("has not been read" in r for r in rows(app)))
        await pilot.press("enter")
        await wait_for(lambda: in_subagent(app))
        line = status_line(app)
        assert "“File has not been read yet” at turn #3 in sub-agent “DIRECTOR" in line, line
        await pilot.press("n")  # the `/` search goes on from the hit, its words quoted once
        await pilot.pause()
        assert "“File has not been read yet”" in status_line(app), status_line(app)
        assert '“"' not in status_line(app)


@pytest.mark.parametrize("width", [72, 80, 90, 99, 120, 160])
def test_a_subagents_hit_fits_its_row_with_the_match_in_view(width: int) -> None:
    session = SessionRow(
        1, "/s/1.jsonl", None, "claude-code", "s1", None, "/home/dev/app", None, None
    )  # fmt: skip
    sub = SessionRow(
        2, "/s/1.jsonl", "sidechain:9:100:900", "claude-code", "c1", LONG, None, None, None,
        1, 1, False, "/s/1.jsonl",
    )  # fmt: skip
    body = "<tool_use_error>File has not been read yet.</tool_use_error>"
    hit = Hit(session, 1, OUTPUT, 1_700_000_000.0, 1.0, body, SubagentHit((sub,), 2))
    label = hit_label(hit, parse_query(QUERY), width=width, narrow=width < 100).plain
    assert cell_len(label) <= width, label
    assert "File" in label.split("› " if "› " in label else "↳ ")[-1], label
    if width >= 120:  # room for the whole label
        assert f'sub-agent "{LONG[:29]}…" #3 › ' in label
