"""Continue CLI 1.5.47 (`cn`): the real session documents and a hand-made ugly one."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cli_helpers import invoke
from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import read_session, sniff_path
from pivotal.readers.continue_cli import ContinueReader

from .realhome import REAL, copied_home, exported, flagged, listed, person_texts, scanned, tools

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SESSIONS = ".continue/sessions"
SHORT = REAL / "continue-short" / SESSIONS / "7a59d172-ef47-48c9-9ad5-d98b6911cebf.json"
AUTOCOMPACT = REAL / "continue-autocompact" / SESSIONS / "c695f3b1-a6e6-4cfa-8cf4-b9ac6afaa0aa.json"
UGLY = FIXTURES / "continue" / "0b6e2d4a-1111-4c8e-9f00-5a5a5a5a5a5a.json"


def read(path: Path):
    return read_session(SessionRef(format="continue", path=path))


def test_short_failures_as_far_as_the_file_tells() -> None:
    session = read(SHORT)
    assert sniff_path(SHORT).name == "continue" and not session.skipped
    assert (session.id, session.cwd, session.model) == (
        "7a59d172-ef47-48c9-9ad5-d98b6911cebf",
        "/home/dev/work/continue-short",
        "mock-model",
    )
    assert session.started == 1796115236.014  # from sessions.json: the items have no times
    assert [t.text for t in session.human_turns()] == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.status, c.exit_code, c.failed) for c in calls] == [
        ("Checklist", "completed", None, False),
        ("Bash", "completed", None, False),
        ("Bash", "error", 1, True),  # cat: stderr made it "errored" with "(exit code 1)"
        ("Bash", "completed", None, False),  # python exit 3 printed stdout: stored as done
        ("Write", "completed", None, False),
        ("Read", "error", None, True),
        ("Edit", "error", None, True),
        ("Read", "completed", None, False),
        ("nosuchtool", "error", None, True),
        ("Checklist", "completed", None, False),
    ]
    assert calls[3].output == "about to fail\n"
    assert all(c.output for c in calls)
    assert (session.turns[1].usage.input, session.turns[1].usage.output) == (1000, 50)


def test_autocompact_summary_and_the_continue_nobody_typed() -> None:
    session = read(AUTOCOMPACT)
    boundary, summary, reply, nudge, last = session.turns
    assert boundary.role is Role.SYSTEM and boundary.flags & TurnFlag.COMPACTION_BOUNDARY
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
    assert summary.text.startswith("MOCK COMPACTION SUMMARY (rule)")
    assert nudge.text == "continue" and nudge.is_synthetic and not nudge.is_human
    assert session.human_turns() == []  # the typed "ok" was never saved
    assert reply.role is last.role is Role.ASSISTANT


def test_ugly_injected_versus_typed_continue_tools_and_blank_prompt() -> None:
    session = read(UGLY)
    assert session.title == "Date parser fix" and session.model == "gpt-5-mini"
    texts = [(t.role.value, int(t.flags), t.text) for t in session.turns]
    assert texts[0][0] == "system" and texts[0][1] & TurnFlag.COMPACTION_BOUNDARY  # prompt skipped
    injected, typed = [t for t in session.turns if t.text == "continue"]
    assert injected.is_synthetic and not injected.is_human
    assert typed.is_human  # a person's "continue" later on stays theirs
    assert [p.text for p in typed.parts][1:] == ["[context: date.ts]"]
    assert [t.text for t in session.human_turns()] == ["continue", " "]
    tests_call, cleanup, read_call = [c for t in session.turns for c in t.tool_calls]
    assert (tests_call.exit_code, tests_call.failed) == (2, True)
    assert (cleanup.status, cleanup.failed, cleanup.has_result) == ("cancelled", False, True)
    assert read_call.output == "export function main() {}"  # an older `tool` message, folded
    thinking = session.turns[4]
    assert [p.kind.value for p in thinking.parts][:2] == ["reasoning", "text"]
    assert thinking.timestamp == 1796200000.0


def test_following_keeps_the_turns_a_compaction_rewrite_removed(tmp_path: Path) -> None:
    path = tmp_path / "c695f3b1-a6e6-4cfa-8cf4-b9ac6afaa0aa.json"
    shutil.copy(SHORT, path)
    reader = ContinueReader(SessionRef(format="continue", path=path))
    reader.poll()
    before = [t.text for t in reader.session.turns]
    assert len(before) == 11
    shutil.copy(AUTOCOMPACT, path)  # the file as Continue rewrote it after compacting
    os.utime(path, ns=(1, 10**18))
    update = reader.poll()
    turns = reader.session.turns
    assert update.first_changed == 11
    assert [t.text for t in turns[:11]] == before
    assert turns[11].flags & TurnFlag.COMPACTION_BOUNDARY
    assert "compacted and rewritten" in reader.session.notices[-1]
    # the same compacted file rewritten with one more item: nothing is repeated
    doc = json.loads(AUTOCOMPACT.read_text())
    doc["history"].append({"message": {"role": "user", "content": "thanks"}, "contextItems": []})
    path.write_text(json.dumps(doc))
    reader.poll(final=True)
    assert [t.text for t in reader.session.turns][11:] == [
        "Conversation compacted",
        doc["history"][0]["message"]["content"],
        "OK, acknowledged (text-only reply).",
        "continue",
        "OK, acknowledged (text-only reply).",
        "thanks",
    ]


def test_a_half_written_document_keeps_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    shutil.copy(SHORT, path)
    reader = ContinueReader(SessionRef(format="continue", path=path))
    reader.poll()
    data = SHORT.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    reader.poll()
    assert len(reader.session.turns) == 11 and not reader.session.skipped
    reader.poll(final=True)
    assert len(reader.session.turns) == 11
    assert "incomplete or malformed JSON document" in reader.session.skipped[0].reason


# -- acceptance: the commands a person runs, HOME at a copy of the real home ---------


def test_sessions_scan_and_export_with_home_at_the_real_continue_home(
    tmp_path, monkeypatch
) -> None:
    home = copied_home(tmp_path, "continue-short")
    [listing] = listed(monkeypatch, home)
    assert listing["agent"] == "continue"
    assert listing["session_id"] == "7a59d172-ef47-48c9-9ad5-d98b6911cebf"
    assert listing["cwd"] == "/home/dev/work/continue-short"
    assert (listing["turns"], listing["human_turns"]) == (11, 1)
    path = home / SESSIONS / SHORT.name
    [scan] = scanned(path)
    assert (scan["format"], scan["turns"], scan["skipped"]) == ("continue", 11, [])
    doc = exported(path)
    assert person_texts(doc) == ["Inspect this directory, try a few commands, and write notes.txt"]
    calls = tools(doc)
    assert all(c["output"] for c in calls)
    assert [c["failed"] for c in calls] == [
        False,
        False,
        True,
        False,
        False,
        True,
        True,
        False,
        True,
        False,
    ]
    assert doc["resume"]["argv"] == ["cn", "--fork", "7a59d172-ef47-48c9-9ad5-d98b6911cebf"]

    compacted = exported(
        copied_home(tmp_path, "continue-autocompact") / SESSIONS / AUTOCOMPACT.name
    )
    assert person_texts(compacted) == []
    assert len(flagged(compacted, "compaction_boundary")) == 1
    assert [
        t["parts"][0]["text"] for t in flagged(compacted, "synthetic") if t["role"] == "user"
    ] == ["continue"]


def test_continue_sessions_follow_continue_global_dir(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "continue-autocompact")
    moved = tmp_path / "cn"
    os.rename(home / ".continue", moved)
    assert listed(monkeypatch, home) == []
    monkeypatch.setenv("CONTINUE_GLOBAL_DIR", str(moved))
    out = invoke("sessions", "--json").stdout
    assert '"agent":"continue"' in out and "sessions.json" not in out


def test_fields_of_the_wrong_type_cost_only_themselves(tmp_path: Path) -> None:
    doc = json.loads(SHORT.read_text())
    doc["history"][2]["message"]["toolCalls"] = True  # both found by the fuzz test
    doc["history"][0]["contextItems"] = True
    doc["history"][5] = {"message": {"role": "assistant", "content": 7}, "toolCallStates": "x"}
    path = tmp_path / SHORT.name
    path.write_text(json.dumps(doc))
    session = read(path)
    assert session.human_turns()[0].text.startswith("Inspect") and not session.skipped
    # the call is rebuilt from its toolCallStates entry when the message lost it
    assert [c.key_argument() for c in session.turns[2].tool_calls] == ["ls -la"]
    assert len(session.turns) == 11 and session.turns[5].parts == []
