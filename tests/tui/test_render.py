"""What the transcript draws: untrusted text stays inert, special turns show, work is lazy."""

from __future__ import annotations

from pathlib import Path

from pivotal.model import Part, PartKind, Role, Session, Turn, TurnFlag
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker import PickerScreen
from pivotal.tui.prefetch import Prefetch

from .conftest import make_app, replay, turn_text

DEMO = Path(__file__).parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"


async def test_hostile_text_is_shown_not_obeyed() -> None:
    app = make_app(at=27)
    async with app.run_test(size=(120, 30)):
        view = replay(app).transcript
        strips = view.rendered(27).strips
        text = "\n".join(strip.text for strip in strips)
        assert "[bold red]not markup[/]" in text  # literal, not parsed as Rich markup
        assert "\x1b" not in text and "\x07" not in text
        assert "␛]0;pwned" in text  # the OSC title escape is visible, and inert
        assert not any(
            seg.style and seg.style.bold and "not markup" in seg.text
            for strip in strips
            for seg in strip
        )


async def test_empty_message_compaction_and_injected_text() -> None:
    app = make_app(at=26)
    async with app.run_test(size=(120, 30)):
        view = replay(app).transcript
        assert "(empty message)" in turn_text(view, 5)
        assert "context compacted here" in turn_text(view, 24)
        summary = turn_text(view, 25)
        assert "compaction summary" in summary and "more lines (Enter expands)" in summary
        assert "4. more" not in summary  # folded to three lines
        assert "○ injected" in turn_text(view, 26)


async def test_huge_message_is_cut() -> None:
    big = "word " * 200_000
    turns = [Turn(0, Role.ASSISTANT, preview=big[:200], _parts=[Part(PartKind.TEXT, big)])]
    app = ReplayerApp(session=Session(format="x", path=Path("/x"), turns=turns), pivots=[])
    async with app.run_test(size=(100, 30)):
        text = turn_text(replay(app).transcript, 0)
        assert "more characters (Enter expands)" in text
        assert len(text) < 20_000


async def test_only_turns_on_screen_are_rendered(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(Prefetch, "_step", lambda self: None)  # the keys' own renders only
    await only_turns_on_screen_are_rendered(limit=120)


async def test_drawing_ahead_renders_the_places_keys_lead_to_not_the_session() -> None:
    await only_turns_on_screen_are_rendered(limit=400, idle=True)


async def only_turns_on_screen_are_rendered(limit: int, idle: bool = False) -> None:
    turns = []
    for n in range(5_000):
        role, flags = (Role.USER, TurnFlag.HUMAN) if n % 2 == 0 else (Role.ASSISTANT, TurnFlag.NONE)
        body = f"message {n}\n\nsome **markdown** text"
        turns.append(Turn(n, role, flags, preview=body, _parts=[Part(PartKind.TEXT, body)]))
    app = ReplayerApp(session=Session(format="x", path=Path("/x"), turns=turns), pivots=[])
    async with app.run_test(size=(120, 40)) as pilot:
        view = replay(app).transcript
        await pilot.press("G")
        await pilot.pause()
        assert replay(app).playback.cursor == 4_999
        assert "message 4999" in "\n".join(view.render_line(y).text for y in range(38))
        for key in ("5", "g", "9"):
            await pilot.press(key)
            await pilot.pause(0.5 if idle else None)
        assert view.renders < limit  # a few screens' worth, not 5,000 turns


async def test_reads_a_real_file_in_the_worker_and_finds_pivots() -> None:
    ref = find_sessions([DEMO]).refs[0]
    app = ReplayerApp(ref)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = replay(app)
        assert screen.analysed and len(screen.playback.turns) > 10
        assert screen.playback.pivots  # the bundled demo has silent pivots
        assert app.first_paint.is_set()
        await pilot.press("right_square_bracket")
        assert screen.playback.cursor == screen.playback.pivots[0].turn


async def test_picker_opens_the_chosen_session() -> None:
    refs = find_sessions([DEMO]).refs
    app = ReplayerApp(None, refs=refs)
    async with app.run_test(size=(100, 30)) as pilot:
        assert isinstance(app.screen, PickerScreen)
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.replay is not None and app.replay.playback.turns


async def test_demo_notice_is_shown_in_one_row_at_80_columns() -> None:
    app = make_app(demo=True)
    async with app.run_test(size=(80, 24)):
        banner = replay(app).query_one("#banner")
        assert banner.size.height == 1
        line = banner.render_line(0).text
        assert "Demo session" in line and line.rstrip().endswith("pivotal PATH")


def test_run_replayer_passes_its_options(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`at` is the turn number as shown on screen (#1 first); the app gets it 0-based."""
    import pivotal.tui
    from pivotal.model import SessionRef

    seen = {}

    def fake_run(self) -> None:  # type: ignore[no-untyped-def]
        seen.update(
            at=self.at,
            speed=self.speed,
            realtime=self.realtime,
            idle_limit=self.idle_limit,
            autopause=self.autopause,
            demo=self.demo,
            follow=self.follow,
            ref=self.ref,
        )

    monkeypatch.setattr(ReplayerApp, "run", fake_run)
    ref = SessionRef("claude-code", DEMO)
    code = pivotal.tui.run_replayer(
        ref, at=5, speed=3.0, realtime=True, idle_limit=5.0, autopause=False, demo=True, follow=True
    )
    assert code == 0
    assert seen == dict(
        at=4,
        speed=3.0,
        realtime=True,
        idle_limit=5.0,
        autopause=False,
        demo=True,
        follow=True,
        ref=ref,
    )


async def test_a_turn_that_grows_while_shown_is_redrawn() -> None:
    """Readers may append to the last turn (a reply arriving in pieces): the screen follows."""
    from pivotal.tui.loading import Batch

    from .sessions import agent, demo_turns

    turns = demo_turns()[:3]
    app = ReplayerApp(session=Session(format="x", path=Path("/x"), turns=turns), pivots=[], at=2)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = replay(app)
        assert "Trying another." in turn_text(screen.transcript, 2)
        grown = agent("The port is taken. Trying another. And now a much longer reply.")
        grown.index = 2
        screen.add_turns(Batch([*turns[:2], grown], 2, 1, 1, True))
        await pilot.pause()
        assert "much longer reply" in turn_text(screen.transcript, 2)
        assert "much longer reply" in "\n".join(
            screen.transcript.render_line(y).text for y in range(25)
        )
