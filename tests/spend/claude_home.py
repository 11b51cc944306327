"""A Claude Code session that runs sub-agents, laid out as Claude Code 2.1 writes it.

`<project>/<session>.jsonl` and `<project>/<session>/subagents/agent-<id>.jsonl`
(with `agent-<id>.meta.json` beside the newer ones). The person asks, the agent
proposes, the person says "ok", the agent hands three pieces of work to
sub-agents (Agent calls) and edits a file itself, and the person speaks again.
The three sub-agents are tied to their calls three ways: the meta file names
the call (`toolUseId`), the call's result names the agent ("agentId: …"), or
only the prompt matches. A fourth sub-agent (no call: Claude Code's own helper)
ran while the agent worked.

Usage numbers are chosen to be counted by hand (`OWN`, `SUBS`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SID = "5f0c2a1e-9b7d-4e3a-8c21-6d4e0f9a7b31"
SLUG = "-home-dev-work-shop"
MODEL = "claude-opus-4-8"
SUB_MODEL = "claude-haiku-4-5-20251001"

OWN = {  # message id -> (input, output, cache read, cache write)
    "msg_01": (1200, 300, 0, 4000),
    "msg_02": (50, 900, 4000, 1000),
    "msg_03": (40, 120, 500, 0),
    "msg_04": (30, 60, 600, 0),
}
"""The main session's four responses (msg_02 is written as three lines, one per block)."""
SUBS = {  # agent id -> [(input, output, cache read, cache write) per response]
    "a1b2c3d": [(2000, 400, 0, 3000), (100, 500, 3000, 0)],
    "e4f5a6b": [(1500, 200, 0, 0)],
    "c7d8e9f": [(900, 100, 0, 0), (80, 90, 900, 0)],
    "acompact": [(700, 50, 0, 0)],
}
PROMPTS = {
    "a1b2c3d": "Survey the cart module and list its public functions.",
    "e4f5a6b": "Find every caller of price_total.",
    "c7d8e9f": "Check the tests of the checkout flow.",
    "acompact": "Summarise the conversation so far.",
}
CALLS = {"a1b2c3d": "toolu_01cart", "e4f5a6b": "toolu_02callers", "c7d8e9f": "toolu_03tests"}


def _stamp(second: int) -> str:
    return f"2026-11-20T10:{second // 60:02d}:{second % 60:02d}.000Z"


def _base(uuid: str, parent: str | None, second: int, **extra: Any) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/work/shop",
        "sessionId": SID,
        "version": "2.1.190",
        "gitBranch": "main",
        "uuid": uuid,
        "timestamp": _stamp(second),
        **extra,
    }


def _usage(numbers: tuple[int, int, int, int]) -> dict[str, Any]:
    fresh, output, read, write = numbers
    return {
        "input_tokens": fresh,
        "cache_creation_input_tokens": write,
        "cache_read_input_tokens": read,
        "output_tokens": output,
        "service_tier": "standard",
    }


def _assistant(uuid, parent, second, mid, blocks, *, model=MODEL, numbers=None, **extra):  # type: ignore[no-untyped-def]
    return _base(
        uuid,
        parent,
        second,
        type="assistant",
        requestId=f"req_{mid}",
        message={
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": None,
            "usage": _usage(numbers or OWN[mid]),
        },
        **extra,
    )


def _user(uuid, parent, second, content, **extra):  # type: ignore[no-untyped-def]
    return _base(
        uuid, parent, second, type="user", message={"role": "user", "content": content}, **extra
    )


def _agent_call(call: str, agent: str) -> dict[str, Any]:
    return {
        "type": "tool_use",
        "id": call,
        "name": "Agent",
        "input": {"description": f"Sub-task {agent[:3]}", "prompt": PROMPTS[agent]},
    }


