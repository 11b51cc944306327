"""Gemini CLI chats of late 2025 store a tool result with a file's bytes as its text.

The whole-file `.json` chats of that time keep a user message's content as one string,
each part written as `partToString(…, {verbose: true})` writes it: the `functionResponse`
of a `read_file` that opened an image becomes `[Function Response: read_file]`, its bytes
`<image/webp>`. The record is `type: "user"` like anything typed, but it is the tool's: the
person's turns around it stay theirs, each with the record's id (a labelling tool matches
turns to labels by it). The chats below are written in that shape (all text made up).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.model import Role, TurnFlag
from pivotal.readers import find_sessions, read_session
from surfaces import through_cli

RESULT = "[Function Response: read_file]<image/webp>"
ASK = "a0c4e1f2-1111-4aaa-8bbb-000000000001"
GO = "a0c4e1f2-1111-4aaa-8bbb-000000000002"
AGREE = "a0c4e1f2-1111-4aaa-8bbb-000000000003"
QUOTING = "a0c4e1f2-1111-4aaa-8bbb-000000000004"


def _user(ident: str, at: str, text: str) -> dict:
    return {"id": ident, "timestamp": f"2025-09-24T15:{at}.000Z", "type": "user", "content": text}


def _model(ident: str, at: str, text: str, calls: list[dict] | None = None) -> dict:
    message = {
        "id": ident,
        "timestamp": f"2025-09-24T15:{at}.000Z",
        "type": "gemini",
        "content": text,
        "thoughts": [{"subject": "Planning", "description": "Copy the avatar.", "timestamp": "x"}],
        "tokens": {"input": 11014, "output": 67, "cached": 2147, "thoughts": 447, "tool": 0},
        "model": "gemini-2.5-pro",
    }
    if calls is not None:
        message["toolCalls"] = calls
    return message


def _chat(tmp_path: Path, with_calls: bool) -> Path:
    read = [
        {
            "id": "read_file-1758726650000-0",
            "name": "read_file",
            "args": {"absolute_path": "C:\\Users\\lin\\assets\\avatar.webp"},
            "status": "success",
            "timestamp": "2025-09-24T15:10:53.000Z",
        }
    ]
    messages = [
        _user(ASK, "09:52", "@C:\\Users\\lin\\assets\\avatar.webp 这是头像，你能读取到吗？"),
        _model(
            "b0000000-0000-4000-8000-000000000001",
            "10:51",
            "好的，我先读取头像文件。",
            read if with_calls else None,
        ),
        _user("c0000000-0000-4000-8000-000000000001", "10:54", RESULT),
        _model("b0000000-0000-4000-8000-000000000002", "11:04", "我将把头像复制到 `src` 目录中："),
        _user(GO, "16:51", "可以执行了"),
        _model("b0000000-0000-4000-8000-000000000003", "17:30", "已完成。"),
        _user(AGREE, "28:38", "同意"),
        _model("b0000000-0000-4000-8000-000000000004", "29:00", "好的。"),
        # hard negative: the person quoting such a record, with words of their own
        _user(QUOTING, "30:00", RESULT + " 这一行是什么意思？"),
        _model("b0000000-0000-4000-8000-000000000005", "30:20", "那是工具的结果。"),
    ]
    chats = tmp_path / ".gemini" / "tmp" / ("c" * 64) / "chats"
    chats.mkdir(parents=True)
    path = chats / "session-2025-09-24T13-46-5884ea88.json"
    doc = {
        "sessionId": "5884ea88-0000-4000-8000-00000000c1a1",
        "projectHash": "c" * 64,
        "startTime": "2025-09-24T15:09:50.000Z",
        "lastUpdated": "2025-09-24T15:30:20.000Z",
        "messages": messages,
    }
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


@pytest.mark.parametrize("with_calls", [False, True], ids=["no-calls", "calls"])
def test_a_result_written_as_text_is_the_tools(tmp_path: Path, with_calls: bool) -> None:
    path = _chat(tmp_path, with_calls)
    turns = read_session(find_sessions([path]).refs[0]).turns
    people = [t for t in turns if t.is_human]
    assert [(t.message_id, t.text) for t in people] == [
        (ASK, "@C:\\Users\\lin\\assets\\avatar.webp 这是头像，你能读取到吗？"),
        (GO, "可以执行了"),
        (AGREE, "同意"),
        (QUOTING, RESULT + " 这一行是什么意思？"),
    ]
    assert all(t.flags & TurnFlag.HUMAN for t in people)
    shown = [t for t in turns if t.role is Role.USER and RESULT == t.text]
    calls = [p.tool for t in turns for p in t.parts if p.tool is not None]
    if with_calls:  # folded into the read_file call it answers
        assert shown == []
        assert [(c.name, c.output) for c in calls] == [("read_file", "<image/webp>")]
    else:  # no call to fold it into: kept in view, injected
        assert len(shown) == 1 and shown[0].flags & TurnFlag.SYNTHETIC
        assert not shown[0].is_human

    cli = through_cli(path)
    assert RESULT not in cli.person
    assert len(cli.person) == 4
