"""Codex sub-agents (multi-agent `spawn_agent`) are the session's children: each spawned
thread's rollout is found by its name (in the day folders around the spawn, the next day's
included), tied to the call that spawned it, read once and counted once; a sub-agent's
own sub-agents are its children in turn. A rollout names the thread that spawned it
(`SessionRef.parent`), so a listing that holds the parent leaves it to the parent; one
whose parent's rollout is gone stays a session of its own."""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.readers import find_sessions, read_session
from pivotal.readers.codex_records import refs
from pivotal.spend.session import session_spend
from pivotal.spend.subagents import read_subagents
from readers import codex_subagent_home as home
from readers.codex_builders import Rollout


def _parent(tmp_path: Path) -> tuple[dict[str, Path], object]:
    paths = home.write_home(tmp_path)
    [ref] = find_sessions([paths[home.PARENT]]).refs
    return paths, read_session(ref)


def _spawn_turn(session, call_id: str) -> int:
    return next(
        i for i, t in enumerate(session.turns) for c in t.tool_calls if c.call_id == call_id
    )


def test_the_spawned_threads_are_the_sessions_children_found_by_name(tmp_path: Path) -> None:
    paths, session = _parent(tmp_path)
    children = {ref.session_id: ref for ref in session.children}
    assert set(children) == {home.ADA, home.BROOK}  # Cedar is Ada's, not the session's
    ada, brook = children[home.ADA], children[home.BROOK]
    assert ada.path == paths[home.ADA] and brook.path == paths[home.BROOK]
    assert brook.path.parent.name == "30" and paths[home.PARENT].parent.name == "29"
    assert (ada.title, ada.parent_call) == (home.ADA_TITLE, home.ADA_CALL)
    assert (brook.title, brook.parent_call) == (home.BROOK_TITLE, home.BROOK_CALL)
    assert all(ref.format == "codex" for ref in session.children)


def test_each_is_tied_to_its_spawn_call_and_its_own_child_to_its(tmp_path: Path) -> None:
    _, session = _parent(tmp_path)
    subs = {sub.ref.session_id: sub for sub in read_subagents(session)}
    ada, brook = subs[home.ADA], subs[home.BROOK]
    assert (ada.parent_turn, ada.call_id) == (_spawn_turn(session, home.ADA_CALL), home.ADA_CALL)
    assert (brook.parent_turn, brook.call_id) == (
        _spawn_turn(session, home.BROOK_CALL),
        home.BROOK_CALL,
    )
    assert ada.title == home.ADA_TITLE and ada.prompt == home.ADA_TASK
    [cedar] = ada.nested  # depth 2: the thread Ada spawned
    assert cedar.ref.session_id == home.CEDAR and cedar.title == home.CEDAR_TITLE
    assert cedar.call_id == home.CEDAR_CALL and cedar.parent_turn is not None
    assert brook.nested == []


def test_its_spend_counts_each_sub_agent_once(tmp_path: Path) -> None:
    _, session = _parent(tmp_path)
    spend = session_spend(session)
    assert spend.own.tokens == home.OWN_TOKENS
    subs = {sub.ref.session_id: sub.tally.tokens for sub in spend.subagents}
    assert subs == {home.ADA: home.ADA_TOKENS + home.CEDAR_TOKENS, home.BROOK: home.BROOK_TOKENS}
    assert spend.total.tokens == home.ALL_TOKENS


def test_a_rollout_names_the_thread_that_spawned_it(tmp_path: Path) -> None:
    paths = home.write_home(tmp_path)
    orphan = home.write_orphan(tmp_path)
    assert refs(paths[home.PARENT])[0].parent is None
    assert refs(paths[home.ADA])[0].parent == home.PARENT
    assert refs(paths[home.CEDAR])[0].parent == home.ADA
    assert refs(orphan)[0].parent == home.GONE


def test_a_listing_leaves_sub_agents_to_their_parent_and_keeps_an_orphan(tmp_path: Path) -> None:
    home.write_home(tmp_path)
    orphan = home.write_orphan(tmp_path)
    found = find_sessions([tmp_path])
    assert sorted(r.session_id for r in found.refs) == sorted([home.PARENT, home.ORPHAN])
    assert not found.problems
    [alone] = [r for r in found.refs if r.session_id == home.ORPHAN]
    assert alone.path == orphan and alone.parent == home.GONE
    assert read_session(alone).turns  # read as the session it is


def test_a_sub_agent_named_on_its_own_is_its_session(tmp_path: Path) -> None:
    paths = home.write_home(tmp_path)
    [ref] = find_sessions([paths[home.ADA]]).refs
    assert ref.session_id == home.ADA
    session = read_session(ref)
    assert [c.session_id for c in session.children] == [home.CEDAR]


def test_a_spawn_whose_rollout_is_not_there_yet_is_found_once_it_is(tmp_path: Path) -> None:
    """A live session: the spawn's result is written before the thread's first line."""
    paths = home.write_home(tmp_path)
    brook = paths[home.BROOK]
    kept = brook.read_bytes()
    brook.unlink()
    from pivotal.readers import open_reader

    [ref] = find_sessions([paths[home.PARENT]]).refs
    reader = open_reader(ref)
    reader.poll()
    assert [c.session_id for c in reader.session.children] == [home.ADA]
    brook.write_bytes(kept)
    with paths[home.PARENT].open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"timestamp": "2026-11-30T00:09:00.000Z", "type": "event_msg",
                                 "payload": {"type": "task_started"}}) + "\n")  # fmt: skip
    reader.poll()
    assert [c.session_id for c in reader.session.children] == [home.ADA, home.BROOK]


