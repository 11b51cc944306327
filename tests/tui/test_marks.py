"""Marks and notes in the replayer (m, a, u, U), pressed through Pilot.

Marks must show on the timeline (▼) and in the panel, survive quitting and
reopening the app on the same file and the file growing, and a note's text is
shown as text: brackets stay brackets and escapes never reach the screen.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from pivotal.catalog.notes import NoteStore
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.note_editor import NoteScreen
from tail.claude_lines import ClaudeStream

from .conftest import make_app, replay

SIZE = (160, 48)


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own notes store: a mark on the demo session must not leak into others."""
    data = tmp_path / "data"
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(data))
    return data


async def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def bar(app: ReplayerApp) -> str:
    timeline = replay(app).timeline
    return timeline.bar(max(timeline.size.width, 1)).plain


def panel_lines(app: ReplayerApp) -> str:
    return "\n".join(strip.text for strip in replay(app).panel.lines())


def session_file(tmp_path: Path, turns: int = 12) -> tuple[Path, ClaudeStream]:
    stream = ClaudeStream()
    chunks = [stream.human("Start: get the inference server running.")]
    for n in range(turns - 1):
        chunks.append(stream.say(f"Working on step {n}.") if n % 2 else stream.human(f"go {n}"))
    path = tmp_path / "5e55104c.jsonl"
    path.write_bytes(b"".join(chunks))
    return path, stream


def open_app(path: Path, **kwargs: object) -> ReplayerApp:
    return ReplayerApp(find_sessions([path]).refs[0], **kwargs)  # type: ignore[arg-type]


async def loaded(app: ReplayerApp, turns: int) -> None:
    await wait_for(
        lambda: (
            (screen := app.replay) is not None
            and len(screen.playback.turns) >= turns
            and screen.marking.book.session is not None
        )
    )


async def test_m_marks_and_unmarks_the_turn_on_the_timeline_and_in_the_panel() -> None:
    app = make_app(at=10)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay(app)
        assert "▼" not in bar(app)
        await pilot.press("m")
        assert screen.timeline.state.marks == (10,)
        assert "marked turn #11" in screen.timeline.status().plain
        await pilot.press("g")  # the cursor ● no longer covers the mark
        assert "▼" in bar(app)
        await pilot.press("u")
        assert screen.playback.cursor == 10
        assert "Note · turn #11" in panel_lines(app)
        await pilot.press("m")
        assert screen.timeline.state.marks == ()
        await pilot.press("g")
        assert "▼" not in bar(app) and "Note ·" not in panel_lines(app)


async def test_u_and_U_jump_between_marks() -> None:
    app = make_app(at=3)
    async with app.run_test(size=SIZE) as pilot:
        screen, pb = replay(app), replay(app).playback
        await pilot.press("m")
        pb.goto(20)
        await pilot.press("m")
        await pilot.press("g", "u")
        assert pb.cursor == 3
        await pilot.press("u")
        assert pb.cursor == 20
        await pilot.press("u")
        assert pb.cursor == 20 and "no later mark" in screen.timeline.status().plain
        await pilot.press("U")
        assert pb.cursor == 3
        await pilot.press("U")
        assert "no earlier mark" in screen.timeline.status().plain


async def test_note_is_saved_shown_in_the_panel_as_text_and_inert() -> None:
    app = make_app(at=6)
    hostile = "[bold red]not markup[/] \x1b]0;pwned\x07 *done*"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, NoteScreen)
        app.screen.query_one("TextArea").insert(hostile)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        assert not isinstance(app.screen, NoteScreen)
        await pilot.pause()
        shown = panel_lines(app)
        assert "[bold red]not markup[/]" in shown  # brackets are text, not style
        assert "␛]0;pwned" in shown  # the escape is visible, not sent
        assert "*done*" in shown  # styled as Markdown, its asterisks kept (issue 34)
        screenshot = app.export_screenshot()
        assert "\x1b" not in screenshot and "\x07" not in screenshot
        assert replay(app).timeline.state.marks == (6,)
        # editing it again starts from the saved text; Esc asks first, Esc again leaves it
        await pilot.press("a")
        assert app.screen.query_one("TextArea").text == hostile  # type: ignore[attr-defined]
        app.screen.query_one("TextArea").insert("more")  # type: ignore[attr-defined]
        await pilot.press("escape")
        assert isinstance(app.screen, NoteScreen) and app.screen.asking
        await pilot.press("escape")
        assert not isinstance(app.screen, NoteScreen)
        assert "note unchanged" in replay(app).timeline.status().plain
    with NoteStore() as store:
        (mark,) = store.marks_for(make_app().session)  # type: ignore[arg-type]
    assert mark.note == hostile and mark.turn_index == 6


