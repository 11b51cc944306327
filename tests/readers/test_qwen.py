"""Qwen Code 0.15.10: the real chat files, and a hand-made one with the ugly cases."""

from __future__ import annotations

import os
from pathlib import Path

from cli_helpers import invoke
from pivotal.catalog.resume import resume_command
from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import read_session, sniff_path
from pivotal.readers.qwen import SPEC, QwenReader, shell_exit_code

from .realhome import REAL, copied_home, exported, flagged, listed, person_texts, scanned, tools

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHORT = next((REAL / "qwen-short").rglob("*.jsonl"))
AUTOCOMPACT = next((REAL / "qwen-autocompact").rglob("*.jsonl"))
UGLY = FIXTURES / "qwen" / "ugly.jsonl"


def read(path: Path):
    return read_session(SessionRef(format="qwen", path=path))


def test_qwen_files_are_not_taken_for_claude_code() -> None:
    assert sniff_path(SHORT).name == "qwen"
    assert sniff_path(next((REAL / "claude-short").rglob("*.jsonl"))).name == "claude-code"
    assert sniff_path(UGLY).name == "qwen"


def test_short_shell_exit_codes_come_from_the_output_text() -> None:
    session = read(SHORT)
    assert not session.skipped
    assert (session.id, session.cwd, session.model) == (
        "02b5d7da-4840-4cd2-94a7-c5fdb5f5093a",
        "/home/dev/work/qwen-short",
        "mock-model",
    )
    assert [t.text for t in session.human_turns()] == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    calls = [c for t in session.turns for c in t.tool_calls]
    # Qwen marks every shell call "success"; only the text says exit 1 and exit 3
    assert [(c.name, c.status, c.exit_code, c.failed) for c in calls] == [
        ("todo_write", "completed", None, False),
        ("run_shell_command", "completed", 0, False),
        ("run_shell_command", "completed", 1, True),
        ("run_shell_command", "completed", 3, True),
        ("write_file", "completed", None, False),
        ("read_file", "error", None, True),
        ("edit", "completed", None, False),
        ("read_file", "completed", None, False),
        ("nosuchtool", "error", None, True),
        ("todo_write", "completed", None, False),
    ]
    assert calls[5].output == "File not found: /home/dev/work/qwen-short/does-not-exist.md"
    first = session.turns[1]
    assert [p.kind.value for p in first.parts] == ["reasoning", "text", "tool"]
    assert (first.usage.input, first.usage.output, first.usage.cache_read) == (1000, 50, 0)
    assert first.timestamp is not None and first.source.line == 4


def test_autocompact_two_compressions_with_their_injected_turns() -> None:
    session = read(AUTOCOMPACT)
    assert [t.text for t in session.human_turns()] == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    boundaries = [t.index for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert len(boundaries) == 2
    first, second = boundaries
    assert session.turns[first].source.line == 20 and session.turns[second].source.line == 26
    summary, ack = session.turns[first + 1], session.turns[first + 2]
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
    assert summary.text.startswith("<state_snapshot>MOCK COMPACTION SUMMARY")
    assert ack.role is Role.ASSISTANT and ack.is_synthetic
    assert ack.text == "Got it. Thanks for the additional context!"
    nudge = session.turns[second + 3]
    assert nudge.role is Role.USER and nudge.is_synthetic and not nudge.is_human
    assert nudge.text == "Continue with the prior task using the context above."
    # the kept tail of each compressed history is not shown again
    assert (
        sum(t.text == "Running a command that makes the context big." for t in session.turns) == 1
    )
    assert sum(t.text == "continue with big outputs" for t in session.turns) == 1


def test_ugly_rewind_blank_prompt_commands_signals_and_a_half_written_line() -> None:
    session = read(UGLY)
    assert session.title == "flaky queue test"
    assert [(s.line, s.reason) for s in session.skipped] == [
        (18, "tool result without the call it answers"),
        (20, "incomplete last line (still being written?)"),
    ]
    # " " is kept as typed; the rewound request lives on as a branch
    assert [t.text for t in session.human_turns()] == [
        "Fix the flaky test in tests/test_queue.py",
        " ",
        ".",
    ]
    assert [[t.text for t in b] for b in session.branches] == [
        ["rewrite the whole queue in rust", "Starting the rewrite."]
    ]
    pytest_call, sleep_call = [c for t in session.turns for c in t.tool_calls]
    assert pytest_call.exit_code == 1 and pytest_call.failed  # the last Exit Code line wins
    assert sleep_call.exit_code is None and not sleep_call.failed  # killed: no exit code given
    command = next(t for t in session.turns if t.text == "/compress")
    assert command.is_synthetic and not command.is_human
    assert session.turns[command.index + 1].flags & TurnFlag.COMPACTION_BOUNDARY
    note = session.turns[-1]
    assert note.text == "Inbound note from the scheduler" and note.is_synthetic
    usage = session.turns[1].usage
    assert (usage.input, usage.cache_read, usage.output, usage.reasoning) == (2000, 400, 80, 12)


def test_reading_in_pieces_ends_like_one_read(tmp_path: Path) -> None:
    data = AUTOCOMPACT.read_bytes()
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"")
    reader = QwenReader(SessionRef(format="qwen", path=path))
    for cut in range(0, len(data), 997):
        with open(path, "ab") as handle:
            handle.write(data[cut : cut + 997])
        reader.poll()
    reader.poll(final=True)
    whole = read(AUTOCOMPACT)
    assert [(t.role, t.flags, t.text) for t in reader.session.turns] == [
        (t.role, t.flags, t.text) for t in whole.turns
    ]


