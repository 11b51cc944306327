"""Gemini CLI reader: real 0.61 JSONL files, an ugly JSONL log, the legacy JSON chat."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from pivotal.catalog.resume import resume_command
from pivotal.model import Role, Session, SessionRef, TurnFlag
from pivotal.readers import sniff_path
from pivotal.readers.base import parse_timestamp
from pivotal.readers.gemini import SPEC

FIXTURES = Path(__file__).parent.parent / "fixtures"
REAL = FIXTURES / "realclients"
SHORT = next((REAL / "gemini-short").rglob("session-*.jsonl"))
AUTOCOMPACT = next((REAL / "gemini-autocompact").rglob("session-*.jsonl"))
UGLY = FIXTURES / "gemini" / "ugly.jsonl"
LEGACY = FIXTURES / "gemini" / "legacy-session.json"


def read(path: Path, final: bool = True) -> Session:
    reader = SPEC.open(SessionRef(format="gemini", path=path))
    reader.poll(final=final)
    return reader.session


def turn_sig(turn) -> tuple:
    tools = tuple(
        (c.call_id, c.name, repr(c.input), c.output, c.is_error, c.exit_code, c.status)
        for c in turn.tool_calls
    )
    usage = turn.usage and (turn.usage.input, turn.usage.output, turn.usage.cache_read)
    reasoning = tuple(p.text for p in turn.parts if p.kind.value == "reasoning")
    return (
        turn.index,
        turn.role,
        int(turn.flags),
        turn.text,
        reasoning,
        tools,
        turn.message_id,
        turn.timestamp,
        turn.source.line,
        turn.model,
        usage,
    )


def signature(session: Session) -> tuple:
    return (
        [turn_sig(t) for t in session.turns],
        [[turn_sig(t) for t in branch] for branch in session.branches],
    )


def texts(turns) -> list[str]:
    return [t.text for t in turns]


# -- the real 0.61 files -----------------------------------------------------------


def test_real_short_turns_and_tools() -> None:
    session = read(SHORT)
    assert session.skipped == []
    assert session.id == "5b2c8740-00e4-4481-94e9-939d81e710c3"
    assert session.model == "gemini-3.8-flash"
    assert texts(session.human_turns()) == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    context = session.turns[0]
    assert context.role is Role.USER and context.is_synthetic and not context.is_human
    assert context.text.startswith("<session_context>")
    # every gemini message is written twice (content, then with toolCalls): one turn each
    assistant = [t for t in session.turns if t.role is Role.ASSISTANT]
    assert len(assistant) == 7
    assert len({t.message_id for t in assistant}) == 7
    # functionResponse-only user records are tool results, not turns
    assert len(session.turns) == 1 + 1 + 7
    calls = [c for t in assistant for c in t.tool_calls]
    assert [(c.name, c.exit_code, c.is_error) for c in calls] == [
        ("run_shell_command", None, False),
        ("run_shell_command", 1, False),
        ("run_shell_command", 3, False),
        ("write_file", None, False),
        ("read_file", None, True),
        ("replace", None, False),
        ("read_file", None, False),
    ]
    assert [c.failed for c in calls] == [False, True, True, False, True, False, False]
    assert calls[4].output.startswith("File not found")
    assert all(c.output is not None for c in calls)
    first = assistant[0]
    assert first.text == "Let me look around."
    assert [p.text for p in first.parts if p.kind.value == "reasoning"] == [
        "I should look at the directory first."
    ]
    assert (first.usage.input, first.usage.output) == (1000, 50)
    assert first.source.line == 5  # where the message was first written


def test_real_autocompact_keeps_history_and_marks_compression() -> None:
    session = read(AUTOCOMPACT)
    assert session.skipped == []
    # resumes re-append the history twice and compression copies the tail: no duplicates
    assert texts(session.human_turns()) == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    contexts = [t for t in session.turns if t.text.startswith("<session_context>")]
    assert len(contexts) == 1
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert len(boundaries) == 1
    b = boundaries[0].index
    summary, ack = session.turns[b + 1], session.turns[b + 2]
    assert summary.role is Role.USER and summary.flags & TurnFlag.COMPACTION_SUMMARY
    assert summary.is_synthetic and not summary.is_human
    assert summary.text.startswith("<state_snapshot>MOCK COMPACTION SUMMARY")
    assert ack.role is Role.ASSISTANT and ack.is_synthetic
    assert ack.text == "Got it. Thanks for the additional context!"
    # compression happened mid-turn, after the "seq 1 5" call: the boundary comes after it
    before = session.turns[b - 1]
    assert [c.key_argument() for c in before.tool_calls] == ["seq 1 5"]
    assert before.tool_calls[0].output is not None
    assert session.turns[b - 2].text == "continue with big outputs"
    after = session.turns[b + 3]
    assert [c.key_argument() for c in after.tool_calls] == ["echo after-compaction"]
    assert (
        sum(t.text == "Running a command that makes the context big." for t in session.turns) == 1
    )
    assert session.turns[-1].text == "OK, acknowledged (text-only reply)."
    # the boundary's time is the `lastUpdated` of the `$set` line that rewrote the list
    assert boundaries[0].timestamp == parse_timestamp("2026-11-30T03:51:48.410Z")
    assert boundaries[0].source.line == 27


@pytest.mark.parametrize(
    "path,cwd",
    [(SHORT, "/home/dev/work/gemini-short"), (AUTOCOMPACT, "/home/dev/work/gemini-autocompact")],
)
def test_the_project_directory_is_the_sessions_workspace(path: Path, cwd: str) -> None:
    # Gemini names it in the `<session_context>` message ("Workspace Directories")
    assert read(path).cwd == cwd
    (ref,) = SPEC.refs(path)
    assert ref.cwd == cwd  # what `pivotal sessions` lists and resume runs `cd` into


def test_workspace_from_a_header_directories_list(tmp_path: Path) -> None:
    path = tmp_path / "session-2026-12-01T10-00-1a2b3c4d.jsonl"
    path.write_text(
        '{"sessionId":"1a2b3c4d-0000-4000-8000-000000000001","projectHash":"ab","startTime":'
        '"2026-12-01T10:00:00.000Z","lastUpdated":"2026-12-01T10:00:00.000Z","kind":"main",'
        '"directories":["/srv/app","/srv/lib"]}\n'
        '{"id":"u1","timestamp":"2026-12-01T10:00:01.000Z","type":"user","content":[{"text":"hi"}]}\n'
    )
    assert read(path).cwd == "/srv/app"
    assert SPEC.refs(path)[0].cwd == "/srv/app"
    assert SPEC.refs(LEGACY)[0].cwd is None  # nothing says where it ran: unknown, not guessed


def _in_project(home: Path, folder: str, source: Path, marker: str | None) -> Path:
    """`source` as a chat of ~/.gemini/tmp/<folder>/, with the CLI's project marker beside."""
    project = home / ".gemini" / "tmp" / folder
    (project / "chats").mkdir(parents=True)
    if marker is not None:
        (project / ".project_root").write_text(marker)
    return Path(shutil.copy(source, project / "chats" / source.name))


