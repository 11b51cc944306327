"""Sub-agents tied to the calls that ran them, and pivots' runs, each counted once.

The session (`claude_home`) hands three pieces of work to sub-agents after the
person says "ok"; their tokens count once in the session's total and once in
that run, with the hand counts of `claude_home.OWN` and `SUBS`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.model import Pivot, PivotKind, Role, Silence, ToolCall, Turn, TurnFlag, Usage
from pivotal.readers import find_sessions, read_session
from pivotal.scan.report import pivot_json
from pivotal.spend.run import edited_paths, join, measure, pivot_run, run_end
from pivotal.spend.session import session_spend
from pivotal.spend.subagents import read_subagents

from .claude_home import CALLS, MODEL, OWN, SUB_MODEL, SUBS, write_home
from .shapes import RATES


def _tokens(rows) -> int:  # type: ignore[no-untyped-def]
    return sum(sum(row) for row in rows)


def _dollars(rows, model: str) -> float:  # type: ignore[no-untyped-def]
    rates = RATES[model]
    return sum(
        fresh * rates["input_cost_per_token"]
        + output * rates["output_cost_per_token"]
        + read * rates["cache_read_input_token_cost"]
        + write * rates["cache_creation_input_token_cost"]
        for fresh, output, read, write in rows
    )


@pytest.fixture()
def session(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = write_home(tmp_path)
    [ref] = [r for r in find_sessions([path]).refs]
    return read_session(ref)


def ok_pivot(session) -> Pivot:  # type: ignore[no-untyped-def]
    [ok] = [t for t in session.turns if t.is_human and t.preview == "ok"]
    return Pivot(
        turn=ok.index, kind=PivotKind.IMPLICIT_APPROVAL, silence=Silence.ACK, confidence=0.8
    )


def test_each_subagent_is_tied_to_the_call_that_ran_it_by_the_best_clue_there_is(session) -> None:
    subs = {s.ref.session_id: s for s in read_subagents(session)}
    assert set(subs) == set(SUBS)
    for agent, call in CALLS.items():  # meta file, "agentId: …" in the result, the prompt
        assert subs[agent].call_id == call
    calling = [
        t.index for t in session.turns if any(c.call_id in CALLS.values() for c in t.tool_calls)
    ]
    assert {subs[a].parent_turn for a in CALLS} == set(calling)
    assert subs["acompact"].call_id is None and subs["acompact"].parent_turn is None
    assert subs["a1b2c3d"].title == "Survey the cart"  # from its meta file
    assert (subs["a1b2c3d"].turns, subs["a1b2c3d"].agent_turns) == (3, 2)
    assert subs["a1b2c3d"].seconds == pytest.approx(10.0)


def test_the_session_total_counts_its_own_responses_and_each_subagent_once(session) -> None:
    spend = session_spend(session)
    own_rows = list(OWN.values())
    sub_rows = [row for rows in SUBS.values() for row in rows]
    assert spend.own.tokens == _tokens(own_rows)  # msg_02's three lines count once
    total = spend.total
    assert total.tokens == _tokens(own_rows) + _tokens(sub_rows)
    assert total.responses == len(own_rows) + len(sub_rows)
    assert total.cost == pytest.approx(_dollars(own_rows, MODEL) + _dollars(sub_rows, SUB_MODEL))
    assert total.unpriced == 0


def test_the_run_after_ok_holds_its_subagents_once_and_says_it_handed_the_work_on(session) -> None:
    pivot = ok_pivot(session)
    run = pivot_run(session.turns, pivot, model=session.model, subagents=read_subagents(session))
    after = ["msg_02", "msg_03", "msg_04"]
    sub_rows = [row for rows in SUBS.values() for row in rows]
    assert run.ended_by == "person" and session.turns[run.end].preview == "Now add a test for it."
    assert (run.agent_turns, run.calls, run.failed, run.files) == (3, 4, 0, 1)
    assert run.seconds == pytest.approx(110.0)  # "ok" at 0:30, the last reply at 2:20
    assert run.subagents == 4 and run.sub_turns == 2 + 1 + 2 + 1  # the sub-agents' replies
    assert run.sub_tally.tokens == _tokens(sub_rows)
    assert run.tally.tokens == _tokens(OWN[m] for m in after) + _tokens(sub_rows)
    assert run.tally.cost == pytest.approx(
        _dollars([OWN[m] for m in after], MODEL) + _dollars(sub_rows, SUB_MODEL)
    )
    assert run.mostly_subagents


def test_scan_json_carries_the_run_on_the_pivot(session) -> None:
    data = pivot_json(session, ok_pivot(session))
    run = data["run"]
    assert (run["agent_turns"], run["calls"], run["failed"], run["ok"], run["files"]) == (
        3,
        4,
        0,
        4,
        1,
    )
    assert run["subagents"]["count"] == 4 and run["subagents"]["mostly"] is True
    assert run["priced"] is True and run["cost_usd"] > 0
    assert run["ended_by"] == "person" and run["seconds"] == 110.0
    json.dumps(data)  # plain JSON


def test_a_subagent_that_cannot_be_read_counts_nowhere(tmp_path: Path) -> None:
    path = write_home(tmp_path)
    broken = path.with_suffix("") / "subagents" / "agent-e4f5a6b.jsonl"
    broken.write_bytes(b"\x00\x01 not json\n")
    [ref] = find_sessions([path]).refs
    session = read_session(ref)
    subs = {s.ref.session_id: s for s in read_subagents(session)}
    run = pivot_run(session.turns, ok_pivot(session), subagents=list(subs.values()))
    assert subs["e4f5a6b"].tally.tokens == 0
    assert run.sub_tally.tokens == _tokens(
        r for a, rows in SUBS.items() if a != "e4f5a6b" for r in rows
    )


def _turn(
    index: int, role: Role, *, human: bool = False, usage: Usage | None = None, calls=(), t=None
):  # type: ignore[no-untyped-def]
    from pivotal.model import Part, PartKind

    flags = TurnFlag.HUMAN if human else TurnFlag.NONE
    turn = Turn(index=index, role=role, flags=flags, usage=usage, timestamp=t, model=MODEL)
    turn.parts = [Part(PartKind.TOOL, tool=c) for c in calls]
    return turn


def test_two_stretches_measured_apart_add_up_to_the_whole_run() -> None:
    edit = ToolCall("c1", "Write", input={"file_path": "a.py"}, output="ok")
    bad = ToolCall("c2", "Bash", input={"command": "false"}, exit_code=1, output="")
    patch = ToolCall(
        "c3", "apply_patch", input="*** Begin Patch\n*** Update File: b.py\n*** Add File: c.py\n"
    )
    turns = [
        _turn(0, Role.USER, human=True, t=100.0),
        _turn(1, Role.ASSISTANT, usage=Usage(input=10, output=5), calls=[edit], t=110.0),
        _turn(
            2, Role.ASSISTANT, usage=Usage(input=20, output=5, cache_read=100), calls=[bad], t=150.0
        ),
        _turn(3, Role.ASSISTANT, usage=Usage(input=30, output=5), calls=[patch, edit], t=190.0),
        _turn(4, Role.USER, human=True, t=900.0),
    ]
    pivot = Pivot(turn=0, kind=PivotKind.OTHER, silence=Silence.ACK, confidence=0.5)
    whole = pivot_run(turns, pivot)
    halves = join(measure(turns, 0, 2), measure(turns, 2, 4))
    for run in (whole, halves):
        assert (run.agent_turns, run.calls, run.failed, run.files) == (3, 4, 1, 3)
        assert run.tally.tokens == 175 and run.seconds == pytest.approx(90.0)
        assert run.ended_by == "person" and run.end == 4
    assert sorted(halves.paths) == ["a.py", "b.py", "c.py"]


def test_a_run_whose_next_pivot_is_not_read_yet_ends_at_the_last_turn_read() -> None:
    # while a big file is read, the analysis may already know a pivot past the turns read
    turns = [_turn(0, Role.USER, human=True), _turn(1, Role.ASSISTANT), _turn(2, Role.ASSISTANT)]
    pivot = Pivot(turn=0, kind=PivotKind.OTHER, silence=Silence.ACK, confidence=0.5)
    assert run_end(turns, pivot, stop=40) == 3
    assert pivot_run(turns, pivot, stop=40).agent_turns == 2


def test_edit_paths_come_from_edit_tools_only() -> None:
    assert edited_paths(ToolCall("1", "Edit", input={"file_path": "x.py"})) == ["x.py"]
    assert edited_paths(ToolCall("2", "file_system.write_file", input={"path": "y"})) == ["y"]
    assert edited_paths(ToolCall("3", "Read", input={"file_path": "x.py"})) == []
    assert edited_paths(ToolCall("4", "Bash", input={"command": "sed -i s/a/b/ x"})) == []
    aider = ToolCall("5", "aider", output="Applied edit to notes.txt\nApplied edit to a.md")
    assert edited_paths(aider) == ["notes.txt", "a.md"]
