"""A Claude Code 2.1 session whose Task call ran a sub-agent with a file of its own.

`<project>/<session>.jsonl` and `<project>/<session>/subagents/agent-<id>.jsonl` with
`agent-<id>.meta.json` beside it, as Claude Code 2.1 lays them out: the sub-agent's
records carry `"isSidechain": true` and its `agentId`, its first record is the Task's
prompt, and the Task's result in the parent is the sub-agent's report with the
"agentId: …" line. Built from `claude_builders`; text written for the tests.

The story: the person asks why the parser rejects empty tables; the agent hands that to
an Explore sub-agent, which searches the sources and finds the line (`FOUND`, in its
tool output only: the report names the module, not the error); the agent passes the
report on and the person says to leave it. `grow` appends a second search to the
sub-agent's file alone, as a sub-agent still running writes while its parent waits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from readers.claude_builders import SESSION, assistant, encode, said, tool_result, tool_use, user
from readers.claude_builders import home as claude_home
from readers.claude_builders import write as write_records

TASK = "toolu_01ExploreParser"
AGENT = "a4f1c9e2b7d3"
DESCRIPTION = "Explore the parser"
PROMPT = "Find where the parser rejects an empty table and report the file and line."
FOUND = "src/grammar/tables.py:88:        raise EmptyTableError(name)"
"""What only the sub-agent saw: its search's output."""
REPORT = "The parser rejects empty tables in the grammar module (a check in tables.py)."
LATER = "src/compat/shim.py:12: class LegacyTableShim(Table):"
"""What the sub-agent's second search (`grow`) finds."""
TASK_TURN = 1
"""The parent's turn holding the Task call (the person's question is turn 0)."""
FOUND_TURN = 1
"""The sub-agent's turn whose call printed `FOUND` (its prompt is turn 0)."""


def side(record: dict[str, Any]) -> dict[str, Any]:
    """A record of the sub-agent's own file: a sidechain record with its agent's id."""
    record["isSidechain"] = True
    record["agentId"] = AGENT
    record.pop("promptId", None)
    return record


def parent_records() -> list[dict[str, Any]]:
    task = {
        "type": "tool_use",
        "id": TASK,
        "name": "Task",
        "input": {"description": DESCRIPTION, "prompt": PROMPT, "subagent_type": "Explore"},
    }
    content = [
        {"type": "text", "text": REPORT},
        {"type": "text", "text": f"agentId: {AGENT} (use SendMessage with to: '{AGENT}')"},
    ]
    result = user(
        "p-r1", "p-a1", 40, [{"tool_use_id": TASK, "type": "tool_result", "content": content}]
    )
    result["toolUseResult"] = {
        "status": "completed",
        "prompt": PROMPT,
        "agentId": AGENT,
        "content": content[:1],
        "totalDurationMs": 35000,
        "totalTokens": 2400,
        "totalToolUseCount": 1,
        "usage": {"input_tokens": 40, "output_tokens": 9},
    }
    return [
        user("p-u1", None, 0, "Why does the parser reject empty tables? Look into it."),
        assistant("p-a1", "p-u1", 4, "msg_p1", task),
        result,
        said("p-a2", "p-r1", 44, "msg_p2", "It is the grammar module's own check."),
        user("p-u2", "p-a2", 90, "Leave it as it is."),
    ]


def sub_records() -> list[dict[str, Any]]:
    return [
        side(user("s-u1", None, 5, PROMPT)),
        side(tool_use("s-a1", "s-u1", 8, "msg_s1", "toolu_s_rg", "rg -n EmptyTable src/")),
        side(tool_result("s-r1", "s-a1", 9, "toolu_s_rg", FOUND)),
        side(said("s-a2", "s-r1", 30, "msg_s2", "The check is in the grammar module.")),
    ]


def grown_records() -> list[dict[str, Any]]:
    """What the sub-agent writes next: a second search and its output."""
    return [
        side(tool_use("s-a3", "s-a2", 31, "msg_s3", "toolu_s_rg2", "rg -n LegacyTable src/")),
        side(tool_result("s-r3", "s-a3", 32, "toolu_s_rg2", LATER)),
    ]


def agent_file(path: Path) -> Path:
    return path.with_suffix("") / "subagents" / f"agent-{AGENT}.jsonl"


def write_home(root: Path) -> Path:
    """`~/.claude/projects/<slug>/<session>.jsonl` and its sub-agent under `root`; returns
    the session's file."""
    path = claude_home(root, parent_records(), SESSION)
    write_records(agent_file(path), sub_records())
    meta = {"agentType": "Explore", "description": DESCRIPTION, "toolUseId": TASK}
    agent_file(path).with_suffix(".meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return path


def grow(path: Path) -> None:
    """Append `grown_records` to the sub-agent's file (the parent's is left as it is)."""
    with agent_file(path).open("ab") as handle:
        handle.write(b"".join(encode(r) + b"\n" for r in grown_records()))