async def test_marks_and_notes_survive_a_restart_and_the_file_growing(tmp_path: Path) -> None:
    path, stream = session_file(tmp_path)
    app = open_app(path, at=4)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, 12)
        await pilot.press("m")
        await pilot.press("l", "l", "a")
        app.screen.query_one("TextArea").insert("the fix starts here")  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        assert replay(app).timeline.state.marks == (4, 6)
    with path.open("ab") as f:  # the agent goes on writing while pivotal is closed
        f.write(stream.say("More work.") + stream.human("") + stream.say("Done."))
    app = open_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, 15)
        screen = replay(app)
        await wait_for(lambda: screen.timeline.state.marks == (4, 6))
        # the bar is drawn at the timeline's laid-out width: wait for the layout, not for time
        await wait_for(lambda: screen.timeline.size.width > 0)
        assert "▼" in bar(app), bar(app)
        await pilot.press("g", "u", "u")
        assert screen.playback.cursor == 6
        assert "the fix starts here" in panel_lines(app)


async def test_a_mark_on_a_turn_that_is_gone_is_not_drawn(tmp_path: Path) -> None:
    path, _ = session_file(tmp_path)
    app = open_app(path, at=10)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, 12)
        await pilot.press("m")
        assert replay(app).timeline.state.marks == (10,)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:6]))  # rewritten shorter (a rewind)
    app = open_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, 6)
        await pilot.pause(0.1)
        assert replay(app).timeline.state.marks == ()
        await pilot.press("u")
        assert "no later mark" in replay(app).timeline.status().plain


async def test_a_mark_stays_on_its_turn_while_a_followed_file_grows(tmp_path: Path) -> None:
    path, stream = session_file(tmp_path)
    app = open_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(app, 12)
        screen = replay(app)
        await pilot.press("g", "l", "l", "l", "m")  # turn #4
        assert screen.timeline.state.marks == (3,)
        with path.open("ab") as f:
            f.write(stream.human("next") + stream.say("Done with the next part."))
        await wait_for(lambda: len(screen.playback.turns) == 14)
        await pilot.press("G")
        assert screen.timeline.state.marks == (3,)
        await pilot.press("U")
        assert screen.playback.cursor == 3 and "Note · turn #4" in panel_lines(app)


@pytest.fixture
def locked_store(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Another program holds a write lock on the notes store (released by the test)."""
    from pivotal.tui.marks import MarkBook

    monkeypatch.setattr(MarkBook, "BUSY_TIMEOUT", 0.05)  # the key waits this long for it
    with NoteStore() as store:
        path = store.path
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    yield holder
    holder.close()


async def test_a_locked_store_says_the_mark_was_not_saved(locked_store) -> None:  # type: ignore[no-untyped-def]
    app = make_app(at=6)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay(app)
        await pilot.press("m")
        assert "mark NOT saved: it is locked by another program" in screen.timeline.status().plain
        assert screen.timeline.state.marks == ()  # not drawn as if it were kept
        locked_store.execute("ROLLBACK")  # the other program lets go: m works again
        await pilot.press("m")
        assert "marked turn #7" in screen.timeline.status().plain
        assert screen.timeline.state.marks == (6,)


async def test_a_note_the_store_refuses_stays_in_the_editor(locked_store) -> None:  # type: ignore[no-untyped-def]
    app = make_app(at=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        app.screen.query_one("TextArea").insert("a long thought")  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await wait_for(lambda: isinstance(app.screen, NoteScreen))
        assert "NOT saved" in str(app.screen.query_one("#note-title").render())
        assert app.screen.query_one("TextArea").text == "a long thought"  # type: ignore[attr-defined]
        assert "note NOT saved" in replay(app).timeline.status().plain
        locked_store.execute("ROLLBACK")
        await pilot.press("ctrl+s")
        await wait_for(lambda: not isinstance(app.screen, NoteScreen))
        assert "note saved on turn #7" in replay(app).timeline.status().plain
    with NoteStore() as store:
        (mark,) = store.marks_for(make_app().session)  # type: ignore[arg-type]
    assert mark.note == "a long thought"


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_esc_on_a_changed_draft_asks_and_typing_on_keeps_it(size: tuple[int, int]) -> None:
    """Issue 35: 11: Esc in the note editor threw the draft away."""
    app = make_app(at=3)
    async with app.run_test(size=size) as pilot:
        await pilot.press("a")
        editor = app.screen
        assert isinstance(editor, NoteScreen)
        await pilot.press(*"first thought", "escape")
        assert app.screen is editor and editor.asking  # kept, and asked about
        title = str(editor.query_one("#note-title").render())
        assert "Ctrl+S saves it" in title and "Esc again discards it" in title
        await pilot.press(*" and more")  # typing on: the question is taken back
        assert not editor.asking and "Unsaved" not in str(editor.query_one("#note-title").render())
        await pilot.press("escape", "ctrl+s")  # asked again, and saved this time
        await pilot.pause()
        assert not isinstance(app.screen, NoteScreen)
        assert replay(app).marking.book.note_at(3) == "first thought and more"
        await pilot.press("a", "escape")  # nothing changed: Esc leaves at once
        assert not isinstance(app.screen, NoteScreen)
