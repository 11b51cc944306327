"""A Gemini CLI home whose session ran two sub-agents (text written for the tests, in the
shapes Gemini CLI >= 0.39 writes: `chatRecordingService.ts`, `local-invocation.ts`).

`~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl` is the session; each agent it
ran wrote `chats/<session id>/<agent run id>.jsonl`, whose header says `kind: "subagent"`.
The agents are tools named after them: the call's record has the agent's inputs as its
args, `Subagent '<name>' finished. …` as its result and the agent's progress
(`isSubagentProgress`) as its display; no id links the call and the file.

The story: the person asks why empty tables are rejected; the model runs
`codebase_investigator` (which greps and finds `FOUND`), then, after the person asks for a
fix plan, the `generalist` agent (which reads the tests). `write_orphan` adds an agent's
chat whose session's file is gone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SESSION = "7d1c4e2a-93b0-4f6e-a1c2-5e8f9a0b1c2d"
INVESTIGATOR = "q7k2m9"
GENERALIST = "x3p8t1"
ORPHAN_PARENT = "2b9e6f10-4c3d-4a5b-9e8f-0a1b2c3d4e5f"
ORPHAN = "w5n1c4"
PROJECT = "table-parser"
HASH = "4f0c6b2d9e8a7f1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b"
CWD = "/home/dev/table-parser"
INVESTIGATE_CALL = "codebase_investigator__c1d2e3f4a5b6"
GENERALIST_CALL = "generalist__f6e5d4c3b2a1"
OBJECTIVE = "Find where the parser rejects an empty table and why."
REQUEST = "Read tests/test_tables.py and list the tests an empty-table fix would touch."
FOUND = "src/grammar/tables.py:88:        raise EmptyTableError(name)"
"""What only the investigator saw."""
TESTS_SEEN = "def test_empty_table_roundtrip(tmp_path):"
"""What only the generalist saw."""

OWN_TOKENS = 2000 + 900 + 1800 + 700
INVESTIGATOR_TOKENS = 1500 + 600
GENERALIST_TOKENS = 1300


def _at(seconds: float) -> str:
    minutes, secs = divmod(seconds, 60)
    return f"2026-11-30T09:{14 + int(minutes):02d}:{secs:06.3f}Z"


def _tokens(total: int) -> dict[str, int]:
    return {"input": total - 100, "output": 100, "cached": 0, "thoughts": 0, "tool": 0,
            "total": total}  # fmt: skip


def _header(session: str, kind: str, at: float) -> dict[str, Any]:
    header: dict[str, Any] = {
        "sessionId": session,
        "projectHash": HASH,
        "startTime": _at(at),
        "lastUpdated": _at(at),
        "kind": kind,
    }
    if kind == "subagent":
        header["directories"] = [CWD]
    return header


def _user(ident: str, at: float, text: str) -> dict[str, Any]:
    return {"id": ident, "timestamp": _at(at), "type": "user", "content": [{"text": text}]}


def _gemini(
    ident: str, at: float, text: str, tokens: int, calls: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": ident,
        "timestamp": _at(at),
        "type": "gemini",
        "content": text,
        "thoughts": [],
        "tokens": _tokens(tokens),
        "model": "gemini-3.8-flash",
    }
    if calls:
        record["toolCalls"] = calls
    return record


def _call(ident: str, name: str, args: dict, output: str, at: float, display: object) -> dict:
    return {
        "id": ident,
        "name": name,
        "args": args,
        "result": [
            {"functionResponse": {"id": ident, "name": name, "response": {"output": output}}}
        ],
        "status": "success",
        "timestamp": _at(at),
        "resultDisplay": display,
        "description": "",
        "displayName": name,
        "renderOutputAsMarkdown": True,
    }


def _agent_call(ident: str, name: str, args: dict, result: str, at: float) -> dict[str, Any]:
    progress = {
        "isSubagentProgress": True,
        "agentName": name,
        "recentActivity": [
            {"id": f"{ident}-a1", "type": "tool_call", "content": "grep_search",
             "args": "{}", "status": "completed"},
        ],
        "state": "completed",
        "result": result,
        "terminateReason": "GOAL",
    }  # fmt: skip
    output = f"Subagent '{name}' finished.\nTermination Reason: GOAL\nResult:\n{result}"
    return _call(ident, name, args, output, at, progress)


def session_records() -> list[dict[str, Any]]:
    investigated = _agent_call(
        INVESTIGATE_CALL,
        "codebase_investigator",
        {"objective": OBJECTIVE},
        "tables.py rejects empty tables in parse_table (line 88).",
        2.0,
    )
    generalised = _agent_call(
        GENERALIST_CALL,
        "generalist",
        {"request": REQUEST},
        "Two tests: test_empty_table_roundtrip and test_table_errors.",
        62.0,
    )
    return [
        _header(SESSION, "main", 0.0),
        _user("u-1", 1.0, "Why does the parser reject empty tables?"),
        _gemini("g-1", 2.0, "", 2000, [investigated]),
        {"$set": {"lastUpdated": _at(40.0)}},
        _gemini("g-2", 40.0, "It is deliberate: parse_table raises on an empty table.", 900),
        _user("u-2", 60.0, "Plan a fix that accepts them."),
        _gemini("g-3", 62.0, "", 1800, [generalised]),
        _gemini("g-4", 95.0, "Changing parse_table and two tests would do it.", 700),
    ]


def investigator_records() -> list[dict[str, Any]]:
    grep = _call(
        "grep_search__aa11",
        "grep_search",
        {"pattern": "EmptyTableError", "dir_path": "src"},
        f"Found 1 match\n{FOUND}",
        5.0,
        "Found 1 match",
    )
    done = _call(
        "complete_task__bb22",
        "complete_task",
        {"report": "parse_table raises EmptyTableError"},
        "Output submitted and task completed.",
        30.0,
        "Output submitted and task completed.",
    )
    query = f"Your task is to investigate the codebase for this objective:\n{OBJECTIVE}"
    return [
        _header(INVESTIGATOR, "subagent", 3.0),
        _user("s1-u1", 3.1, query),
        _gemini("s1-g1", 5.0, "", 1500, [grep]),
        _gemini("s1-g2", 30.0, "", 600, [done]),
    ]


def generalist_records() -> list[dict[str, Any]]:
    read = _call(
        "read_file__cc33",
        "read_file",
        {"file_path": "tests/test_tables.py"},
        TESTS_SEEN,
        66.0,
        "",
    )
    return [
        _header(GENERALIST, "subagent", 63.0),
        _user("s2-u1", 63.1, REQUEST),
        _gemini("s2-g1", 66.0, "", 1300, [read]),
    ]


def chats(root: Path) -> Path:
    return root / ".gemini" / "tmp" / PROJECT / "chats"


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    path.write_text(text, encoding="utf-8")
    return path


def session_file(root: Path) -> Path:
    return chats(root) / f"session-2026-11-30T09-14-{SESSION[:8]}.jsonl"


def agent_file(root: Path, agent: str) -> Path:
    return chats(root) / SESSION / f"{agent}.jsonl"


def write_home(root: Path) -> Path:
    """The session and its two agents' chats under `root`; returns the session's file."""
    (root / ".gemini" / "tmp" / PROJECT / ".project_root").parent.mkdir(parents=True)
    (root / ".gemini" / "tmp" / PROJECT / ".project_root").write_text(CWD, encoding="utf-8")
    _write(agent_file(root, INVESTIGATOR), investigator_records())
    _write(agent_file(root, GENERALIST), generalist_records())
    return _write(session_file(root), session_records())


def write_orphan(root: Path) -> Path:
    """An agent's chat whose session's file is gone (the folder is its session's full id)."""
    records = [
        _header(ORPHAN, "subagent", 200.0),
        _user("o-u1", 200.1, "List the modules that import the grammar."),
        _gemini("o-g1", 210.0, "cli.py and api.py import it.", 400),
    ]
    return _write(chats(root) / ORPHAN_PARENT / f"{ORPHAN}.jsonl", records)
