"""Kimi CLI 1.51.0: real session folders, a rotated one without its wire log, live rotation."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cli_helpers import invoke
from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from pivotal.readers.kimi import SPEC, KimiReader

from .realhome import REAL, copied_home, exported, flagged, listed, person_texts, scanned, tools

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHORT = next((REAL / "kimi-short").glob(".kimi/sessions/*/*"))
AUTOCOMPACT = next((REAL / "kimi-autocompact").glob(".kimi/sessions/*/*"))
ROTATED = next((FIXTURES / "kimi" / "rotated").glob(".kimi/sessions/*/*"))
HUMAN_AUTOCOMPACT = ["Look around and create seed.txt", "continue with big outputs", "ok"]


def read(folder: Path):
    return read_session(SPEC.refs(folder)[0])


def test_the_folder_and_its_files_are_one_session() -> None:
    for path in (SHORT, SHORT / "wire.jsonl", SHORT / "context.jsonl"):
        assert sniff_path(path).name == "kimi"
        [ref] = find_sessions([path]).refs
        assert ref.path == SHORT and ref.cwd == "/home/dev/work/kimi-short"
    assert (
        sniff_path(SHORT / "state.json") is None or sniff_path(SHORT / "state.json").name != "kimi"
    )


def test_short_from_the_wire_log() -> None:
    session = read(SHORT)
    assert not session.skipped
    assert (session.id, session.cwd, session.model) == (
        "7d5c057b-0c5b-4d91-b0ef-74705a6a722d",
        "/home/dev/work/kimi-short",
        None,  # no file of the session names the model
    )
    assert session.title == "Inspect this directory, try a few commands, and…"
    assert session.started == 1796114007.1392486
    assert [t.text for t in session.human_turns()] == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.exit_code, c.failed) for c in calls] == [
        ("SetTodoList", None, False),
        ("Shell", None, False),  # "Command executed successfully.": no exit code stated
        ("Shell", 1, True),
        ("Shell", 3, True),
        ("WriteFile", None, False),
        ("ReadFile", None, True),
        ("StrReplaceFile", None, False),
        ("ReadFile", None, False),
        ("nosuchtool", None, True),
        ("SetTodoList", None, False),
    ]
    assert calls[5].output == "`/home/dev/work/kimi-short/does-not-exist.md` does not exist."
    assert calls[3].input == {
        "command": "python3 -c 'import sys; print(\"about to fail\"); sys.exit(3)'"
    }
    first = session.turns[1]
    assert [p.kind.value for p in first.parts] == ["reasoning", "text", "tool"]
    assert (first.usage.input, first.usage.output) == (1000, 50)
    assert first.message_id == "chatcmpl-mockcc325ad1f41f414ab2469135"


def test_autocompact_compactions_get_the_summaries_of_the_rotated_contexts() -> None:
    session = read(AUTOCOMPACT)
    assert [t.text for t in session.human_turns()] == HUMAN_AUTOCOMPACT
    boundaries = [t.index for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert [session.turns[i].source.line for i in boundaries] == [23, 29]
    for index in boundaries:
        summary = session.turns[index + 1]
        assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
        assert summary.text.startswith("MOCK COMPACTION SUMMARY (side)")
    # the compaction happened between the two steps of one model turn
    assert [c.key_argument() for c in session.turns[boundaries[0] - 1].tool_calls] == ["seq 1 5"]
    assert [c.key_argument() for c in session.turns[boundaries[0] + 2].tool_calls] == [
        "echo after-big-turn"
    ]


def test_without_a_wire_log_the_rotated_contexts_are_read_in_order() -> None:
    session = read(ROTATED)
    assert session.cwd == "/home/dev/work/kimi-rotated"
    assert [t.text for t in session.human_turns()] == HUMAN_AUTOCOMPACT
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert [b.source.record_id for b in boundaries] == ["context_2.jsonl", "context.jsonl"]
    # the messages each rotation kept are not shown twice
    assert (
        sum(t.text == "Running a command that makes the context big." for t in session.turns) == 1
    )
    cat = [c for t in session.turns for c in t.tool_calls][1]
    assert (cat.exit_code, cat.failed) == (1, True)
    same = read(AUTOCOMPACT)
    assert [(t.role, int(t.flags), t.text) for t in session.turns] == [
        (t.role, int(t.flags), t.text) for t in same.turns
    ]


def test_following_a_compaction_that_rotates_the_context(tmp_path: Path) -> None:
    """The wire log says a compaction began before the new context file holds its summary."""
    folder = tmp_path / ".kimi" / "sessions" / AUTOCOMPACT.parent.name / AUTOCOMPACT.name
    folder.mkdir(parents=True)
    wire = (AUTOCOMPACT / "wire.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "wire.jsonl").write_bytes(b"".join(wire[:22]))
    shutil.copy(AUTOCOMPACT / "context_1.jsonl", folder / "context.jsonl")
    reader = KimiReader(SessionRef(format="kimi", path=folder))
    reader.poll()
    assert len(reader.session.turns) == 6
    with open(folder / "wire.jsonl", "ab") as handle:
        handle.write(b"".join(wire[22:24]))  # StepBegin, CompactionBegin: not rotated yet
    update = reader.poll()
    assert update.first_changed == 6
    assert reader.session.turns[-1].flags & TurnFlag.COMPACTION_BOUNDARY
    os.rename(folder / "context.jsonl", folder / "context_1.jsonl")  # Kimi rotates
    shutil.copy(AUTOCOMPACT / "context_2.jsonl", folder / "context.jsonl")
    with open(folder / "wire.jsonl", "ab") as handle:
        handle.write(b"".join(wire[24:27]))
    update = reader.poll()
    turns = reader.session.turns
    assert update.first_changed == 7
    assert turns[7].flags & TurnFlag.COMPACTION_SUMMARY and turns[8].role is Role.ASSISTANT
    assert turns[8].tool_calls[0].output == "after-big-turn\n"  # its result still found its call
    assert [t.index for t in turns] == list(range(len(turns)))


def test_half_written_last_line_and_odd_records(tmp_path: Path) -> None:
    folder = tmp_path / SHORT.name
    shutil.copytree(SHORT, folder)
    lines = (folder / "wire.jsonl").read_bytes().splitlines(keepends=True)
    extra = [
        b'{"timestamp": 1796114010.0, "message": {"type": "TurnBegin", "payload": '
        b'{"user_input": [{"type": "text", "text": " "}, '
        b'{"type": "image_url", "image_url": {}}]}}}\n',
        b'{"timestamp": 1796114010.5, "message": {"type": "StepBegin", "payload": {"n": 1}}}\n',
        b'{"timestamp": 1796114010.6, "message": {"type": "ContentPart", "payload": '
        b'{"type": "text", "text": "Stopp"}}}\n',
        b'{"timestamp": 1796114010.7, "message": {"type": "StepInterrupted", "payload": {}}}\n',
        b'{"timestamp": 1796114011.0, "message": {"type": "TurnBegin", "payload": '
        b'{"user_input": "/compact"}}}\n',
        b'{"timestamp": 1796114011.0, "message": "not an object"}\n',
        b'{"timestamp": 1796114012.0, "message": {"type": "TurnBegin", "payload": {"user_',
    ]
    (folder / "wire.jsonl").write_bytes(b"".join(lines + extra))
    session = read_session(SessionRef(format="kimi", path=folder))
    blank, stopped, command = session.turns[-3:]
    assert blank.is_human and blank.text == " " and blank.parts[1].text == "[image_url]"
    assert stopped.flags & TurnFlag.INTERRUPTED and stopped.text == "Stopp"
    assert command.text == "/compact" and command.is_synthetic and not command.is_human
    last = len(lines) + len(extra)
    assert [(s.line, s.reason) for s in session.skipped] == [
        (last - 1, "wire record without a message type"),
        (last, "incomplete last line (still being written?)"),
    ]


# -- acceptance: the commands a person runs, HOME at a copy of the real home ---------


def test_sessions_scan_and_export_with_home_at_the_real_kimi_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "kimi-autocompact")
    [listing] = listed(monkeypatch, home)
    assert listing["agent"] == "kimi"
    assert listing["session_id"] == "5db09190-5bb5-4056-902d-a6b400c06735"
    assert listing["cwd"] == "/home/dev/work/kimi-autocompact"
    assert (listing["turns"], listing["human_turns"]) == (14, 3)
    folder = next(home.glob(".kimi/sessions/*/*"))
    [scan] = scanned(folder)
    assert (scan["format"], scan["turns"], scan["skipped"]) == ("kimi", 14, [])
    doc = exported(folder)
    assert person_texts(doc) == HUMAN_AUTOCOMPACT
    calls = tools(doc)
    assert all(c["output"] for c in calls)
    assert [(c["exit_code"], c["failed"]) for c in calls] == [
        (None, False),
        (1, True),
        (None, False),
        (None, False),
    ]
    assert len(flagged(doc, "compaction_boundary")) == 2
    assert len(flagged(doc, "compaction_summary")) == 2
    assert doc["resume"]["argv"] == ["kimi", "--session", "5db09190-5bb5-4056-902d-a6b400c06735"]
    assert doc["resume"]["cwd"] == "/home/dev/work/kimi-autocompact"


def test_kimi_sessions_follow_kimi_share_dir(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "kimi-short")
    moved = tmp_path / "share"
    os.rename(home / ".kimi", moved)
    assert listed(monkeypatch, home) == []
    monkeypatch.setenv("KIMI_SHARE_DIR", str(moved))
    [line] = invoke("sessions", "--json").stdout.splitlines()
    assert json.loads(line)["cwd"] == "/home/dev/work/kimi-short"


def test_ids_of_the_wrong_type_cost_only_their_record(tmp_path: Path) -> None:
    folder = tmp_path / ROTATED.name
    shutil.copytree(ROTATED, folder)
    path = folder / "context.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    records[3]["tool_calls"][0]["id"] = []  # found by the fuzz test: an unhashable id
    records[4]["tool_call_id"] = {"x": 1}
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    session = read_session(SessionRef(format="kimi", path=folder))
    assert [t.text for t in session.human_turns()] == HUMAN_AUTOCOMPACT
