"""A Codex home whose session spawned sub-agents, each a rollout of its own (text written
for the tests, in the shapes Codex's multi-agent tools write).

The story: the person asks why the table parser rejects empty tables. The agent spawns
Ada (an explorer) and Brook (a worker) with `spawn_agent`, waits for both
(`wait_agent`), and reports. Ada spawns Cedar (depth 2) to read the changelog; Brook
runs the tests. Each finished child's `<subagent_notification>` comes back to the one
that spawned it. Another rollout is a spawned thread whose parent's rollout is gone
(`write_orphan`).

Shapes, from `codex-rs` (protocol.rs `SessionSource` / `SubAgentSource::ThreadSpawn`,
the multi-agent `spawn_agent` handler, `rollout/src/policy.rs`):
* a child's `session_meta.source` is `{"subagent": {"thread_spawn": {"parent_thread_id",
  "depth", "agent_path": null, "agent_nickname", "agent_role"}}}`, with `agent_nickname`,
  `agent_role` and (newer builds) `parent_thread_id` beside it;
* `spawn_agent`'s arguments are `{"message", "agent_type"?}` and its output the JSON text
  `{"agent_id": "<thread id>", "nickname": …}` (a string, or a list of text blocks);
* a rollout is `sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`: the parent starts
  on the 29th at 23:58 and Brook is spawned after midnight, so Brook's rollout is in the
  30th's folder.

Tokens (last_token_usage, no cache): the parent's own 1000 + 1100 + 1200, Ada 400 + 500,
Cedar 300, Brook 700.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from readers.codex_builders import Rollout

PARENT = "019ad7f2-0c41-7a10-8e55-3b2d5c6e7f01"
ADA = "019ad7f2-51aa-7b21-9c30-1a2b3c4d5e02"
BROOK = "019ad7f4-0e02-7c32-8d41-2b3c4d5e6f03"
CEDAR = "019ad7f3-2b7c-7d43-9e52-3c4d5e6f7a04"
ORPHAN = "019ad7f5-6d13-7e54-8f63-4d5e6f7a8b05"
GONE = "019ad7f5-0000-7f65-9a74-5e6f7a8b9c06"
"""The thread that spawned the orphan: no rollout of it is kept."""

ADA_CALL = "call_spawn_ada"
BROOK_CALL = "call_spawn_brook"
CEDAR_CALL = "call_spawn_cedar"
ADA_TITLE = "Ada (explorer)"
BROOK_TITLE = "Brook (worker)"
CEDAR_TITLE = "Cedar (explorer)"

ASK = "Why does the table parser reject empty tables? Split the work if it helps."
ADA_TASK = "Find where the parser rejects an empty table; report the file and line."
BROOK_TASK = "Run the parser's tests and report which fail and why."
CEDAR_TASK = "Read CHANGELOG.md and say when empty tables stopped being accepted."
FOUND = "src/grammar/tables.py:88:        raise EmptyTableError(name)"
"""What only Ada saw: its search's output."""
CHANGELOG = "## 0.9.0 - empty tables are rejected at parse time (see #412)"
"""What only Cedar saw."""
FAILING = "FAILED tests/test_tables.py::test_empty_table_roundtrip - EmptyTableError"
"""What only Brook saw."""
REPORT = "The grammar module rejects empty tables on purpose since 0.9.0; one test fails."

OWN_TOKENS = 1000 + 1100 + 1200
ADA_TOKENS = 400 + 500
CEDAR_TOKENS = 300
BROOK_TOKENS = 700
ALL_TOKENS = OWN_TOKENS + ADA_TOKENS + CEDAR_TOKENS + BROOK_TOKENS

BASE = "You are Codex, a coding agent. Be precise, safe and helpful."
CWD = "/home/dev/table-parser"


def _meta(rollout: Rollout, source: object, extra: dict[str, Any] | None = None) -> None:
    payload: dict[str, Any] = {
        "session_id": PARENT,
        "id": rollout.session_id,
        "timestamp": rollout.stamp(0),
        "cwd": CWD,
        "originator": "codex_cli_rs",
        "cli_version": "0.171.0",
        "source": source,
    }
    payload |= extra or {}
    payload |= {"model_provider": "openai", "base_instructions": {"text": BASE}}
    rollout.add("session_meta", payload)
    rollout.add("turn_context", {"cwd": CWD, "model": "gpt-5.1-codex", "effort": "medium"})


def _spawned_by(parent: str, depth: int, nickname: str, role: str) -> tuple[object, dict]:
    source = {
        "subagent": {
            "thread_spawn": {
                "parent_thread_id": parent,
                "depth": depth,
                "agent_path": None,
                "agent_nickname": nickname,
                "agent_role": role,
            }
        }
    }
    extra = {
        "parent_thread_id": parent,
        "thread_source": "subagent",
        "agent_nickname": nickname,
        "agent_role": role,
    }
    return source, extra


def _tokens(rollout: Rollout, tokens: int) -> None:
    usage = {"input_tokens": tokens - 100, "cached_input_tokens": 0, "output_tokens": 100}
    total = {**usage, "reasoning_output_tokens": 0, "total_tokens": tokens}
    info = {"total_token_usage": total, "last_token_usage": total, "model_context_window": 272000}
    rollout.add("event_msg", {"type": "token_count", "info": info, "rate_limits": None})


def _call(rollout: Rollout, call_id: str, name: str, args: dict, output: object) -> None:
    arguments = json.dumps(args)
    rollout.add(
        "response_item",
        {"type": "function_call", "name": name, "arguments": arguments, "call_id": call_id},
        gap=2.0,
    )
    rollout.add(
        "response_item",
        {"type": "function_call_output", "call_id": call_id, "output": output},
        gap=0.5,
    )


