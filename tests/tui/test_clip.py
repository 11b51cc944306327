"""Copy (y) and the pager (v), issue 35: 12; your own messages ({ / }), issue 35: 13.

What is copied or paged is the turn under the cursor, or one of its commands or
outputs (a prompt asks which), whole and inert: an escape sequence in the session
reaches neither the clipboard nor the terminal through the pager. The pager reads
a temporary file outside the session's folder, removed once it exits.
"""

from __future__ import annotations

import os
import subprocess
from contextlib import nullcontext
from pathlib import Path

import pytest

from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.clip import pieces

from .conftest import make_app, replay
from .sessions import bash, demo_turns

SIZES = [(80, 24), (160, 48)]
HUMAN = [0, 5, 8, 10, 12, 14, 16, 18, 20, 22]
"""The demo session's own messages (turn 5 is the empty one)."""


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


def test_a_turn_s_pieces_are_whole_and_named() -> None:
    turn = demo_turns()[1]  # reasoning, a message, a failing `make serve`
    found = pieces(turn)
    assert [p.label for p in found] == [
        "the whole turn",
        "the message",
        "the reasoning",
        "Bash command: make serve",
        "Bash output (1 line)",
    ]
    assert found[3].text == "make serve" and found[4].text == "Error: bind failed"
    whole = found[0].text
    assert "I'll start the server." in whole and "$ Bash: make serve\nError: bind failed" in whole
    long = "\n".join(f"line {n}" for n in range(5000))  # the transcript shows 200 of them
    turn.parts[2].tool = bash("make test", long, 1)
    assert pieces(turn)[4].text == long


@pytest.mark.parametrize("size", SIZES)
async def test_y_copies_the_piece_asked_for(size: tuple[int, int]) -> None:
    app = make_app(at=1)
    async with app.run_test(size=size) as pilot:
        await pilot.press("y")
        prompt = str(app.screen.query_one("#prompt-label").render())
        assert "Copy which?" in prompt and "4  Bash command: make serve" in prompt
        await pilot.press("4", "enter")
        await pilot.pause()
        assert app.clipboard == "make serve"
        assert "copied the Bash command, 1 line" in status(app)
        await pilot.press("y", "enter")  # Enter alone: the whole turn
        await pilot.pause()
        assert app.clipboard.startswith("◆ Agent #2") and "make serve" in app.clipboard


async def test_a_turn_of_one_piece_is_copied_at_once_and_made_inert() -> None:
    app = make_app(at=27)  # its text holds an OSC title sequence and colours
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert "Continuing: making it fast." in app.clipboard
        assert "\x1b" not in app.clipboard and "\x07" not in app.clipboard
        assert "copied the message" in status(app)


@pytest.mark.parametrize("size", SIZES)
async def test_v_hands_the_terminal_to_the_pager_and_removes_its_file(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    seen: dict[str, object] = {}

    def pager(argv: list[str], check: bool) -> subprocess.CompletedProcess[bytes]:
        seen["argv"], seen["suspended"] = argv, suspended
        seen["text"] = Path(argv[-1]).read_text(encoding="utf-8")
        return subprocess.CompletedProcess(argv, 0)

    suspended: list[bool] = []
    monkeypatch.setenv("PAGER", "cat -v")
    monkeypatch.setattr("pivotal.tui.clip.subprocess.run", pager)
    app = make_app(at=27)
    monkeypatch.setattr(app, "suspend", lambda: suspended.append(True) or nullcontext())
    async with app.run_test(size=size) as pilot:
        await pilot.press("v")
        await pilot.pause()
        argv = seen["argv"]
        assert argv[:2] == ["cat", "-v"] and suspended == [True]  # type: ignore[index]
        path = Path(argv[-1])  # type: ignore[index]
        assert not path.exists(), "the temporary file is removed once the pager exits"
        assert "Continuing: making it fast." in seen["text"]  # type: ignore[operator]
        assert "\x1b" not in seen["text"] and "\x07" not in seen["text"]  # type: ignore[operator]
        assert "back from cat" in status(app)


async def test_the_pager_never_writes_beside_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tail.claude_lines import ClaudeStream

    stream = ClaudeStream()
    path = tmp_path / "5e55104c.jsonl"
    path.write_bytes(stream.human("Look at the logs.") + stream.say("Looking."))
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the temp folder is the session's own
    monkeypatch.setattr("tempfile.tempdir", None)
    ran: list[object] = []
    monkeypatch.setattr("pivotal.tui.clip.subprocess.run", lambda *a, **k: ran.append(a))
    app = ReplayerApp(find_sessions([path]).refs[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.press("v")
        await pilot.pause()
        assert "not paged" in status(app) and not ran
    assert sorted(os.listdir(tmp_path)) == ["5e55104c.jsonl"]


@pytest.mark.parametrize("size", SIZES)
async def test_braces_walk_your_own_messages(size: tuple[int, int]) -> None:
    app = make_app(at=1)
    async with app.run_test(size=size) as pilot:
        pb = replay(app).playback
        visited = []
        for _ in range(len(HUMAN)):
            await pilot.press("right_curly_bracket")
            visited.append(pb.cursor)
        assert visited == HUMAN[1:] + [HUMAN[-1]]
        assert "no later message of yours" in status(app)
        await pilot.press("left_curly_bracket", "left_curly_bracket")
        assert pb.cursor == HUMAN[-3]
        await pilot.press("backspace")  # a jump like the others: Backspace goes back
        assert pb.cursor == HUMAN[-2]
        await pilot.press("g", "left_curly_bracket")
        assert pb.cursor == 0 and "no earlier message of yours" in status(app)
