"""The pivot panel reads in a person's order: what happened, before → after, then the
evidence; its failed calls are the ones e/E visit; the person's own target is never quoted
as a measurement; task changes say which side of the pivot they are on (issue 16, item 10).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from msgspec.structs import replace
from rich.console import Console
from textual.app import App, ComposeResult

from pivotal.model import Pivot, PivotKind, TaskChange
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.keys import PALETTE_KEYS
from pivotal.tui.pivot_panel import PivotPanel
from pivotal.tui.pivot_story import Context, Stories, context_for, pivot_text
from pivotal.tui.render import pivot_banner
from pivotal.tui.screens import help_table

from .conftest import make_app, replay
from .sessions import demo_pivots, demo_turns

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"


def test_plain_words_first_then_before_after_then_evidence() -> None:
    pivot = demo_pivots()[0]
    text = pivot_text(pivot, 1, 2, Context(since=0, failed=(1, 2, 3)), bar=0.62).plain
    lines = text.splitlines()
    assert lines[0] == "Pivot 1/2 · turn #6 · delegation after dead end"  # as the banner says
    assert lines[1] == pivot.reason  # no summary sentence yet: the reason, in plain type
    steps = ("Before → after", "failures", "What points to a pivot", "3 failed commands", "Weights")
    order = [text.index(x) for x in steps]
    assert order == sorted(order)
    weights = text.index("Weights")
    # every figure of the detector's only under the evidence, and no detector tags at all
    assert text.index("+0.40") > weights and text.index("confidence 0.86") > weights
    assert "a pivot needs 0.62" in text[weights:]
    assert not any(tag in text for tag in ("[before]", "[after]", "[silence]", "score"))


def test_a_plain_summary_sentence_leads_when_the_detector_gives_one() -> None:
    pivot = demo_pivots()[0]
    said = replace(pivot, summary="You sent an empty message after three failed runs.")
    text = pivot_text(said, 1, 2).plain
    assert text.splitlines()[1] == "You sent an empty message after three failed runs."
    assert pivot.reason not in text  # said once: the sentence, not the detector's words too


def test_the_persons_own_target_is_not_a_measurement_and_tasks_say_their_side() -> None:
    turns = demo_turns()
    turns[0].preview = "Get the server to start. The target is 140 tok/s."
    pivot = demo_pivots()[0]
    state = replace(
        pivot.state,
        figures_before=["3 failed", "140 tok/s", "98 tok/s"],
        figures_after=["107 tok/s", "140 tok/s", "5.0 minutes"],
        tasks=[
            TaskChange("#1", None, "in_progress", 3),
            TaskChange("#1", "in_progress", "completed", 7),
        ],
    )
    pivot = replace(pivot, state=state)
    context = context_for(pivot, turns, [1, 2, 3])
    assert context.targets == ("140 tok/s",)
    text = pivot_text(pivot, 1, 2, context).plain
    # measured: the same unit on both sides, never the person's target, never a lone figure
    # with nothing to compare it to (a wait in minutes, a count of failures)
    figures = [line for line in text.splitlines() if line.startswith("measured")]
    assert figures == ["measured     tok/s: 98 before → 107 after"]
    assert "your target  140 tok/s (from your message, not a measurement)" in text
    assert "5.0 minutes" not in text and not any(x.startswith("figures") for x in text.split("\n"))
    assert "(before the pivot, turn #4)" in text and "(after the pivot, turn #8)" in text


def test_the_same_figures_on_both_sides_are_no_measurement() -> None:
    from pivotal.tui.pivot_story import compared

    assert compared(["5%"], ["5%"], set()) == ""  # quoted again, nothing changed
    assert compared(["5%", "12 ms"], ["5%", "9 ms"], set()) == "ms: 12 before → 9 after"
    assert compared(["5%"], ["7%"], set()) == "%: 5 before → 7 after"


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
        said = screen.panel.text.plain  # as written, before the panel wraps it
        row = next(line for line in said.splitlines() if line.startswith("failures     "))
        since = context_for(pivot, screen.playback.turns, screen.playback.failures).since
        start = -1 if since is None else since
        expected = [f for f in screen.playback.failures if start < f < pivot.turn]
        assert expected  # the demo's second pivot follows a failed call
        turns = "turn" if len(expected) == 1 else "turns"
        assert row.startswith(f"failures     {len(expected)} {turns} with a failed call since")
        # two counts, each named: failed attempts in a row (the detector's, the agent's own
        # words included) and the turns e/E walk; the detector's tally is not a third
        said_attempts = re.findall(r"\d+ failed attempts?(?:\(s\))?( in a row| since)?", said)
        assert said_attempts and all(said_attempts)  # each says which count it is
        assert re.search(r"attempts\s+\d+ failed, \d+ ok", said) is None
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


def test_the_panel_speaks_plain_words_first() -> None:
    """Issue 35, item 4: no detector tags, no "phase X → X", the same open question once,
    and figures only where they compare like with like."""
    from pivotal.model import Signal

    pivot = demo_pivots()[0]
    question = "Should I switch to the FP8 checkpoint? It frees 16 GB."
    state = replace(
        pivot.state,
        phase_before="investigating",
        phase_after="investigating",
        open_threads=[
            f"the agent's plan not yet executed: {question}",
            f"unanswered question: {question}",
        ],
        figures_before=["5.0 minutes"],
        figures_after=["510 ms"],
    )
    signals = [
        Signal("context dump", [6], "a structured summary", 0.08, "after", ["Status summary"]),
        Signal("milestone", [7], "success reported", 0.03, "before", ["It works."]),
    ]
    pivot = replace(pivot, state=state, signals=signals)
    text = pivot_text(pivot, 1, 2, Context(since=0), bar=0.62).plain
    plain = text[: text.index("Weights")]
    assert "“Status summary”" in plain and "“It works.”" in plain
    for raw in ("[silence]", "[before]", "[after]", "score"):
        assert raw not in plain, raw
    assert "still investigating" in text and "investigating → investigating" not in text
    assert text.count("Should I switch to the FP8 checkpoint?") == 1
    assert "5.0 minutes" not in text and "510 ms" not in text  # nothing to compare them to
    assert "context dump" not in plain and "+0.08 context dump" in text[len(plain) :]


MARKED = [
    "apply_patch: *** Begin Patch *** Add File: src/ledger/export.py",
    "rename _x_ to _y_ in **both** places",
    "[bold]red[/bold] and [link=http://x]here[/link]",
    "run `pytest -q` then ## commit",
    "- [x] done",
]
"""Session text as the agent wrote it: patch markers, underscores, Rich-markup-like
brackets, code ticks, a heading and a list mark in the middle of a line."""


def _marked_pivot() -> Pivot:
    from pivotal.model import Signal

    pivot = demo_pivots()[0]
    signals = [
        Signal("autonomous action", [6, 7, 8, 9, 10], "5 tool calls", 0.2, "after", MARKED),
        Signal(
            "inconclusive ending",
            [5],
            "the last action ended without a verdict: python -c 'print(2**10)' | `tail`",
            0.1,
            "before",
        ),
    ]
    state = replace(pivot.state, open_threads=["unanswered question: Keep **both** flags?"])
    summary = "You said '**ok**' after the agent asked you `which flag`; it then acted."
    return replace(pivot, signals=signals, state=state, summary=summary)


def test_evidence_quotes_are_shown_literally() -> None:
    """An evidence quote is the session's text, shown as `scan` shows it: never read as
    Markdown or markup. The panel dropped `**`, so `*** Begin Patch` read `* Begin Patch`."""
    text = pivot_text(_marked_pivot(), 1, 2, Context(since=0), bar=0.62).plain
    for quote in MARKED:
        assert f"“{quote}”" in text, quote
    assert "python -c 'print(2**10)' | `tail`" in text  # quoted inside a sentence, too
    assert "Keep **both** flags?" in text
    assert "You said '**ok**' after the agent asked you `which flag`; it then acted." in text


class _PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PivotPanel(id="panel")


async def test_the_panel_draws_evidence_quotes_literally() -> None:
    """Drawn on screen, the quotes keep every mark and no bracket turns into a style."""
    app = _PanelApp()
    async with app.run_test(size=(200, 60)) as pilot:
        panel = app.query_one(PivotPanel)
        panel.show_pivot(_marked_pivot(), 1, 2, context=Context(since=0))
        await pilot.pause()
        strips = panel.lines()
        drawn = "\n".join(strip.text for strip in strips)
        for quote in MARKED:
            assert f"“{quote}”" in drawn, quote
        row = next(s for s in strips if "[bold]red[/bold]" in s.text)
        bold = [seg for seg in row if "red" in seg.text and seg.style and seg.style.bold]
        assert not bold  # shown as written, not as Rich markup


@pytest.mark.parametrize("kind", list(PivotKind))
def test_the_heading_names_the_kind_as_the_banner_does(kind: PivotKind) -> None:
    """One kind, one name: the banner's `implicit approval` was the panel's `silence taken as
    a yes` for the same pivot. The plain-words gloss may follow the name, never replace it."""
    pivot = replace(demo_pivots()[0], kind=kind)
    banner = pivot_banner(pivot)
    name = banner.split(" · ")[1]
    heading = pivot_text(pivot, 1, 2).plain.splitlines()[0]
    assert heading.startswith(f"Pivot 1/2 · turn #6 · {name}"), (heading, banner)
    assert name == kind.value.replace("_", " ")


def test_implicit_approval_keeps_its_gloss_where_there_is_room() -> None:
    """`implicit approval — silence taken as a yes` on one line when the panel is wide
    enough (the drawer at 80 columns); in the side panel (44 columns at 140) the name alone,
    not a gloss wrapped onto a second line."""
    pivot = replace(demo_pivots()[0], kind=PivotKind.IMPLICIT_APPROVAL)
    full = "Pivot 1/2 · turn #6 · implicit approval — silence taken as a yes"
    assert pivot_text(pivot, 1, 2).plain.splitlines()[0] == full
    assert _drawn(pivot, 78)[:2] == [full, pivot.reason]
    assert _drawn(pivot, 44)[0] == "Pivot 1/2 · turn #6 · implicit approval"
    assert "silence taken as a yes" not in "\n".join(_drawn(pivot, 44))


def test_a_long_kind_goes_to_its_own_line_whole() -> None:
    """Where the title does not fit, it breaks before the kind: a name cut in two
    ("continue after" / "milestone") reads as two things."""
    pivot = replace(demo_pivots()[0], kind=PivotKind.CONTINUE_AFTER_MILESTONE)
    assert _drawn(pivot, 44)[:2] == ["Pivot 1/2 · turn #6", "continue after milestone"]
    approval = replace(pivot, kind=PivotKind.IMPLICIT_APPROVAL)
    assert _drawn(approval, 36)[:2] == ["Pivot 1/2 · turn #6", "implicit approval"]
    possible = replace(approval, possible=True)  # "◇ Possible pivot …": the gloss fits below
    assert _drawn(possible, 44)[:2] == [
        "◇ Possible pivot 1/2 · turn #6",
        "implicit approval — silence taken as a yes",
    ]


def _drawn(pivot: Pivot, width: int) -> list[str]:
    """The panel's lines at `width`, as `PivotPanel` wraps them (trailing blanks dropped)."""
    from pivotal.tui.pivot_panel import fit_heading

    console = Console(width=width, file=io.StringIO())
    lines = console.render_lines(fit_heading(pivot_text(pivot, 1, 2), width))
    return ["".join(seg.text for seg in line).rstrip() for line in lines]


def test_the_help_screen_names_the_kinds_as_the_banners_do() -> None:
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(help_table())
    shown = " ".join(console.export_text().split())
    for kind in (PivotKind.DELEGATION_AFTER_DEAD_END, PivotKind.CONTINUE_AFTER_MILESTONE):
        assert kind.value.replace("_", " ") in shown
    assert "implicit approval" in shown
