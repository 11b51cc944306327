"""Claude Code reader on files shaped like what Claude Code 2.1 writes, ugly parts included."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pivotal.model import PartKind, Role, SessionRef, TurnFlag
from pivotal.readers import claude_records, find_sessions, read_session, sniff_path
from pivotal.readers.claude_code import ClaudeCodeReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UGLY = FIXTURES / "claude" / "ugly.jsonl"
REAL = FIXTURES / "realclients"
SHORT = next((REAL / "claude-short").rglob("*.jsonl"))
AUTOCOMPACT = next((REAL / "claude-autocompact").rglob("*.jsonl"))


def read(path: Path):
    return read_session(SessionRef("claude-code", path))


def flags_of(session):
    return [t.flags for t in session.turns]


def test_sniffs_claude_code_by_content():
    assert sniff_path(UGLY).name == "claude-code"
    assert sniff_path(SHORT).name == "claude-code"


def test_a_record_is_looked_for_in_the_first_40_lines_only():
    record = b'{"type":"user","uuid":"u1","sessionId":"s1","message":{"content":"hi"}}'
    for before, found in ((0, True), (39, True), (40, False)):
        head = b"not json\n" * before + record + b"\n"
        assert claude_records.sniff(Path("x.jsonl"), head) is found, before
    assert claude_records.sniff(Path("x.jsonl"), b"\n\n" + record) is True  # no newline at the end


def test_ugly_file_main_line():
    s = read(UGLY)
    texts = [t.text for t in s.turns]
    roles = [t.role for t in s.turns]
    assert s.id == "5f0c2a8e-1d7b-4c3e-9a61-2b8f7e4d9c10"
    assert s.cwd == "/home/dev/work/flaky"
    assert s.title == "Fix flaky test_a"
    assert texts[0] == "Fix the flaky test in tests/test_a.py"
    assert s.turns[0].is_human and s.turns[0].source.line == 3
    # msg_A: three lines merged into one turn, its failed result folded in (duplicate read once)
    a = s.turns[1]
    assert a.role is Role.ASSISTANT and a.message_id == "msg_A"
    assert [p.kind for p in a.parts] == [PartKind.REASONING, PartKind.TEXT, PartKind.TOOL]
    (call,) = a.tool_calls
    assert call.name == "Bash" and call.is_error and call.exit_code == 1
    assert "FAILED tests/test_a.py::test_x" in call.output
    # parallel calls of msg_B each get their own result
    b = s.turns[2]
    assert [c.name for c in b.tool_calls] == ["Read", "Grep"]
    assert all(c.output and not c.is_error for c in b.tool_calls)
    assert s.turns[3].text.startswith("All tests pass now")
    assert roles.count(Role.USER) == 9


def test_ugly_file_synthetic_compaction_and_interrupt():
    s = read(UGLY)
    t = s.turns
    assert t[4].is_human and t[4].text == "ok"
    assert t[5].flags & TurnFlag.META and not t[5].is_human
    assert t[6].flags & TurnFlag.SYNTHETIC and not t[6].is_human  # /compact command wrapper
    assert t[7].role is Role.SYSTEM and t[7].flags & TurnFlag.COMPACTION_BOUNDARY
    assert t[8].flags & TurnFlag.COMPACTION_SUMMARY and not t[8].is_human
    assert t[9].flags & TurnFlag.META and t[9].text == "Continue from where you left off."
    assert t[10].flags & TurnFlag.INTERRUPTED  # the call the person interrupted
    assert t[11].flags & TurnFlag.INTERRUPTED and not t[11].is_human


def test_rewind_keeps_the_abandoned_branch():
    s = read(UGLY)
    t = s.turns
    assert t[12].is_human and t[12].text == "run only the unit tests"
    assert t[13].text == "Running only the unit tests."
    assert len(s.branches) == 1
    assert [x.text for x in s.branches[0]] == [
        "no, run the fast tests only",
        "Running the fast tests.",
    ]
    assert any("rewind" in n for n in s.notices)


def test_invalid_utf8_sidechain_malformed_and_half_written_line():
    s = read(UGLY)
    t = s.turns
    assert t[14].is_human and t[14].text.startswith("thanks ") and "\ufffd" in t[14].text
    assert len(t) == 15  # the sub-agent's reply (line 30) is its own session, not a turn here
    [child] = s.children
    assert child.key is not None and child.key.startswith("sidechain:30:")
    assert [turn.text for turn in read_session(child).turns] == ["Sub-agent searching."]
    lines = {k.line: k.reason for k in s.skipped}
    assert set(lines) == {14, 32}
    assert "malformed" in lines[14]
    assert "incomplete last line" in lines[32]


def test_half_written_line_waits_while_following(tmp_path):
    path = tmp_path / "s.jsonl"
    shutil.copy(UGLY, path)
    reader = ClaudeCodeReader(SessionRef("claude-code", path))
    reader.poll()
    assert len(reader.session.turns) == 15
    assert {k.line for k in reader.session.skipped} == {14}  # not reported: still being written
    with open(path, "ab") as handle:
        handle.write((FIXTURES / "claude" / "ugly_complete_tail.txt").read_bytes() + b"\n")
    update = reader.poll()
    assert update.first_changed == 15
    assert reader.session.turns[15].text == "and then deploy it"


def test_incremental_reading_in_random_pieces_matches_batch(tmp_path):
    import random

    data = UGLY.read_bytes() + (FIXTURES / "claude" / "ugly_complete_tail.txt").read_bytes()
    batch_path = tmp_path / "batch.jsonl"
    batch_path.write_bytes(data + b"\n")
    expected = read(batch_path)
    rng = random.Random(7)
    for _ in range(5):
        path = tmp_path / "grow.jsonl"
        path.write_bytes(b"")
        reader = ClaudeCodeReader(SessionRef("claude-code", path))
        cuts = sorted(rng.sample(range(1, len(data)), 12))
        pos = 0
        for cut in [*cuts, len(data)]:
            with open(path, "ab") as handle:
                handle.write(data[pos:cut])
            pos = cut
            reader.poll()
        with open(path, "ab") as handle:
            handle.write(b"\n")
        reader.poll(final=True)
        got = reader.session
        assert [(x.role, x.flags, x.text) for x in got.turns] == [
            (x.role, x.flags, x.text) for x in expected.turns
        ]
        assert [k.line for k in got.skipped] == [k.line for k in expected.skipped]


def test_truncated_file_is_reloaded(tmp_path):
    path = tmp_path / "s.jsonl"
    shutil.copy(SHORT, path)
    reader = ClaudeCodeReader(SessionRef("claude-code", path))
    reader.poll(final=True)
    first = reader.session.turns[0].text
    path.write_bytes(SHORT.read_bytes()[:2000].rsplit(b"\n", 1)[0] + b"\n")
    update = reader.poll()
    assert update.reloaded and "truncated" in update.notice
    assert reader.session.turns[0].text == first
    assert len(reader.session.turns) < 10


def test_real_claude_short():
    s = read(SHORT)
    human = [t for t in s.turns if t.is_human]
    assert [t.text for t in human] == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    calls = [c for t in s.turns for c in t.tool_calls]
    by_cmd = {c.key_argument(): c for c in calls if c.name == "Bash"}
    # Claude Code states an exit code only when it is not 0: a success stays unknown
    assert by_cmd["ls -la"].exit_code is None and not by_cmd["ls -la"].failed
    assert by_cmd["cat nonexistent.txt"].exit_code == 1 and by_cmd["cat nonexistent.txt"].is_error
    assert any(c.exit_code == 3 for c in by_cmd.values())
    todo = next(c for c in calls if c.name == "TodoWrite")
    assert todo.is_error and "No such tool available" in todo.output
    assert [c.name for c in calls].count("TaskUpdate") == 1
    assert all(c.has_result for c in calls)
    assert s.skipped == []


def test_real_claude_autocompact_duplicates_and_boundaries():
    s = read(AUTOCOMPACT)
    boundaries = [t for t in s.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    summaries = [t for t in s.turns if t.flags & TurnFlag.COMPACTION_SUMMARY]
    assert len(boundaries) == 2 and len(summaries) == 2
    assert [t.text for t in s.turns if t.is_human] == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    # the tool_result written twice with one uuid is read once
    seq = next(c for t in s.turns for c in t.tool_calls if c.key_argument() == "seq 1 5")
    assert seq.output is not None and seq.output.count("\n") < 50_000
    assert s.skipped == []
    assert [(t.extra or {}).get("trigger") for t in boundaries] == ["auto", "auto"]
    assert [(t.extra or {}).get("pre_tokens") for t in boundaries] == [990064, 995054]
    assert all(t.text == "Conversation compacted (auto)" for t in boundaries)


MANUAL = FIXTURES / "claude" / "manual_compact.jsonl"


def test_manual_compact_is_ordered_before_its_boundary_and_keeps_its_trigger():
    s = read(MANUAL)
    assert s.skipped == []
    assert [t.text for t in s.turns if t.is_human] == [
        "Add a --verbose flag to the CLI",
        "now document the flag",
    ]
    (boundary,) = [t for t in s.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    command = s.turns[boundary.index - 1]
    assert command.text == "/compact"  # the command as typed, not its wrapper
    assert command.is_synthetic and not command.is_human
    assert boundary.extra == {"trigger": "manual", "pre_tokens": 48211, "post_tokens": 1203}
    assert boundary.text == "Conversation compacted (manual)"
    summary = s.turns[boundary.index + 1]
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY
    assert [t.index for t in s.turns] == list(range(len(s.turns)))
    # the tool call before the compaction is still paired with its result (exit 1 kept)
    (bash,) = [c for t in s.turns for c in t.tool_calls]
    assert (bash.exit_code, bash.is_error, bash.failed) == (1, True, True)


def test_replies_claude_code_writes_itself_are_not_the_agent():
    s = read(MANUAL)
    own = [
        t
        for t in s.turns
        if t.source.record_id
        in (
            "0b6f9a52-1c1e-4c55-8f0e-7a1d2c3b4e11",
            "0b6f9a52-1c1e-4c55-8f0e-7a1d2c3b4e15",
        )
    ]
    assert [(t.role, t.text) for t in own] == [
        (Role.SYSTEM, "No response requested."),
        (Role.SYSTEM, "API Error: Connection error."),
    ]
    assert [t.flags for t in own] == [TurnFlag.SYNTHETIC, TurnFlag.SYNTHETIC | TurnFlag.ERROR]
    assert all(t.model is None and t.usage is None for t in own)
    assert s.model == "claude-sonnet-4-5"  # not "<synthetic>"
    agent = [t.text for t in s.turns if t.role is Role.ASSISTANT]
    assert "No response requested." not in agent


def test_manual_compact_read_in_random_pieces_matches_batch(tmp_path):
    import random

    data = MANUAL.read_bytes()
    expected = read(MANUAL)
    rng = random.Random(3)
    for _ in range(4):
        path = tmp_path / "grow.jsonl"
        path.write_bytes(b"")
        reader = ClaudeCodeReader(SessionRef("claude-code", path))
        pos = 0
        for cut in [*sorted(rng.sample(range(1, len(data)), 10)), len(data)]:
            with open(path, "ab") as handle:
                handle.write(data[pos:cut])
            pos = cut
            reader.poll()
        reader.poll(final=True)
        assert [(t.index, t.role, t.flags, t.text) for t in reader.session.turns] == [
            (t.index, t.role, t.flags, t.text) for t in expected.turns
        ]


def test_big_line_fast_path_agrees_with_full_decoding(monkeypatch, tmp_path):
    """The head/tail reading of huge lines must give the same index as decoding them."""
    sources = [UGLY, SHORT, AUTOCOMPACT]

    def index(path):
        s = read(path)
        return [
            (t.role, t.flags, t.message_id, t.timestamp, t.source.line, len(t.tool_calls))
            for t in s.turns
        ]

    slow = [index(p) for p in sources]
    monkeypatch.setattr(claude_records, "BIG_LINE", 0)
    fast = [index(p) for p in sources]
    assert fast == slow


def test_find_sessions_in_a_project_folder():
    found = find_sessions([REAL / "claude-short"])
    assert [r.format for r in found.refs] == ["claude-code"]
    assert found.problems == []


@pytest.mark.parametrize("payload", [b"", b"\n\n", b"not json at all\n"])
def test_unrecognisable_files_are_problems_not_crashes(tmp_path, payload):
    path = tmp_path / "x.jsonl"
    path.write_bytes(payload)
    found = find_sessions([path])
    assert found.refs == []
    assert len(found.problems) == 1


def test_truncated_and_rewritten_longer_between_polls_is_reloaded(tmp_path):
    """Same inode, larger size, different bytes: the reader must not splice old and new."""
    path = tmp_path / "s.jsonl"
    short = SHORT.read_bytes()
    path.write_bytes(short[:3000].rsplit(b"\n", 1)[0] + b"\n")
    reader = ClaudeCodeReader(SessionRef("claude-code", path))
    reader.poll()
    with open(path, "r+b") as handle:  # same inode: truncate and write another session
        handle.truncate(0)
        handle.write(AUTOCOMPACT.read_bytes())
    update = reader.poll(final=True)
    assert update.reloaded
    assert [t.text for t in reader.session.turns if t.is_human] == [
        t.text for t in read(AUTOCOMPACT).turns if t.is_human
    ]


def test_parts_decoding_reads_tool_metadata_without_the_output_copy():
    from pivotal.readers.claude_records import decode_for_parts

    line = (
        b'{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t","type":'
        b'"tool_result","content":"out"}]},"uuid":"u","toolUseResult":{"stdout":"'
        + b"x" * 5000
        + b'","interrupted":true,"durationMs":1234}}'
    )
    rec = decode_for_parts(line)
    assert rec["toolUseResult"] == {"interrupted": True, "durationMs": 1234}
    assert rec["message"]["content"][0]["content"] == "out"
    odd = b'{"type":"user","message":{"content":"hi"},"toolUseResult":"Error: denied"}'
    assert decode_for_parts(odd)["message"]["content"] == "hi"


def _record(
    kind: str, uuid: str, parent: str | None, message: dict, minute: int, compact: bool = True
) -> str:
    import json

    return json.dumps(
        {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/dev/app",
            "sessionId": "0c0f8a52-7d3e-4d36-9f1a-3c2b1e0d9a77",
            "version": "2.1.3",
            "type": kind,
            "message": message,
            "uuid": uuid,
            "timestamp": f"2026-11-30T10:{minute:02d}:00.000Z",
        },
        separators=(",", ":") if compact else None,
    )


@pytest.mark.parametrize("compact", [True, False], ids=["as-claude-writes", "spaced-json"])
def test_late_tool_result_of_a_rewound_call_is_not_a_crash(tmp_path, compact):
    """A result arriving after the person rewound past its call: its call's turn is gone.

    Compact JSON takes the index pass's inline path, spaced JSON the general one."""
    call = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "make"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
    lines = [
        _record("user", "u1", None, {"role": "user", "content": "build it"}, 0, compact),
        _record(
            "assistant",
            "a1",
            "u1",
            {"id": "msg_1", "role": "assistant", "content": [call]},
            1,
            compact,
        ),
        _record("user", "r1", "a1", {"role": "user", "content": [result]}, 2, compact),
        _record(
            "assistant",
            "a2",
            "r1",
            {"id": "msg_2", "role": "assistant", "content": "built"},
            3,
            compact,
        ),
        _record("user", "u2", "u1", {"role": "user", "content": "no, test it instead"}, 4, compact),
        _record("user", "r2", "a2", {"role": "user", "content": [result]}, 5, compact),
        _record(
            "assistant",
            "a3",
            "u2",
            {"id": "msg_3", "role": "assistant", "content": "testing"},
            6,
            compact,
        ),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n")
    s = read(path)
    assert [t.text for t in s.turns] == ["build it", "no, test it instead", "testing"]
    assert [[t.text for t in b] for b in s.branches] == [["", "built"]]
    assert s.branches[0][0].tool_calls[0].output == "ok"
    assert s.skipped == []
