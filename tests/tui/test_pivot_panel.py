"""The pivot panel keeps up with the live feed without redrawing for every turn.

What the live feed changes (a candidate's growing evidence, a candidate that
comes and goes) is drawn at most every `REDRAW_EVERY` seconds and always ends
on the newest state; what the person does is drawn at once.
"""

from __future__ import annotations

import re

from textual.app import App, ComposeResult

from pivotal.model import Pivot, PivotKind, Silence
from pivotal.tui.pivot_panel import REDRAW_EVERY, PivotPanel
from pivotal.tui.pivot_story import Context


def pivot(reason: str, turn: int = 7) -> Pivot:
    return Pivot(turn, PivotKind.DELEGATION_AFTER_DEAD_END, Silence.ACK, 0.7, [turn], reason=reason)


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PivotPanel(id="panel")


def shown(app: PanelApp) -> str:
    return app.query_one(PivotPanel).text.plain


async def test_live_changes_wait_their_turn_and_end_on_the_newest() -> None:
    app = PanelApp()
    async with app.run_test(size=(60, 30)) as pilot:
        panel = app.query_one(PivotPanel)
        panel.show_pivot(pivot("first look"), 1, 1)
        assert "first look" in shown(app)
        panel.show_pivot(pivot("more evidence"), 1, 1, live=True)
        panel.show_pivot(pivot("even more evidence"), 1, 1, live=True)
        assert "first look" in shown(app)  # drawn a moment ago: the feed waits
        await pilot.pause(REDRAW_EVERY + 0.2)
        assert "even more evidence" in shown(app)


async def test_the_person_is_never_kept_waiting() -> None:
    app = PanelApp()
    async with app.run_test(size=(60, 30)) as pilot:
        panel = app.query_one(PivotPanel)
        panel.show_pivot(pivot("candidate", turn=7), 2, 2, live=True)
        panel.show_pivot(pivot("candidate, updated", turn=7), 2, 2, live=True)
        panel.show_pivot(pivot("the one before", turn=3), 1, 2)  # a key press
        assert "the one before" in shown(app)
        await pilot.pause(REDRAW_EVERY + 0.2)
        assert "the one before" in shown(app)  # the feed's stale view does not come back


async def test_a_candidate_that_comes_and_goes_is_not_redrawn() -> None:
    app = PanelApp()
    async with app.run_test(size=(60, 30)) as pilot:
        panel = app.query_one(PivotPanel)
        confirmed = pivot("confirmed earlier", turn=3)
        panel.show_pivot(confirmed, 1, 1)
        panel.show_pivot(pivot("a new candidate", turn=9), 2, 2, live=True)
        panel.show_pivot(pivot("confirmed earlier", turn=3), 1, 1, live=True)  # dropped again
        draws = panel.draws
        await pilot.pause(REDRAW_EVERY + 0.2)
        assert "confirmed earlier" in shown(app)
        assert panel.draws == draws  # nothing was redrawn


async def test_an_updated_pivot_keeps_the_scroll_and_another_starts_at_the_top() -> None:
    app = PanelApp()
    async with app.run_test(size=(40, 8)) as pilot:
        panel = app.query_one(PivotPanel)
        long = "evidence " * 60
        panel.show_pivot(pivot(long), 1, 1)
        await pilot.pause()
        panel.scroll_to(y=5, animate=False, immediate=True)
        await pilot.pause()
        assert panel.scroll_y == 5
        panel.show_pivot(pivot(long + "and more"), 1, 1)  # the same pivot, updated
        await pilot.pause()
        assert panel.scroll_y == 5
        panel.show_pivot(pivot(long, turn=3), 1, 2)  # another pivot
        await pilot.pause()
        assert panel.scroll_y == 0


def visible(panel: PivotPanel) -> str:
    return "\n".join(panel.render_line(y).text for y in range(panel.size.height))


async def test_going_back_to_a_pivot_draws_it_as_it_is_now() -> None:
    """Explanations are kept wrapped for a return visit: never another pivot's, nor a stale one."""
    app = PanelApp()
    async with app.run_test(size=(40, 20)) as pilot:
        panel = app.query_one(PivotPanel)
        panel.show_pivot(pivot("alpha went quiet", turn=3), 1, 2)
        await pilot.pause()
        first = visible(panel)
        assert "alpha went quiet" in first
        panel.show_pivot(pivot("beta took over", turn=9), 2, 2)
        await pilot.pause()
        assert "beta took over" in visible(panel)
        panel.show_pivot(pivot("alpha went quiet", turn=3), 1, 2)
        await pilot.pause()
        assert visible(panel) == first
        panel.show_pivot(pivot("alpha went quiet", turn=3), 1, 2, note=(3, "my own words"))
        await pilot.pause()
        assert "my own words" in visible(panel)
        panel.show_pivot(pivot("alpha went quiet, and more", turn=3), 1, 2)
        await pilot.pause()
        assert "and more" in visible(panel)


RUN = (
    "after you said '.' the agent worked 18 min on its own: 9 turns, 8 calls, 2 files, "
    "227 k tokens, ≈ $0.20"
)
BROKEN = re.compile(r"(\d|[≈≥])\n(k |M |min\b|s\b|h\b|tokens\b|\$)")
"""A line ending in a figure's number whose unit starts the next: "227" / "k tokens"."""


async def test_a_figure_and_its_unit_stay_on_one_line() -> None:
    """The README's picture broke "227" / "k tokens, ≈ $0.20" across two panel lines: the
    run's figures keep their units at every width, and are drawn with plain spaces."""
    app = PanelApp()
    async with app.run_test(size=(120, 30)) as pilot:
        panel = app.query_one(PivotPanel)
        panel.show_pivot(pivot("a dead end"), 1, 1, context=Context(run=RUN))
        for width in range(30, 90):
            await pilot.resize_terminal(width, 30)
            await pilot.pause()
            text = "\n".join(strip.text.rstrip() for strip in panel.lines())
            assert "227 k tokens" in text.replace("\n", " ")
            assert not BROKEN.search(text), (width, text)
            assert "\u2800" not in text and "\u00a0" not in text
