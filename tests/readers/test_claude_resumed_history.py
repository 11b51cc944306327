"""A Claude Code 1.0 session resumed into a new file that begins with the earlier history.

When a person resumed a session, Claude Code 1.0 started a new file and first wrote the
conversation so far into it again, under the same uuids: every copied record stamped with the
moment of the resume, except the person's own messages, which keep their first time and the
first session's id. So time runs backwards inside the file (the resume at 13:26, then the
person's "ok" of 09:41, then 13:26 again), and the copy ends with Claude Code's own
"No response requested." just before the person's first new message.

The reader reports the times the file gives (the "ok" at 09:41); what the person must see is
measured where times become durations, on a clock that never runs backwards: a replay clock
that only moves forward, no minutes of work counted across the jump (the detector's "time on
its own", `pivotal stats`' run minutes, the run's seconds in `scan --json`), the session's
span from its start to its latest time, and the session under its own id, not the first
session's. Text and times written for the test.
"""

from __future__ import annotations

from math import floor
from pathlib import Path

import pytest

from pivotal.catalog.stats import pivot_run
from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Pivot, Role, Session
from pivotal.readers import find_sessions, read_session
from pivotal.readers.base import parse_timestamp
from pivotal.spend.run import pivot_run as spend_run
from pivotal.tui.playback import Playback
from surfaces import in_replayer, listed, through_cli

from . import claude_builders as cb

FIRST = "a1bb1115-0c2d-4e3f-9a8b-7c6d5e4f3a21"
"""The session that was resumed (its own file is beside the new one)."""
RESUMED = "4f7d2c90-3b1e-4a6c-8d25-e0c9b1a7f316"
STARTED = "2026-12-03T09:12:40.511Z"
OK_TYPED = "2026-12-03T09:41:07.302Z"
RESUME = "2026-12-03T13:26:05.877Z"
"""When the person resumed: every copied record carries it."""

ASKED = "The nightly export job times out on big ledgers; find out why."
PROPOSAL = (
    "The export loads every row into memory before it writes anything. I can stream the rows "
    "in batches of 5,000 instead. Shall I?"
)
NO_RESPONSE = "No response requested."
GO_ON = "continue"
THANKS = "thanks, that's all for today"


def _history() -> list[dict]:
    """The first session's conversation up to where the person left it."""
    return [
        cb.user("u1", None, 0, ASKED),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "time python -m ledger.export --all"),
        cb.tool_result("r1", "a1", 847, "call_1", "real\t14m02.118s"),
        cb.said("a2", "r1", 850, "msg_2", PROPOSAL),
        cb.user("u2", "a2", 900, "ok"),
        cb.tool_use("a3", "u2", 910, "msg_3", "call_2", "python tools/stream_rows.py --batch 5000"),
        cb.tool_result("r3", "a3", 915, "call_2", "rewrote ledger/export.py"),
        cb.tool_use("a4", "r3", 930, "msg_4", "call_3", "pytest -q tests/test_export.py"),
        cb.tool_result("r4", "a4", 950, "call_3", "9 passed in 3.10s"),
        cb.said("a5", "r4", 960, "msg_5", "The export streams its rows; next the import side."),
        cb.tool_use("a6", "a5", 970, "msg_6", "call_4", "rg -n 'def load' ledger/import.py"),
        cb.tool_result("r6", "a6", 975, "call_4", "12:def load_all(path):"),
    ]


def _first_session() -> list[dict]:
    """The first session's own file, with its own times (a person's typing, work after)."""
    records = [cb.in_v1(r, sessionId=FIRST) for r in _history()]
    records[0]["timestamp"], records[4]["timestamp"] = STARTED, OK_TYPED
    return records


