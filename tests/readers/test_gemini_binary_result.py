"""A Gemini CLI tool result that carries a file's bytes is the tool's, never the person's.

When `read_file` opens an image or a PDF, Gemini CLI records the result as a message of
`type: "user"` holding the `functionResponse` ("Binary content provided (1 item(s)).") and
an `inlineData` part with the file's base64 bytes, and nothing typed. Read as a person's
message it would be an empty prompt: the strongest silence there is, in the middle of the
agent's own work. The chat below is written in that shape (whole-file JSON and JSONL).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from pivotal.model import Role, TurnFlag
from pivotal.readers import find_sessions, read_session

CALL = "read_file-1774840000000-a1b2c3"
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(200))).decode()


def _messages(with_typed_note: bool = False) -> list[dict]:
    result: list[dict] = [
        {
            "functionResponse": {
                "id": CALL,
                "name": "read_file",
                "response": {"output": "Binary content provided (1 item(s))."},
            }
        },
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
    ]
    if with_typed_note:
        result.append({"text": "this is the screenshot I meant"})
    return [
        {
            "id": "u1",
            "timestamp": "2026-03-30T03:10:00.000Z",
            "type": "user",
            "content": [{"text": "Look at the screenshot in assets/ and tell me what it shows"}],
        },
        {
            "id": "g1",
            "timestamp": "2026-03-30T03:10:20.000Z",
            "type": "gemini",
            "content": "I will open the screenshot.",
            "toolCalls": [
                {
                    "id": CALL,
                    "name": "read_file",
                    "args": {"absolute_path": "/home/dev/vault/assets/shot.png"},
                    "status": "success",
                    "timestamp": "2026-03-30T03:10:21.000Z",
                }
            ],
            "model": "gemini-2.5-pro",
        },
        {"id": "u2", "timestamp": "2026-03-30T03:10:22.000Z", "type": "user", "content": result},
        {
            "id": "g2",
            "timestamp": "2026-03-30T03:10:40.000Z",
            "type": "gemini",
            "content": "The screenshot shows a chat between two agents about a merge.",
            "model": "gemini-2.5-pro",
        },
    ]


def _write(tmp_path: Path, messages: list[dict], jsonl: bool) -> Path:
    chats = tmp_path / ".gemini" / "tmp" / ("a" * 64) / "chats"
    chats.mkdir(parents=True)
    head = {
        "sessionId": "0bedd000-1111-4222-8333-444455556666",
        "projectHash": "a" * 64,
        "startTime": "2026-03-30T03:10:00.000Z",
        "lastUpdated": "2026-03-30T03:10:40.000Z",
    }
    if jsonl:
        path = chats / "session-2026-03-30T03-10-0bedd000.jsonl"
        lines = [json.dumps({**head, "kind": "main"})] + [json.dumps(m) for m in messages]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        path = chats / "session-2026-03-30T03-10-0bedd000.json"
        path.write_text(json.dumps({**head, "messages": messages}, indent=2), encoding="utf-8")
    return path


def _turns(path: Path):  # type: ignore[no-untyped-def]
    refs = find_sessions([path]).refs
    assert len(refs) == 1 and refs[0].format == "gemini"
    return read_session(refs[0]).turns


def test_a_binary_tool_result_is_no_turn_of_the_person(tmp_path: Path) -> None:
    for jsonl in (False, True):
        turns = _turns(_write(tmp_path / str(jsonl), _messages(), jsonl))
        people = [t for t in turns if t.role is Role.USER]
        assert [t.preview for t in people] == [
            "Look at the screenshot in assets/ and tell me what it shows"
        ], jsonl
        calls = [p.tool for t in turns for p in t.parts if p.tool is not None]
        assert [c.name for c in calls] == ["read_file"]
        assert calls[0].output is not None and "Binary content" in calls[0].output


def test_words_typed_beside_a_result_stay_the_persons(tmp_path: Path) -> None:
    """Hard negative: text in the same record is still somebody's words, with the image."""
    turns = _turns(_write(tmp_path, _messages(with_typed_note=True), jsonl=False))
    people = [t for t in turns if t.role is Role.USER]
    assert [t.preview for t in people][-1] == "this is the screenshot I meant"
    assert people[-1].flags & TurnFlag.HUMAN
    assert [p.kind.value for p in people[-1].parts] == ["text", "attachment"]