def test_a_chat_that_names_no_workspace_takes_its_projects_marker(tmp_path: Path) -> None:
    # Gemini CLI's project registry names the folder by a slug and writes the project's root
    # into it (`.project_root`); a legacy JSON chat names no workspace of its own
    path = _in_project(tmp_path, "billing-api", LEGACY, "/home/ana/code/billing-api\n")
    session = read(path)
    assert session.cwd == "/home/ana/code/billing-api"
    assert SPEC.refs(path)[0].cwd == "/home/ana/code/billing-api"
    assert (
        resume_command(session).cwd == "/home/ana/code/billing-api"
    )  # `gemini --resume` is per project


def test_a_workspace_the_chat_names_wins_and_a_damaged_marker_is_ignored(tmp_path: Path) -> None:
    named = _in_project(tmp_path / "a", "gemini-short", SHORT, "/somewhere/else")
    assert read(named).cwd == "/home/dev/work/gemini-short"
    assert SPEC.refs(named)[0].cwd == "/home/dev/work/gemini-short"
    hashed = _in_project(tmp_path / "b", "5f" * 32, LEGACY, None)  # before slugs: no marker
    assert read(hashed).cwd is None
    damaged = _in_project(tmp_path / "c", "notes", LEGACY, "/one/path\n/another/path\n")
    assert read(damaged).cwd is None
    assert SPEC.refs(damaged)[0].cwd is None