def _resumed(first_kept: bool) -> list[dict]:
    """The new file: two title lines, the copied history (the person's messages at their
    first times and with the first session's id, all else at the resume), Claude Code's
    "No response requested.", then the person's first new message and the work after it.

    `first_kept`: the opening prompt keeps its first time too (else it is stamped at the
    resume, as every other copied record; real files show both)."""
    copies = []
    for record in _history():
        person = record["uuid"] in ("u1", "u2") and (record["uuid"] == "u2" or first_kept)
        if person:
            when = STARTED if record["uuid"] == "u1" else OK_TYPED
            copies.append(cb.in_v1(record, timestamp=when, sessionId=FIRST))
        else:
            copies.append(cb.in_v1(record, timestamp=RESUME, sessionId=RESUMED))
    reply = cb.harness_reply("n1", "r6", 0, NO_RESPONSE)
    new = [
        cb.user("u3", "n1", 0, GO_ON),
        cb.tool_use("a7", "u3", 0, "msg_7", "call_5", "python tools/stream_rows.py --import"),
        cb.tool_result("r7", "a7", 0, "call_5", "rewrote ledger/import.py"),
        cb.tool_use("a8", "r7", 0, "msg_8", "call_6", "pytest -q"),
        cb.tool_result("r8", "a8", 0, "call_6", "14 passed in 4.02s"),
        cb.said("a9", "r8", 0, "msg_9", "The import streams its rows too; all 14 tests pass."),
        cb.user("u4", "a9", 0, THANKS),
    ]
    times = [
        "13:26:31.204",
        "13:26:40.118",
        "13:27:02.950",
        "13:29:10.407",
        "13:31:45.662",
        "13:33:20.031",
        "13:40:00.315",
    ]
    return [
        {"type": "summary", "summary": "Nightly export streams its rows", "leafUuid": "a5"},
        {"type": "summary", "summary": "Export job timeouts on big ledgers", "leafUuid": "r4"},
        *copies,
        cb.in_v1(reply, timestamp="2026-12-03T13:26:05.878Z", sessionId=RESUMED),
        *(
            cb.in_v1(r, timestamp=f"2026-12-03T{t}Z", sessionId=RESUMED)
            for r, t in zip(new, times, strict=True)
        ),
    ]


def _home(tmp_path: Path, first_kept: bool) -> Path:
    """Both files in one project, as Claude Code 1.0 left them; returns the resumed one."""
    cb.home(tmp_path, _first_session(), name=FIRST)
    return cb.home(tmp_path, _resumed(first_kept), name=RESUMED)


def _read(path: Path) -> Session:
    return read_session(find_sessions([path]).refs[0])


def _pivot_at(session: Session, text: str) -> Pivot:
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    found = [p for p in pivots if session.turns[p.turn].text == text]
    assert found, f"no pivot judged at {text!r}: {[p.turn for p in pivots]}"
    return found[0]


KEPT = pytest.mark.parametrize("first_kept", [True, False], ids=["first-kept", "first-copied"])


@KEPT
def test_each_turn_keeps_its_time_and_the_session_spans_start_to_latest(
    tmp_path: Path, first_kept: bool
) -> None:
    session = _read(_home(tmp_path, first_kept))
    # the person's "ok" keeps the time it was typed, as the file says: a reader reports it
    ok = next(t for t in session.turns if t.text == "ok")
    assert ok.timestamp == parse_timestamp(OK_TYPED)
    before = session.turns[ok.index - 1]
    assert before.timestamp == parse_timestamp(RESUME)
    assert session.started == parse_timestamp(STARTED if first_kept else RESUME)
    assert session.ended == parse_timestamp("2026-12-03T13:40:00.315Z")
    # every turn kept, in the file's order, none lost to a branch
    assert [t.text for t in session.human_turns()] == [ASKED, "ok", GO_ON, THANKS]
    assert session.branches == [] and session.notices == [] and session.skipped == []


