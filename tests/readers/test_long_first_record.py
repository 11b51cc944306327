"""A session whose first record is longer than the part of the file read to recognise it.

pivotal tells a format by the first 64 KB of a file (`HEAD_BYTES`). A first prompt with a
pasted log, a long prompt queued before the first turn, a Codex `session_meta` carrying the
agent's whole instructions: the first record does not end inside those 64 KB, and the file
was "unknown format" and left out of every listing without a word. A record is now known by
its leading keys (`decode_json_start`), and a file that looks like a session but is in no
known format is named where it was left out.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import Static

from cli_helpers import fake_replayer, invoke
from hardening.fuzz_support import FUZZ_SETTINGS, JSON_VALUES, encode
from pivotal.readers import HEAD_BYTES, base, find_sessions, read_session, sniff_path
from pivotal.tui.app import ReplayerApp
from surfaces import in_replayer, listed, through_cli

from . import claude_builders as cb

# A pasted build log: longer than the head, with what real logs hold (quotes, backslashes,
# escapes, non-ASCII) so the cut can fall anywhere in an escape or a character.
LOG_LINE = 'step 41/97 \u2713 compiled "src\\\\core\\\\ledger.rs" in 0.8s \u2014 warn: unused `x`\n'
PASTED = "Here is the build log, find why it is slow:\n" + LOG_LINE * 1500


def test_the_paste_is_longer_than_the_head() -> None:
    assert len(cb.encode(PASTED)) > HEAD_BYTES + 16 * 1024


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            b'{"type":"user","uuid":"u1","message":{"content":"a long pas',
            {
                "type": "user",
                "uuid": "u1",
                "message": {"content": "a long pas"},
            },
        ),
        (b'{"a":1,"b":[true,{"c":"d"},3', {"a": 1, "b": [True, {"c": "d"}]}),
        (b'{"a":"x\\', {"a": "x"}),  # cut inside an escape
        (b'{"a":"x\\\\', {"a": "x\\"}),  # an escaped backslash is whole
        (b'{"a":"x\\u00e', {"a": "x"}),  # cut inside a \\u escape
        (b'{"a":"caf\xc3', {"a": "caf\ufffd"}),  # cut inside a UTF-8 character
        (b'{"a":12', {}),  # a number cut short is left out (12 of 1234)
        (b'{"ke', {}),  # so is a key
        (b'[{"role":"user","content":"hel', [{"role": "user", "content": "hel"}]),
        (b'{"a":1}', {"a": 1}),
        (b"not json", None),
        (b'"a string"', None),
        (b'{"a" "b"}', None),
    ],
)
def test_decode_json_start_keeps_what_is_whole(text: bytes, expected: object) -> None:
    assert base.decode_json_start(text) == expected


@FUZZ_SETTINGS
@given(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=6), st.data())
def test_decode_json_start_keeps_only_what_the_record_holds(record: dict, data) -> None:
    """Cut anywhere, the start of a record reads as part of that record, never more."""
    text = encode(record)
    whole = base.decode_json(text)  # (`encode` writes infinity as 1e400, keys included)
    assert base.decode_json_start(text) == whole
    cut = data.draw(st.integers(0, len(text)), label="cut")
    start = base.decode_json_start(text[:cut])
    assert start is None or isinstance(start, dict)
    for key, value in (start or {}).items():
        assert isinstance(whole, dict) and key in whole
        if not isinstance(value, dict | list | str):  # containers and strings may be cut
            assert value == whole[key] or value != value  # (NaN is not itself)


# -- Claude Code ---------------------------------------------------------------------


def _pasted_first_prompt() -> list[object]:
    """Claude Code 2.1.2xx: the mode and a file snapshot, then a first prompt of 90 KB."""
    return [
        cb.permission_mode(),
        cb.file_history_snapshot("u1"),
        cb.user("u1", None, 0, PASTED),
        cb.said("a1", "u1", 5, "msg_1", "The slow step is the linker: it runs twice."),
        cb.user("u2", "a1", 9, "ok fix it"),
        cb.said("a2", "u2", 14, "msg_2", "Done."),
    ]


def _queued_first_prompt() -> list[object]:
    """A prompt typed before the session's first turn: a 90 KB enqueue record opens the file."""
    return [
        cb.queue_operation(0, "enqueue", PASTED),
        cb.queue_operation(0, "dequeue"),
        cb.user("u1", None, 1, PASTED),
        cb.said("a1", "u1", 5, "msg_1", "The slow step is the linker: it runs twice."),
    ]