# -- ugly JSONL -----------------------------------------------------------------------------


def test_ugly_last_record_wins_and_tools_fold() -> None:
    session = read(UGLY)
    g1 = session.turn_by_message_id("g1")
    assert g1.text == "Running them."
    assert (g1.usage.input, g1.usage.cache_read, g1.usage.output, g1.usage.reasoning) == (
        60,
        40,
        20,
        7,
    )
    assert [p.text for p in g1.parts if p.kind.value == "reasoning"] == ["Plan\nRun pytest first."]
    shell, read_file = g1.tool_calls
    assert (shell.exit_code, shell.is_error, shell.status) == (1, False, "completed")
    assert (read_file.is_error, read_file.status) == (True, "error")
    assert sum(t.message_id == "g1" for t in session.turns) == 1


def test_ugly_humans_synthetic_and_system_records() -> None:
    session = read(UGLY)
    assert texts(session.human_turns()) == [
        "run the tests [red]please[/red]",
        "",
        " ",
        "bad bytes \ufffd here",
    ]
    by_id = {t.message_id: t for t in session.turns}
    assert by_id["u4"].text == "/compress" and by_id["u4"].is_synthetic
    assert not by_id["u4"].is_human
    assert by_id["w1"].role is Role.SYSTEM and by_id["w1"].is_synthetic
    assert by_id["e1"].role is Role.SYSTEM and by_id["e1"].flags & TurnFlag.ERROR
    assert session.title == "Fix the failing test"
    assert session.model == "gemini-2.5-flash"


def test_ugly_rewind_moves_turns_to_a_branch() -> None:
    session = read(UGLY)
    assert session.turn_by_message_id("g3") is None
    assert [[t.text for t in branch] for branch in session.branches] == [
        ["Wrong path, abandon this."]
    ]
    assert any("rewound" in n for n in session.notices)


def test_ugly_resume_checkpoints_do_not_drop_or_duplicate() -> None:
    session = read(UGLY)
    ids = [t.message_id for t in session.turns]
    # the context-only checkpoint of the resume removes nothing; the full one adds nothing
    assert ids[:8] == ["ctx", "u1", "g1", "w1", "g2", "u2", "g4", "e1"]
    assert "g1_response" not in ids
    # the richer first form is kept (toolCalls with results, not bare functionCall parts)
    assert len(session.turn_by_message_id("g1").tool_calls) == 2


def test_ugly_compression_tail_copies_are_not_shown_twice() -> None:
    session = read(UGLY)
    ids = [t.message_id for t in session.turns]
    assert "copy-u3" not in ids and "copy-g5" not in ids
    b = next(t.index for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY)
    assert ids[b - 1] == "u4"
    assert ids[b + 1 :] == ["snap", "ack", "u5", "g6"]


def test_ugly_bad_lines_are_reported_with_line_numbers() -> None:
    session = read(UGLY)
    assert [(s.line, s.reason.split(":")[0]) for s in session.skipped] == [
        (10, "malformed JSON"),
        (27, "incomplete last line (still being written?)"),
    ]
    assert session.turns[-1].text == "Done."


def test_ugly_half_written_line_waits_while_following() -> None:
    session = read(UGLY, final=False)
    assert [s.line for s in session.skipped] == [10]
    assert session.turns[-1].text == "Done."


# -- incremental reading -------------------------------------------------------------------


@pytest.mark.parametrize("source", [SHORT, AUTOCOMPACT, UGLY], ids=["short", "compact", "ugly"])
@pytest.mark.parametrize("seed", range(4))
def test_appending_in_random_pieces_matches_batch(tmp_path: Path, source: Path, seed: int) -> None:
    data = source.read_bytes()
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(data)), 12))
    live = tmp_path / "session-live.jsonl"
    live.write_bytes(data[: data.index(b"\n") + 1])  # the header decides the mode
    done = data.index(b"\n") + 1
    reader = SPEC.open(SessionRef(format="gemini", path=live))
    reader.poll()
    for cut in [c for c in cuts if c > done] + [len(data)]:
        with open(live, "ab") as handle:
            handle.write(data[done:cut])
        done = cut
        reader.poll()
        copy = tmp_path / "session-copy.jsonl"
        shutil.copyfile(live, copy)
        assert signature(reader.session) == signature(read(copy, final=False))
    reader.poll(final=True)
    batch = read(source)
    assert signature(reader.session) == signature(batch)
    assert reader.session.skipped == batch.skipped


