"""Sub-agents Claude Code 1.0.x wrote into the session's own file (`isSidechain: true`).

They are kept out of the session's turns and become its children, read from their
stretch of the file as a newer `subagents/agent-<id>.jsonl` file is, each tied to the
Task call whose result follows its block (`claude_sidechain_home` tells the story).
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import find_sessions, read_session
from pivotal.readers.claude_code import ClaudeCodeReader
from pivotal.readers.claude_sidechains import RESULT_HEAD
from pivotal.spend.subagents import read_subagents

from . import claude_sidechain_home as home


def _read(path: Path):  # type: ignore[no-untyped-def]
    return read_session(find_sessions([path]).refs[0])


def test_sidechains_are_not_turns_of_the_session_and_its_clock_runs_forward(tmp_path) -> None:
    session = _read(home.home(tmp_path))
    assert len(session.turns) == 10
    assert [t.text for t in session.turns if t.is_human] == [
        "Add a CSV export: the row types, the writer, and its tests.",
        "Run the tests task again please.",
        "ok",
    ]
    assert not [t for t in session.turns if t.flags & TurnFlag.SIDECHAIN]
    prompts = set(home.PROMPTS.values())
    assert not [t for t in session.turns if t.text in prompts]
    stamps = [t.timestamp for t in session.turns]
    assert stamps == sorted(stamps)  # three blocks written late no longer turn the clock back
    # the Task calls and their results are still the main agent's
    first = session.turns[1]
    assert [c.call_id for c in first.tool_calls] == [home.CALLS["types"], home.CALLS["writer"]]
    assert all(c.has_result for c in first.tool_calls)


def test_each_sidechain_is_a_child_tied_to_the_task_whose_result_follows_it(tmp_path) -> None:
    session = _read(home.home(tmp_path))
    children = session.children
    assert [c.session_id for c in children] == [f"{a[:2]}-u0" for a in home.ORDER]
    # the retried tests Task has the interrupted one's prompt: its position tells them apart
    assert [c.parent_call for c in children] == [home.CALLS[a] for a in home.ORDER]
    assert all(c.key and c.key.startswith("sidechain:") for c in children)
    assert all(c.path == session.path and c.format == "claude-code" for c in children)


def test_a_child_reads_as_the_subagent_alone_with_the_files_line_numbers(tmp_path) -> None:
    path = home.home(tmp_path)
    session = _read(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    for agent, child in zip(home.ORDER, session.children, strict=True):
        sub = read_session(child)
        block = home.sidechain(agent, home.STARTS[agent])
        first = lines.index(json.dumps(block[0], separators=(",", ":"), ensure_ascii=False))
        assert sub.turns[0].text == home.PROMPTS[agent] and sub.turns[0].role is Role.USER
        assert sub.turns[0].source.line == first + 1  # the line in the session's file
        replies = [t for t in sub.turns if t.role is Role.ASSISTANT]
        assert len(replies) == len(home.SUBS[agent])
        calls = [c for t in replies for c in t.tool_calls]
        assert len(calls) == home.SUB_CALLS[agent]
        assert sum(c.failed for c in calls) == home.SUB_FAILED[agent]
        assert all(c.has_result for c in calls)
        assert not sub.skipped and not sub.children
    docs = read_session(session.children[3])
    assert docs.turns[-1].flags & TurnFlag.INTERRUPTED  # interrupted mid-way, as it was


def test_a_bad_line_in_a_block_is_reported_once_by_the_session(tmp_path) -> None:
    items = home.records()
    at = next(i for i, r in enumerate(items) if r.get("uuid") == "wr-r1")
    path = home.home(tmp_path, items)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(at, '{"parentUuid":"wr-a2","isSidechain":true,"type":"user","mess')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = _read(path)
    assert [s.line for s in session.skipped] == [at + 1]
    writer = read_session(session.children[0])
    assert not writer.skipped and len(writer.turns) == 3


def test_parallel_blocks_written_interleaved_still_make_one_child_each(tmp_path) -> None:
    """No real file interleaves them, but a chain is its records by `parentUuid`, not by
    where they sit: two sub-agents' records taking turns stay two sub-agents."""
    items = home.records()
    writer = [r for r in items if r.get("uuid", "").startswith("wr-")]
    types = [r for r in items if r.get("uuid", "").startswith("ty-")]
    mixed = [r for pair in zip(writer, types, strict=False) for r in pair] + types[len(writer) :]
    first = items.index(writer[0])
    rest = [r for r in items if r not in writer and r not in types]
    path = home.home(tmp_path, rest[:first] + mixed + rest[first:])
    session = _read(path)
    assert len(session.turns) == 10
    subs = [read_session(c) for c in session.children]
    assert [s.turns[0].text for s in subs[:2]] == [home.PROMPTS["writer"], home.PROMPTS["types"]]
    assert [len(s.turns) for s in subs[:2]] == [3, 4]
    # what follows the types' last record is the writer's result: not the types' call
    assert [c.parent_call for c in session.children[:2]] == [None, None]
    ran = {sub.ref.session_id: sub.call_id for sub in read_subagents(session)}
    assert ran["wr-u0"] == home.CALLS["writer"] and ran["ty-u0"] == home.CALLS["types"]


