"""Search finds what only a sub-agent wrote or saw, and says it was in a sub-agent of which
session: Claude Code's sub-agent files (`<session>/subagents/agent-<id>.jsonl`), Claude
Code 1.0.x's sidechains written into the session's own file, opencode's child sessions,
Codex's spawned threads and Gemini CLI's agents (rollouts and chats of their own).
Their text is kept under the session that ran them; a sub-agent file that grows while its
parent's does not is read again; and each is read once a listing pass (its spend and its
text from one read)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog import discovery
from pivotal.catalog.index import file_stamp
from pivotal.catalog.search_index import open_search_index
from pivotal.catalog.search_query import Hit, parse_query, search
from pivotal.catalog.search_text import AGENT, OUTPUT
from pivotal.readers import find_sessions, read_session
from readers import claude_sidechain_home as sidechains
from readers import claude_subagent_home as explore
from readers import codex_subagent_home as codex
from readers import gemini_subagent_home as gemini
from readers import unreached_subagent_home as unreached
from readers.opencode_builders import (
    T0,
    add_session,
    assistant_info,
    create_db,
    put_message,
    put_part,
    text_part,
    user_info,
)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(folder))
    return folder


def refresh(home: Path) -> None:
    progress = discovery.Progress()
    discovery.refresh_index(discovery.located([home]), progress=progress, warn=print)
    assert progress.searchable, progress.problem


def find(text: str) -> list[Hit]:
    index = open_search_index()
    try:
        return search(index, parse_query(text))
    finally:
        index.close()


def test_a_phrase_only_a_subagent_saw_is_its_hit_in_the_session_that_ran_it(
    tmp_path: Path, cache: Path
) -> None:
    path = explore.write_home(tmp_path / "home")
    refresh(tmp_path / "home")
    [hit] = find("raise EmptyTableError")
    assert hit.session.path == str(path) and hit.session.key is None
    assert hit.turn == explore.TASK_TURN  # the Task call that ran it
    assert hit.who == OUTPUT and "EmptyTableError(name)" in hit.body
    assert hit.subagent is not None and len(hit.subagent.chain) == 1
    assert hit.subagent.turn == explore.FOUND_TURN
    sub = hit.subagent.row
    assert sub.title == explore.DESCRIPTION and sub.session_id == explore.AGENT
    assert sub.where == (str(explore.agent_file(path)), None)
    # the report the Task returned is the session's own text: a hit of its own, no sub-agent
    [own] = find("rejects empty tables in the grammar")
    assert own.subagent is None and own.turn == explore.TASK_TURN and own.who == OUTPUT


def test_a_phrase_only_in_a_sidechain_is_its_subagents_hit(tmp_path: Path, cache: Path) -> None:
    """1.0.x wrote the sub-agents into the session's file: their records are no turn of
    the session (nothing of them was searchable); each is a sub-agent, found as one."""
    path = sidechains.home(tmp_path / "home")
    refresh(tmp_path / "home")
    [hit] = find("File has not been read yet")  # the types sub-agent's failed edit
    assert hit.session.path == str(path) and hit.turn == 1  # its Task, beside the writer's
    assert hit.subagent is not None and hit.subagent.row.title == sidechains.DESCRIPTIONS["types"]
    assert hit.subagent.turn == 2 and hit.who == OUTPUT
    where, key = hit.subagent.row.where
    assert where == str(path) and key is not None and key.startswith("sidechain:")
    [said] = find("I'll write the writer")
    assert said.who == AGENT and said.subagent is not None
    assert said.subagent.row.title == sidechains.DESCRIPTIONS["writer"] and said.turn == 1
    [docs] = find("mkdocs build")  # the docs sub-agent, interrupted mid-way
    assert docs.subagent is not None and docs.turn == 6


def test_a_subagent_file_that_grows_alone_is_read_again(tmp_path: Path, cache: Path) -> None:
    home = tmp_path / "home"
    path = explore.write_home(home)
    refresh(home)
    assert find("LegacyTableShim") == []
    before = file_stamp(path)
    explore.grow(path)  # the sub-agent still runs: its parent's file does not change
    assert file_stamp(path) == before
    refresh(home)
    [hit] = find("LegacyTableShim")
    assert hit.subagent is not None and hit.subagent.row.title == explore.DESCRIPTION
    assert hit.turn == explore.TASK_TURN and hit.subagent.turn == 3
    assert len(find("raise EmptyTableError")) == 1  # what it had is there once


def test_the_sessions_path_and_agent_keep_its_subagents_hits(tmp_path: Path, cache: Path) -> None:
    home = tmp_path / "home"
    path = explore.write_home(home)
    other = sidechains.home(home)  # another session: naming one narrows the search to it
    for where in (["--root", str(home), "--agent", "claude"], [str(path)]):
        result = invoke("search", "EmptyTableError", *where, "--json")
        assert result.exit_code == 0, result.output
        [row] = [json.loads(line) for line in result.stdout.splitlines()]
        assert row["path"] == str(path) and row["turn"] == explore.TASK_TURN + 1
        assert row["subagent"] == {
            "path": str(explore.agent_file(path)),
            "key": None,
            "session_id": explore.AGENT,
            "title": explore.DESCRIPTION,
            "turn": explore.FOUND_TURN + 1,
            "depth": 1,
        }
    elsewhere = invoke("search", "EmptyTableError", str(other))
    assert elsewhere.exit_code == 0 and elsewhere.stdout == ""


def test_without_the_index_a_subagents_hit_is_found_alike(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pivotal.catalog import search_index

    home = tmp_path / "home"
    path = explore.write_home(home)
    other = sidechains.home(home)
    queries = ("EmptyTableError", "File has not been read yet", "CsvWriter")
    places = (["--root", str(home)], [str(path)], [str(other)])

    def rows(query: str, where: list[str]) -> list[tuple[object, ...]]:
        result = invoke("search", query, *where, "--json")
        assert result.exit_code == 0, result.output
        found = [json.loads(line) for line in result.stdout.splitlines()]
        return [(r["path"], r["turn"], r["who"], r["subagent"]) for r in found]

    indexed = {
        (query, n): rows(query, where) for query in queries for n, where in enumerate(places)
    }
    monkeypatch.setattr(search_index, "MIN_SQLITE", (99, 0, 0))
    read = {(query, n): rows(query, where) for query in queries for n, where in enumerate(places)}
    assert read == indexed
    assert indexed[("EmptyTableError", 1)] == indexed[("EmptyTableError", 0)] != []
    assert indexed[("EmptyTableError", 2)] == []
    indexed = {query: indexed[(query, 0)] for query in queries}
    assert all(r[3] is not None for r in indexed["EmptyTableError"])
    assert any(r[3] is None for r in indexed["CsvWriter"])  # the Task's report: the session's
    assert any(r[3] is not None for r in indexed["CsvWriter"])  # the writer's own words


def _opencode_home(root: Path) -> Path:
    """An opencode database whose `task` call ran a child session (its `parent_id`)."""
    folder = root / ".local" / "share" / "opencode"
    folder.mkdir(parents=True)
    db = folder / "opencode.db"
    conn = create_db(db)
    add_session(conn, "ses_parent", title="Billing", created=T0)
    put_message(conn, "msg_p1", "ses_parent", user_info(T0), T0)
    put_part(conn, "prt_p1", "msg_p1", "ses_parent", text_part("find the invoice writers"), T0)
    info = assistant_info(T0 + 10, "msg_p1", completed=T0 + 90)
    put_message(conn, "msg_p2", "ses_parent", info, T0 + 90)
    prompt = "List the modules that write invoices."
    task = {
        "type": "tool",
        "tool": "task",
        "callID": "call_task1",
        "state": {
            "status": "completed",
            "input": {"description": "Find writers", "prompt": prompt, "subagent_type": "general"},
            "output": "billing/invoice.py writes invoices.",
            "title": "Find writers",
            "metadata": {"summary": []},
            "time": {"start": T0 + 20, "end": T0 + 80},
        },
    }
    put_part(conn, "prt_p2", "msg_p2", "ses_parent", task, T0 + 80)
    add_session(conn, "ses_child", title="Find writers (@general subagent)", parent="ses_parent",
                created=T0 + 21)  # fmt: skip
    put_message(conn, "msg_c1", "ses_child", user_info(T0 + 21), T0 + 21)
    put_part(conn, "prt_c1", "msg_c1", "ses_child", text_part(prompt), T0 + 21)
    child = assistant_info(T0 + 30, "msg_c1", completed=T0 + 70)
    put_message(conn, "msg_c2", "ses_child", child, T0 + 70)
    words = "grep found write_invoice in billing/legacy_export.py too, unused"
    put_part(conn, "prt_c2", "msg_c2", "ses_child", text_part(words), T0 + 70)
    conn.close()
    return db


def test_an_opencode_child_sessions_hit_names_its_parent_once(tmp_path: Path, cache: Path) -> None:
    """opencode lists a child session as a session: its text was found, as a session of its
    own; now it says which session ran it, and is not found twice."""
    db = _opencode_home(tmp_path / "home")
    refresh(tmp_path / "home")
    [hit] = find("legacy_export.py")
    assert (hit.session.path, hit.session.key) == (str(db), "ses_parent")
    assert hit.turn == 1 and hit.who == AGENT  # the parent's turn with the task call
    assert hit.subagent is not None and hit.subagent.row.key == "ses_child"
    assert hit.subagent.row.title == "Find writers (@general subagent)"
    assert hit.subagent.turn == 1


def test_a_listing_pass_reads_each_subagent_once(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its text comes from the read that measures its spend: no second read for search."""
    import pivotal.readers

    home = tmp_path / "home"
    path = explore.write_home(home)
    reads: list[str] = []
    real = pivotal.readers.read_session

    def counted(ref, *args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(os.fspath(ref.path))
        return real(ref, *args, **kwargs)

    monkeypatch.setattr(pivotal.readers, "read_session", counted)
    monkeypatch.setattr(discovery, "read_session", counted)
    refs = discovery.discover_sessions([home])
    assert refs[0].tokens is not None  # its spend was counted, the sub-agent's included
    assert reads.count(str(explore.agent_file(path))) == 1
    assert reads.count(str(path)) == 1
    assert len(find("EmptyTableError")) == 1  # and its text indexed


# -- sub-agents with files of their own: Codex's spawned threads, Gemini CLI's agents ------


def test_a_phrase_only_a_codex_sub_agent_saw_is_its_hit_in_the_session_that_spawned_it(
    tmp_path: Path, cache: Path
) -> None:
    """Its rollout is no session of its own while the session that spawned it is listed:
    found once, as a hit of that session at the spawn call, in which sub-agent it is."""
    home = tmp_path / "home"
    paths = codex.write_home(home)
    refresh(home)
    session = read_session(find_sessions([paths[codex.PARENT]]).refs[0])
    spawns = {c.call_id: i for i, t in enumerate(session.turns) for c in t.tool_calls}
    [hit] = find('"raise EmptyTableError"')
    assert hit.session.path == str(paths[codex.PARENT]) and hit.who == OUTPUT
    assert hit.turn == spawns[codex.ADA_CALL]
    assert hit.subagent is not None and len(hit.subagent.chain) == 1
    assert hit.subagent.row.title == codex.ADA_TITLE
    assert hit.subagent.row.where == (str(paths[codex.ADA]), None)
    [deep] = find("empty tables are rejected at parse time")  # Cedar, spawned by Ada
    assert deep.session.path == str(paths[codex.PARENT]) and deep.subagent is not None
    assert [row.title for row in deep.subagent.chain] == [codex.ADA_TITLE, codex.CEDAR_TITLE]
    [brook] = find("test_empty_table_roundtrip - EmptyTableError")  # a day folder later
    assert brook.subagent is not None and brook.subagent.row.title == codex.BROOK_TITLE
    assert brook.turn == spawns[codex.BROOK_CALL]


def test_a_codex_sub_agents_hit_is_found_alike_without_the_index(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pivotal.catalog import search_index

    home = tmp_path / "home"
    codex.write_home(home)
    codex.write_orphan(home)

    def rows(query: str) -> list[tuple[object, ...]]:
        result = invoke("search", query, "--root", str(home), "--json")
        assert result.exit_code == 0, result.output
        assert result.stderr == "" or "search index off" in result.stderr
        found = [json.loads(line) for line in result.stdout.splitlines()]
        return [(r["path"], r["turn"], r["who"], r["subagent"]) for r in found]

    queries = ("EmptyTableError", "parse time", "ruff format src/grammar")
    indexed = {query: rows(query) for query in queries}
    monkeypatch.setattr(search_index, "MIN_SQLITE", (99, 0, 0))
    assert {query: rows(query) for query in queries} == indexed
    assert all(r[3] is not None for r in indexed["parse time"])
    assert indexed["parse time"][0][3]["depth"] == 2
    [orphan] = indexed["ruff format src/grammar"]  # its session's rollout is gone: its own
    assert orphan[3] is None and orphan[0].endswith(f"{codex.ORPHAN}.jsonl")


def test_a_codex_sub_agent_whose_parent_goes_is_searched_as_its_own_session(
    tmp_path: Path, cache: Path
) -> None:
    home = tmp_path / "home"
    paths = codex.write_home(home)
    refresh(home)
    assert len(find("sed -n 1,40p CHANGELOG.md")) == 1  # Cedar's, under the parent
    kept = paths[codex.PARENT].read_bytes()
    paths[codex.PARENT].unlink()
    refresh(home)
    [ada] = find('"raise EmptyTableError"')  # Ada is a session of its own now
    assert ada.session.path == str(paths[codex.ADA]) and ada.subagent is None
    [cedar] = find("sed -n 1,40p CHANGELOG.md")  # and Cedar is Ada's sub-agent
    assert cedar.session.path == str(paths[codex.ADA]) and cedar.subagent is not None
    paths[codex.PARENT].write_bytes(kept)  # put back: the parent takes them back
    refresh(home)
    refresh(home)
    [again] = find('"raise EmptyTableError"')
    assert again.session.path == str(paths[codex.PARENT]) and again.subagent is not None


def test_a_phrase_only_a_gemini_agent_saw_is_its_hit_in_the_session(
    tmp_path: Path, cache: Path
) -> None:
    home = tmp_path / "home"
    path = gemini.write_home(home)
    refresh(home)
    [hit] = find('"raise EmptyTableError"')
    assert hit.session.path == str(path) and hit.turn == 1  # the investigator's call
    assert hit.subagent is not None and hit.subagent.row.title == "codebase_investigator"
    assert hit.subagent.row.where == (str(gemini.agent_file(home, gemini.INVESTIGATOR)), None)
    [later] = find("def test_empty_table_roundtrip(tmp_path)")
    assert later.turn == 4 and later.subagent is not None
    assert later.subagent.row.title == "generalist"


# -- a sub-agent its parent never names: a session of its own in search as in listings -----


def test_a_codex_thread_its_parent_never_names_is_searched_as_its_own_session(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `spawn_agents_on_csv` worker and a v2 spawn whose thread the rollout never learnt:
    their text is their own sessions' (found once, alike without the index); the thread
    its spawn names is the parent's sub-agent."""
    from pivotal.catalog import search_index

    home = tmp_path / "home"
    paths = unreached.write_codex(home)
    refresh(home)
    [wren] = find('"no auth decorator"')
    assert wren.session.path == str(paths[unreached.WREN]) and wren.subagent is None
    [sable] = find('"every route under /admin"')
    assert sable.session.path == str(paths[unreached.SABLE]) and sable.subagent is None
    [quill] = find("app.route('/healthz')")
    assert quill.session.path == str(paths[unreached.PARENT]) and quill.subagent is not None

    def rows(query: str) -> list[tuple[object, ...]]:
        result = invoke("search", query, "--root", str(home), "--json")
        assert result.exit_code == 0, result.output
        found = [json.loads(line) for line in result.stdout.splitlines()]
        return [(r["path"], r["turn"], r["who"], r["subagent"]) for r in found]

    queries = ("no auth decorator", "every route under /admin", "healthz")
    indexed = {query: rows(query) for query in queries}
    monkeypatch.setattr(search_index, "MIN_SQLITE", (99, 0, 0))
    assert {query: rows(query) for query in queries} == indexed
    assert [r[0] for r in indexed["no auth decorator"]] == [str(paths[unreached.WREN])]
    assert indexed["healthz"] and all(r[3] is not None for r in indexed["healthz"])


def test_a_gemini_chat_tied_to_no_call_is_searched_as_its_own_session(
    tmp_path: Path, cache: Path
) -> None:
    home = tmp_path / "home"
    paths = unreached.write_gemini(home)
    refresh(home)
    [hit] = find('"EMPTY_CELL = re.compile"')
    assert hit.session.path == str(paths["untied"]) and hit.subagent is None
    [tied] = find('"raise EmptyTableError"')
    assert tied.session.path == str(paths["session"]) and tied.subagent is not None


def test_a_thread_its_parent_comes_to_name_moves_under_it_and_back(
    tmp_path: Path, cache: Path
) -> None:
    """The parent's rollout goes on and a notification names the CSV worker: its text is
    the parent's sub-agent's from the next pass on (never both); the rollout put back as
    it was names it no more: its own session's again, in that same pass."""
    home = tmp_path / "home"
    paths = unreached.write_codex(home)
    parent = paths[unreached.PARENT]
    before = parent.read_bytes()
    refresh(home)
    [own] = find('"no auth decorator"')
    assert own.session.path == str(paths[unreached.WREN])
    body = json.dumps({"agent_id": unreached.WREN, "status": {"completed": "auth: no"}})
    note = f"<subagent_notification>\n{body}\n</subagent_notification>"
    record = {"timestamp": "2026-12-01T14:06:00.000Z", "type": "response_item",
              "payload": {"type": "message", "role": "user",
                          "content": [{"type": "input_text", "text": note}]}}  # fmt: skip
    with parent.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    for _ in range(2):  # the pass that reads the parent, and the one that reads Wren again
        refresh(home)
        [under] = find('"no auth decorator"')
        assert under.session.path == str(parent) and under.subagent is not None
    parent.write_bytes(before)
    refresh(home)
    [again] = find('"no auth decorator"')
    assert again.session.path == str(paths[unreached.WREN]) and again.subagent is None
    refresh(home)
    assert len(find('"no auth decorator"')) == 1
