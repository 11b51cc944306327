"""Keys sent together, as a terminal delivers them in one read, never print a traceback.

Pilot's `press` waits for the app to settle after every key; a person typing
fast (or a paste, or tmux `send-keys qa`) does not. `burst` hands the driver
every key at once. `q` then `a` in one read used to push the note editor while
the app shut down: a `NoMatches … TextArea` traceback and exit status 0.

A real bug must still end the app with status 1 and one line on stderr (the
exit-code table of docs/errors.md); the last test runs the command line in a pty with
an action that raises, as a user's terminal would.
"""

from __future__ import annotations

import os
import pty
import random
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual import events
from textual.app import App

from pivotal.catalog.notes import NoteStore
from pivotal.tui import keys

from .conftest import make_app, replay, wait_for

SIZE = (160, 48)
BOUND = sorted({key for binding in keys.bindings() for key in binding.key.split(",")})
DEMO = Path(__file__).resolve().parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"


def burst(app: App[object], *names: str) -> None:
    """Hand the driver all `names` at once (no wait between them)."""
    driver = app._driver
    assert driver is not None
    for name in names:
        char = name if len(name) == 1 else None
        event = events.Key(name, char)
        event.set_sender(app)
        driver.send_message(event)


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PIVOTAL_SCREENSHOT_DIR", str(tmp_path / "shots"))


@pytest.mark.parametrize("key", ["a", "colon", "slash", "question_mark", "r", "S", "m", "enter"])
async def test_q_then_a_key_that_opens_something(key: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        burst(app, "q", key)
        await pilot.pause()
    assert app.return_code == 0


async def test_every_bound_key_right_behind_q() -> None:
    for key in BOUND:
        app = make_app(at=5)
        async with app.run_test(size=SIZE) as pilot:
            burst(app, "q", key, key)
            await pilot.pause()
        assert app.return_code == 0, key


async def test_random_bursts_of_every_key_then_q() -> None:
    rng = random.Random(16)
    for _ in range(12):
        app = make_app(at=rng.randrange(28))
        async with app.run_test(size=SIZE) as pilot:
            sequence = [rng.choice(BOUND) for _ in range(10)]
            burst(app, *sequence)
            await pilot.pause()
            # whatever the burst left open (help, a prompt, the note editor), Esc closes it
            await pilot.press("escape", "escape", "q")
        assert app.return_code == 0, sequence


async def test_keys_typed_into_a_prompt_in_one_read_reach_it() -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        burst(app, "colon", "1", "7", "enter")
        # held keys are sent again after refreshes: one pause was not always enough
        await wait_for(lambda: replay(app).playback.cursor == 16)
        assert app.screen is replay(app)


async def test_keys_typed_before_the_first_screen_are_kept_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A key that arrived while no screen was on the stack raised ScreenStackError."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        with monkeypatch.context() as starting:
            starting.setattr(type(app), "screen_stack", property(lambda self: []))
            for name in ("colon", "1", "7", "enter"):
                assert app._typed_too_early(events.Key(name, name if len(name) == 1 else None))
        await wait_for(lambda: replay(app).playback.cursor == 16)


def test_a_crash_prints_one_line_and_exits_1(tmp_path: Path) -> None:
    """The command line in a real pty, with a key whose action raises: one line, status 1."""
    program = (
        "import sys\n"
        "from pivotal.tui.replay_screen import ReplayScreen\n"
        "def broken(self):\n"
        "    raise RuntimeError('deliberately broken for the test')\n"
        "ReplayScreen.action_mark = broken\n"
        "from pivotal.cli import main\n"
        "sys.argv = ['pivotal', sys.argv[1]]\n"
        "main()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PIVOTAL_DEBUG"}
    env.update(TERM="xterm-256color", COLUMNS="120", LINES="40")
    leader, follower = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", program, str(DEMO)],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    output = b""

    def read_until(needle: bytes, timeout: float) -> None:
        nonlocal output
        deadline = time.monotonic() + timeout
        while needle not in output and time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                try:
                    output += os.read(leader, 65536)
                except OSError:  # the child closed the pty
                    return

    try:
        read_until(b"turn 1/", 60)  # the status line: the replayer is up
        assert b"turn 1/" in output, output[-2000:]
        os.write(leader, b"m")
        code = child.wait(timeout=60)
        read_until(b"\0never", 1)  # drain what it printed on the way out
    finally:
        if child.poll() is None:
            child.kill()
        os.close(leader)
    tail = output.split(b"\x1b[?1049l")[-1].decode("utf-8", "replace")  # after the alt screen
    assert code == 1
    assert "internal error" in tail
    assert "Traceback" not in tail and "RuntimeError" not in tail
    assert len([line for line in tail.splitlines() if line.strip()]) == 1, tail


async def test_keys_behind_a_prompts_enter_go_to_the_replay_not_the_prompt() -> None:
    """`:17⏎q` in one read: the jump happens and q quits (q was typed into the prompt: "17q")."""
    app = make_app(at=5)
    async with app.run_test(size=SIZE):
        burst(app, "colon", "1", "7", "enter", "q")
        await wait_for(lambda: app.return_code is not None)
        assert replay(app).playback.cursor == 16
    assert app.return_code == 0


async def test_enter_and_esc_in_one_read_close_the_prompt_once() -> None:
    """Two dismissals popped the replay screen too: a blank screen with nothing to show."""
    app = make_app(at=5)
    async with app.run_test(size=SIZE) as pilot:
        burst(app, "colon", "1", "7", "enter", "escape", "escape", "plus")
        await wait_for(lambda: replay(app).playback.speed != 1)
        assert app.screen is replay(app)
        assert replay(app).playback.cursor == 16
        await pilot.press("q")
    assert app.return_code == 0


async def test_a_search_typed_with_the_next_key_in_one_read_is_searched_then_the_key_runs() -> None:
    app = make_app(at=0)
    async with app.run_test(size=SIZE):
        burst(app, "slash", *"server", "enter", "q")
        await wait_for(lambda: app.return_code is not None)
        assert replay(app).search.needle == "server"
    assert app.return_code == 0


def _notes() -> list[tuple[int, str]]:
    with NoteStore() as store:
        return [(m.turn_index, m.note) for m in store.marks_for(make_app().session)]  # type: ignore[arg-type]


async def test_a_note_typed_with_its_ctrl_s_in_one_read_is_saved_whole() -> None:
    """`a x y ctrl+s` in one read saved "x": Ctrl+S ran before the text area took the `y`."""
    app = make_app(at=5)
    async with app.run_test(size=SIZE):
        burst(app, "a", *"xyz", "ctrl+s")
        await wait_for(lambda: "note saved" in replay(app).timeline.status().plain)
    assert _notes() == [(5, "xyz")]


async def test_keys_behind_a_notes_ctrl_s_or_esc_go_to_the_replay() -> None:
    """They were lost: typed into the closing editor, or waiting on a screen already gone."""
    app = make_app(at=5)
    async with app.run_test(size=SIZE) as pilot:
        burst(app, "a", *"hi", "ctrl+s", "plus")
        await wait_for(lambda: replay(app).playback.speed != 1)
        assert app.screen is replay(app)
        # Esc on a changed draft asks; Esc again discards it, and what follows is the replay's
        burst(app, "a", "x", "escape", "escape", "right", "right")
        await wait_for(lambda: replay(app).playback.cursor == 7)
        assert app.screen is replay(app)
        burst(app, "a", "!", "ctrl+s", "q")
        await wait_for(lambda: app.return_code is not None)
        await pilot.pause()
    assert app.return_code == 0
    assert _notes() == [(5, "hi"), (7, "!")]