@KEPT
def test_the_replay_clock_only_moves_forward(tmp_path: Path, first_kept: bool) -> None:
    turns = _read(_home(tmp_path, first_kept)).turns
    first = turns[0].timestamp
    assert first is not None
    at_resume = float(floor(parse_timestamp(RESUME) or 0) - floor(first))
    ok = next(t.index for t in turns if t.text == "ok")
    # followed live, the session grows to the copied "ok": the latest time is the resume's
    playback = Playback(turns[: ok + 1], [])
    playback.cursor = ok
    assert playback.clock() == (at_resume, at_resume)
    playback.set_turns(turns)  # the rest arrives
    shown = []
    for cursor in range(len(turns)):
        playback.cursor = cursor
        elapsed, duration = playback.clock()
        assert elapsed is not None and duration is not None
        shown.append(elapsed)
    assert shown == sorted(shown) and shown[-1] == duration
    assert shown[ok] == at_resume
    last = turns[-1].timestamp
    assert last is not None
    assert duration == floor(last) - floor(first)


@KEPT
def test_no_minutes_are_counted_across_the_jump(tmp_path: Path, first_kept: bool) -> None:
    """The copied "ok" (typed 09:41, its run copied at 13:26) is no four hours of the agent
    working alone; the "continue" after the resume is seven real minutes."""
    session = _read(_home(tmp_path, first_kept))
    copied = _pivot_at(session, "ok")
    assert "time on its own" not in [s.name for s in copied.signals]
    assert pivot_run(session, copied).minutes == 0.0
    seconds = spend_run(session.turns, copied).seconds  # the run of `scan --json`
    assert seconds is not None and seconds < 1.0
    resumed = _pivot_at(session, GO_ON)
    (alone,) = [s for s in resumed.signals if s.name == "time on its own"]
    assert alone.detail == "the agent worked 7 min on its own after your go-on"
    assert pivot_run(session, resumed).minutes == 6.81
    seconds = spend_run(session.turns, resumed).seconds
    assert seconds is not None and round(seconds, 1) == 408.8


@KEPT
def test_the_session_is_listed_under_its_own_id_and_start(tmp_path: Path, first_kept: bool) -> None:
    path = _home(tmp_path, first_kept)
    rows = {row["path"]: row for row in listed(tmp_path)}
    assert rows.keys() == {str(path), str(path.with_name(f"{FIRST}.jsonl"))}
    mine = rows[str(path)]
    assert mine["session_id"] == RESUMED  # not the first session's, whose file is beside it
    assert mine["started"] == (STARTED if first_kept else RESUME)[:19] + "Z"
    assert rows[str(path.with_name(f"{FIRST}.jsonl"))]["session_id"] == FIRST
    cli = through_cli(path)
    assert cli.scan["session_id"] == RESUMED
    assert (
        cli.export["started"] == mine["started"] and cli.export["ended"] == "2026-12-03T13:40:00Z"
    )
    # the export keeps each turn's own time, as the file gives it
    stamps = {turn["parts"][0].get("text"): turn["timestamp"] for turn in cli.turns_by("person")}
    assert stamps["ok"] == OK_TYPED[:19] + "Z"
    assert stamps[GO_ON] == "2026-12-03T13:26:31Z"


async def test_no_response_requested_is_claude_codes_own_line(tmp_path: Path) -> None:
    """The line Claude Code wrote at the end of the copy is its own, neither the agent's
    reply nor the person's; the person's first new message right after it is theirs."""
    path = _home(tmp_path, first_kept=True)
    session = _read(path)
    (reply,) = [t for t in session.turns if t.text == NO_RESPONSE]
    assert reply.role is Role.SYSTEM and not reply.is_human
    after = session.turns[reply.index + 1]
    assert after.is_human and after.text == GO_ON
    cli = through_cli(path)
    assert cli.person == [ASKED, "ok", GO_ON, THANKS]
    assert [t["parts"][0]["text"] for t in cli.turns_by("system")] == [NO_RESPONSE]
    assert NO_RESPONSE not in [p.get("text") for t in cli.turns_by("agent") for p in t["parts"]]
    shown = await in_replayer(path)
    assert reply.index not in shown.human and NO_RESPONSE in shown.turns[reply.index]
    assert "■ system" in shown.turns[reply.index].splitlines()[0]
