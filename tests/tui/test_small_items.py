"""The small things of issue 35: 11 in the replayer, each at 80×24 and 160×48.

The idle limit has a key; +, -, R do not say the speed twice; `:999` says it went
to the last turn; a marked turn says so in its header; Enter on a turn with
nothing to unfold says so; shown reasoning is labelled as reasoning; F on the
demo does not pretend to follow it; a resize below 120 columns moves the panel
to the bottom; the pivots filter's banners say what happened; the picker says
what Esc does in one place.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import SessionRef
from pivotal.tui.app import ReplayerApp

from .conftest import make_app, replay, turn_text, wait_for

SIZES = [(80, 24), (160, 48)]


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Marks made here stay here (the demo's turns are every test's)."""
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


@pytest.mark.parametrize("size", SIZES)
async def test_i_steps_the_idle_limit_of_real_time(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        pace = replay(app).playback.pace
        await pilot.press("i")  # in turns per second: it says where it applies
        assert pace.idle_limit == 5 and "idle limit 5 s" in status(app) and "(R)" in status(app)
        await pilot.press("R", "i")
        assert pace.realtime and pace.idle_limit == 10
        line = status(app)
        assert "idle ≤ 10 s" in line or "rt×1 ≤10s" in line, line
        assert line.count("10 s") + line.count("10s") == 1, line  # said once, by the pace


@pytest.mark.parametrize("size", SIZES)
async def test_speed_keys_do_not_say_the_speed_twice(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("plus", "plus")
        line = status(app)
        assert line.count("4 turns/s") + line.count("4/s") == 1, line
        for _ in range(20):
            await pilot.press("plus")
        assert "already at the top speed" in status(app)


@pytest.mark.parametrize("size", SIZES)
async def test_a_turn_number_past_the_end_says_where_it_went(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("colon", *"999", "enter")
        await pilot.pause()
        assert replay(app).playback.cursor == 27
        assert "turn 999 is not in 1–28: at the last turn, #28" in status(app)
        await pilot.press("colon", "0", "enter")
        await pilot.pause()
        assert replay(app).playback.cursor == 0 and "at the first turn, #1" in status(app)


@pytest.mark.parametrize("size", SIZES)
async def test_a_marked_turn_says_so_in_its_header(size: tuple[int, int]) -> None:
    app = make_app(at=3)
    async with app.run_test(size=size) as pilot:
        view = replay(app).transcript
        assert "▼" not in turn_text(view, 3)
        await pilot.press("m")
        await pilot.pause()
        assert "▼ marked" in turn_text(view, 3).splitlines()[0]
        await pilot.press("a", *"retry with a smaller batch", "ctrl+s")
        await pilot.pause()
        assert "▼ marked: retry with" in turn_text(view, 3).splitlines()[0]


def test_the_mark_comes_before_the_spend_a_narrow_header_cuts() -> None:
    from pivotal.tui.render import Palette, TurnLook, header_text

    from .sessions import demo_turns

    look = TurnLook(width=80, spend="$0.02 · in 13 · out 259 · cache 25 k read", mark="")
    header = header_text(demo_turns()[3], look, Palette()).plain
    assert header.index("▼ marked") < header.index("$0.02"), header


@pytest.mark.parametrize("size", SIZES)
async def test_enter_on_a_turn_with_nothing_to_unfold_says_so(size: tuple[int, int]) -> None:
    app = make_app(at=0)  # the first prompt: one short message
    async with app.run_test(size=size) as pilot:
        await pilot.press("enter")
        assert "nothing to unfold here" in status(app)
        await pilot.press("l", "enter")  # a turn with a tool call unfolds as before
        assert replay(app).transcript.expanded.get(1) and "nothing" not in status(app)


@pytest.mark.parametrize("size", SIZES)
async def test_shown_reasoning_is_labelled_as_reasoning(size: tuple[int, int]) -> None:
    app = make_app(at=1)
    async with app.run_test(size=size) as pilot:
        await pilot.press("t")
        text = turn_text(replay(app).transcript, 1)
        assert "thinking (the agent's reasoning" in text
        label = text.index("thinking (the agent's reasoning")
        assert label < text.index("The port may be taken.")


@pytest.mark.parametrize("size", SIZES)
async def test_f_on_the_demo_does_not_pretend_to_follow_it(size: tuple[int, int]) -> None:
    demo = Path(__file__).resolve().parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"
    app = ReplayerApp(SessionRef("claude-code", demo), demo=True)
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_for(lambda: app.replay is not None and bool(app.replay.playback.turns))
        await pilot.press("F")
        await pilot.pause()
        assert not replay(app).live.on and "LIVE" not in status(app)
        assert any("demo is a finished session" in n.message for n in app._notifications)


async def test_a_resize_below_120_columns_moves_the_panel_to_the_bottom() -> None:
    app = make_app(at=10)
    async with app.run_test(size=(160, 48)) as pilot:
        panel = replay(app).panel
        assert panel.display and replay(app).has_class("-panel-docked")
        await pilot.resize_terminal(100, 40)
        await pilot.pause()
        assert panel.display and replay(app).has_class("-panel-drawer")  # not hidden
        assert panel.region.y > replay(app).transcript.region.y
        await pilot.press("p")  # closes the drawer; widening docks it again
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert panel.display and replay(app).has_class("-panel-docked")


async def test_starting_narrow_leaves_the_drawer_closed() -> None:
    app = make_app(at=10)
    async with app.run_test(size=(80, 24)):
        assert not replay(app).panel.display


@pytest.mark.parametrize("size", SIZES)
async def test_the_pivots_filter_says_what_happened_at_each(size: tuple[int, int]) -> None:
    app = make_app(at=27)
    async with app.run_test(size=size) as pilot:
        view = replay(app).transcript
        assert "three failed attempts" not in turn_text(view, 5)
        await pilot.press("backslash", "backslash")  # all -> human -> pivots
        assert "pivots only" in status(app)
        rows = turn_text(view, 5).splitlines()
        assert "PIVOT" in rows[0] and "● You" in rows[1], rows
        assert rows[2].startswith("▏ ✦ three failed attempts, then the agent took over"), rows
        await pilot.press("backslash", "backslash")  # back to all turns: banners alone
        assert "three failed attempts" not in turn_text(view, 5)


@pytest.mark.parametrize("back", [False, True])
async def test_the_picker_words_esc_the_same_in_its_title_and_footer(back: bool) -> None:
    """The title said "Esc clears the filter / goes back", the footer "Clear / quit"."""
    refs = [SessionRef("codex", Path("/h/.codex/sessions/rollout-a.jsonl"), size=1, updated=2.0)]
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.refs, app.details = refs, None
        if back:
            await pilot.press("o")  # from the replay: Esc goes back to it
        else:
            app.show_picker()
        await pilot.pause()
        words = "clear filter / back" if back else "clear filter / quit"
        title = str(app.screen.query_one("#picker-title").render())
        assert f"Esc: {words}" in title, title
        esc = app.screen.active_bindings["escape"][1]
        assert esc.description == words.capitalize() and esc.show
