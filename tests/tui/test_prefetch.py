"""Where the jump keys lead is drawn ahead, between frames, and nothing on screen moves.

A far jump on a big session spent most of its frame rendering turns never drawn and
wrapping the pivot's explanation there (`prefetch.py`). After a move, once the app is
idle, `]`, `[`, Shift+→ and the rest land on turns already rendered and on an
explanation already wrapped; the view the person reads stays exactly as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import pivotal.tui.transcript as transcript_module
from pivotal.model import Part, PartKind, Role, Session, Turn, TurnFlag
from pivotal.tui.app import ReplayerApp
from pivotal.tui.prefetch import Prefetch

from .conftest import make_app, replay, screen_text

WIDE = (160, 48)


async def until_prefetched(app, pilot) -> None:  # type: ignore[no-untyped-def]
    """Idle until the prefetch has drawn every place ahead (however slow the machine)."""
    prefetch = replay(app).prefetch
    assert prefetch is not None
    for _ in range(400):
        await pilot.pause(0.02)
        if not prefetch.busy:
            return
    raise AssertionError("the prefetch never finished")


def count_wraps(panel, monkeypatch: pytest.MonkeyPatch) -> list[int]:  # type: ignore[no-untyped-def]
    """One entry per explanation the panel wraps from now on."""
    wrapped: list[int] = []
    real = panel._wrap
    monkeypatch.setattr(panel, "_wrap", lambda *a: wrapped.append(1) or real(*a))
    return wrapped


def count_renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Turn indices rendered to strips from now on, in order."""
    seen: list[int] = []
    real = transcript_module.render_turn

    def counting(turn, look, palette, console):  # type: ignore[no-untyped-def]
        seen.append(turn.index)
        return real(turn, look, palette, console)

    monkeypatch.setattr(transcript_module, "render_turn", counting)
    return seen


@pytest.mark.parametrize("key", ["right_square_bracket", "shift+right", "G", "7"])
async def test_a_far_jump_finds_its_turns_rendered(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(at=2)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await until_prefetched(app, pilot)
        monkeypatch.setattr(Prefetch, "_step", lambda self: None)  # what follows is the key's
        rendered = count_renders(monkeypatch)
        wrapped = count_wraps(screen.panel, monkeypatch)
        shown = screen.panel.text.plain
        await pilot.press(key)
        assert screen.playback.cursor > 2
        assert rendered == []  # no turn had to be rendered by the key itself
        assert wrapped == []  # nor the panel's explanation wrapped
        if key == "right_square_bracket":
            assert screen.panel.text.plain != shown  # it did change: to the pivot's
        assert screen.prefetch is not None and screen.prefetch.steps > 0


async def test_without_the_idle_time_the_jump_renders_its_turns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the same jump with the prefetch kept from running: the check above can fail
    monkeypatch.setattr(Prefetch, "_step", lambda self: None)
    app = make_app(at=2)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause(0.1)
        rendered = count_renders(monkeypatch)
        await pilot.press("right_square_bracket")
        assert rendered != []


async def test_prefetching_moves_nothing_on_screen() -> None:
    app = make_app(at=12)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        assert screen.prefetch is not None
        screen.prefetch.soon()
        view = screen.transcript
        before = (screen_text(app), view.scroll_offset, view.virtual_size, screen.playback.cursor)
        panel = screen.panel.text.plain
        await until_prefetched(app, pilot)
        assert screen.prefetch.steps > 0
        after = (screen_text(app), view.scroll_offset, view.virtual_size, screen.playback.cursor)
        assert after == before and screen.panel.text.plain == panel


async def test_the_landings_are_where_the_keys_go_and_the_cursor_stays() -> None:
    app = make_app(at=10)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        assert screen.prefetch is not None
        places = screen.prefetch.landings()
        assert screen.playback.cursor == 10
        for key in ("right_square_bracket", "left_square_bracket", "shift+right", "l", "G"):
            await pilot.press("colon", "1", "1", "enter")  # back to turn #11 (index 10)
            assert screen.playback.cursor == 10
            await pilot.press(key)
            assert screen.playback.cursor in places, key


async def test_the_page_above_is_ready_for_page_up(monkeypatch: pytest.MonkeyPatch) -> None:
    turns = []
    for n in range(400):  # far more pages than the jump keys land on
        role, flags = (Role.USER, TurnFlag.HUMAN) if n % 2 == 0 else (Role.ASSISTANT, TurnFlag.NONE)
        body = f"message {n}\n\nsome **markdown** text"
        turns.append(Turn(n, role, flags, preview=body, _parts=[Part(PartKind.TEXT, body)]))
    session = Session(format="x", path=Path("/x"), turns=turns)
    app = ReplayerApp(session=session, pivots=[], at=333)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = replay(app)
        await until_prefetched(app, pilot)
        monkeypatch.setattr(Prefetch, "_step", lambda self: None)  # what follows is the key's
        rendered = count_renders(monkeypatch)
        top = screen.transcript.scroll_offset.y
        await pilot.press("pageup")
        assert screen.transcript.scroll_offset.y < top
        assert rendered == []


@pytest.mark.parametrize("marked_before", [False, True])
async def test_m_finds_the_turn_and_the_panel_drawn(
    marked_before: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path))  # marks of its own
    app = make_app(at=12)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await app.workers.wait_for_complete()  # the marks are loaded
        await pilot.pause()
        assert screen.marking.book.session is not None
        if marked_before:
            await pilot.press("m")
            assert screen.marking.cursor_note() is not None
        await until_prefetched(app, pilot)
        monkeypatch.setattr(Prefetch, "_step", lambda self: None)  # what follows is the key's
        rendered = count_renders(monkeypatch)
        wrapped = count_wraps(screen.panel, monkeypatch)
        await pilot.press("m")
        assert (screen.marking.cursor_note() is None) == marked_before  # it did toggle
        assert rendered == [] and wrapped == []


async def test_no_step_runs_right_after_a_key() -> None:
    # a key whose frame waits on a scroll leaves the screen idle before that frame
    app = make_app(at=2)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await until_prefetched(app, pilot)
        prefetch = screen.prefetch
        assert prefetch is not None
        prefetch._places, steps = [20], prefetch.steps
        prefetch.since_key = lambda: 0.0  # a key this instant
        prefetch._step()
        assert prefetch.steps == steps and prefetch.busy  # put off, not dropped
        assert prefetch._places == [20]
        prefetch.since_key = lambda: 1.0
        await until_prefetched(app, pilot)
        assert prefetch._places == []  # done once the key's frame had its time