def test_a_warmup_sidechain_with_no_task_is_a_child_tied_to_no_call(tmp_path) -> None:
    """Claude Code 2.0 opened a session with a "Warmup" sidechain of its own: no Task ran
    it, the person's first message follows it."""
    warm = home.user("wu-u0", None, 0, "Warmup", side=True)
    reply = home.reply("wu-a1", "wu-u0", 2, "msg_wu", home.text("Ready."), (800, 40, 0, 900),
                       side=True)  # fmt: skip
    items = [warm, reply, *home.records()[1:]]
    session = _read(home.home(tmp_path, items))
    assert len(session.turns) == 10 and session.turns[0].text.startswith("Add a CSV export")
    assert session.children[0].session_id == "wu-u0" and session.children[0].parent_call is None
    assert len(session.children) == 5


def test_a_subagents_own_file_keeps_its_sidechain_records_as_its_conversation(tmp_path) -> None:
    """`agent-<id>.jsonl` (a newer sub-agent file, or the ones 2.0 wrote beside the
    session): every record is a sidechain one, and they are its turns."""
    path = home.write(tmp_path / "agent-a1b2c3.jsonl", home.sidechain("types", 8))
    session = read_session(SessionRef("claude-code", path))
    assert len(session.turns) == 4 and session.turns[0].text == home.PROMPTS["types"]
    assert not session.children


def test_following_a_live_session_lists_a_block_and_ties_it_once_its_result_lands(
    tmp_path,
) -> None:
    items = home.records()
    cut = next(i for i, r in enumerate(items) if r.get("uuid") == "m-r1")  # the writer's result
    path = home.home(tmp_path, items[:cut])
    reader = ClaudeCodeReader(SessionRef("claude-code", path))
    reader.poll()
    [child] = reader.session.children
    assert child.parent_call is None  # nothing after the block yet
    with path.open("a", encoding="utf-8") as handle:
        for item in items[cut:]:
            handle.write(json.dumps(item, separators=(",", ":"), ensure_ascii=False) + "\n")
    reader.poll()
    calls = [c.parent_call for c in reader.session.children]
    assert calls == [home.CALLS[a] for a in home.ORDER]
    assert len(reader.session.turns) == 10


def test_a_long_report_after_a_block_still_names_its_call(tmp_path) -> None:
    """A Task's result carries the sub-agent's report: a long one is read further for the
    call id; one past `RESULT_HEAD` is left to the prompt."""
    items = home.records()
    writer = next(r for r in items if r.get("uuid") == "m-r1")
    types = next(r for r in items if r.get("uuid") == "m-r2")
    writer["message"]["content"][0]["content"] = [home.text("row,value\n" * 20_000)]  # 200 KB
    types["message"]["content"][0]["content"] = [home.text("x" * (RESULT_HEAD + 10))]
    session = _read(home.home(tmp_path, items))
    calls = [c.parent_call for c in session.children]
    assert calls[0] == home.CALLS["writer"] and calls[1] is None
    ran = {sub.ref.session_id: sub.call_id for sub in read_subagents(session)}
    assert ran["ty-u0"] == home.CALLS["types"]  # by its prompt