def _spawn(rollout: Rollout, call_id: str, task: str, role: str, thread: str, nick: str) -> None:
    args = {"message": task, "agent_type": role}
    _call(rollout, call_id, "spawn_agent", args, json.dumps({"agent_id": thread, "nickname": nick}))


def _person(rollout: Rollout, text: str) -> None:
    rollout.said(text)
    rollout.shown(text, kind=None)
    rollout.add("event_msg", {"type": "task_started", "model_context_window": 272000})


def _prompted(rollout: Rollout, task: str) -> None:
    """A spawned thread's first input: the spawn call's message, as a user input."""
    rollout.said(task)
    rollout.shown(task, kind=None)


def _say(rollout: Rollout, text: str) -> None:
    rollout.add("event_msg", {"type": "agent_message", "message": text}, gap=1.0)
    rollout.message("assistant", [{"type": "output_text", "text": text}])


def _notification(rollout: Rollout, thread: str, message: str) -> None:
    body = json.dumps({"agent_path": thread, "status": {"completed": message}})
    text = f"<subagent_notification>\n{body}\n</subagent_notification>"
    rollout.message("user", [{"type": "input_text", "text": text}])


def _shell(rollout: Rollout, call_id: str, command: str, output: str) -> None:
    text = (
        f"Chunk ID: 5c1e\nWall time: 0.2 seconds\nProcess exited with code 0\n"
        f"Original token count: 24\nOutput:\n{output}\n"
    )
    _call(rollout, call_id, "exec_command", {"cmd": command, "yield_time_ms": 10000}, text)


def parent() -> Rollout:
    r = Rollout(start="2026-11-29T23:58:00.000", session_id=PARENT)
    _meta(r, "cli", {"thread_source": "user"})
    _person(r, ASK)
    _spawn(r, ADA_CALL, ADA_TASK, "explorer", ADA, "Ada")
    _tokens(r, 1000)
    r.stamp(120.0)  # past midnight: Brook's rollout is kept in the next day's folder
    blocks = [{"type": "input_text", "text": json.dumps({"agent_id": BROOK, "nickname": "Brook"})}]
    r.add(
        "response_item",
        {
            "type": "function_call",
            "name": "spawn_agent",
            "arguments": json.dumps({"message": BROOK_TASK, "agent_type": "worker"}),
            "call_id": BROOK_CALL,
        },
    )
    r.add(
        "response_item", {"type": "function_call_output", "call_id": BROOK_CALL, "output": blocks}
    )
    _tokens(r, 1100)
    waited = {"status": {ADA: {"completed": "tables.py:88"}, BROOK: {"completed": "1 failing"}}}
    _call(r, "call_wait", "wait_agent", {"ids": [ADA, BROOK], "timeout_ms": 120000},
          json.dumps(waited | {"timed_out": False}))  # fmt: skip
    _notification(r, ADA, "tables.py:88 raises EmptyTableError")
    _notification(r, BROOK, "test_empty_table_roundtrip fails")
    _say(r, REPORT)
    _tokens(r, 1200)
    r.add("event_msg", {"type": "task_complete", "last_agent_message": REPORT})
    _person(r, "Thanks, leave it as it is.")
    return r


def ada() -> Rollout:
    r = Rollout(start="2026-11-29T23:58:03.000", session_id=ADA)
    _meta(r, *_spawned_by(PARENT, 1, "Ada", "explorer"))
    _prompted(r, ADA_TASK)
    _shell(r, "call_ada_rg", "rg -n EmptyTable src", FOUND)
    _tokens(r, 400)
    _spawn(r, CEDAR_CALL, CEDAR_TASK, "explorer", CEDAR, "Cedar")
    _notification(r, CEDAR, "0.9.0")
    _say(r, "tables.py:88 raises EmptyTableError; rejected since 0.9.0.")
    _tokens(r, 500)
    return r


def cedar() -> Rollout:
    r = Rollout(start="2026-11-29T23:58:40.000", session_id=CEDAR)
    _meta(r, *_spawned_by(ADA, 2, "Cedar", "explorer"))
    _prompted(r, CEDAR_TASK)
    _shell(r, "call_cedar_sed", "sed -n 1,40p CHANGELOG.md", CHANGELOG)
    _say(r, "Since 0.9.0.")
    _tokens(r, 300)
    return r


def brook() -> Rollout:
    r = Rollout(start="2026-11-30T00:00:05.000", session_id=BROOK)
    _meta(r, *_spawned_by(PARENT, 1, "Brook", "worker"))
    _prompted(r, BROOK_TASK)
    _shell(r, "call_brook_pytest", "pytest -q tests/test_tables.py", FAILING)
    _say(r, "One test fails: test_empty_table_roundtrip.")
    _tokens(r, 700)
    return r


def write_home(root: Path) -> dict[str, Path]:
    """The four rollouts under `root/.codex/sessions/`, by thread id."""
    return {r.session_id: r.write(root) for r in (parent(), ada(), cedar(), brook())}


def write_orphan(root: Path) -> Path:
    """A spawned thread whose parent's rollout is not kept (deleted, or never written)."""
    r = Rollout(start="2026-11-28T10:00:00.000", session_id=ORPHAN)
    _meta(r, *_spawned_by(GONE, 1, "Dune", "worker"))
    _prompted(r, "Format the parser module.")
    _shell(r, "call_orphan_fmt", "ruff format src/grammar", "1 file reformatted")
    _say(r, "Formatted.")
    _tokens(r, 250)
    return r.write(root)
