"""A Gemini CLI JSONL chat whose start was cut off is still a Gemini chat.

A chat file copied (or committed to a repository) while the CLI was still writing it can
lose its head: no header line with the session id, the file opening on a model record.
The rest is as the CLI writes it: `$set {lastUpdated}` patches after every record, a model
message written twice under one id (empty, then with its tool calls: the last one wins),
tool results stored as `type: "user"` records of `functionResponse` parts. The person's
turns keep their record ids; the results fold into their calls. All text is made up.
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import Role, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from surfaces import through_cli

YES = "5e0a1b2c-0000-4000-8000-0000000000a1"
AGAIN = "5e0a1b2c-0000-4000-8000-0000000000a2"
PUSH = "5e0a1b2c-0000-4000-8000-0000000000a3"
_clock = [0]


def _stamp() -> str:
    _clock[0] += 1
    return f"2026-06-11T04:{_clock[0] // 60 + 31}:{_clock[0] % 60:02d}.000Z"


def _touch(lines: list[dict]) -> None:
    lines.append({"$set": {"lastUpdated": _stamp()}})


def _model(ident: str, text: str = "", calls: list[tuple[str, str, str]] = ()) -> dict:
    record: dict = {
        "id": ident,
        "timestamp": _stamp(),
        "type": "gemini",
        "content": text,
        "thoughts": [],
        "tokens": {"input": 85048, "output": 149, "cached": 47713, "thoughts": 0, "tool": 0},
        "model": "gemini-3-flash-preview",
    }
    if calls:
        record["toolCalls"] = [
            {"id": call, "name": name, "args": {"command": command}, "status": "success"}
            for call, name, command in calls
        ]
    return record


def _results(ident: str, calls: list[tuple[str, str, str]]) -> dict:
    parts = [
        {
            "functionResponse": {
                "id": call,
                "name": name,
                "response": {"output": f"Output: ran {command}\nExit Code: 0"},
            }
        }
        for call, name, command in calls
    ]
    return {"id": ident, "timestamp": _stamp(), "type": "user", "content": parts}


def _step(lines: list[dict], n: int, calls: list[tuple[str, str, str]]) -> None:
    """One model step as the CLI writes it: the message empty, again with its calls, results."""
    ident = f"9d00000{n}-0000-4000-8000-000000000000"
    lines.append(_model(ident))
    _touch(lines)
    lines.append(_model(ident, calls=calls))
    lines.append(_results(f"7e00000{n}-0000-4000-8000-000000000000", calls))
    _touch(lines)


def _said(ident: str, text: str) -> dict:
    return {"id": ident, "timestamp": _stamp(), "type": "user", "content": [{"text": text}]}


def headless(tmp_path: Path) -> Path:
    shell = "run_shell_command"
    _clock[0] = 0
    lines: list[dict] = []
    # the file opens mid-turn: a model record whose first copy was cut off, then its result
    first = [("run_shell_command__run_shell_command_1781152303505_0", shell, "git mv web apps")]
    lines.append(_model("9d000000-0000-4000-8000-000000000000", calls=first))
    lines.append(_results("7e000000-0000-4000-8000-000000000000", first))
    _touch(lines)
    lines.append(_model("9d0000f1-0000-4000-8000-000000000000", "第一階段完成。要繼續嗎？"))
    _touch(lines)
    lines.append(_said(YES, "是"))
    _touch(lines)
    _step(
        lines,
        2,
        [
            ("update_topic__update_topic_1781152342790_0", "update_topic", "contract"),
            ("run_shell_command__run_shell_command_1781152342806_1", shell, "pnpm build"),
        ],
    )
    lines.append(_model("9d0000f2-0000-4000-8000-000000000000", "已同步。要加入推理模式嗎？"))
    _touch(lines)
    lines.append(_said(AGAIN, "是"))
    _touch(lines)
    _step(lines, 3, [("replace__replace_1781152537318_0", "replace", "apps/web/page.tsx")])
    lines.append(_model("9d0000f3-0000-4000-8000-000000000000", "推理模式已整合。"))
    _touch(lines)
    lines.append(_said(PUSH, "同步到github"))
    _touch(lines)
    lines.append(_model("9d0000f4-0000-4000-8000-000000000000"))  # cut off mid-reply
    _touch(lines)
    chats = tmp_path / ".gemini" / "tmp" / "esg" / "chats"
    chats.mkdir(parents=True)
    path = chats / "session-2026-06-11T03-50-f3462d37.jsonl"
    text = "".join(
        json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines
    )
    path.write_text(text, encoding="utf-8")
    return path


def test_a_chat_without_its_header_is_read_as_gemini(tmp_path: Path) -> None:
    path = headless(tmp_path)
    spec = sniff_path(path)
    assert spec is not None and spec.name == "gemini"
    refs = find_sessions([path]).refs
    assert [ref.format for ref in refs] == ["gemini"]
    session = read_session(refs[0])
    assert session.started is not None  # the first record's time stands for the lost header
    people = [t for t in session.turns if t.is_human]
    assert [(t.message_id, t.text) for t in people] == [
        (YES, "是"),
        (AGAIN, "是"),
        (PUSH, "同步到github"),
    ]
    # no result is a turn: each is folded into its call, and each call is shown once
    users = [t for t in session.turns if t.role is Role.USER]
    assert users == people and all(t.flags & TurnFlag.HUMAN for t in users)
    calls = [p.tool for t in session.turns for p in t.parts if p.tool is not None]
    assert len(calls) == 4
    assert all(c.output is not None and "Exit Code: 0" in c.output for c in calls)

    cli = through_cli(path)
    assert cli.person == ["是", "是", "同步到github"]


def test_other_records_without_a_header_are_not_taken_for_gemini(tmp_path: Path) -> None:
    """Hard negatives: message-like first lines with no Gemini model record, or another
    agent's keys."""
    samples = {
        "plain.jsonl": [
            {"id": "1", "timestamp": "2026-06-11T04:31:10.000Z", "type": "user", "content": "hi"},
            {
                "id": "2",
                "timestamp": "2026-06-11T04:31:11.000Z",
                "type": "assistant",
                "content": "yo",
            },
        ],
        "qwenish.jsonl": [
            {"id": "1", "uuid": "u1", "type": "gemini", "content": "hi", "timestamp": "x"},
        ],
        "patch.jsonl": [{"$set": {"lastUpdated": "2026-06-11T04:31:10.000Z"}}],
    }
    for name, lines in samples.items():
        path = tmp_path / name
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
        path.write_text(text, encoding="utf-8")
        spec = sniff_path(path)
        assert spec is None or spec.name != "gemini", name