def test_update_marks_the_rewritten_message(tmp_path: Path) -> None:
    lines = SHORT.read_bytes().splitlines(keepends=True)
    live = tmp_path / "session-live.jsonl"
    live.write_bytes(b"".join(lines[:6]))  # g 7a1ce7dd without its tool call yet
    reader = SPEC.open(SessionRef(format="gemini", path=live))
    reader.poll()
    turn = reader.session.turn_by_message_id("7a1ce7dd-c415-40cf-b590-cf18f50f182c")
    assert turn.tool_calls == []
    with open(live, "ab") as handle:
        handle.write(lines[6])  # the same id again, now with toolCalls
    update = reader.poll()
    assert update.first_changed == turn.index
    rewritten = reader.session.turns[turn.index]
    assert [c.name for c in rewritten.tool_calls] == ["run_shell_command"]


# -- legacy whole-file JSON ------------------------------------------------------------------


def test_legacy_json_chat() -> None:
    session = read(LEGACY)
    assert session.skipped == []
    assert session.id == "99999999-aaaa-bbbb-cccc-dddddddddddd"
    assert texts(session.human_turns()) == ["add a README", ""]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.status) for c in calls] == [
        ("write_file", "completed"),
        ("run_shell_command", "cancelled"),
    ]
    # a cancelled tool call and the "Request cancelled." notice mark the interrupt
    interrupted = [t.message_id for t in session.turns if t.flags & TurnFlag.INTERRUPTED]
    assert interrupted == ["m2", "m4"]
    assert session.turns[-1].role is Role.SYSTEM and session.turns[-1].is_synthetic


def test_legacy_json_rewrite_and_half_written_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "session-2025-09-01T08-00-99999999.json"
    original = LEGACY.read_bytes()
    path.write_bytes(original)
    reader = SPEC.open(SessionRef(format="gemini", path=path))
    reader.poll()
    assert len(reader.session.turns) == 4
    first_turn = reader.session.turns[0]
    # the writer is mid-rewrite: half a document; keep what was read, retry later
    path.write_bytes(original[: len(original) // 2])
    os.utime(path, ns=(1, 1))
    update = reader.poll()
    assert update.first_changed is None and len(reader.session.turns) == 4
    assert reader.session.skipped == []
    # the rewrite completes with one more message: only the new turn is reported
    grown = original.replace(
        b'"content": "Request cancelled."\n    }',
        b'"content": "Request cancelled."\n    },\n'
        b'    {"id": "m5", "timestamp": "2025-09-01T08:02:00Z", "type": "user", "content": "go"}',
    )
    assert grown != original
    path.write_bytes(grown)
    update = reader.poll()
    assert update.first_changed == 4
    assert reader.session.turns[0] is first_turn
    assert texts(reader.session.human_turns()) == ["add a README", "", "go"]
    # a final read of a broken document reports it
    path.write_bytes(original[:100])
    reader.poll(final=True)
    assert len(reader.session.turns) == 5
    assert [s.reason.split(" (")[0] for s in reader.session.skipped] == [
        "incomplete or malformed JSON document"
    ]


# -- sniffing ---------------------------------------------------------------------------------


def test_sniff_accepts_gemini_files() -> None:
    for path in (SHORT, AUTOCOMPACT, UGLY, LEGACY):
        assert SPEC.sniff(path, path.read_bytes()[:65536]), path
        assert sniff_path(path).name == "gemini"


def test_sniff_rejects_other_formats() -> None:
    others = [
        p
        for p in FIXTURES.rglob("*")
        if p.is_file() and "gemini" not in str(p.relative_to(FIXTURES)) and p.suffix != ".db"
    ]
    assert any("codex" in str(p) for p in others) and any("aider" in str(p) for p in others)
    for path in others:
        assert not SPEC.sniff(path, path.read_bytes()[:65536]), path