@pytest.mark.parametrize("records", [_pasted_first_prompt, _queued_first_prompt])
async def test_a_claude_session_with_a_long_first_record_reads_everywhere(
    tmp_path: Path, records
) -> None:
    path = cb.home(tmp_path, records())
    assert len(path.read_bytes().split(b"\n", 3)[2]) > HEAD_BYTES  # the prompt does not fit
    cli = through_cli(path)
    assert cli.scan["format"] == "claude-code"
    assert cli.person[0] == PASTED
    rows = listed(tmp_path)
    assert [(row["agent"], row["path"]) for row in rows] == [("claude-code", str(path))]
    assert rows[0]["human_turns"] == len(cli.person)
    shown = await in_replayer(path)
    assert len(shown.person) == len(cli.person)
    assert "Here is the build log" in shown.person[0]


# -- every other line-based and single-JSON format -------------------------------------

BIG = "word " * 20_000  # 100 KB


def _codex_bare_meta() -> bytes:
    """A 2025 rollout: a bare meta line (no `type`) with the agent's instructions inlined."""
    meta = {"id": "0199a1b2-0000-7000-8000-000000000001", "timestamp": "2025-05-02T08:00:00Z"}
    meta |= {"instructions": BIG, "git": {"branch": "main"}}
    message = {"type": "message", "role": "user", "content": [{"type": "input_text"}]}
    message["content"][0]["text"] = "list the files"
    return cb.encode(meta) + b"\n" + cb.encode(message) + b"\n"


def _codex_session_meta() -> bytes:
    """A rollout whose `session_meta` carries 100 KB of base instructions, type first."""
    meta = {"type": "session_meta", "timestamp": "2026-11-30T03:50:56.225Z"}
    meta["payload"] = {"id": "01a2", "cwd": "/w", "base_instructions": {"text": BIG}}
    said = {"type": "message", "role": "user", "content": [{"type": "input_text"}]}
    said["content"][0]["text"] = "list the files"
    item = {"timestamp": "2026-11-30T03:50:57.000Z", "type": "response_item", "payload": said}
    prompt = {"type": "user_message", "message": "list the files", "images": []}
    event = {"timestamp": "2026-11-30T03:50:57.001Z", "type": "event_msg", "payload": prompt}
    return b"\n".join(cb.encode(r) for r in (meta, item, event)) + b"\n"


def _qwen() -> bytes:
    first = {"uuid": "q1", "parentUuid": None, "sessionId": "s-q", "timestamp": cb.stamp(0)}
    first |= {"type": "user", "cwd": "/w", "version": "0.24.4"}
    first["message"] = {"role": "user", "parts": [{"text": PASTED}]}
    reply = {"uuid": "q2", "parentUuid": "q1", "sessionId": "s-q", "timestamp": cb.stamp(3)}
    reply |= {"type": "assistant", "cwd": "/w", "version": "0.24.4", "model": "qwen3-coder"}
    reply["message"] = {"role": "model", "parts": [{"text": "The linker runs twice."}]}
    return cb.encode(first) + b"\n" + cb.encode(reply) + b"\n"


def _gemini() -> bytes:
    """A chat converted to JSONL on resume: its header carries the old chat's summary."""
    header = {"sessionId": "5b2c8740-0000-4000-8000-000000000002", "projectHash": "ab" * 32}
    header |= {"startTime": cb.stamp(0), "lastUpdated": cb.stamp(9), "kind": "main"}
    header["summary"] = BIG
    prompt = {"id": "m1", "timestamp": cb.stamp(1), "type": "user", "content": [{"text": "go"}]}
    return cb.encode(header) + b"\n" + cb.encode(prompt) + b"\n"


