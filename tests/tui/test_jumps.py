"""Every jump can be undone, and following evidence keeps the panel on its pivot (issue 16: 8).

Backspace (or ` or Ctrl+O) goes back to where the last jump started, and
again to the one before, like vim's jump list; steps are not jumps. A click
on an evidence link moves the cursor but the panel stays on the pivot being
read, even when the evidence lies before it (where no pivot would be shown).
"""

from __future__ import annotations

import pytest

from .conftest import make_app, replay

WIDE = (160, 48)


def panel_text(app) -> str:  # type: ignore[no-untyped-def]
    return replay(app).panel.text.plain


@pytest.mark.parametrize(
    ("keys", "lands"),
    [
        (["right_square_bracket"], 24),
        (["left_square_bracket"], 5),
        (["E"], 3),
        (["colon", "2", "0", "enter"], 19),
        (["7"], 19),
        (["G"], 27),
        (["g"], 0),
        (["shift+right"], 12),
    ],
)
@pytest.mark.parametrize("back", ["backspace", "grave_accent", "ctrl+o"])
async def test_every_jump_is_undone_by_the_back_key(keys: list[str], lands: int, back: str) -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        await pilot.press(*keys)
        assert pb.cursor == lands
        await pilot.press(back)
        assert pb.cursor == 10


async def test_back_walks_the_list_and_steps_are_not_jumps() -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        pb = screen.playback
        await pilot.press("right_square_bracket", "l", "l", "G")  # 10 -> 24, steps, -> 27
        assert pb.cursor == 27
        await pilot.press("backspace")
        assert pb.cursor == 26  # where G was pressed (the steps were not jumps)
        await pilot.press("backspace")
        assert pb.cursor == 10
        await pilot.press("backspace")
        assert pb.cursor == 10 and "no jump to go back from" in screen.timeline.status().plain


async def test_a_search_match_is_a_jump() -> None:
    app = make_app(at=0)
    async with app.run_test(size=WIDE) as pilot:
        pb = replay(app).playback
        await pilot.press("slash", *"OOM", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert pb.cursor == 3
        await pilot.press("backspace")
        assert pb.cursor == 0


async def test_following_evidence_keeps_the_panel_on_its_pivot() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        pb, panel = screen.playback, screen.panel
        assert "Pivot 1/2" in panel_text(app)
        lines = [strip.text for strip in panel.lines()]
        row = next(n for n, line in enumerate(lines) if "→ turn #2 " in line)
        column = lines[row].index("→ turn #2 ") + 2
        await pilot.click(panel, offset=(column, row - int(panel.scroll_y)))
        assert pb.cursor == 1  # before the pivot: no pivot would be explained here
        assert "Pivot 1/2" in panel_text(app)
        assert "the panel stays on it" in screen.timeline.status().plain
        await pilot.press("l")  # reading round the evidence keeps it too
        assert pb.cursor == 2 and "Pivot 1/2" in panel_text(app)
        await pilot.press("backspace")  # back to the pivot
        assert pb.cursor == 5 and "Pivot 1/2" in panel_text(app)
        await pilot.press("g")  # any other jump lets go
        assert "Pivot 1/2" not in panel_text(app)


async def test_a_pivot_jump_lets_go_of_the_pinned_panel() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        screen.action_jump(22)  # the milestone evidence of pivot 2, from pivot 1's panel
        await pilot.pause()
        assert screen.playback.cursor == 22 and "Pivot 1/2" in panel_text(app)
        await pilot.press("right_square_bracket")
        assert screen.playback.cursor == 24 and "Pivot 2/2" in panel_text(app)
