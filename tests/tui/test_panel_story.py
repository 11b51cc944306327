"""The pivot panel reads in a person's order: what happened, before → after, then the
evidence; its failed calls are the ones e/E visit; the person's own target is never quoted
as a measurement; task changes say which side of the pivot they are on (issue 16, item 10).
"""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from pivotal.model import Pivot, TaskChange
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.keys import PALETTE_KEYS
from pivotal.tui.pivot_story import Context, Stories, context_for, pivot_text
from pivotal.tui.screens import help_table

from .conftest import make_app, replay
from .sessions import demo_pivots, demo_turns

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"


def test_plain_words_first_then_before_after_then_evidence() -> None:
    pivot = demo_pivots()[0]
    text = pivot_text(pivot, 1, 2, Context(since=0, failed=(1, 2, 3))).plain
    lines = text.splitlines()
    assert lines[0] == "Pivot 1/2 · turn #6"
    assert lines[1] == pivot.reason  # no summary sentence yet: the reason, in plain type
    order = [text.index(x) for x in ("Before → after", "failed calls 3", "Evidence", "+0.40")]
    assert order == sorted(order)
    assert text.index("confidence  0.86") > text.index("Evidence")
    assert "[before]" not in text[: text.index("Evidence")]  # weights and sides only below


def test_a_plain_summary_sentence_leads_when_the_detector_gives_one() -> None:
    pivot = demo_pivots()[0]
    said = replace(pivot, summary="You sent an empty message after three failed runs.")
    text = pivot_text(said, 1, 2).plain
    assert text.splitlines()[1] == "You sent an empty message after three failed runs."
    assert f"reason      {pivot.reason}" in text  # the detector's words move to the evidence


def test_the_persons_own_target_is_not_a_measurement_and_tasks_say_their_side() -> None:
    turns = demo_turns()
    turns[0].preview = "Get the server to start. The target is 140 tok/s."
    pivot = demo_pivots()[0]
    state = replace(
        pivot.state,
        figures_before=["3 failed", "140 tok/s"],
        figures_after=["107 tok/s", "140 tok/s"],
        tasks=[
            TaskChange("#1", None, "in_progress", 3),
            TaskChange("#1", "in_progress", "completed", 7),
        ],
    )
    pivot = replace(pivot, state=state)
    context = context_for(pivot, turns, [1, 2, 3])
    assert context.targets == ("140 tok/s",)
    text = pivot_text(pivot, 1, 2, context).plain
    figures = [line for line in text.splitlines() if line.startswith("figures")]
    assert figures == ["figures before: 3 failed", "figures after: 107 tok/s"]
    assert "your target: 140 tok/s (from your message, not a measurement)" in text
    assert "(before the pivot, turn #4)" in text and "(after the pivot, turn #8)" in text


def test_the_persons_targets_follow_the_pivots_figures_and_the_session() -> None:
    """One `Stories` answers each pivot from what was said before it, whatever it answered
    last (the panel asks again on every redraw, and the answer is kept)."""
    turns = demo_turns()
    turns[0].preview = "Make it start. Aim for 90 req/s."
    pivot = demo_pivots()[0]
    stories = Stories()

    def with_figures(*figures: str) -> Pivot:
        return replace(pivot, state=replace(pivot.state, figures_before=list(figures)))

    assert stories.context(with_figures("90 req/s", "2 failed"), turns, []).targets == ("90 req/s",)
    assert stories.context(with_figures("2 failed"), turns, []).targets == ()
    assert stories.context(with_figures("90 req/s"), turns, []).targets == ("90 req/s",)
    other = demo_turns()[: pivot.turn + 1]  # another, shorter session: said nothing of 90 req/s
    other[0].preview = "Make it start."
    assert stories.context(with_figures("90 req/s"), other, []).targets == ()


async def test_the_panels_failed_calls_are_the_turns_e_visits() -> None:
    # the bar at 0.5: the demo's three labelled moments are pivots, the second the dead end
    app = ReplayerApp(find_sessions([DEMO]).refs[0], sensitivity="0.5")
    async with app.run_test(size=(160, 48)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = replay(app)
        await pilot.press("right_square_bracket", "right_square_bracket")
        await pilot.pause()
        pivot = screen.playback.pivot_at_or_before()
        assert pivot is not None
        panel = "\n".join(strip.text for strip in screen.panel.lines())
        row = next(line for line in panel.splitlines() if line.startswith("failed calls"))
        since = context_for(pivot, screen.playback.turns, screen.playback.failures).since
        start = -1 if since is None else since
        expected = [f for f in screen.playback.failures if start < f < pivot.turn]
        assert expected  # the demo's second pivot follows a failed call
        assert row.startswith(f"failed calls {len(expected)} since")
        visited = []
        await pilot.press("g")
        while True:
            await pilot.press("e")
            await pilot.pause()
            if screen.playback.cursor >= pivot.turn or screen.playback.cursor in visited:
                break
            visited.append(screen.playback.cursor)
        assert [v for v in visited if start < v] == expected
        assert all(f"turn #{t + 1}" in panel for t in expected)


async def test_wording_filter_plural_and_the_palette_shows_keys() -> None:
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        said = []
        for _ in range(4):
            await pilot.press("backslash")
            await pilot.pause()
            said.append(screen.status)
        assert said == [
            "showing your messages only",
            "showing pivots only",
            "showing failed calls only",
            "showing all turns",
        ]
        titles = {c.help for c in app.get_system_commands(screen)}
        assert "key: Shift+←" in titles and "key: ]" in titles
        assert not any("replay:" in t or "(" in t for t in titles)
    assert PALETTE_KEYS["percent(3)"] == "3"


def test_help_says_what_a_silent_pivot_is_and_what_the_glyphs_mean() -> None:
    import io

    from rich.console import Console

    console = Console(width=100, record=True, file=io.StringIO())
    console.print(help_table())
    shown = console.export_text()
    assert "A silent pivot is a moment where you said next to nothing" in shown
    for glyph in ("✦", "✧", "◆ Agent", "● You", "▼", "✗"):
        assert glyph in shown
