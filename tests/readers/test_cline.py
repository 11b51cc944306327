"""Cline CLI 3.0.65: real session folders, and a compacted one made from them by hand."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cli_helpers import invoke
from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from pivotal.readers.cline import SPEC, ClineReader

from .realhome import REAL, copied_home, exported, flagged, listed, person_texts, scanned, tools

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SESSIONS = ".cline/data/sessions"
SHORT = REAL / "cline-short" / SESSIONS / "1796114117345_dsoke"
BIG = REAL / "cline-bigoutput" / SESSIONS / "1796114235625_3qmbs"
COMPACTED = FIXTURES / "cline" / "compacted" / SESSIONS / "1796200000000_cmpct"


def read(folder: Path):
    return read_session(SPEC.refs(folder)[0])


def test_the_folder_and_both_of_its_files_are_the_one_session() -> None:
    for path in (
        SHORT,
        SHORT / "1796114117345_dsoke.messages.json",
        SHORT / "1796114117345_dsoke.json",
    ):
        assert sniff_path(path).name == "cline"
        [ref] = find_sessions([path]).refs
        assert ref.path == SHORT and ref.session_id == "1796114117345_dsoke"
    assert len(find_sessions([REAL / "cline-short"]).refs) == 1  # db/sessions.db is not another


def test_short_typed_text_unwrapped_and_command_lists() -> None:
    session = read(SHORT)
    assert not session.skipped
    assert (session.id, session.cwd, session.model) == (
        "1796114117345_dsoke",
        "/home/dev/work/cline-short",
        "mock-model",
    )
    # stored as <user_input mode="act">…</user_input>; the person typed what is inside
    assert [t.text for t in session.human_turns()] == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.exit_code, c.failed) for c in calls] == [
        ("run_commands", None, False),
        ("run_commands", 1, True),
        ("run_commands", 3, True),
        ("editor", None, False),
        ("read_files", None, True),
        ("editor", None, False),
        ("read_files", None, False),
        ("run_commands", None, True),  # ["echo one", "false"]: one failed, no single exit code
        ("nosuchtool", None, True),
    ]
    assert calls[7].output == "$ echo one\none\n\n$ false\n[Command exited with code 1]"
    assert calls[3].output.startswith("File created successfully")
    assert calls[8].output.startswith("Tool call nosuchtool was rejected before execution")
    first = session.turns[1]
    assert [p.kind.value for p in first.parts] == ["reasoning", "text", "tool"]
    assert (first.usage.input, first.usage.output) == (1000, 50)
    assert first.timestamp == 1796114117.729


def test_bigoutput_truncated_tool_result_is_one_call() -> None:
    session = read(BIG)
    assert [t.text for t in session.human_turns()] == [
        "Look around, create seed.txt, then continue with big outputs"
    ]
    seq = session.turns[2].tool_calls[0]
    assert seq.input == {"commands": ["seq 1 60000"]} and not seq.failed
    # Cline kept the head and tail of 348,894 characters, and says so in the text
    assert seq.output.startswith("1\n2\n3\n") and seq.output.endswith("59999\n60000\n")
    assert "[... output truncated: 348894 chars total." in seq.output


def test_compaction_file_places_boundary_and_summary_after_the_replaced_messages() -> None:
    session = read(COMPACTED)
    boundary = next(t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY)
    summary = session.turns[boundary.index + 1]
    assert (
        boundary.role is Role.SYSTEM and boundary.text == "Context compacted (1,285 tokens before)"
    )
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
    assert summary.text.startswith("Context summary:\n\nThe session listed files")
    before = session.turns[boundary.index - 1]
    assert before.text.startswith("Summary: listed files")  # the 19th message, the last replaced
    assert [t.text for t in session.human_turns()] == [
        "Inspect this directory, try a few commands, and write notes.txt",
        "ok",
        ".",
    ]
    # the kept tail in the compaction file is not shown twice
    assert sum(t.text == "Let me look around." for t in session.turns) == 1


def test_rewrites_are_re_read_and_half_written_files_keep_what_was_read(tmp_path: Path) -> None:
    folder = tmp_path / COMPACTED.name
    shutil.copytree(SHORT, folder)
    for old in folder.iterdir():
        old.rename(folder / old.name.replace("1796114117345_dsoke", folder.name))
    reader = ClineReader(SPEC.refs(folder)[0])
    reader.poll()
    assert len(reader.session.turns) == 10
    messages = folder / f"{folder.name}.messages.json"
    data = messages.read_bytes()
    messages.write_bytes(data[:-200])  # Cline is rewriting it
    reader.poll()
    assert len(reader.session.turns) == 10 and not reader.session.skipped
    shutil.copy(COMPACTED / f"{COMPACTED.name}.messages.json", messages)
    shutil.copy(COMPACTED / f"{COMPACTED.name}.compaction.json", folder)
    update = reader.poll(final=True)
    assert update.first_changed == 10
    assert len(reader.session.turns) == 16 and not reader.session.skipped


def test_a_broken_messages_file_is_reported_on_a_final_read(tmp_path: Path) -> None:
    folder = tmp_path / SHORT.name
    shutil.copytree(SHORT, folder)
    (folder / f"{SHORT.name}.messages.json").write_text('{"version": 1, "messages": [')
    session = read_session(SessionRef(format="cline", path=folder))
    assert session.turns == [] and "malformed JSON" in session.skipped[0].reason
    assert session.cwd == "/home/dev/work/cline-short"  # the manifest still told us this


# -- acceptance: the commands a person runs, HOME at a copy of the real home ---------


def test_sessions_scan_and_export_with_home_at_the_real_cline_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "cline-short")
    [listing] = listed(monkeypatch, home)
    assert listing["agent"] == "cline"
    assert listing["session_id"] == "1796114117345_dsoke"
    assert (listing["turns"], listing["human_turns"]) == (10, 1)
    folder = home / SESSIONS / SHORT.name
    [scan] = scanned(folder)
    assert (scan["format"], scan["turns"], scan["skipped"]) == ("cline", 10, [])
    doc = exported(folder)
    assert person_texts(doc) == ["Inspect this directory, try a few commands, and write notes.txt"]
    calls = tools(doc)
    assert all(c["output"] for c in calls)
    assert [c["failed"] for c in calls] == [
        False,
        True,
        True,
        False,
        True,
        False,
        False,
        True,
        True,
    ]
    assert doc["resume"]["argv"] == ["cline", "--id", "1796114117345_dsoke"]
    assert doc["resume"]["cwd"] == "/home/dev/work/cline-short"

    compacted = FIXTURES / "cline" / "compacted"
    doc = exported(compacted / SESSIONS / COMPACTED.name)
    assert len(flagged(doc, "compaction_boundary")) == 1
    assert person_texts(doc) == [
        "Inspect this directory, try a few commands, and write notes.txt",
        "ok",
        ".",
    ]


def test_cline_sessions_follow_its_data_dir_variables(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "cline-bigoutput")
    moved = tmp_path / "cline-data"
    os.rename(home / ".cline" / "data", moved)
    assert listed(monkeypatch, home) == []
    monkeypatch.setenv("CLINE_DATA_DIR", str(moved))
    assert '"agent":"cline"' in invoke("sessions", "--json").stdout
    monkeypatch.setenv("CLINE_SESSION_DATA_DIR", str(tmp_path / "none"))
    assert invoke("sessions", "--json").stdout == ""
    monkeypatch.delenv("CLINE_SESSION_DATA_DIR")
    monkeypatch.delenv("CLINE_DATA_DIR")
    (tmp_path / "root").mkdir()
    os.rename(moved, tmp_path / "root" / "data")
    monkeypatch.setenv("CLINE_DIR", str(tmp_path / "root"))
    lines = [json.loads(x) for x in invoke("sessions", "--json").stdout.splitlines()]
    assert [x["session_id"] for x in lines] == ["1796114235625_3qmbs"]
