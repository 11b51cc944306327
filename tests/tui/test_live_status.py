"""Live follow at any width (issue 35: 5): what the status line says while following.

At 80 columns the LIVE indicator and the count of new turns stay on screen, also
after a live auto-pause; "● LIVE" and "⏸ paused" never sit side by side (one part
says the session is live and where the view is); a file truncated to nothing says
so instead of keeping a stale "auto-paused" over a blank screen. The real app on a
real file, a writer appending as Claude Code does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tail.claude_lines import ClaudeStream

from .conftest import replay
from .test_live import claude_file, count, open_app, status, wait_for

NARROW, WIDE = (80, 24), (160, 48)


def transcript_lines(app) -> list[str]:  # type: ignore[no-untyped-def]
    view = replay(app).transcript
    return [view.render_line(y).text.strip() for y in range(view.size.height)]


@pytest.mark.parametrize("size", [NARROW, WIDE])
async def test_after_a_live_auto_pause_live_and_the_new_turns_stay_on_the_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    app = open_app(writer.path, follow=True, sensitivity="1")
    scene = stream.pivot_scene(1)[1:]
    async with app.run_test(size=size) as pilot:
        # the first verdicts are in: a pivot confirmed after them is a live one
        await wait_for(lambda: "● LIVE" in status(app) and replay(app).analysed)
        assert "● LIVE · following" in status(app) or size == NARROW
        assert "paused" not in status(app) and "⏸" not in status(app)
        for record in scene:
            writer.append(record)
        await wait_for(lambda: "auto-paused at " in status(app))
        screen = replay(app)
        held = screen.playback.cursor
        for n in range(3):
            writer.append(stream.say(f"More work {n}."))
        await wait_for(lambda: count(app) == len(scene) + 4)
        new = count(app) - held - 1
        for _ in range(2):  # as it lands, then after a key (the view is still on the pivot)
            line = status(app)
            assert line.startswith("● LIVE"), line
            assert f"+{new} (End" in line if size == NARROW else f"{new} turns after it" in line
            assert "End: " in line and "auto-paused at " in line, line
            assert "⏸" not in line and "paused │" not in line, line
            assert len(line) <= size[0] - 2
            await pilot.press("k")
        assert f"turn {held + 1}/{count(app)}" in status(app) or size == NARROW
        await pilot.press("end")
        assert screen.playback.cursor == count(app) - 1
        assert "held" not in status(app) and "● LIVE" in status(app)
    writer.assert_untouched()


@pytest.mark.parametrize("size", [NARROW, WIDE])
async def test_a_file_truncated_to_nothing_says_it_is_empty(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    stream = ClaudeStream()
    writer = claude_file(tmp_path, stream)
    app = open_app(writer.path, follow=True, sensitivity="1")
    scene = stream.pivot_scene(1)[1:]
    async with app.run_test(size=size):
        # the first verdicts are in: a pivot confirmed after them is a live one
        await wait_for(lambda: "● LIVE" in status(app) and replay(app).analysed)
        for record in scene:
            writer.append(record)
        await wait_for(lambda: "auto-paused" in status(app))
        writer.truncate()
        await wait_for(lambda: count(app) == 0 and "empty" in status(app))
        line = status(app)
        assert "auto-paused" not in line and "-" not in line.split("│")[0], line
        assert "no turns" in line and "0/0" not in line, line
        shown = " ".join(transcript_lines(app))
        assert "holds no turn yet" in shown, shown
        fresh = ClaudeStream("0e550000-0000-4000-8000-00000000cafe")
        writer.append(fresh.human("A new start after truncation."))
        await wait_for(lambda: count(app) == 1)
        await wait_for(lambda: "empty" not in status(app))
        assert "holds no turn yet" not in " ".join(transcript_lines(app))
        assert replay(app).playback.cursor == 0
    writer.assert_untouched()
