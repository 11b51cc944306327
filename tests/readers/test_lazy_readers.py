"""A batch read of a Kimi, Vibe or Kilo session shows what a read that keeps every part shows.

A batch read (`scan`, an export, the replayer) of these sessions keeps each turn's
index fields and where its records are (lines of Kimi's wire log, items of Vibe's
chunks and journal, rows of Kilo's database), and builds a turn's parts again when
they are asked for (issue 34: a 1 GB session cost more than its size). A followed
session keeps its parts in memory, as before. Here both reads of the same session
are compared field by field: every turn, every part, every tool call.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from pivotal.model import Session, SessionRef, Turn
from pivotal.readers import find_sessions, open_reader, read_session

from .realhome import REAL

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import huge_homes  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REAL_SESSIONS = {
    "kimi": [
        *REAL.glob("kimi-short/.kimi/sessions/*/*"),
        *REAL.glob("kimi-autocompact/.kimi/sessions/*/*"),
    ],
    "vibe": [
        *REAL.glob("vibe-short/.vibe/logs/session/unified/*"),
        *REAL.glob("vibe-autocompact/.vibe/logs/session/unified/*"),
    ],
    "kilo": [
        *REAL.glob("kilo-short/.local/share/kilo/kilo.db"),
        *REAL.glob("kilo-autocompact/.local/share/kilo/kilo.db"),
    ],
    "opencode": [  # Kilo's reader is opencode's
        *REAL.glob("opencode-short/.local/share/opencode/opencode.db"),
        *REAL.glob("opencode-autocompact/.local/share/opencode/opencode.db"),
    ],
}
GENERATED = 400_000
"""Bytes of each generated session (`bench/huge_homes.py`): some of its tool outputs are
hundreds of KB, so it crosses the line reader's 1 MB chunks."""


def turn_fields(turn: Turn) -> tuple:
    """Everything of a turn any surface shows or uses (its pieces are where, not what)."""
    extra = {k: v for k, v in (turn.extra or {}).items() if k != "pieces"} or None
    parts = tuple(
        (
            part.kind,
            part.text,
            None
            if part.tool is None
            else (
                part.tool.call_id,
                part.tool.name,
                repr(part.tool.input),
                part.tool.output,
                part.tool.is_error,
                part.tool.exit_code,
                part.tool.duration_ms,
                part.tool.status,
            ),
        )
        for part in turn.parts
    )
    return (
        turn.index,
        turn.role,
        int(turn.flags),
        turn.timestamp,
        turn.message_id,
        turn.source,
        turn.model,
        turn.usage,
        turn.preview,
        repr(extra),
        parts,
    )


def session_fields(session: Session) -> tuple:
    return (
        session.id,
        session.title,
        session.cwd,
        session.model,
        session.started,
        session.ended,
        tuple(turn_fields(turn) for turn in session.turns),
        tuple(tuple(turn_fields(turn) for turn in branch) for branch in session.branches),
        tuple(session.skipped),
        tuple(session.notices),
        tuple(session.children),
    )


def followed(ref: SessionRef) -> Session:
    """The session read as live follow reads it (its parts kept), to its end."""
    reader = open_reader(ref)
    try:
        reader.poll(final=False)
        reader.poll(final=True)
    finally:
        reader.close()
    return reader.session


def lazy_turns(session: Session) -> int:
    """Turns whose parts are not in memory (read again from the session when asked)."""
    return sum(1 for turn in session.turns if turn._parts is None and turn._loader is not None)


def the_ref(path: Path) -> SessionRef:
    [ref] = find_sessions([path]).refs
    return ref


def check(ref: SessionRef) -> None:
    batch = read_session(ref)
    assert lazy_turns(batch) >= len(batch.turns) // 2  # the person's words, the steps
    kept = followed(ref)
    assert lazy_turns(kept) == 0
    assert session_fields(batch) == session_fields(kept)
    assert lazy_turns(batch) >= len(batch.turns) // 2  # and read again, not kept


