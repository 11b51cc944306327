"""Gemini CLI sub-agents: the chats its agents wrote (`chats/<session id>/<run id>.jsonl`,
header `kind: "subagent"`) are the session's children, each tied to the agent call it ran
during (agents are tools named after them: their calls ran a sub-agent), read and counted
once. A sub-agent's chat names its session (its folder); one whose session's file is gone
is listed as a session of its own."""

from __future__ import annotations

from pathlib import Path

from pivotal.catalog.discovery import discover_sessions
from pivotal.readers import find_sessions, read_session
from pivotal.readers.gemini import refs
from pivotal.spend.session import session_spend
from pivotal.spend.subagents import read_subagents
from readers import gemini_subagent_home as home


def test_the_agents_chats_are_the_sessions_children(tmp_path: Path) -> None:
    path = home.write_home(tmp_path)
    session = read_session(find_sessions([path]).refs[0])
    children = {ref.session_id: ref for ref in session.children}
    assert set(children) == {home.INVESTIGATOR, home.GENERALIST}
    investigator = children[home.INVESTIGATOR]
    assert investigator.path == home.agent_file(tmp_path, home.INVESTIGATOR)
    assert investigator.parent_call == home.INVESTIGATE_CALL
    assert investigator.title == "codebase_investigator"
    assert children[home.GENERALIST].parent_call == home.GENERALIST_CALL


def test_each_is_tied_to_the_agent_call_it_ran_during_and_counted_once(tmp_path: Path) -> None:
    path = home.write_home(tmp_path)
    session = read_session(find_sessions([path]).refs[0])
    calls = {c.call_id: i for i, t in enumerate(session.turns) for c in t.tool_calls}
    subs = {sub.ref.session_id: sub for sub in read_subagents(session)}
    assert subs[home.INVESTIGATOR].parent_turn == calls[home.INVESTIGATE_CALL]
    assert subs[home.GENERALIST].parent_turn == calls[home.GENERALIST_CALL]
    assert subs[home.GENERALIST].prompt == home.REQUEST
    spend = session_spend(session)
    assert spend.own.tokens == home.OWN_TOKENS
    assert spend.total.tokens == (
        home.OWN_TOKENS + home.INVESTIGATOR_TOKENS + home.GENERALIST_TOKENS
    )


def test_a_sub_agents_chat_names_its_session(tmp_path: Path) -> None:
    path = home.write_home(tmp_path)
    assert refs(path)[0].parent is None
    assert refs(home.agent_file(tmp_path, home.GENERALIST))[0].parent == home.SESSION


def test_a_listing_keeps_the_agents_under_their_session_and_an_orphan_apart(
    tmp_path: Path,
) -> None:
    path = home.write_home(tmp_path)
    orphan = home.write_orphan(tmp_path)
    for listed in (
        discover_sessions([tmp_path], use_cache=False),
        discover_sessions([tmp_path]),  # counted: the index keeps what the session reaches
        discover_sessions([tmp_path], details=False),  # which the quick listing asks it
        find_sessions([tmp_path]).refs,
    ):
        assert sorted(r.path for r in listed) == sorted([path, orphan])
    [alone] = [r for r in discover_sessions([tmp_path], use_cache=False) if r.path == orphan]
    assert alone.parent == home.ORPHAN_PARENT and alone.turns == 2 and alone.tokens == 400