def _generic() -> bytes:
    system = {"role": "system", "content": BIG}
    prompt = {"role": "user", "content": "Summarise the log."}
    return cb.encode(system) + b"\n" + cb.encode(prompt) + b"\n"


def _continue() -> bytes:
    """Continue names a session by its first prompt: a long one comes before `history`."""
    doc = {"sessionId": "7a59d172-0000-4000-8000-000000000003", "title": "word " * 2000}
    doc |= {"workspaceDirectory": "/w", "history": []}
    doc["history"] = [
        {"message": {"role": "user", "content": PASTED}, "contextItems": []},
        {"message": {"role": "assistant", "content": "The linker."}, "contextItems": []},
    ]
    return json.dumps(doc, indent=2).encode()


OTHERS = {
    "codex-2025.jsonl": ("codex", _codex_bare_meta),
    "codex.jsonl": ("codex", _codex_session_meta),
    "qwen.jsonl": ("qwen", _qwen),
    "gemini.jsonl": ("gemini", _gemini),
    "generic.jsonl": ("generic", _generic),
    "continue.json": ("continue", _continue),
}


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_every_format_is_known_by_the_start_of_a_long_first_record(
    tmp_path: Path, name: str
) -> None:
    fmt, build = OTHERS[name]
    path = tmp_path / name
    path.write_bytes(build())
    spec = sniff_path(path)
    assert spec is not None and spec.name == fmt
    found = find_sessions([tmp_path])
    assert [ref.format for ref in found.refs] == [fmt] and not found.problems
    session = read_session(found.refs[0])
    assert session.turns and not session.skipped


# -- never left out without a word -------------------------------------------------------


def _unknown_session() -> list[object]:
    """A session in a shape no reader knows (a future record type only)."""
    return [{"kind": "turn", "by": "person", "text": "hello"}, {"kind": "turn", "by": "agent"}]


def test_a_folder_names_the_session_files_it_could_not_read(tmp_path: Path) -> None:
    cb.write(tmp_path / "good.jsonl", _pasted_first_prompt())
    cb.write(tmp_path / "odd.jsonl", _unknown_session())
    (tmp_path / "empty.jsonl").write_bytes(b"")  # nothing in it to lose
    (tmp_path / "README.md").write_text("# notes\n")  # not a session at all
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n')
    result = invoke("scan", "--json", tmp_path)
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert [row["format"] for row in rows] == ["claude-code"]
    assert f"{tmp_path}: 1 file looks like a session but is in no known format" in result.stderr
    assert "odd.jsonl" in result.stderr
    for quiet in ("empty.jsonl", "README.md", "package.json"):
        assert quiet not in result.stderr
    assert result.exit_code == 3  # as for a file in a folder that cannot be read: the rest is read


def test_the_listing_names_a_session_file_it_could_not_read(tmp_path: Path) -> None:
    cb.home(tmp_path, _pasted_first_prompt())
    odd = cb.home(tmp_path, _unknown_session(), name="0f1e2d3c-0000-4000-8000-000000000009")
    cb.home(tmp_path, [], name="0f1e2d3c-0000-4000-8000-00000000000a").write_bytes(b"")
    result = invoke("sessions", "--json", "--root", tmp_path)
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert len(rows) == 1 and rows[0]["agent"] == "claude-code"
    assert f"{odd}: unknown format" in result.stderr
    assert "00000000000a" not in result.stderr  # an empty file: a session that wrote nothing
    assert result.exit_code == 3


async def test_the_picker_says_how_many_session_files_it_could_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cb.home(tmp_path, _pasted_first_prompt())
    cb.home(tmp_path, _unknown_session(), name="0f1e2d3c-0000-4000-8000-000000000009")
    seen = fake_replayer(monkeypatch)
    assert invoke("replay", "--root", tmp_path).exit_code == 0
    assert len(seen["refs"]) == 1 and seen["unlisted"] == 1  # type: ignore[arg-type]
    app = ReplayerApp(None, refs=seen["refs"], unlisted=1)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 24)):
        title = str(app.screen.query_one("#picker-title", Static).render())
    assert "1 session found · 1 file not read (see pivotal sessions)" in title