@pytest.mark.parametrize(
    "path",
    [path for paths in REAL_SESSIONS.values() for path in paths],
    ids=lambda path: path.parts[len(REAL.parts)],
)
def test_a_real_session_reads_the_same_either_way(path: Path) -> None:
    folder = path.parent
    before = sorted(folder.rglob("*"))
    refs = find_sessions([path]).refs
    assert refs
    for ref in refs:  # a database holds several (sub-agents' too)
        check(ref)
    assert sorted(folder.rglob("*")) == before  # read only: nothing made beside it


def test_vibe_entries_read_from_the_journal_and_an_older_snapshot(tmp_path: Path) -> None:
    """With a history chunk gone, Vibe's history comes from the journal's operations (one
    line may hold several) and an older snapshot's chunks: their pieces point there."""
    for name in ("vibe-short", "vibe-autocompact"):
        [source] = REAL.glob(f"{name}/.vibe/logs/session/unified/*")
        folder = tmp_path / name
        shutil.copytree(source, folder)
        manifests = sorted((folder / "generations").glob("*/manifest.json"))
        newest = json.loads(manifests[-1].read_text())
        for digest in newest["projection_state"]["chunks"]:
            (folder / "chunks" / f"{digest}.json").unlink()
        batch = read_session(the_ref(folder))
        assert "1 history chunk of" in batch.skipped[0].reason
        check(the_ref(folder))


def test_a_kimi_code_journal_reads_the_same_either_way(tmp_path: Path) -> None:
    """Kimi Code's journal: steps streamed as loop events and written as whole messages,
    results, a person's `!command` and its output, compactions and notices."""
    from .test_kimi_code import journal, loop, rec, user, write_home

    check(the_ref(write_home(tmp_path / "one", journal())))
    lines = journal()
    again = [line for line in lines[1:] if isinstance(line, dict)]  # the same ids again
    check(the_ref(write_home(tmp_path / "twice", [*lines, *again])))
    calls = [{"id": "Read_1", "name": "Read", "arguments": '{"path": "cart.py"}'}]
    answer = {"role": "assistant", "content": [{"type": "text", "text": "Reading."}]}
    late = [  # results written after their step closed, a command's output after a prompt
        lines[0],
        user("go on", 1),
        loop(2, type="step.begin", uuid="s1"),
        loop(3, type="content.part", stepUuid="s1", part={"type": "text", "text": "Run it."}),
        loop(4, type="tool.call", stepUuid="s1", toolCallId="Bash_9", name="Bash", args={}),
        loop(5, type="step.end", uuid="s1", finishReason="tool_use"),
        rec("context.append_message", 6, message={**answer, "toolCalls": calls}),
        loop(7, type="tool.result", toolCallId="Bash_9", result={"output": "ok", "isError": False}),
        rec(
            "context.append_message",
            8,
            message={
                "role": "tool",
                "toolCallId": "Read_1",
                "content": [{"type": "text", "text": "x = 1"}],
            },
        ),
        user("<bash-input>\nls\n</bash-input>", 9, {"kind": "shell_command", "phase": "input"}),
        user("and this", 10),
        user(
            "<bash-stdout>cart.py</bash-stdout>", 11, {"kind": "shell_command", "phase": "output"}
        ),
    ]
    folder = write_home(tmp_path / "late", late)
    check(the_ref(folder))
    [_, step, message, command, _] = read_session(the_ref(folder)).turns
    assert [c.output for c in step.tool_calls + message.tool_calls] == ["ok", "x = 1"]
    assert command.tool_calls[0].output == "cart.py"


@pytest.mark.parametrize("escapes", huge_homes.ESCAPES)
@pytest.mark.parametrize("fmt", ["kimi", "vibe", "kilo", "kimi-code"])
def test_a_generated_session_reads_the_same_either_way(
    fmt: str, escapes: str, tmp_path: Path
) -> None:
    path = huge_homes.make_home(tmp_path, fmt, GENERATED, "json" if escapes == "raw" else escapes)
    if escapes == "raw":
        from .test_reader_memory import raw_escapes

        raw_escapes(tmp_path)
    check(the_ref(path))
