"""A session with no pivots says why (issue 35, item 2): each silence the detector turned
down carries its reason in plain words on its turn, the panel lists them (and explains the
one under the cursor), and at 80 columns, where the panel is shut, the status line says
where to read it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.detect.evaluate import Rejection
from pivotal.model import Signal, Silence
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp

from .conftest import replay, wait_for
from .sessions import demo_session

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"
SIZES = [(160, 48), (80, 24)]


def rejections() -> list[Rejection]:
    """The demo's empty message turned down by a hard gate, its compaction under the bar."""
    held = [
        Signal("silence", [24], "the format records a context-compaction boundary here", 0.1),
        Signal("milestone", [22], "success reported", 0.03, "before", ["**104 tok/s**"]),
        Signal(
            "mid-task",
            [23],
            "the compaction landed while the agent was working: its last message ran a tool",
            -0.21,
            "before",
        ),
    ]
    return [
        Rejection(
            5, Silence.EMPTY, 0.0, "nothing done", "the agent replied without doing anything"
        ),
        Rejection(
            24,
            Silence.COMPACTION,
            0.0,
            "below the bar",
            "the compaction landed while the agent was working: its last message ran a tool"
            " (confidence 0.00, the bar is 0.62)",
            held,
        ),
    ]


def no_pivot_app(**kwargs: object) -> ReplayerApp:
    return ReplayerApp(session=demo_session(), pivots=[], rejections=rejections(), **kwargs)  # type: ignore[arg-type]


def panel_said(app: ReplayerApp) -> str:
    return replay(app).panel.text.plain


@pytest.mark.parametrize("size", SIZES)
async def test_each_turned_down_silence_says_why_on_its_turn(size) -> None:  # type: ignore[no-untyped-def]
    app = no_pivot_app(at=27)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        transcript = replay(app).transcript
        empty = transcript.rendered(5).strips[0].text.lstrip("▏ ")
        assert empty.startswith("· no pivot here: the agent replied without doing anything")
        compaction = transcript.rendered(24).strips[0].text.lstrip("▏ ")
        assert compaction.startswith("· no pivot here: the compaction landed while the agent")
        assert "confidence" not in compaction and "0.62" not in compaction  # words, not figures
        assert "✦" not in empty + compaction and "◇" not in empty + compaction


@pytest.mark.parametrize("size", SIZES)
async def test_the_panel_lists_the_silences_and_why_when_there_is_no_pivot(size) -> None:  # type: ignore[no-untyped-def]
    app = no_pivot_app()
    async with app.run_test(size=size) as pilot:
        screen = replay(app)
        await pilot.pause()
        if size[0] == 80:  # the panel is shut: the status line says there is a why
            status = screen.timeline.status().plain
            assert "no pivot: 2 silences turned down (p says why)" in status
            await pilot.press("p")
            await pilot.pause()
        said = panel_said(app)
        assert said.startswith("No silent pivots in this session.")
        assert "Silences that are no pivot (2)" in said
        assert "→ turn #6 an empty message: the agent replied without doing anything" in said
        assert "→ turn #25 a compaction: the compaction landed while the agent was working" in said
        shown = "\n".join(strip.text for strip in screen.panel.lines())
        assert "turn #6" in shown and "turn #25" in shown  # drawn, not only written


async def test_on_a_turned_down_silence_the_panel_explains_it() -> None:
    app = no_pivot_app(at=24)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        said = panel_said(app)
        lines = said.splitlines()
        assert lines[0] == "No pivot · turn #25"
        assert lines[1] == "A compaction, and the detector turned it down:"
        assert lines[2].startswith("the compaction landed while the agent was working")
        # the evidence in words, against apart, the figures only under it
        assert said.index("What points to a pivot") < said.index("What speaks against")
        assert "“**104 tok/s**”" in said  # the session's text, as written
        weights = said.index("Weights")
        assert said.index("-0.21") > weights and "confidence 0.00" in said[weights:]
        await pilot.press("colon", *"6", "enter")  # a hard gate: its rule, no weights
        await pilot.pause()
        said = panel_said(app)
        assert said.startswith("No pivot · turn #6\nAn empty message, and the detector")
        assert "the agent replied without doing anything." in said and "Weights" not in said
        await pilot.press("l")  # off the silence: the list again
        await pilot.pause()
        assert panel_said(app).startswith("No silent pivots in this session.")


async def test_a_real_session_gets_the_detectors_own_reasons() -> None:
    """The demo file at the default bar: the go-on at turn #8 is turned down, and its turn and
    the panel say why in the detector's words (from the same pass that found the pivots)."""
    app = ReplayerApp(find_sessions([DEMO]).refs[0])
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed)
        rejected = screen.playback.rejection_at(7)
        assert rejected is not None
        await pilot.press("colon", *"8", "enter")
        await pilot.pause()
        banner = screen.transcript.rendered(7).strips[0].text
        reason = rejected.reason.split(" (confidence")[0]
        assert f"· no pivot here: {reason}"[:60] in banner
        assert panel_said(app).startswith("No pivot · turn #8\nA bare go-on")
        assert reason in panel_said(app)
