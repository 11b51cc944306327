"""The replayer shows what the agent spent: per turn, up to the playhead, per pivot's run,
and opens the sub-agents a call ran (Enter) and comes back (Backspace)."""

from __future__ import annotations

from pathlib import Path

from pivotal.model import Role, Turn, Usage
from pivotal.readers import find_sessions
from pivotal.spend.ledger import Ledger
from pivotal.spend.subagents import Subagent
from pivotal.spend.tally import Tally
from pivotal.tui.app import ReplayerApp
from pivotal.tui.timeline import TimelineState, status_text
from spend.claude_home import PROMPTS, SUBS, write_home

from .conftest import replay, screen_text, wait_for

FULL, NARROW = (160, 48), (80, 24)


def _turns(*usages: Usage | None) -> list[Turn]:
    return [
        Turn(index=i, role=Role.ASSISTANT, usage=u, model="claude-opus-4-8")
        for i, u in enumerate(usages)
    ]


def test_the_ledger_sums_up_to_the_playhead_and_prices_only_what_changed() -> None:
    ledger = Ledger()
    turns = _turns(Usage(input=1000, output=10), None, Usage(input=2000, output=20))
    ledger.update(turns, 0)
    assert ledger.at(0)[0] == 1010 and ledger.at(1)[0] == 1010 and ledger.at(2)[0] == 3030
    # a live session's last turn grows: only it is priced again
    turns[2] = _turns(None, None, Usage(input=2000, output=500))[2]
    ledger.update(turns, 2)
    assert ledger.total()[0] == 1010 + 2500
    sub = Subagent(ref=None, tally=Tally(input=7, output=3, responses=1), parent_turn=1)  # type: ignore[arg-type]
    loose = Subagent(ref=None, tally=Tally(input=100, responses=1))  # type: ignore[arg-type]
    ledger.set_subagents([sub, loose])
    assert ledger.at(0)[0] == 1010 and ledger.at(1)[0] == 1020  # at the call that ran it
    assert ledger.total()[0] == 1010 + 10 + 2500 + 100  # one tied to no call: in the total
    full, short = ledger.status(1)
    assert full.startswith("$") and " of ≈ $" in full and "1.0 k of 3.6 k tokens" in full
    assert short.count("$") == 2


def test_no_usage_says_nothing_and_no_price_says_so() -> None:
    ledger = Ledger()
    ledger.update(_turns(None, None), 0)
    assert ledger.status(1) == ("", "")
    unpriced = [Turn(index=0, role=Role.ASSISTANT, usage=Usage(input=5, output=5), model="mock")]
    ledger.update(unpriced, 0)
    assert ledger.status(0) == ("10 of 10 tokens · no price", "10/10 tok")


def test_the_spend_fits_the_status_line_at_80_and_160_columns() -> None:
    state = TimelineState(
        total=68,
        cursor=16,
        pivots=(5, 30, 50),
        elapsed=3797.0,
        duration=11560.0,
        spend="$1.20 of ≈ $3.40 · 1.1 M of 2.3 M tokens",
        spend_short="$1.20/$3.40",
        notice="auto-paused at pivot #1",
    )
    wide = status_text(state, 160)
    assert "$1.20 of ≈ $3.40 · 1.1 M of 2.3 M tokens" in wide and "3 pivots" in wide
    narrow = status_text(state, 80)
    assert len(narrow) <= 80 and "$1.20/$3.40" in narrow
    # the spend gives way before the position and the notice do
    assert "17/68" in narrow and narrow.endswith("auto-paused at pivot #1")


def _home(tmp_path: Path):  # type: ignore[no-untyped-def]
    """The home's session; the replayer opens it with every bar at 0 (`sensitivity="1"`), so
    its 'ok' is a pivot whatever the fitted bar: what is tested is what the run shows."""
    return find_sessions([write_home(tmp_path)]).refs[0]


async def test_turn_headers_the_status_line_and_the_panel_say_what_was_spent(tmp_path) -> None:
    for size in (FULL, NARROW):
        app = ReplayerApp(_home(tmp_path / f"{size[0]}"), sensitivity="1")
        async with app.run_test(size=size) as pilot:
            screen = replay(app)
            await wait_for(lambda s=screen: s.analysed, timeout=20)
            await pilot.press("right_square_bracket")  # the pivot: "ok"
            await pilot.pause()
            status = screen.timeline.status().plain
            assert ("$0.04 of ≈ $0.09" if size == FULL else "$0.04/$0.09") in status, status
            assert "turn 3/7" in status or "3/7" in status
            # the figures keep their units with no-break spaces (drawn as spaces)
            panel = screen.panel.text.plain.replace("\u00a0", " ")
            assert (
                "After you said 'ok' the agent worked 2 min on its own: 3 turns, 4 calls" in panel
            )
            assert "mostly sub-agents" in panel
            await pilot.press("l")
            await pilot.pause()
            text = screen_text(app)
            assert "◆ Agent  #4" in text and "$0.03 · in 50 · out 900" in text
            assert "↳ sub-agent: 2 agent turns · 0 calls · 10 s" in text


