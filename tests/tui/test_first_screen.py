"""The first screen: turns show while the rest of the file is still being read.

The replay screen once kept its "reading 40 %" line in an attribute named
`loading`, which is Textual's reactive for covering a widget with a spinner:
a big file showed nothing but the spinner until it was read to the end.
"""

from __future__ import annotations

import time
from pathlib import Path

from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.loading import Batch

from .conftest import make_app, replay, screen_text, wait_for
from .sessions import demo_turns

SIZE = (160, 48)


async def test_turns_show_while_the_rest_is_being_read() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = replay(app)
        screen.add_turns(Batch(demo_turns()[:6], 0, 1 << 20, 10 << 20, False))
        await pilot.pause()
        assert "reading 10% (1/10 MB)" in screen.timeline.status().plain
        # a spinner covering the screen kept the transcript from ever being laid out
        await wait_for(lambda: "#1" in screen_text(app))
        assert "Get the server to start" in screen_text(app)


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def broken_documents(tmp_path: Path) -> list[Path]:
    """Single-JSON sessions cut by a crash or still being written (the sniff still knows them)."""
    legacy = (FIXTURES / "gemini" / "legacy-session.json").read_bytes()
    chat = (FIXTURES / "generic" / "chat.json").read_bytes()
    cases = {
        "session-2025-09-01T08-00-cut.json": legacy[: len(legacy) // 2],
        "session-2025-09-01T08-00-nul.json": legacy[:700] + b"\0" * 4096,
        "chat-cut.json": chat[: len(chat) - 40],
        "chat-nul.json": chat.rstrip() + b"\0" * 2048,
    }
    paths = []
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(path)
    return paths


def test_the_documents_are_still_recognised(tmp_path: Path) -> None:
    """Otherwise the tests below would test the 'unknown format' message instead."""
    for path in broken_documents(tmp_path):
        assert find_sessions([path]).refs, path.name


async def test_a_broken_single_json_session_says_so_and_reading_stops(tmp_path: Path) -> None:
    for path in broken_documents(tmp_path):
        before = path.read_bytes()
        app = ReplayerApp(find_sessions([path]).refs[0])
        async with app.run_test(size=SIZE) as pilot:
            screen = replay(app)
            await wait_for(lambda s=screen: s.analysed, timeout=20)  # it spun forever before
            await app.workers.wait_for_complete()
            await pilot.pause()
            status = screen.timeline.status().plain
            assert "nothing could be read" in status and "JSON" in status, (path.name, status)
            assert "reading" not in status
        assert path.read_bytes() == before


async def test_following_a_half_written_document_waits_without_spinning(tmp_path: Path) -> None:
    path = broken_documents(tmp_path)[0]
    app = ReplayerApp(find_sessions([path]).refs[0], follow=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = replay(app)
        await wait_for(lambda: "LIVE" in screen.timeline.status().plain)
        begin = time.thread_time(), time.process_time()
        await pilot.pause(0.5)  # idle: the follow thread sleeps in the OS watch
        used = time.process_time() - begin[1]
        assert used < 0.35, f"{used:.2f} s of CPU in 0.5 s idle"
        path.write_bytes((FIXTURES / "gemini" / "legacy-session.json").read_bytes())
        await wait_for(lambda: len(screen.playback.turns) > 0)