def test_v2_names_the_task_and_its_activity_the_thread(tmp_path: Path) -> None:
    """Multi-agent v2: the spawn's result names the task (`/root/<task>`), the
    `sub_agent_activity` event its thread (written before the result here)."""
    parent = Rollout(start="2026-12-02T08:00:00.000", session_id=home.PARENT)
    parent.add("session_meta", {"id": home.PARENT, "timestamp": parent.stamp(0), "cwd": "/w",
                                "originator": "codex_cli_rs", "cli_version": "0.180.0",
                                "source": "cli"})  # fmt: skip
    parent.said("Check the docs build.")
    parent.shown("Check the docs build.", kind=None)
    args = {"message": "Build the docs and report warnings.", "task_name": "docs_build"}
    parent.add("response_item", {"type": "function_call", "name": "spawn_agent",
                                 "arguments": json.dumps(args), "call_id": "call_v2"})  # fmt: skip
    parent.add("event_msg", {"type": "sub_agent_activity", "event_id": "ev1",
                             "occurred_at_ms": 1_796_198_401_000, "agent_thread_id": home.ADA,
                             "agent_path": "/root/docs_build", "kind": "started"})  # fmt: skip
    output = json.dumps({"task_name": "/root/docs_build", "nickname": None})
    parent.add("response_item", {"type": "function_call_output", "call_id": "call_v2",
                                 "output": output})  # fmt: skip
    child = Rollout(start="2026-12-02T08:00:01.000", session_id=home.ADA)
    spawn = {"parent_thread_id": home.PARENT, "depth": 1, "agent_path": "/root/docs_build",
             "agent_nickname": None, "agent_role": None}  # fmt: skip
    child.add("session_meta", {"id": home.ADA, "timestamp": child.stamp(0), "cwd": "/w",
                               "originator": "codex_cli_rs", "cli_version": "0.180.0",
                               "source": {"subagent": {"thread_spawn": spawn}}})  # fmt: skip
    child.said("Build the docs and report warnings.")
    where = child.write(tmp_path)
    session = read_session(find_sessions([parent.write(tmp_path)]).refs[0])
    [ref] = session.children
    assert (ref.path, ref.parent_call, ref.title) == (where, "call_v2", "docs_build")
    [sub] = read_subagents(session)
    assert sub.call_id == "call_v2"


def test_a_failed_spawn_or_a_review_thread_is_no_child(tmp_path: Path) -> None:
    """A spawn refused (the depth limit) starts nothing; a review sub-agent names no
    parent: its rollout stays a session of its own."""
    parent = Rollout(start="2026-12-03T08:00:00.000", session_id=home.PARENT)
    parent.add("session_meta", {"id": home.PARENT, "timestamp": parent.stamp(0), "cwd": "/w",
                                "originator": "codex_cli_rs", "cli_version": "0.171.0",
                                "source": "cli"})  # fmt: skip
    parent.said("Go deeper.")
    refused = "Agent depth limit reached. Solve the task yourself."
    dig = json.dumps({"message": "dig"})
    parent.add("response_item", {"type": "function_call", "name": "spawn_agent",
                                 "arguments": dig, "call_id": "c1"})  # fmt: skip
    parent.add("response_item", {"type": "function_call_output", "call_id": "c1",
                                 "output": refused})  # fmt: skip
    review = Rollout(start="2026-12-03T08:01:00.000", session_id=home.BROOK)
    review.add("session_meta", {"id": home.BROOK, "timestamp": review.stamp(0), "cwd": "/w",
                                "originator": "codex_cli_rs", "cli_version": "0.171.0",
                                "source": {"subagent": "review"}})  # fmt: skip
    review.said("Review the current changes.")
    path = parent.write(tmp_path)
    review.write(tmp_path)
    assert read_session(find_sessions([path]).refs[0]).children == []
    found = find_sessions([tmp_path]).refs
    assert sorted(r.session_id for r in found) == sorted([home.PARENT, home.BROOK])
    assert all(r.parent is None for r in found)


def test_only_a_spawned_thread_names_a_parent() -> None:
    """`{"other": …}` sub-agents (a guardian, say) carry a `parent_thread_id` too, but no call
    of the parent's started them: they stay sessions of their own."""
    from pivotal.readers.codex_children import parent_thread

    spawn = {"thread_spawn": {"parent_thread_id": home.PARENT, "depth": 1}}
    assert parent_thread({"source": {"subagent": spawn}}) == home.PARENT
    bare = {"thread_spawn": {"depth": 1, "agent_path": "/root/x"}}  # the id only at the top
    assert parent_thread({"source": {"subagent": bare}, "parent_thread_id": home.ADA}) == home.ADA
    other = {"source": {"subagent": {"other": "guardian"}}, "parent_thread_id": home.PARENT}
    assert parent_thread(other) is None
    assert parent_thread({"source": {"subagent": "review"}}) is None
    assert parent_thread({"source": "exec", "parent_thread_id": home.PARENT}) is None
