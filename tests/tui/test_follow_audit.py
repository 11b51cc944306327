"""Following a session as a daily user does: a file replaced under the follow, a narrow
terminal, stepping back from the live end and an auto-pause at a pivot confirmed live.

The follow is driven by hand (`live_driver.FollowDriver`): the test writes the file,
reads it once and looks at the status line, with no thread and no waiting.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pivotal.text.fit import cells
from pivotal.tui.status_line import Part, fit
from tail.claude_lines import ClaudeStream
from tail.helpers import Writer

from .conftest import replay
from .live_driver import FollowDriver, empty_app, following_app

WIDE, NARROW = (160, 48), (80, 24)
LATER, EARLIER = 1_800_000_000.0, 1_700_000_000.0
"""Two sessions' clocks: the first followed starts later than the one that replaces it."""


def status(app) -> str:  # type: ignore[no-untyped-def]
    return replay(app).timeline.status().plain


def session_lines(stream: ClaudeStream, turns: int, gap: float = 0.0) -> bytes:
    """`turns` turns of a Claude Code session, `gap` seconds apart after the first two."""
    data = stream.human("Get the inference server running.")
    for n in range(turns - 1):
        stream.clock += gap
        data += stream.say(f"Step {n}: checked the config.")
    return data


def replace_file(path: Path, data: bytes) -> None:
    """What an editor's atomic save or a log rotation does: a new file renamed over it."""
    fresh = path.with_suffix(".new")
    fresh.write_bytes(data)
    os.replace(fresh, path)


async def test_a_file_replaced_by_an_older_longer_session_gets_its_own_clock(
    tmp_path: Path,
) -> None:
    path = tmp_path / "5e55104c.jsonl"
    newer = ClaudeStream("5e55104c-0000-4000-8000-00000000b0b0")
    newer.clock = LATER
    path.write_bytes(session_lines(newer, 3, gap=40.0))  # stamps 1.5 s, 43 s, 84.5 s in
    older = ClaudeStream("0e550000-0000-4000-8000-00000000cafe")
    older.clock = EARLIER  # three years before: every stamp is earlier than the first file's
    replacement = session_lines(older, 8, gap=600.0)  # stamps 1.5 s, 603 s, ... 4212 s in
    app = empty_app(path)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        driver = FollowDriver(replay(app), path)
        await driver.read()
        assert "turn 3/3" in status(app) and "1:23 / 1:23" in status(app), status(app)
        replace_file(path, replacement)
        assert await driver.read()
        pb = replay(app).playback
        assert len(pb.turns) == 8 and pb.cursor == 7
        # whole seconds of the stamps: 4212 - 1 (a fresh open of the replacement says so)
        assert "1:10:11 / 1:10:11" in status(app), status(app)
        # appended turns carry on from the replacement's start, not from the old file's
        Writer(path).append(older.say("Appended after the replacement."))  # 4213.5 s in
        assert await driver.read()
        assert "turn 9/9" in status(app) and "1:10:12 / 1:10:12" in status(app), status(app)
        driver.close()


CODEX_SAMPLE = (
    Path(__file__).resolve().parents[2] / "sample_sessions" / "codex" / "seed_dead_end.jsonl"
)
ROLLOUT = "rollout-2025-10-27T11-43-01-019a23c3-1ed4-7b51-9dcb-0a9258699228.jsonl"


@pytest.mark.parametrize("size", [(100, 30), NARROW])
async def test_a_long_file_name_is_cut_and_the_counters_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    path = tmp_path / ROLLOUT
    path.write_bytes(CODEX_SAMPLE.read_bytes())
    app = following_app(path, monkeypatch)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        driver = FollowDriver(replay(app), path)
        await driver.read()
        line = status(app)
        assert cells(line) <= size[0] - 2, line
        # the counters stay: where the view is, the pivots, what the session cost
        assert "165/165" in line and "1 pivot" in line and "$" in line, line
        # the name is what gives: its start and its end, cut in the middle
        assert_cut_in_middle(line, ROLLOUT, "rollout-2")
        driver.close()


def assert_cut_in_middle(line: str, name: str, start: str) -> None:
    """The notice at the end of `line` names `name` cut in its middle: its first cells
    (at least `start`), `…`, its last ones."""
    said = line.split(" │ ")[-1].removeprefix("following ").split(" · ")[0]
    first, dots, last = said.partition("…")
    assert dots and said.startswith(start) and name.startswith(first), line
    assert last and name.endswith(last), line


