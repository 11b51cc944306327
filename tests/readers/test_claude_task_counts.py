"""A Task's result counts the calls its sub-agent made (`toolUseResult.totalToolUseCount`):
the reader keeps that count on the call, so the work done through a sub-agent is the
agent's work too, whether the sub-agent's records sit in the file (Claude Code 1.0) or in
`<session>/subagents/` (2.x)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import SessionRef, Turn
from pivotal.readers import read_session

from . import claude_builders as cb


def _task(meta: object) -> list[dict]:
    block = {
        "type": "tool_use",
        "id": "toolu_task",
        "name": "Task",
        "input": {"description": "Port the parser", "prompt": "Port the parser to the new API."},
    }
    result = cb.user(
        "r1",
        "a1",
        40,
        [{"tool_use_id": "toolu_task", "type": "tool_result", "content": "Ported; 12 tests pass."}],
    )
    result["toolUseResult"] = meta
    return [
        cb.user("u1", None, 0, "Port the parser, please."),
        cb.assistant("a1", "u1", 1, "msg_1", block),
        result,
    ]


def _calls(path: Path) -> list:
    turns: list[Turn] = read_session(SessionRef("claude-code", path)).turns
    return [p.tool for t in turns for p in t.parts if p.tool is not None]


@pytest.mark.parametrize(
    "meta",
    [
        {
            "content": [{"type": "text", "text": "Ported."}],
            "totalDurationMs": 93000,
            "totalTokens": 51000,
            "totalToolUseCount": 27,
        },  # 1.0.x
        {
            "status": "completed",
            "prompt": "Port the parser to the new API.",
            "agentId": "a7f3",
            "content": [{"type": "text", "text": "Ported."}],
            "totalDurationMs": 93000,
            "totalTokens": 51000,
            "totalToolUseCount": 27,
            "usage": {"input_tokens": 9},
        },  # 2.x
    ],
)
def test_a_task_result_keeps_how_many_calls_its_sub_agent_made(tmp_path: Path, meta: dict) -> None:
    (call,) = _calls(cb.home(tmp_path, _task(meta)))
    assert call.name == "Task" and call.inner_calls == 27
    assert call.duration_ms == 93000


@pytest.mark.parametrize("count", [None, "27", -3, True, 2.5])
def test_a_missing_or_odd_count_is_no_count(tmp_path: Path, count: object) -> None:
    meta = {"totalDurationMs": 5000} if count is None else {"totalToolUseCount": count}
    (call,) = _calls(cb.home(tmp_path, _task(meta)))
    assert call.inner_calls is None
    assert call.has_result and not call.failed
