"""Codex CLI rollout reader: real 0.171 files, an older-shaped ugly file, live growth."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from pivotal.model import Role, Session, SessionRef, Turn, TurnFlag
from pivotal.readers import sniff_path
from pivotal.readers.base import parse_timestamp
from pivotal.readers.codex import SPEC
from pivotal.readers.codex_records import unwrap

FIXTURES = Path(__file__).parent.parent / "fixtures"
REAL = FIXTURES / "realclients"
SHORT = next((REAL / "codex-short").rglob("rollout-*.jsonl"))
AUTOCOMPACT = next((REAL / "codex-autocompact").rglob("rollout-*.jsonl"))
UGLY = FIXTURES / "codex" / "ugly.jsonl"


def read(path: Path, final: bool = True) -> Session:
    reader = SPEC.open(SessionRef(format="codex", path=path))
    reader.poll(final=final)
    return reader.session


def signature(session: Session) -> list[tuple]:
    out = []
    for turn in session.turns:
        tools = tuple(
            (c.call_id, c.name, repr(c.input), c.output, c.is_error, c.exit_code, c.status)
            for c in turn.tool_calls
        )
        reasoning = tuple(p.text for p in turn.parts if p.kind.value == "reasoning")
        usage = turn.usage and (turn.usage.input, turn.usage.output, turn.usage.cache_read)
        out.append(
            (
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
        )
    return out


def texts(turns: list[Turn]) -> list[str]:
    return [t.text for t in turns]


# -- the real 0.171 files -------------------------------------------------------


def test_real_short_turns_tools_and_exit_codes() -> None:
    session = read(SHORT)
    assert session.skipped == []
    assert session.id == "01a22a93-c1c4-76a1-aa85-bcac234eef3f"
    assert session.cwd == "/home/dev/work/codex-short"
    assert session.model == "mock-model"
    assert texts(session.human_turns()) == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    system = [t for t in session.turns if t.role is Role.SYSTEM]
    assert len(system) == 1 and system[0].is_synthetic
    assert system[0].text.startswith("<skills_instructions>")
    injected = [t for t in session.turns if t.role is Role.USER and not t.is_human]
    assert [t.text.split("\n", 1)[0] for t in injected] == ["<environment_context>"]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [c.key_argument().split("\n")[0] for c in calls] == [
        "ls -la",
        "cat nonexistent.txt",
        "python3 -c 'import sys; print(\"about to fail\"); sys.exit(3)'",
        "apply_patch <<'PATCH'",
        "apply_patch <<'PATCH'",
        "apply_patch <<'PATCH'",
        "bash -lc echo unsupported",
        "cat notes.txt",
    ]
    assert [c.exit_code for c in calls] == [0, 1, 3, 0, 0, None, None, 0]
    assert [c.failed for c in calls] == [False, True, True, False, False, True, True, False]
    assert calls[5].is_error and calls[5].output.startswith("apply_patch verification failed")
    assert calls[6].is_error and calls[6].output == "unsupported call: shell"
    assert all(c.output is not None for c in calls)
    # the exec_command wrapper is read, not shown: only the command's own output is
    assert calls[1].output == "cat: nonexistent.txt: No such file or directory\n"
    assert calls[2].output == "about to fail\n"
    assert calls[0].output.startswith("total 8\n")
    assert calls[3].output == "Success. Updated the following files:\nA notes.txt\n"
    for call in calls:
        for word in (
            "Chunk ID:",
            "Wall time:",
            "Process exited",
            "Original token count",
            "Output:",
        ):
            assert word not in call.output, (call.key_argument(), word)
    assert [c.duration_ms is not None for c in calls[:5]] == [True] * 5
    assert session.started == parse_timestamp("2026-11-30T03:50:56.200Z")
    assert session.ended == parse_timestamp("2026-11-30T03:50:56.679Z")


def test_real_short_text_shown_once_and_one_turn_per_response() -> None:
    session = read(SHORT)
    assistant = [t for t in session.turns if t.role is Role.ASSISTANT]
    # 9 model responses (8 tool-calling + the summary); event_msg copies add nothing
    assert len(assistant) == 9
    assert sum(t.text == "Let me look around." for t in session.turns) == 1
    first = assistant[0]
    assert first.message_id == "msg_mock126d4c0c37a548aab80aeed2"
    assert [p.text for p in first.parts if p.kind.value == "reasoning"] == [
        "I should look at the directory first."
    ]
    assert all(t.usage is not None and t.usage.input == 1000 for t in assistant)
    assert assistant[-1].text.startswith("Summary: listed files")


def test_real_autocompact_boundary_summary_and_no_replayed_history() -> None:
    session = read(AUTOCOMPACT)
    assert session.skipped == []
    assert texts(session.human_turns()) == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert len(boundaries) == 1
    b = boundaries[0].index
    summary = session.turns[b + 1]
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
    assert summary.text.startswith("MOCK COMPACTION SUMMARY")
    # the summary is shown once: not as a plain reply, not again from replacement_history
    assert sum("MOCK COMPACTION SUMMARY" in t.text for t in session.turns) == 1
    before = session.turns[b - 1]
    assert [c.key_argument() for c in before.tool_calls] == ["seq 1 5"]
    after = session.turns[b + 2]
    assert [c.key_argument() for c in after.tool_calls] == ["echo after-compaction"]
    # the compaction request's own token report (line 42) stays with its summary
    assert (summary.usage.input, summary.usage.output) == (1000, 50)
    assert (before.usage.input, before.usage.output) == (190000, 50)
    assert not any(t.flags & TurnFlag.INTERRUPTED for t in session.turns)


# -- older shapes and ugly input -------------------------------------------------


def test_ugly_file_everything_readable_is_read() -> None:
    session = read(UGLY)
    assert [(s.line, s.reason.split(":")[0]) for s in session.skipped] == [
        (13, "malformed JSON"),
        (36, "incomplete last line (still being written?)"),
    ]
    humans = session.human_turns()
    # event_msg.user_message copies make no turns; "", " ", "\n" are real (empty) prompts
    assert texts(humans) == [
        "fix the failing test \x1b[31mred\x1b[0m [bold]x[/bold]",
        "",
        " ",
        "\n",
        "bad bytes: \ufffd\ufffd",
    ]
    injected = [t for t in session.turns if t.role is Role.USER and t.is_synthetic]
    assert [t.text.split("\n", 1)[0] for t in injected] == [
        "# AGENTS.md instructions for /repo",
        "<environment_context>",
        "Another language model started to solve this problem and produced a summary of its "
        "thinking process.",
    ]
    assert sum(t.text == "Fixed: the test passes now." for t in session.turns) == 1


def test_ugly_file_tools_usage_and_models() -> None:
    session = read(UGLY)
    calls = {c.call_id: c for t in session.turns for c in t.tool_calls}
    assert list(calls) == ["call_A", "call_B", "call_C", "call_D"]
    a, b, c, d = calls.values()
    assert (a.exit_code, a.duration_ms, a.output) == (2, 1500.0, "FAIL test_x\n")
    assert a.input == {"command": ["bash", "-lc", "make test"], "workdir": "/repo"}
    assert (b.name, b.exit_code, b.is_error) == ("apply_patch", 0, False)
    assert b.input.startswith("*** Begin Patch")
    assert (c.exit_code, c.duration_ms) == (0, 2500.0)
    assert d.is_error and d.output == "aborted by user"
    # the duplicated function_call line adds no second call
    assert sum(len(t.tool_calls) for t in session.turns) == 4
    first = next(t for t in session.turns if t.tool_calls)
    # two identical token_count lines count once; input excludes the cached part
    assert (first.usage.input, first.usage.cache_read, first.usage.output) == (4000, 1000, 200)
    assert first.usage.reasoning == 50
    assert first.model == "gpt-5-codex"
    assert session.turns[-1].model == "gpt-5.1-codex"
    assert session.model == "gpt-5.1-codex"


def test_ugly_file_interrupt_and_compaction() -> None:
    session = read(UGLY)
    interrupted = [t for t in session.turns if t.flags & TurnFlag.INTERRUPTED]
    assert len(interrupted) == 1 and interrupted[0].role is Role.ASSISTANT
    assert [c.call_id for c in interrupted[0].tool_calls] == ["call_D"]
    kinds = [
        (t.role, bool(t.flags & TurnFlag.COMPACTION_BOUNDARY))
        for t in session.turns
        if t.is_compaction
    ]
    assert kinds == [(Role.SYSTEM, True), (Role.USER, False)]
    # replacement_history is not replayed: the first prompt still appears once
    assert sum(t.text.startswith("fix the failing test") for t in session.turns) == 1


def test_half_written_line_is_not_parsed_while_following() -> None:
    session = read(UGLY, final=False)
    assert [s.line for s in session.skipped] == [13]
    assert session.turns[-1].text == "Done after compaction."


def test_unknown_types_are_skipped_silently() -> None:
    session = read(UGLY)
    assert not any("future_synthetic_record" in s.reason for s in session.skipped)


# -- incremental reading --------------------------------------------------------------


@pytest.mark.parametrize("source", [SHORT, AUTOCOMPACT, UGLY], ids=["short", "compact", "ugly"])
@pytest.mark.parametrize("seed", range(4))
def test_appending_in_random_pieces_matches_batch(tmp_path: Path, source: Path, seed: int) -> None:
    data = source.read_bytes()
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(data)), 12))
    live = tmp_path / "live.jsonl"
    live.write_bytes(b"")
    reader = SPEC.open(SessionRef(format="codex", path=live))
    done = 0
    for cut in [*cuts, len(data)]:
        with open(live, "ab") as handle:
            handle.write(data[done:cut])
        done = cut
        update = reader.poll()
        # at every step the live view equals a fresh read of the same bytes
        copy = tmp_path / "copy.jsonl"
        shutil.copyfile(live, copy)
        assert signature(reader.session) == signature(read(copy, final=False))
        if update.first_changed is not None:
            assert update.first_changed <= len(reader.session.turns)
    reader.poll(final=True)
    batch = read(source)
    assert signature(reader.session) == signature(batch)
    assert reader.session.skipped == batch.skipped


def test_poll_reports_first_changed_turn(tmp_path: Path) -> None:
    lines = SHORT.read_bytes().splitlines(keepends=True)
    live = tmp_path / "live.jsonl"
    live.write_bytes(b"".join(lines[:14]))  # up to the first function_call
    reader = SPEC.open(SessionRef(format="codex", path=live))
    reader.poll()
    call_turn = reader.session.turns[-1]
    assert call_turn.tool_calls[0].output is None
    with open(live, "ab") as handle:
        handle.write(b"".join(lines[14:18]))  # its exit info and output
    update = reader.poll()
    assert update.first_changed == call_turn.index
    assert call_turn.tool_calls[0].exit_code == 0


# -- sniffing -------------------------------------------------------------------------


def test_sniff_accepts_codex_files() -> None:
    for path in (SHORT, AUTOCOMPACT, UGLY):
        assert SPEC.sniff(path, path.read_bytes()[:65536])
        assert sniff_path(path).name == "codex"


def test_sniff_rejects_other_formats() -> None:
    others = [
        p
        for p in FIXTURES.rglob("*")
        if p.is_file() and "codex" not in str(p.relative_to(FIXTURES)) and p.suffix != ".db"
    ]
    assert any("gemini" in str(p) for p in others) and any("aider" in str(p) for p in others)
    for path in others:
        assert not SPEC.sniff(path, path.read_bytes()[:65536]), path


def test_refs_carry_session_meta() -> None:
    (ref,) = SPEC.refs(SHORT)
    assert ref.format == "codex" and ref.path == SHORT
    assert ref.session_id == "01a22a93-c1c4-76a1-aa85-bcac234eef3f"
    assert ref.cwd == "/home/dev/work/codex-short"
    assert ref.started == 1796010656.2


# -- the wrapper around a command's output ---------------------------------------


@pytest.mark.parametrize(
    "text,output,exit_code,duration",
    [
        # codex 0.171 exec_command (unified exec)
        (
            "Chunk ID: 5d1e0a\nWall time: 1.2500 seconds\nProcess exited with code 2\n"
            "Original token count: 9\nOutput:\nerror: no such option\n",
            "error: no such option\n",
            2,
            1250.0,
        ),
        # still running: no exit status stated, so none is made up
        (
            "Chunk ID: 77aa01\nWall time: 10.0000 seconds\n"
            "Process running with session ID 4312\nOriginal token count: 3\nOutput:\nbuilding\n",
            "building\n",
            None,
            10000.0,
        ),
        # the older shell tool
        ("Exit code: 1\nWall time: 0.3 seconds\nOutput:\nFAILED\n", "FAILED\n", 1, 300.0),
        # an intercepted apply_patch: a wrapper inside a wrapper
        (
            "Wall time: 0.0000 seconds\nOutput:\nExit code: 0\nWall time: 0 seconds\nOutput:\n"
            "Success. Updated the following files:\nM a.py\n",
            "Success. Updated the following files:\nM a.py\n",
            0,
            0.0,
        ),
    ],
)
def test_unwrap_reads_exit_and_duration_and_keeps_only_the_output(
    text: str, output: str, exit_code: int | None, duration: float
) -> None:
    found = unwrap(text)
    assert found is not None
    assert (found.output, found.exit_code, found.duration_ms) == (output, exit_code, duration)


@pytest.mark.parametrize(
    "text",
    [
        "apply_patch verification failed: Failed to find expected lines",
        "Exit code: 0 was printed by the program itself\nOutput:\nx",
        "plain output\nExit code: 1\n",
    ],
)
def test_text_that_is_not_a_wrapper_is_kept_whole(text: str) -> None:
    assert unwrap(text) is None


def test_a_command_printing_error_under_exit_0_did_not_fail(tmp_path: Path) -> None:
    lines = SHORT.read_bytes().split(b"\n")
    path = tmp_path / "rollout.jsonl"
    out = [
        line.replace(
            b"Process exited with code 1\\nOriginal token count: 12\\nOutput:\\ncat:",
            b"Process exited with code 0\\nOriginal token count: 12\\nOutput:\\nerror: cat:",
        )
        if b"fco_" in line
        else line
        for line in lines
        if b'"CommandExecution"' not in line  # no exit code from the event either
    ]
    path.write_bytes(b"\n".join(out))
    calls = [c for t in read(path).turns for c in t.tool_calls]
    assert calls[1].output.startswith("error: cat:") and calls[1].exit_code == 0
    assert not calls[1].is_error and not calls[1].failed
