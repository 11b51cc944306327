"""Sub-agents written into a 1.0.x session's own file are spent as sub-agents, not by it.

`readers.claude_sidechain_home` writes the session (two parallel Tasks, one interrupted
before it began and asked again with the same prompt, one interrupted mid-way) and the
same session laid out the newer way: both must read alike, down to each sub-agent's
figures and the call it is tied to.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.model import Pivot, PivotKind, SessionRef, Silence
from pivotal.readers import find_sessions, read_session
from pivotal.readers.claude_code import ClaudeCodeReader
from pivotal.spend.run import pivot_run
from pivotal.spend.session import session_spend, subagents_of
from pivotal.spend.subagents import read_subagents
from readers import claude_sidechain_home as home


def _tokens(rows) -> int:  # type: ignore[no-untyped-def]
    return sum(sum(row) for row in rows)


def _session(path: Path):  # type: ignore[no-untyped-def]
    return read_session(find_sessions([path]).refs[0])


def test_the_session_spends_its_own_responses_and_each_subagent_apart(tmp_path) -> None:
    session = _session(home.home(tmp_path))
    spend = session_spend(session)
    assert spend.own.tokens == _tokens(home.OWN.values())  # msg_m1's three lines count once
    assert spend.own.responses == len(home.OWN)
    subs = {s.ref.session_id: s for s in spend.subagents}
    assert list(subs) == [f"{a[:2]}-u0" for a in home.ORDER]
    for agent in home.ORDER:
        sub = subs[f"{agent[:2]}-u0"]
        assert sub.tally.tokens == _tokens(home.SUBS[agent])
        assert (sub.calls, sub.failed) == (home.SUB_CALLS[agent], home.SUB_FAILED[agent])
        assert sub.call_id == home.CALLS[agent] and sub.title == home.DESCRIPTIONS[agent]
    every = [row for rows in home.SUBS.values() for row in rows]
    assert spend.total.tokens == _tokens(home.OWN.values()) + _tokens(every)
    assert spend.total.unpriced == 0 and spend.total.cost > spend.own.cost > 0


def test_the_interrupted_task_ran_no_subagent_and_its_retry_ran_one(tmp_path) -> None:
    session = _session(home.home(tmp_path))
    ran = {s.call_id: s for s in read_subagents(session)}
    assert home.CALLS["tests-1"] not in ran  # interrupted before anything was written
    [retry] = [t.index for t in session.turns if home.CALLS["tests"] in _calls(t)]
    assert ran[home.CALLS["tests"]].parent_turn == retry
    [docs] = [t.index for t in session.turns if home.CALLS["docs"] in _calls(t)]
    assert ran[home.CALLS["docs"]].parent_turn == docs  # interrupted mid-way: still its own
    assert ran[home.CALLS["docs"]].seconds == pytest.approx(30.0)


def _calls(turn) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.call_id for c in turn.tool_calls]


def test_both_layouts_read_alike(tmp_path) -> None:
    old = _session(home.home(tmp_path / "old"))
    new = _session(home.rebuilt(tmp_path / "new"))
    assert [(t.role, t.flags, t.text, t.timestamp) for t in old.turns] == [
        (t.role, t.flags, t.text, t.timestamp) for t in new.turns
    ]
    a, b = session_spend(old), session_spend(new)
    assert (a.own.tokens, a.own.cost) == (b.own.tokens, pytest.approx(b.own.cost))

    def figures(spend):  # type: ignore[no-untyped-def]
        return sorted(
            (
                s.call_id,
                s.parent_turn,
                s.title,
                s.prompt,
                s.turns,
                s.agent_turns,
                s.calls,
                s.failed,
                s.tally.tokens,
                round(s.tally.cost, 9),
                s.seconds,
            )
            for s in spend.subagents
        )  # fmt: skip (each layout lists them in its own order: the file's, the folder's)

    assert figures(a) == figures(b)


def test_a_pivots_run_holds_the_subagents_its_calls_ran_once(tmp_path) -> None:
    session = _session(home.home(tmp_path))
    [again] = [t for t in session.turns if t.text == "Run the tests task again please."]
    pivot = Pivot(
        turn=again.index, kind=PivotKind.IMPLICIT_APPROVAL, silence=Silence.ACK, confidence=0.8
    )
    run = pivot_run(session.turns, pivot, model=session.model, subagents=read_subagents(session))
    assert run.ended_by == "person" and session.turns[run.end].text == "ok"
    assert run.agent_turns == 2 and run.subagents == 2  # the tests and the docs
    sub_rows = home.SUBS["tests"] + home.SUBS["docs"]
    assert run.sub_tally.tokens == _tokens(sub_rows)
    assert run.tally.tokens == _tokens([home.OWN["msg_m3"], home.OWN["msg_m4"]]) + _tokens(sub_rows)


def test_a_live_session_reties_a_subagent_once_the_result_naming_its_call_lands(
    tmp_path,
) -> None:
    """While only the retried tests' block is written, its prompt is all there is, and it
    is the interrupted Task's too; the result written next names the right call."""
    items = home.records()
    cut = next(i for i, r in enumerate(items) if r.get("uuid") == "m-r4")  # the tests' result
    path = home.home(tmp_path, items[:cut])
    reader = ClaudeCodeReader(SessionRef("claude-code", path))
    reader.poll()
    session = reader.session
    early = {s.ref.session_id: s.call_id for s in subagents_of(session)}
    assert early["te-u0"] == home.CALLS["tests-1"]  # the prompt alone: the first call with it
    with path.open("a", encoding="utf-8") as handle:  # the result alone: no child more
        handle.write(json.dumps(items[cut], separators=(",", ":")) + "\n")
    reader.poll()
    later = {s.ref.session_id: s.call_id for s in subagents_of(session)}
    assert later["te-u0"] == home.CALLS["tests"] and len(later) == 3
