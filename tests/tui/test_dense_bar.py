"""Dense sessions keep the bar readable (issue 35, item 7): the cursor ● is always drawn, on
top of whatever its column holds, and pivots that outnumber the cells are merged, so the
bar still shows how far you are between its markers.
"""

from __future__ import annotations

import pytest

from pivotal.tui.timeline import Timeline, TimelineState

from .conftest import make_app, replay

GAP = 2
"""Columns from one marker to the next at least (`timeline.GAP`)."""
TOTAL = 20_000
PIVOTS = tuple(range(37, TOTAL, 94))  # 213 pivots, more than the 158 cells of the bar


def bar_of(timeline: Timeline, cursor: int, **more: object) -> str:
    timeline.update_state(TimelineState(total=TOTAL, cursor=cursor, pivots=PIVOTS, **more))  # type: ignore[arg-type]
    return timeline.render_line(0).text


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_the_cursor_is_always_drawn_over_a_dense_bar(size) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=size):
        timeline = replay(app).timeline
        width = timeline.size.width
        assert len(PIVOTS) > width
        for cursor in (0, PIVOTS[0], PIVOTS[50], TOTAL // 2, PIVOTS[-1], TOTAL - 1):
            bar = bar_of(timeline, cursor)
            assert bar.count("●") == 1, cursor
            assert bar.index("●") == timeline.column_of(cursor, width), cursor


@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
async def test_pivots_that_outnumber_the_cells_are_merged(size) -> None:  # type: ignore[no-untyped-def]
    app = make_app()
    async with app.run_test(size=size):
        timeline = replay(app).timeline
        width = timeline.size.width
        bar = bar_of(timeline, TOTAL // 2)
        markers = [n for n, c in enumerate(bar) if c == "✦"]
        assert markers and "✦✦" not in bar  # never a solid row of them
        assert all(b - a >= GAP for a, b in zip(markers, markers[1:], strict=False))
        assert bar.count("━") and bar.count("─")  # seen and still ahead both show
        # every pivot is under a marker at or just before its own column
        for pivot in PIVOTS:
            column = timeline.column_of(pivot, width)
            assert any(0 <= column - m < GAP for m in markers + [bar.index("●")]), pivot
        # a click on a merged marker goes to the first pivot it stands for
        first = markers[1]
        turn = timeline.turn_at(first, width)
        assert turn in PIVOTS and timeline.column_of(turn, width) == first


async def test_a_pivot_wins_a_merged_marker_over_a_possible_one() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)):
        timeline = replay(app).timeline
        width = timeline.size.width
        timeline.update_state(TimelineState(total=TOTAL, cursor=TOTAL - 1))
        first = next(t for t in range(TOTAL) if timeline.column_of(t, width) == 10)
        after = next(t for t in range(TOTAL) if timeline.column_of(t, width) == 11)
        possible, pivots = (first,), (after,)  # a possible pivot in the column before a pivot's
        timeline.update_state(
            TimelineState(total=TOTAL, cursor=TOTAL - 1, pivots=pivots, possible=possible)
        )
        bar = timeline.render_line(0).text
        assert bar[10] == "✦" and bar[11] == "━" and "◇" not in bar
        assert timeline.turn_at(10, width) == pivots[0]
