"""Times no calendar can show are missing times, for every consumer (issue 18: 10).

Real sessions (the labelled samples, which have pivots, so `--explain` quotes
turns with their times) get `1e20`, `-1e20`, `12345678901234567890` or
`1e400` (JSON for infinity once decoded) in every time field of every other
record; Codex, Claude Code, Gemini and opencode (a database built with
opencode's schema) are covered. The readers must turn those into None, and every command that
shows a time must then work: scan (table, --explain, --json), the four
exports, stats, and the replayer stepping onto each turn.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.readers import find_sessions, read_session
from pivotal.readers.base import MAX_TIME, MIN_TIME, parse_timestamp
from readers.opencode_builders import (
    T0,
    add_session,
    bash_part,
    create_db,
    put_message,
    put_part,
    text_part,
    user_info,
)

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
HUGE = ["1e20", "-1e20", "12345678901234567890", "1e400"]
TIME_KEYS = {"timestamp", "startTime", "lastUpdated", "created", "start", "end", "completed"}
PLACEHOLDER = "__HUGE_TIME__"


def with_huge_times(record: object, every: bool) -> object:
    """`record` with each time value replaced by the placeholder (later the raw number)."""
    if isinstance(record, dict):
        return {
            k: PLACEHOLDER if k in TIME_KEYS and every else with_huge_times(v, every)
            for k, v in record.items()
        }
    if isinstance(record, list):
        return [with_huge_times(v, every) for v in record]
    return record


def hostile_jsonl(source: Path, target: Path, value: str) -> Path:
    lines = source.read_text().splitlines()
    out = []
    for number, line in enumerate(lines):
        record = with_huge_times(json.loads(line), every=number % 2 == 1)
        out.append(json.dumps(record).replace(f'"{PLACEHOLDER}"', value))
    target.write_text("\n".join(out) + "\n")
    return target


def hostile_opencode(target: Path, value: str) -> Path:
    """An opencode database whose rows and JSON carry the huge time."""
    huge = float(value) if "e" in value else int(value)
    writer = create_db(target)
    add_session(writer, "ses_t")
    writer.execute("UPDATE session SET time_created = ?", (str(value),))
    info = user_info(T0)
    put_message(writer, "msg_001", "ses_t", info, T0)
    put_part(writer, "prt_001", "msg_001", "ses_t", text_part("please run it"), T0)
    info = user_info(T0)
    info["role"] = "assistant"
    info["time"] = {"created": PLACEHOLDER, "completed": PLACEHOLDER}
    put_message(writer, "msg_002", "ses_t", info, T0 + 1)
    part = bash_part("call_1", "ls", "completed", output="a\nb")
    part["state"]["time"] = {"start": 0, "end": PLACEHOLDER}
    put_part(writer, "prt_002", "msg_002", "ses_t", part, T0 + 1)
    writer.execute("UPDATE message SET data = replace(data, ?, ?)", (f'"{PLACEHOLDER}"', value))
    writer.execute("UPDATE part SET data = replace(data, ?, ?)", (f'"{PLACEHOLDER}"', value))
    writer.close()
    assert math.isinf(huge) or abs(huge) >= 1e19
    return target


def sources(tmp_path: Path, value: str) -> list[Path]:
    return [
        hostile_jsonl(SAMPLES / "codex" / "go_ahead_plan.jsonl", tmp_path / "codex.jsonl", value),
        hostile_jsonl(SAMPLES / "claude" / "go_ahead_plan.jsonl", tmp_path / "claude.jsonl", value),
        hostile_jsonl(SAMPLES / "gemini" / "go_ahead_plan.jsonl", tmp_path / "gemini.jsonl", value),
        hostile_opencode(tmp_path / "opencode.db", value),
    ]


@pytest.mark.parametrize("value", HUGE)
def test_readers_turn_huge_times_into_missing_times(tmp_path: Path, value: str) -> None:
    for path in sources(tmp_path, value):
        [ref] = find_sessions([path]).refs
        session = read_session(ref)
        assert session.turns, path
        times = [session.started, session.ended] + [t.timestamp for t in session.turns]
        assert all(t is None or MIN_TIME <= t <= MAX_TIME for t in times), (path, times)
        assert any(t.timestamp is None for t in session.turns), "the hostile value never landed"
        assert not any("out of range" in s.reason for s in session.skipped), session.skipped
        for turn in session.turns:
            for part in turn.parts:
                ms = part.tool.duration_ms if part.tool else None
                assert ms is None or (math.isfinite(ms) and ms >= 0), (path, ms)


@pytest.mark.parametrize("value", HUGE)
def test_every_command_that_shows_times_works(tmp_path: Path, value: str) -> None:
    for path in sources(tmp_path, value):
        for args in (
            ["scan"],
            ["scan", "--explain"],
            ["scan", "--json"],
            ["export", "--to", "md"],
            ["export", "--to", "html"],
            ["export", "--to", "json"],
            ["export", "--to", "cast"],
            ["stats", "--json"],
        ):
            result = invoke(*args, path)
            assert result.exit_code == 0, (path.name, args, result.output[-500:])
    explained = invoke("scan", "--explain", tmp_path / "codex.jsonl")
    # a quoted turn was shown (the pivot, or the possible pivot just under the bar)
    assert "Pivot at turn" in explained.stdout or "Possible pivot at turn" in explained.stdout


@pytest.mark.parametrize("value", ["1e20", "1e400"])
async def test_the_replayer_steps_onto_every_turn(tmp_path: Path, value: str) -> None:
    from pivotal.tui.app import ReplayerApp

    from .test_tui_hostile import wait_loaded

    for path in sources(tmp_path, value)[::3]:  # codex and opencode
        [ref] = find_sessions([path]).refs
        app = ReplayerApp(ref=ref, autopause=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_loaded(pilot, app)
            turns = len(app.replay.playback.turns)
            for _ in range(turns + 1):
                await pilot.press("l")
            for key in ("G", "g", "right_square_bracket", "enter", "t"):
                await pilot.press(key)
            await pilot.pause()
            assert app.is_running, "the replayer stopped"
            app.export_screenshot()


def test_parse_timestamp_bounds() -> None:
    assert parse_timestamp(1796010561.52) == 1796010561.52
    assert parse_timestamp(1796010561520) == 1796010561.52  # milliseconds
    assert parse_timestamp("2026-11-30T03:49:21.520Z") == 1796010561.52
    for bad in (1e20, -1e20, 12345678901234567890, float("inf"), float("nan"), 10**400):
        assert parse_timestamp(bad) is None, bad
    assert parse_timestamp("0001-01-01T00:00:00+14:00") is None
    assert parse_timestamp("9999-12-31T23:59:59-12:00") is None