async def test_enter_on_a_call_that_ran_a_subagent_opens_it_and_backspace_returns(
    tmp_path,
) -> None:
    app = ReplayerApp(_home(tmp_path), sensitivity="1")
    async with app.run_test(size=FULL) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed, timeout=20)
        await pilot.press("right_square_bracket", "l")  # turn #4: three Agent calls
        await pilot.pause()
        await pilot.press("enter")  # several: which one?
        await wait_for(
            lambda: "Open which sub-agent?" in str(app.screen.query_one("#prompt-label").render())
        )
        await pilot.press("2", "enter")
        await wait_for(lambda: app.replay is not screen and app.replay.analysed, timeout=20)
        sub = app.replay
        assert sub.came_from and "sub-agent" in app.sub_title
        assert len(sub.playback.turns) == 1 + len(SUBS["e4f5a6b"])  # its prompt and its reply
        assert "Find every caller of price_total." in screen_text(app)
        await pilot.press("backspace")
        await wait_for(lambda: app.replay is screen)
        assert screen.playback.cursor == 3  # where the person left it
        assert "back from the sub-agent" in screen.timeline.status().plain


async def test_enter_alone_in_the_which_sub_agent_box_opens_the_first(tmp_path) -> None:
    """The box shows a dim 1: Enter with nothing typed opens sub-agent 1 (the turn's first
    call's), as its line says; a number out of range still says so and opens nothing."""
    app = ReplayerApp(_home(tmp_path), sensitivity="1")
    async with app.run_test(size=NARROW) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed, timeout=20)
        await pilot.press("right_square_bracket", "l")  # turn #4: three Agent calls
        await pilot.pause()

        def label() -> str:
            return str(app.screen.query_one("#prompt-label").render())

        await pilot.press("enter")
        await wait_for(lambda: "Open which sub-agent?" in label())
        assert "Enter: 1" in label()
        await pilot.press("7", "enter")  # not one of the three
        await wait_for(lambda: app.screen is screen)
        assert "no sub-agent 7 here (1 to 3)" in screen.timeline.status().plain
        await pilot.press("enter")
        await wait_for(lambda: "Open which sub-agent?" in label())
        await pilot.press("enter")  # nothing typed
        await wait_for(lambda: app.replay is not screen and app.replay.analysed, timeout=20)
        assert PROMPTS["a1b2c3d"] in screen_text(app)  # the first call's, toolu_01cart


async def test_enter_on_a_turn_without_subagents_still_folds_its_calls(tmp_path) -> None:
    app = ReplayerApp(_home(tmp_path), sensitivity="1")
    async with app.run_test(size=FULL) as pilot:
        screen = replay(app)
        await wait_for(lambda: screen.analysed, timeout=20)
        await pilot.press("G")  # the last turn, your message: nothing to fold
        await pilot.press("enter")
        await pilot.pause()
        assert "nothing to unfold" in screen.timeline.status().plain
        ran = {sub.parent_turn for sub in screen.subagents}
        plain = [t.index for t in screen.playback.turns if t.tool_calls and t.index not in ran]
        screen.moved(screen.playback.goto(plain[-1]))  # calls, but no sub-agent ran from them
        await pilot.press("enter")
        await pilot.pause()
        assert app.replay is screen and screen.transcript.expanded.get(screen.playback.cursor)


def test_the_picker_lists_what_each_session_cost_with_its_subagents(tmp_path) -> None:
    from pivotal.catalog.discovery import with_counts
    from pivotal.tui.picker import Columns, header, ref_label

    ref = with_counts(_home(tmp_path))
    own = 12800  # claude_home.OWN, by hand
    subs = sum(sum(row) for rows in SUBS.values() for row in rows)
    assert ref.tokens == own + subs and ref.cost_whole is True
    assert ref.cost is not None and round(ref.cost, 2) == 0.09
    assert "cost" in header().plain
    assert "$0.09" in ref_label(ref).plain
    unpriced = ref.__class__(format="codex", path=ref.path, turns=3, tokens=9400)
    assert "no price" in ref_label(unpriced).plain  # never a guessed price
    roomy = Columns.for_width(160)
    assert "9.4k no price" in ref_label(unpriced, cols=roomy).plain  # its tokens beside it
    partial = ref.__class__(
        format="x", path=ref.path, turns=3, tokens=9, cost=1.5, cost_whole=False
    )
    assert "≥$1.50" in ref_label(partial).plain
    nothing = ref.__class__(format="aider", path=ref.path, turns=3)
    assert "—" in ref_label(nothing).plain and "…" in ref_label(ref.__class__("x", ref.path)).plain
