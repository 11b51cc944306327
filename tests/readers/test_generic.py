"""Generic chat reader: OpenAI-style JSONL, JSON arrays with content blocks, {messages}."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest

from pivotal.model import Role, Session, SessionRef
from pivotal.readers import sniff_path
from pivotal.readers.generic import SPEC

FIXTURES = Path(__file__).parent.parent / "fixtures"
OPENAI = FIXTURES / "generic" / "openai.jsonl"
BLOCKS = FIXTURES / "generic" / "blocks.json"
CHAT = FIXTURES / "generic" / "chat.json"


def read(path: Path, final: bool = True) -> Session:
    reader = SPEC.open(SessionRef(format="generic", path=path))
    reader.poll(final=final)
    return reader.session


def signature(session: Session) -> list[tuple]:
    return [
        (
            t.index,
            t.role,
            int(t.flags),
            t.text,
            tuple(
                (c.call_id, c.name, repr(c.input), c.output, c.is_error, c.exit_code)
                for c in t.tool_calls
            ),
            t.message_id,
            t.timestamp,
            t.source.line,
        )
        for t in session.turns
    ]


def test_openai_jsonl_roles_tools_and_bad_lines() -> None:
    session = read(OPENAI)
    assert [(s.line, s.reason.split(":")[0]) for s in session.skipped] == [
        (9, "malformed JSON"),
        (10, "unknown role 'narrator'"),
        (14, "incomplete last line (still being written?)"),
    ]
    assert [(t.role, t.is_synthetic) for t in session.turns[:2]] == [
        (Role.SYSTEM, True),
        (Role.SYSTEM, True),
    ]
    assert session.turns[1].text == "Prefer small diffs."
    assert [t.text for t in session.human_turns()] == [
        "the build is red \x1b]0;title\x07 [link=x]y[/link]",
        "",
        "bad bytes \ufffd( here",
    ]
    first = session.human_turns()[0]
    assert (first.message_id, first.source.line) == ("m1", 3)
    assert first.timestamp == 1775044800.0
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.input, c.exit_code, c.is_error) for c in calls] == [
        ("bash", {"command": "make"}, 2, False),
        ("read_file", {"path": "Makefile"}, None, True),
        ("write", "not-json", None, False),
    ]
    assert [c.failed for c in calls] == [True, True, False]
    # tool messages are folded, never turns
    assert not any(t.text.startswith("cc: error") for t in session.turns)
    assert session.turns[4].text == "The Makefile is missing.\n\nShall I create it?"
    assert session.model == "gpt-4.1"


def test_half_written_line_waits_while_following() -> None:
    session = read(OPENAI, final=False)
    assert [s.line for s in session.skipped] == [9, 10]
    assert session.turns[-1].text == "bad bytes \ufffd( here"


def test_json_array_with_content_blocks() -> None:
    session = read(BLOCKS)
    assert session.skipped == []
    assert [(t.role, t.text) for t in session.turns] == [
        (Role.USER, "why does the test hang?"),
        (Role.ASSISTANT, "Let me run it with a timeout."),
        (Role.ASSISTANT, "It hangs: exit 124 means the timeout fired."),
        (Role.USER, " "),
    ]
    assert all(t.is_human for t in session.turns if t.role is Role.USER)
    assert [p.text for p in session.turns[0].parts if p.kind.value == "attachment"] == ["[image]"]
    (call,) = session.turns[1].tool_calls
    assert (call.name, call.exit_code, call.is_error) == ("Bash", 124, True)
    assert [p.text for p in session.turns[1].parts if p.kind.value == "reasoning"] == [
        "Probably a deadlock."
    ]


def test_messages_object_with_legacy_function_call() -> None:
    session = read(CHAT)
    assert (session.id, session.title, session.model) == (
        "chat-42",
        "Fix the build",
        "gpt-3.5-turbo",
    )
    assert [t.role for t in session.turns] == [Role.USER, Role.ASSISTANT, Role.ASSISTANT]
    (call,) = session.turns[1].tool_calls
    assert (call.name, call.input, call.output) == ("get_weather", {"city": "Oslo"}, '{"temp": 3}')


def test_whole_document_rewrites(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    doc = json.loads(CHAT.read_text())
    path.write_text(json.dumps(doc))
    reader = SPEC.open(SessionRef(format="generic", path=path))
    reader.poll()
    kept = reader.session.turns[0]
    text = json.dumps({**doc, "messages": [*doc["messages"], {"role": "user", "content": "ok"}]})
    path.write_text(text[: len(text) - 30])  # half-written rewrite
    os.utime(path, ns=(5, 5))
    assert reader.poll().first_changed is None
    assert len(reader.session.turns) == 3 and reader.session.skipped == []
    path.write_text(text)
    update = reader.poll()
    assert update.first_changed == 3
    assert reader.session.turns[0] is kept
    assert [t.text for t in reader.session.human_turns()] == ["what is the weather", "ok"]


@pytest.mark.parametrize("seed", range(6))
def test_jsonl_appending_in_random_pieces_matches_batch(tmp_path: Path, seed: int) -> None:
    data = OPENAI.read_bytes()
    first = data.index(b"\n") + 1
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(first + 1, len(data)), 10))
    live = tmp_path / "live.jsonl"
    live.write_bytes(data[:first])  # the first message decides JSONL vs document
    reader = SPEC.open(SessionRef(format="generic", path=live))
    reader.poll()
    done = first
    for cut in [*cuts, len(data)]:
        with open(live, "ab") as handle:
            handle.write(data[done:cut])
        done = cut
        reader.poll()
        copy = tmp_path / "copy.jsonl"
        shutil.copyfile(live, copy)
        assert signature(reader.session) == signature(read(copy, final=False))
    reader.poll(final=True)
    batch = read(OPENAI)
    assert signature(reader.session) == signature(batch)
    assert reader.session.skipped == batch.skipped


def test_sniff_accepts_generic_files() -> None:
    for path in (OPENAI, BLOCKS, CHAT):
        assert SPEC.sniff(path, path.read_bytes()[:65536]), path
        assert sniff_path(path).name == "generic"


def test_sniff_rejects_other_formats() -> None:
    others = [
        p
        for p in FIXTURES.rglob("*")
        if p.is_file() and "generic" not in str(p.relative_to(FIXTURES)) and p.suffix != ".db"
    ]
    assert any("codex" in str(p) for p in others) and any("claude" in str(p) for p in others)
    for path in others:
        assert not SPEC.sniff(path, path.read_bytes()[:65536]), path


def test_sniff_rejects_lookalikes(tmp_path: Path) -> None:
    samples = {
        # an opencode (< 1.2) message file: a role but no content
        "msg.json": b'{"id": "msg_01", "sessionID": "s", "role": "user", "time": {"created": 1}}',
        "list.json": b"[1, 2, 3]",
        "config.json": b'{"messages": "hello"}',
        "notes.jsonl": b'{"event": "start"}\n{"event": "stop"}\n',
        "claude.jsonl": b'{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u"}\n',
        "readme.md": b"# Title\n\nsome text\n",
    }
    for name, data in samples.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert not SPEC.sniff(path, data), name


# -- tool messages that answer no structured call ---------------------------------------------

ORPHANS = [FIXTURES / "generic" / "orphan_tools.jsonl", FIXTURES / "generic" / "orphan_tools.json"]


@pytest.mark.parametrize("path", ORPHANS, ids=["jsonl", "json"])
def test_tool_messages_answering_no_call_are_kept_with_their_exit_status(path: Path) -> None:
    session = read(path)
    assert session.skipped == []
    # 11 messages: 7 turns of their own, 4 tool outputs; none dropped
    calls = [(t.index, c) for t in session.turns for c in t.tool_calls]
    assert len(session.turns) + len(calls) - 1 == 11  # the watcher's output has a turn of its own
    assert [(i, c.name, c.exit_code, c.failed) for i, c in calls] == [
        (2, "tool", 1, True),  # "[exit code 1]"
        (3, "tool", 0, False),  # "Exit code: 0"
        (3, "linter", 1, True),  # "exit status 1"
        (6, "tool", None, False),  # states no exit status: unknown, not 0
    ]
    assert calls[0][1].output == "F..\n1 failed, 2 passed in 0.12s\n[exit code 1]"
    own = session.turns[6]
    assert own.role is Role.SYSTEM and own.is_synthetic and own.text == ""
    assert [t.text for t in session.human_turns()] == ["Make the failing test pass.", "ok"]
