"""The replayer shows hostile session text as text: nothing on screen is a control.

The hostile scenario (see `hostile_samples`) is opened from a file whose very name
carries an OSC title write, bidi override and Rich markup, with a hostile title,
and played through: every pivot, the end, expanded thinking and tool output. After
each move the whole screen (as `export_screenshot` sees every cell) must hold no
ESC, BEL, C1 control or bidi override, and the payload must be visible as text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import SessionRef

from .hostile_samples import PAYLOAD, assert_inert, written

HOSTILE_NAME = "\x1b]0;file-title\x07[bold]name[red]\u202eevil.jsonl"  # no "/" in a name


async def wait_loaded(pilot, app) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        await pilot.pause(0.05)
        screen = app.replay
        if screen is not None and screen.playback.turns:
            return
    pytest.fail("the session never loaded")


SPARE_STATUS = frozenset({"status"})
PARAMS = [
    pytest.param(fmt, SPARE_STATUS, id=f"{fmt}-statuses-spared")
    for fmt in ("claude", "codex", "gemini", "generic")
] + [pytest.param("claude", frozenset(), id="claude-everything")]


@pytest.mark.parametrize(("fmt", "spare"), PARAMS)
async def test_replayer_screen_is_inert(fmt: str, spare: frozenset[str], tmp_path: Path) -> None:
    from pivotal.readers import find_sessions
    from pivotal.tui.app import ReplayerApp

    source = written(fmt, str(tmp_path / "samples"), spare)
    path = tmp_path / HOSTILE_NAME
    path.write_bytes(source.read_bytes())
    found = find_sessions([path])
    assert found.refs, found.problems
    ref = found.refs[0]
    ref = SessionRef(format=ref.format, path=ref.path, title=f"{PAYLOAD} title")
    app = ReplayerApp(ref=ref, autopause=False)
    seen_visible = False
    async with app.run_test(size=(160, 50)) as pilot:
        await wait_loaded(pilot, app)
        moves = ["g", "l", "l", "l", "right_square_bracket", "t", "enter"]
        moves += ["right_square_bracket", "enter", "G", "left_square_bracket", "question_mark"]
        moves += ["escape", "slash", "escape"]
        for key in moves:
            await pilot.press(key)
            await pilot.pause(0.05)
            shot = app.export_screenshot()
            assert_inert(shot)
            seen_visible = seen_visible or "␛" in shot
    assert seen_visible, "the hostile text never reached the screen: the test proves nothing"
