"""Pivots are easy to see: readable in every shipped theme, a glyph of their own, never
hidden by a mark, and a click on the bar lands where it was aimed (issue 16, item 3).

The colours are read from what the widgets render (segment styles), not from CSS.
"""

from __future__ import annotations

import pytest

from pivotal.tui.contrast import AA, contrast
from pivotal.tui.timeline import Timeline

from .conftest import make_app, replay

THEMES = sorted(make_app().available_themes)


def segments_with(strip, glyph: str):  # type: ignore[no-untyped-def]
    return [seg for seg in strip if glyph in seg.text]


@pytest.mark.parametrize("theme", THEMES)
async def test_pivot_markers_and_banner_reach_aa_contrast(theme: str) -> None:
    app = make_app(at=10)
    async with app.run_test(size=(140, 40)) as pilot:
        app.theme = theme
        await pilot.pause()
        screen = replay(app)
        bar = screen.timeline.render_line(0)
        pivots = segments_with(bar, "✦")
        assert len(pivots) == 2, theme
        for seg in pivots:
            assert contrast(seg.style.color, seg.style.bgcolor) >= AA, (theme, seg)
        banner = segments_with(screen.transcript.rendered(5).strips[0], "PIVOT")[0]
        assert banner.text.lstrip().startswith("✦ PIVOT")
        assert contrast(banner.style.color, banner.style.bgcolor) >= AA, theme
        await pilot.press("right_square_bracket")  # the cursor on a pivot is drawn on top
        await pilot.pause()
        line = screen.timeline.render_line(0)
        width = screen.timeline.size.width
        assert line.text.index("●") == screen.timeline.column_of(24, width), theme
        after = segments_with(line, "✦")
        assert len(after) == 1, theme  # the other pivot; this one's panel is open
        for seg in [*after, *segments_with(line, "●")]:
            assert contrast(seg.style.color, seg.style.bgcolor) >= AA, (theme, seg)


async def test_a_pivot_has_a_glyph_no_agent_turn_uses() -> None:
    app = make_app(at=10)
    async with app.run_test(size=(140, 40)):
        screen = replay(app)
        agent_header = screen.transcript.rendered(4).strips[0].text
        assert "◆ Agent" in agent_header and "✦" not in agent_header
        bar = screen.timeline.render_line(0).text
        assert bar.count("✦") == 2 and "◆" not in bar


async def test_a_mark_on_a_pivot_turn_never_hides_it(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path))
    app = make_app(at=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m", "right_square_bracket", "m")  # both pivot turns marked
        await pilot.pause()
        screen = replay(app)
        assert screen.marking.marked_turns() == (5, 24)
        await pilot.press("g")
        await pilot.pause()
        bar = screen.timeline.render_line(0).text
        assert bar.count("✦") == 2 and bar.count("▼") == 2


async def test_a_click_on_the_bar_lands_where_it_was_aimed() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        timeline = screen.timeline
        width = timeline.size.width
        pad = timeline.content_region.x - timeline.region.x
        assert pad == 1
        for pivot in (5, 24):  # on a pivot's ✦: that pivot
            column = timeline.column_of(pivot, width)
            await pilot.click(Timeline, offset=(pad + column, 0))
            await pilot.pause()
            assert screen.playback.cursor == pivot
        # off the pivots, on a column whose turn differs from the next column's: that turn
        pivot_columns = {timeline.column_of(p, width) for p in (5, 24)}
        column = next(
            c
            for c in range(2, width - 2)
            if timeline.turn_at(c, width) != timeline.turn_at(c + 1, width)
            and not pivot_columns & {c - 2, c - 1, c, c + 1, c + 2}
        )
        await pilot.click(Timeline, offset=(pad + column, 0))
        await pilot.pause()
        assert screen.playback.cursor == timeline.turn_at(column, width)
