"""80×24 keeps its guide rails: the essential keys, a one-row banner, the explanation at a
pivot in a drawer that leaves the transcript its width, and notices that are not cut."""

from __future__ import annotations

import pytest

from pivotal.tui.keybar import KeyBar, fitted
from pivotal.tui.keys import FOOTER

from .conftest import make_app, replay

ALL = frozenset(row[3] for row in FOOTER)


def bar_text(app) -> str:  # type: ignore[no-untyped-def]
    return replay(app).query_one(KeyBar).render_line(0).text


def test_help_and_quit_are_never_dropped_however_narrow() -> None:
    for width in range(24, 161):
        shown = [action for _, _, action in fitted(width, ALL)]
        assert "help" in shown and "app.quit" in shown, width
        length = sum(len(k) + 1 + len(label) for k, label, _ in fitted(width, ALL))
        assert length + 2 * (len(shown) - 1) <= width, width
    wide = [label for _, label, _ in fitted(160, ALL)]
    assert "Play/pause" in wide and "Palette" in wide


async def test_the_footer_keeps_help_and_quit_at_80x24_whatever_the_state() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        await pilot.pause()
        first = bar_text(app)
        assert "? Help" in first and "q Quit" in first and "] Pivot" in first
        screen.search.find("benchmark")  # n appears once there is a needle
        await pilot.pause()
        await pilot.press("e", "]", "l")
        await pilot.pause()
        later = bar_text(app)
        assert "? Help" in later and "q Quit" in later and "n Next" in later


async def test_a_click_on_a_key_in_the_bar_runs_it() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = bar_text(app)
        bar = replay(app).query_one(KeyBar)
        await pilot.click(KeyBar, offset=(bar.content_region.x + line.index("] Pivot"), 0))
        await pilot.pause()
        assert replay(app).playback.cursor == replay(app).playback.pivots[0].turn


async def test_a_pivot_jump_opens_the_drawer_and_playing_gives_the_transcript_back() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        await pilot.pause()
        assert not screen.panel.display
        await pilot.press("right_square_bracket")
        await pilot.pause()
        panel, view = screen.panel, screen.transcript
        assert panel.display and "Pivot 1/2" in panel.render_line(0).text
        body = screen.query_one("#body").region
        assert panel.region.width * panel.region.height <= 0.5 * body.width * body.height
        assert view.region.width == body.width  # nothing re-wraps
        assert not view.region.overlaps(panel.region)
        shown = "\n".join(view.render_line(y).text for y in range(view.size.height))
        assert "(empty message)" in shown  # the pivot turn itself stays in view above it
        await pilot.press("space")
        await pilot.pause()
        assert not panel.display  # playing: the whole height is the transcript's again
        await pilot.press("space", "right_square_bracket")  # pause, then the next pivot
        await pilot.pause()
        assert panel.display and "Pivot 2/2" in panel.render_line(0).text
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display


async def test_notices_fit_the_status_line_at_80_columns_and_go_at_the_next_key() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        await pilot.press("G", "right_square_bracket")
        await pilot.pause()
        line = screen.timeline.render_line(1).text
        assert "no later pivot" in line and "…" not in line
        assert "turn" in line or "/28" in line  # where you are stays on the line
        await pilot.press("k")  # scrolling says nothing: the old notice goes
        await pilot.pause()
        assert "no later pivot" not in screen.timeline.render_line(1).text


async def test_the_timeline_lines_fill_the_width_exactly_with_wide_text_in_a_notice() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        screen.say("ファイルが見つかりません " * 8)  # two cells a character, far wider than 80
        await pilot.pause()
        timeline = screen.timeline
        width = timeline.size.width
        status = timeline.render_line(1)
        assert status.cell_length == width and status.text.rstrip().endswith("…")
        assert timeline.render_line(0).cell_length == width
        assert timeline.render_line(2).cell_length == width  # past the two lines: blank


@pytest.mark.parametrize("width", [60, 80])
def test_a_wide_notice_is_measured_in_cells_so_it_stays_whole(width: int) -> None:
    """A title in a notice (`now replaying …`) takes two cells a Chinese character: counted
    as one, the line kept its full forms and the notice's end was cut at the edge."""
    from rich.cells import cell_len

    from pivotal.tui.status_line import Part, fit

    notice = "now replaying 修复登录页面的布局问题 (Codex)"
    parts = [
        Part("⏸ paused", "⏸", 9),
        Part("turn 17/68 · 25%", "17/68 25%", 8),
        Part("1:03:17 / 3:12:40", "1:03:17", 3),
        Part("auto-pause on", "", 1),
        Part(notice, notice, 10),
    ]
    line = fit(parts, width)
    assert cell_len(line) <= width and line.endswith(notice), line
    assert cell_len(fit(parts, 30)) <= 30  # too narrow even so: cut, in cells