def main_records() -> list[dict[str, Any]]:
    edit = {
        "type": "tool_use",
        "id": "toolu_04edit",
        "name": "Edit",
        "input": {"file_path": "/home/dev/work/shop/cart.py", "old_string": "a", "new_string": "b"},
    }
    return [
        _user("u1", None, 0, "The cart total is wrong after a discount. Plan a fix."),
        _assistant(
            "a1",
            "u1",
            5,
            "msg_01",
            [
                {
                    "type": "text",
                    "text": "Plan: 1. survey the cart 2. find callers 3. fix. Shall I go ahead?",
                }
            ],
        ),
        _user("u2", "a1", 30, "ok"),
        # one response written as three lines, one content block each, sharing its usage
        _assistant("a2", "u2", 35, "msg_02", [_agent_call("toolu_01cart", "a1b2c3d")]),
        _assistant("a3", "a2", 35, "msg_02", [_agent_call("toolu_02callers", "e4f5a6b")]),
        _assistant("a4", "a3", 35, "msg_02", [_agent_call("toolu_03tests", "c7d8e9f")]),
        _user(
            "r1",
            "a4",
            90,
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01cart",
                    "content": [
                        {"type": "text", "text": "The cart module exports add, remove, total."}
                    ],
                }
            ],
            toolUseResult={"status": "completed", "agentId": "a1b2c3d"},
        ),
        _user(
            "r2",
            "r1",
            100,
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_02callers",
                    "content": [
                        {"type": "text", "text": "checkout.py and invoice.py call price_total."},
                        {
                            "type": "text",
                            "text": "agentId: e4f5a6b (use SendMessage with to: 'e4f5a6b'"
                            " to continue this agent)",
                        },
                    ],
                }
            ],
            toolUseResult={"status": "completed", "agentId": "e4f5a6b"},
        ),
        _user(
            "r3",
            "r2",
            120,
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_03tests",
                    "content": "test_checkout covers the discount path.",
                }
            ],
        ),
        _assistant("a5", "r3", 130, "msg_03", [edit]),
        _user(
            "r4",
            "a5",
            131,
            [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_04edit",
                    "content": "The file has been updated.",
                }
            ],
        ),
        _assistant(
            "a6",
            "r4",
            140,
            "msg_04",
            [{"type": "text", "text": "Fixed: the discount is applied once."}],
        ),
        _user("u3", "a6", 600, "Now add a test for it."),
    ]


def sub_records(agent: str, start: int) -> list[dict[str, Any]]:
    records = []
    parent = None
    for n, numbers in enumerate(SUBS[agent]):
        if n == 0:
            # the agents tied by their meta file or their result were asked more than the
            # call's prompt, so the prompt alone would not tie them
            text = PROMPTS[agent] + ("" if agent in ("c7d8e9f", "acompact") else " Be brief.")
            user = _user(f"{agent}-u", None, start, text, isSidechain=True, agentId=agent)
            records.append(user)
            parent = user["uuid"]
        reply = _assistant(
            f"{agent}-a{n}",
            parent,
            start + 5 * (n + 1),
            f"msg_{agent}_{n}",
            [{"type": "text", "text": f"step {n} of {agent}"}],
            model=SUB_MODEL,
            numbers=numbers,
            isSidechain=True,
            agentId=agent,
        )
        records.append(reply)
        parent = reply["uuid"]
    return records


def write_home(root: Path) -> Path:
    """The project folder with the session and its sub-agents; returns the session file."""
    project = root / ".claude" / "projects" / SLUG
    folder = project / SID / "subagents"
    folder.mkdir(parents=True)
    path = project / f"{SID}.jsonl"
    _write(path, main_records())
    starts = {"a1b2c3d": 40, "e4f5a6b": 45, "c7d8e9f": 50, "acompact": 125}
    for agent, start in starts.items():
        _write(folder / f"agent-{agent}.jsonl", sub_records(agent, start))
    # only the newest layout writes a meta file: the first agent's names its call
    meta = {
        "agentType": "general-purpose",
        "description": "Survey the cart",
        "toolUseId": "toolu_01cart",
    }
    (folder / "agent-a1b2c3d.meta.json").write_text(json.dumps(meta))
    return path


def _write(path: Path, records: list[dict[str, Any]]) -> None:
    text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    path.write_text(text, encoding="utf-8")
