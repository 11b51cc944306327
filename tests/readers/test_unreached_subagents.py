"""A sub-agent's file is left to its parent only when the parent reaches it: the threads a
Codex session's calls or notifications name, the Gemini CLI chats tied to one of the
session's agent calls. One the parent's file never names (a `spawn_agents_on_csv` worker,
a v2 spawn whose thread arrived by an event the rollout does not hold, a Gemini chat whose
call was never written) is listed as a session of its own, wherever the parent is listed
too: in `find_sessions` on a folder, in the detailed listing (read or from the index) and
in the quick listing, which knows what a parent reaches from the index and lists a
sub-agent whose parent's file is not counted there as it is now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.catalog.discovery import discover_sessions
from pivotal.model import SessionRef
from pivotal.readers import find_sessions, read_session
from pivotal.readers.subagent_refs import DEPTH, by_name, listed_alone
from readers import gemini_subagent_home as gemini
from readers import unreached_subagent_home as home

CODEX_LISTED = {home.PARENT, home.WREN, home.SABLE}
"""Quill is named by its spawn call; the CSV worker and the v2 task are named by nothing."""


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(folder))
    return folder


def _ids(refs: list[SessionRef]) -> set[str | None]:
    return {ref.session_id for ref in refs}


def test_a_codex_parent_reaches_only_the_threads_it_names(tmp_path: Path) -> None:
    paths = home.write_codex(tmp_path)
    session = read_session(find_sessions([paths[home.PARENT]]).refs[0])
    assert [c.session_id for c in session.children] == [home.QUILL]
    [parent] = find_sessions([paths[home.PARENT]]).refs
    assert parent.parent is None
    assert {r.parent for r in find_sessions([paths[home.WREN], paths[home.SABLE]]).refs} == {
        home.PARENT
    }


def test_a_thread_its_parent_never_names_is_listed_beside_it(tmp_path: Path) -> None:
    paths = home.write_codex(tmp_path)
    assert _ids(find_sessions([tmp_path]).refs) == CODEX_LISTED
    assert _ids(discover_sessions([tmp_path], use_cache=False)) == CODEX_LISTED
    for _ in range(2):  # read, then from the index
        listed = {ref.session_id: ref for ref in discover_sessions([tmp_path])}
        assert set(listed) == CODEX_LISTED
        assert listed[home.WREN].parent == home.PARENT and listed[home.WREN].turns
        assert listed[home.WREN].path == paths[home.WREN]
        assert listed[home.PARENT].reaches == (home.QUILL,)
    assert _ids(discover_sessions([tmp_path], details=False)) == CODEX_LISTED


def test_a_gemini_chat_tied_to_no_call_is_no_child_and_is_listed(tmp_path: Path) -> None:
    paths = home.write_gemini(tmp_path)
    session = read_session(find_sessions([paths["session"]]).refs[0])
    assert {c.session_id for c in session.children} == {gemini.INVESTIGATOR, gemini.GENERALIST}
    want = {paths["session"], paths["untied"]}
    assert {r.path for r in find_sessions([tmp_path]).refs} == want
    assert {r.path for r in discover_sessions([tmp_path], use_cache=False)} == want
    discover_sessions([tmp_path])
    assert {r.path for r in discover_sessions([tmp_path], details=False)} == want
    listed = {r.path: r for r in discover_sessions([tmp_path])}
    assert listed[paths["untied"]].parent == gemini.SESSION
    assert listed[paths["untied"]].tokens == 900  # its own, not in the session's
    assert listed[paths["session"]].tokens == (
        gemini.OWN_TOKENS + gemini.INVESTIGATOR_TOKENS + gemini.GENERALIST_TOKENS
    )


def test_the_quick_listing_lists_a_sub_agent_until_its_parents_version_is_counted(
    tmp_path: Path,
) -> None:
    paths = home.write_codex(tmp_path)
    quick = _ids(discover_sessions([tmp_path], details=False))
    assert quick == CODEX_LISTED | {home.QUILL}  # no parent counted: nothing is left out
    assert _ids(discover_sessions([tmp_path])) == CODEX_LISTED  # counted (and kept)
    assert _ids(discover_sessions([tmp_path], details=False)) == CODEX_LISTED
    with paths[home.PARENT].open("a", encoding="utf-8") as handle:  # the session goes on
        handle.write(json.dumps({"timestamp": "2026-12-01T14:05:00.000Z", "type": "event_msg",
                                 "payload": {"type": "task_started"}}) + "\n")  # fmt: skip
    assert _ids(discover_sessions([tmp_path], details=False)) == CODEX_LISTED | {home.QUILL}
    assert _ids(discover_sessions([tmp_path], details=False, use_cache=False)) == (
        CODEX_LISTED | {home.QUILL}
    )
    assert _ids(discover_sessions([tmp_path])) == CODEX_LISTED
    assert _ids(discover_sessions([tmp_path], details=False)) == CODEX_LISTED


def _ref(ident: str, parent: str | None = None, reaches: tuple[str, ...] = ()) -> SessionRef:
    return SessionRef("codex", Path(f"/s/{ident}.jsonl"), session_id=ident, parent=parent,
                      reaches=reaches)  # fmt: skip


def test_a_sub_agent_is_left_only_to_a_listed_parent_within_the_depth_read() -> None:
    chain = [_ref("a", reaches=("b",))]
    for parent, child in zip("bcde", "cdef", strict=False):
        chain.append(_ref(parent, chain[-1].session_id, (child,)))
    shown = listed_alone(chain)
    assert [r.session_id for r in shown] == ["a", "e"]  # b, c, d: depths 1 to 3
    assert DEPTH == 3  # what a parent's read follows (`spend.subagents`)
    loop = [_ref("x", "y", ("y",)), _ref("y", "x", ("x",))]  # none outside starts it
    assert listed_alone(loop) == loop
    unknown = SessionRef("codex", Path("/s/p.jsonl"), session_id="p")  # never read
    child = _ref("q", "p")
    assert listed_alone([unknown, child]) == [unknown, child]  # not read: reaches nothing
    assert listed_alone([unknown, child], lambda ref: ("q",)) == [unknown]
    assert listed_alone([_ref("p"), child]) == [_ref("p"), child]  # read: names no q
    assert listed_alone([_ref("p"), child], by_name) == [_ref("p")]  # to choose one to follow
    itself = _ref("s", "s", ("s",))
    assert listed_alone([itself]) == [itself]