def test_a_name_is_cut_in_its_middle_in_cells_before_a_counter_goes() -> None:
    name = "设计文档-rollout-2025-10-27T11-43-01-019a23c3.jsonl"  # 4 wide characters: 8 cells
    place = Part("turn 17/68 · 25%", "17/68 25%", 8)
    pivots = Part("3 pivots", "3 pivots", 5)
    notice = Part(f"following {name} · o picks another", f"following {name}", 10, cut=name)
    whole = fit([place, pivots, notice], 200)
    assert whole == f"turn 17/68 · 25% │ 3 pivots │ following {name} · o picks another"
    for width in range(78, 45, -4):
        line = fit([place, pivots, notice], width)
        assert cells(line) <= width, (width, line)
        assert line.startswith("17/68 25% │ 3 pivots │ following 设计"), (width, line)
        assert_cut_in_middle(line, name, "设计")
    # no room even for the name at its floor: the lowest rank goes, the name gets the room back
    line = fit([place, pivots, notice], 36)
    assert line.startswith("17/68 25% │ following 设计"), line
    assert_cut_in_middle(line, name, "设计")
    assert cells(line) <= 36


def test_a_notice_without_a_name_to_cut_is_as_before() -> None:
    place = Part("turn 17/68 · 25%", "17/68 25%", 8)
    notice = Part("auto-paused at a pivot (Space plays on)", "auto-paused at a pivot", 10)
    assert fit([place, notice], 40) == "17/68 25% │ auto-paused at a pivot"


def live_part(app) -> str:  # type: ignore[no-untyped-def]
    return status(app).split(" │ ")[0]


@pytest.mark.parametrize("size", [WIDE, NARROW])
async def test_stepping_back_from_the_live_end_says_the_view_is_held(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    path = tmp_path / "5e55104c.jsonl"
    stream = ClaudeStream()
    path.write_bytes(session_lines(stream, 5))
    app = empty_app(path, autopause=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        driver = FollowDriver(replay(app), path)
        await driver.read()
        screen = replay(app)
        assert screen.playback.cursor == 4 and live_part(app).startswith("● LIVE")
        assert "held" not in status(app)
        await pilot.press("comma")  # one turn back: it no longer follows, and says so at once
        assert screen.playback.cursor == 3
        line = status(app)
        assert "following" not in live_part(app), line
        assert "held" in live_part(app) and "End" in live_part(app), line
        writer = Writer(path)
        writer.append(stream.say("Written while the view is held.") + stream.say("And more."))
        assert await driver.read()
        assert screen.playback.cursor == 3  # the view stays where the person left it
        held = "held here · 2 new turns (End follows)" if size == WIDE else "held +2 End"
        assert held in live_part(app), status(app)
        await pilot.press("g")  # a jump back is held too
        assert "held" in live_part(app) and "2 new turns" in status(app) or size == NARROW
        await pilot.press("end")
        assert screen.playback.cursor == 6
        assert "held" not in status(app) and live_part(app).startswith("● LIVE")
        writer.append(stream.say("Followed again."))
        assert await driver.read()
        assert screen.playback.cursor == 7 and "held" not in status(app)
        driver.close()


@pytest.mark.parametrize("size", [WIDE, NARROW])
async def test_an_auto_pause_at_a_pivot_confirmed_live_says_why_and_how_back(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    path = tmp_path / "5e55104c.jsonl"
    stream = ClaudeStream()
    path.write_bytes(stream.human("Start here: get the inference server running."))
    app = empty_app(path, sensitivity="1")  # every silence the rules let through is a pivot
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        driver = FollowDriver(replay(app), path)
        await driver.read()  # the first verdicts: a pivot confirmed after them is a live one
        screen = replay(app)
        scene = stream.pivot_scene(1)[1:]
        Writer(path).append(b"".join(scene))
        assert await driver.read()
        pivot = screen.playback.pivots[0].turn
        count = len(screen.playback.turns)
        assert pivot < count - 1 and screen.playback.cursor == pivot  # moved back to it
        for _ in range(2):  # as it lands, and after a key that does not move the view
            line = status(app)
            assert cells(line) <= size[0] - 2, line
            said = live_part(app)
            # why the view moved (a pivot was just confirmed) and how to get back (End)
            assert said.startswith("● LIVE") and "auto-paused at " in said, line
            assert "pivot" in said and "(End: " in said and "live end" in said, line
            assert f"{pivot + 1}/{count}" in line, line  # where the view is now
            after = (
                f"{count - pivot - 1} turns after it" if size == WIDE else f"+{count - pivot - 1}"
            )
            assert after in said, line
            await pilot.press("k")  # scrolls the transcript: the view stays on the pivot
        await pilot.press("full_stop")  # moved on from the pivot: an ordinary held view
        assert "auto-paused" not in status(app) and "held" in live_part(app), status(app)
        await pilot.press("end")
        assert screen.playback.cursor == count - 1
        assert "held" not in status(app) and "auto-paused" not in status(app)
        driver.close()