def test_shell_exit_code_parser() -> None:
    assert shell_exit_code("Output: x\nExit Code: 0\nmore\nExit Code: 2\nSignal: 0") == 2
    assert shell_exit_code("Exit Code: (none)\nSignal: 9") is None
    assert shell_exit_code("no exit code here") is None


# -- acceptance: the commands a person runs, HOME at a copy of the real home ---------


def test_sessions_scan_and_export_with_home_at_the_real_qwen_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "qwen-autocompact")
    [listing] = listed(monkeypatch, home)
    assert listing["agent"] == "qwen"
    assert listing["session_id"] == "60d9c37a-9055-4fcd-880f-a8f90d2928a4"
    assert (listing["turns"], listing["human_turns"]) == (17, 3)
    path = next(home.rglob("*.jsonl"))
    [scan] = scanned(path)
    assert (scan["format"], scan["turns"], scan["skipped"]) == ("qwen", 17, [])
    doc = exported(path)
    assert person_texts(doc) == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    calls = tools(doc)
    assert all(c["output"] is not None for c in calls)
    assert [(c["exit_code"], c["failed"]) for c in calls] == [
        (0, False),
        (1, True),
        (0, False),
        (0, False),
    ]
    assert len(flagged(doc, "compaction_boundary")) == 2
    assert len(flagged(doc, "compaction_summary")) == 2
    assert [t["parts"][0]["text"] for t in flagged(doc, "synthetic") if t["role"] != "system"] == [
        "<state_snapshot>MOCK COMPACTION SUMMARY (rule): we listed files, created seed.txt, "
        "a cat failed, python exited 3.</state_snapshot>",
        "Got it. Thanks for the additional context!",
        "<state_snapshot>MOCK COMPACTION SUMMARY (rule): we listed files, created seed.txt, "
        "a cat failed, python exited 3.</state_snapshot>",
        "Got it. Thanks for the additional context!",
        "Continue with the prior task using the context above.",
    ]
    assert doc["resume"]["argv"] == ["qwen", "--resume", "60d9c37a-9055-4fcd-880f-a8f90d2928a4"]
    assert doc["resume"]["cwd"] == "/home/dev/work/qwen-autocompact"


def test_qwen_sessions_follow_qwen_runtime_dir_then_qwen_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "qwen-short")
    moved = tmp_path / "qwen-home"
    os.rename(home / ".qwen", moved)
    assert listed(monkeypatch, home) == []
    monkeypatch.setenv("QWEN_HOME", str(moved))
    assert '"agent":"qwen"' in invoke("sessions", "--json").stdout
    monkeypatch.setenv("QWEN_RUNTIME_DIR", str(tmp_path / "nothing-here"))
    assert invoke("sessions", "--json").stdout == ""


def test_resume_without_an_id_continues_the_latest() -> None:
    session = read(SHORT)
    session.id = None
    assert resume_command(session).argv == ["qwen", "--continue"]


def test_spec_lists_one_session_per_file() -> None:
    [ref] = SPEC.refs(SHORT)
    assert ref.format == "qwen" and ref.size == SHORT.stat().st_size
