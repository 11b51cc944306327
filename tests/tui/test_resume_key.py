"""r: the command that resumes the session in its agent, shown and copied (per format).

Each case opens a real sample session the way `pivotal PATH` does and presses
r; the expected commands are written out from the sample files' own ids and
working directories.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pivotal.model import Session
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp

from .conftest import replay
from .sessions import demo_turns

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_sessions"
SIZE = (160, 48)


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))


def messages(app: ReplayerApp) -> list[str]:
    return [n.message for n in app._notifications]


async def press_r(app: ReplayerApp, pilot) -> str:  # type: ignore[no-untyped-def]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while (screen := app.replay) is None or screen.marking.identity is None:
        assert loop.time() < deadline, "the session's identity never arrived"
        await pilot.pause(0.02)
    await pilot.press("r")
    (message,) = [m for m in messages(app) if "resume" in m.lower() or "run in" in m]
    return message


CASES = [
    (
        "claude/demo.jsonl",
        "cd /home/dev/work/qwen-serve && claude --resume 6b98e5a9-fe71-4aed-9a80-867aed442f5f",
        "run in: /home/dev/work/qwen-serve",
    ),
    (
        "codex/demo.jsonl",
        "cd /home/dev/work/qwen-serve && codex resume 01a1c5c2-3184-7a83-9873-511e641a24bb",
        "run in: /home/dev/work/qwen-serve",
    ),
    (
        "gemini/demo.jsonl",
        "cd /home/dev/work/qwen-serve && gemini --resume c384133a-df1a-4bd9-905d-3e966e60c1be",
        "run in: /home/dev/work/qwen-serve",
    ),
    (
        "aider/demo.aider.chat.history.md",
        f"cd {SAMPLES / 'aider'} && aider --restore-chat-history"
        " --chat-history-file demo.aider.chat.history.md",
        f"run in: {SAMPLES / 'aider'}",
    ),
]


@pytest.mark.parametrize(("sample", "command", "where"), CASES, ids=lambda v: str(v)[:14])
async def test_r_shows_and_copies_the_resume_command(sample: str, command: str, where: str) -> None:
    app = ReplayerApp(find_sessions([SAMPLES / sample]).refs[0])
    async with app.run_test(size=SIZE) as pilot:
        message = await press_r(app, pilot)
        assert message.splitlines()[:2] == [command, where]
        assert "Sent to the clipboard with OSC 52" in message  # not "copied": it may be ignored
        assert "ignore it" in message and "copied" not in message.lower()
        assert app.clipboard == command
        status = replay(app).status
        assert "resume command shown" in status and "if the terminal allows" in status


async def test_a_format_without_an_agent_says_why_and_copies_nothing() -> None:
    app = ReplayerApp(find_sessions([SAMPLES / "generic" / "demo.jsonl"]).refs[0])
    async with app.run_test(size=SIZE) as pilot:
        message = await press_r(app, pilot)
        assert message == "Cannot resume this session: generic sessions have no agent to resume"
        assert app.clipboard == ""


async def test_the_notification_is_plain_text() -> None:
    """A working directory with markup-like brackets is shown as written (markup off)."""
    session = Session(
        "claude-code",
        Path("/tmp/s.jsonl"),
        id="abc-123",
        cwd="/tmp/[bold red]proj[/]",
        turns=demo_turns(),
    )
    app = ReplayerApp(session=session, pivots=[])
    async with app.run_test(size=SIZE) as pilot:
        message = await press_r(app, pilot)
        assert message.splitlines()[0] == "cd '/tmp/[bold red]proj[/]' && claude --resume abc-123"
        (note,) = [n for n in app._notifications if n.message == message]
        assert note.markup is False


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_resume_toast_is_wide_and_leaves_the_status_in_view(
    size: tuple[int, int],
) -> None:
    """Issue 35: 11: at 80 columns the toast wrapped the command over three rows, and sat on
    the status line for 10 s: it is as wide as the screen allows, and at the top."""
    from textual.widgets._toast import Toast

    sample, command, _ = CASES[1]
    app = ReplayerApp(find_sessions([SAMPLES / sample]).refs[0])
    async with app.run_test(size=size, notifications=True) as pilot:
        await press_r(app, pilot)
        await pilot.pause(0.1)
        (toast,) = app.screen.query(Toast)
        timeline = replay(app).timeline
        assert toast.region.bottom <= timeline.region.y, (toast.region, timeline.region)
        rows = -(-len(command) // toast.content_region.width)  # 81 characters
        assert rows == (2 if size[0] == 80 else 1), (rows, toast.content_region)


async def test_esc_closes_the_resume_box_before_anything_else() -> None:
    """The box only timed out (8 s); Esc, which closes every other overlay, left it up."""
    from textual.widgets._toast import Toast

    sample, _, _ = CASES[1]
    app = ReplayerApp(find_sessions([SAMPLES / sample]).refs[0])
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await press_r(app, pilot)
        await pilot.press("space")  # playing: Esc would otherwise stop it
        await pilot.pause(0.1)
        assert len(app.screen.query(Toast)) == 1
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert len(app.screen.query(Toast)) == 0 and list(app._notifications) == []
        assert replay(app).playback.playing  # that Esc closed the box and nothing else
        await pilot.press("escape")
        assert not replay(app).playback.playing


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("key", ["ctrl+p", "question_mark"], ids=["palette", "help"])
async def test_the_palette_and_the_help_are_never_drawn_under_the_resume_box(
    key: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The box sat over the command palette's search line (and over the help's top): both
    at the top of the screen. The palette (and help) take precedence: no notification is
    drawn over them; closed, the box is back for as long as it had left."""
    from textual.command import CommandPalette
    from textual.notifications import Notification
    from textual.widgets._toast import Toast, ToastRack

    from pivotal.tui import handoff
    from pivotal.tui.screens import HelpScreen

    def lasting(*args: object, **kwargs: object) -> Notification:  # a slow run outlasts 8 s
        return Notification(*args, **{**kwargs, "timeout": 600})  # type: ignore[arg-type]

    monkeypatch.setattr(handoff, "Notification", lasting)
    overlay = {"ctrl+p": CommandPalette, "question_mark": HelpScreen}[key]
    app = ReplayerApp(find_sessions([SAMPLES / CASES[0][0]]).refs[0])
    async with app.run_test(size=size, notifications=True) as pilot:
        await press_r(app, pilot)
        await pilot.pause(0.1)
        (box,) = app.screen.query(Toast)
        top = box.region  # where the box is drawn on the replay
        await pilot.press(key)
        await pilot.pause(0.1)
        assert isinstance(app.screen, overlay)
        assert not any(t.visible for t in replay(app).query(Toast))  # not seen through it
        for y in range(top.y, top.bottom):
            for x in range(top.x, top.right):
                widget, _ = app.screen.get_widget_at(x, y)
                inside = [widget, *widget.ancestors_with_self]
                assert not any(isinstance(w, Toast | ToastRack) for w in inside), (x, y, widget)
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert app.screen is replay(app)
        (box,) = app.screen.query(Toast)
        assert box.region == top  # back where it was
        await pilot.press("escape")  # and Esc still closes it
        await pilot.pause(0.1)
        assert not app.screen.query(Toast)


async def test_the_resume_command_run_from_the_palette_shows_on_the_replay() -> None:
    """The palette closes before the command it runs: the box is drawn on the replay."""
    from textual.widgets._toast import Toast

    app = ReplayerApp(find_sessions([SAMPLES / CASES[0][0]]).refs[0])
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await press_r(app, pilot)  # the session's identity is in
        await pilot.press("escape")
        await pilot.press("ctrl+p", *"resume command", "enter")
        await pilot.pause(0.2)
        assert app.screen is replay(app)
        assert len(app.screen.query(Toast)) == 1
        assert "claude --resume" in messages(app)[-1]
