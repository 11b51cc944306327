"""A search match folded away is shown: `/`, `n` and `N` unfold what holds it and keep it
on screen, however far down its turn; a match the transcript cannot draw is said.

The transcript folds injected text after three lines, a long message after 4,000
characters and a tool call to its header. A search that landed on such a turn once
said "match 1/4" over "… 80 more lines (Enter expands)" (the daily-use audit).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import Session
from pivotal.tui.app import ReplayerApp

from .conftest import replay
from .sessions import agent, bash, human, injected

WORD = "zephyr"


def lines(count: int, at: int) -> str:
    """`count` lines of context, `WORD` on line `at` (1-based) alone."""
    return "\n".join(
        f"context line {n}: the {WORD} check" if n == at else f"context line {n}: notes"
        for n in range(1, count + 1)
    )


def folded_session() -> Session:
    turns = [
        human("Set the project up."),
        injected(lines(40, 33)),  # 1: folded to 3 lines, the match on line 33
        agent("Reading the notes.", bash("cat notes", lines(12, 10))),  # 2: in a call's output
        agent("x" * 4_500 + f" then the {WORD} step."),  # 3: past the 4,000 characters shown
        injected(lines(40, 38)),  # 4: folded, the match on line 38
        agent(f"The {WORD} check passes.", bash("make", "built")),  # 5: shown as it is
        agent("Done thinking.", thinking=f"Maybe the {WORD} flag."),  # 6: in the reasoning
        agent("Long log.", bash("make log", lines(300, 250))),  # 7: past the 200 lines shown
        human("Thanks."),
    ]
    for index, turn in enumerate(turns):
        turn.index = index
    return Session(format="claude_code", path=Path("/tmp/folded.jsonl"), title="f", turns=turns)


def marked_on_screen(app: ReplayerApp) -> list[str]:
    """The pieces of text the transcript draws marked as a match in the cursor's turn, on
    screen now."""
    view = replay(app).transcript
    style = view.get_component_rich_style("transcript--match")
    top = int(view.scroll_offset.y)
    rows = [y for y in range(view.size.height) if (view.locate(top + y) or (-1,))[0] == view.cursor]
    return [
        segment.text
        for y in rows
        for segment in view.render_line(y)
        if segment.style is not None and segment.style.bgcolor == style.bgcolor
    ]


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


async def settle(app, pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press(*keys)
    await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_slash_unfolds_the_text_its_match_is_in_and_shows_it(size: tuple[int, int]) -> None:
    app = ReplayerApp(session=folded_session(), pivots=[], at=0)
    async with app.run_test(size=size) as pilot:
        pb = replay(app).playback
        await settle(app, pilot, "slash", *WORD, "enter")
        assert pb.cursor == 1 and "match 1/7" in status(app), status(app)
        # line 33 of 40: unfolded, and on screen even where the turn is taller than it
        assert marked_on_screen(app) == [WORD]
        drawn = "\n".join(s.text for s in replay(app).transcript.rendered(1).strips)
        assert "more lines (Enter expands)" not in drawn


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_n_and_shift_n_unfold_as_slash_does(size: tuple[int, int]) -> None:
    app = ReplayerApp(session=folded_session(), pivots=[], at=5)
    async with app.run_test(size=size) as pilot:
        pb = replay(app).playback
        await settle(app, pilot, "slash", *WORD, "enter")
        assert pb.cursor == 5 and marked_on_screen(app) == [WORD]  # shown as it is
        for turn in (4, 3, 2, 1):  # N: line 38 of 40, past 4,000 characters, an output, ...
            await settle(app, pilot, "N")
            assert pb.cursor == turn and marked_on_screen(app) == [WORD], (turn, status(app))
        assert "match 1/7" in status(app)
        for turn in (2, 3, 4, 5, 6, 7):  # n, on down
            await settle(app, pilot, "n")
            assert pb.cursor == turn
        await settle(app, pilot, "n")  # round the end: #2 again, its match on screen again
        assert pb.cursor == 1 and marked_on_screen(app) == [WORD] and "wrapped" in status(app)


async def test_a_match_shown_folded_leaves_the_turn_as_it_was() -> None:
    """Turn #6 shows its match in its message: its call stays folded, and Enter opens it."""
    app = ReplayerApp(session=folded_session(), pivots=[], at=5)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = replay(app)
        await settle(app, pilot, "slash", *WORD, "enter")
        assert screen.playback.cursor == 5 and marked_on_screen(app) == [WORD]
        assert not screen.transcript.expanded.get(5)
        await settle(app, pilot, "enter")
        assert screen.transcript.expanded.get(5)  # opened, not folded back


async def test_a_match_the_transcript_does_not_draw_is_said() -> None:
    app = ReplayerApp(session=folded_session(), pivots=[], at=6)
    async with app.run_test(size=(160, 48)) as pilot:
        pb = replay(app).playback
        await settle(app, pilot, "slash", *WORD, "enter")
        assert pb.cursor == 6 and "match 6/7 · in the agent's reasoning: t shows it" in status(app)
        await settle(app, pilot, "t")  # reasoning shown: the match is drawn
        assert marked_on_screen(app) == [WORD]
        await settle(app, pilot, "n")  # line 250 of an output cut at 200 lines
        assert pb.cursor == 7 and "match 7/7 · not drawn here" in status(app)
        assert "v reads it whole" in status(app) and not marked_on_screen(app)
