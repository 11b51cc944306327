"""A Claude Code 1.0.x session whose sub-agents are written into its own file.

Before `<session>/subagents/` existed (2.0.28), a Task call's sub-agent went into the
main file as records with `"isSidechain": true`: a user record with no parent holding
the call's prompt, then the sub-agent's replies, calls and results chained to it by
`parentUuid`. Claude Code writes them as one block when the sub-agent finishes, with
the times they happened, right before the Task's `tool_result`; parallel Tasks give
one block and result after another, in the order they finished. Text written for the
test, in the key order 1.0.x writes.

The story (`records`): the person asks for a CSV export; the agent runs two Tasks in
parallel (types, writer), the writer finishing first; its third Task (tests) is
interrupted before the sub-agent wrote anything, and the person asks for it again: the
retry has the very same prompt. A fourth Task (docs) is interrupted mid-way: its block
holds what it did before the interrupt. The person then says "ok" and the agent ends.

`rebuilt` lays the same sub-agents out the newer way (a file each under `subagents/`)
so both layouts can be compared. Usage numbers are chosen to be added up by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SESSION = "3b9e6f10-2c4d-4a8e-b7f1-0d5c9a2e8f64"
CWD = "/home/dev/src/exporter"
SLUG = "-home-dev-src-exporter"
MODEL = "claude-sonnet-4-20250514"
SUB_MODEL = MODEL
VERSION = "1.0.77"

PROMPTS = {
    "types": "Create the row types for the CSV export in export/types.py.",
    "writer": "Write export/writer.py: a CsvWriter that takes rows and writes a file.",
    "tests": "Add tests for the CSV writer under tests/test_writer.py and run them.",
    "docs": "Document the CSV export in docs/export.md.",
}
DESCRIPTIONS = {
    "types": "Row types",
    "writer": "CSV writer",
    "tests": "Writer tests",
    "docs": "Export docs",
}
CALLS = {  # the Task calls: the tests are asked twice (the first run interrupted)
    "types": "toolu_01TypesA",
    "writer": "toolu_01WriterB",
    "tests-1": "toolu_02TestsC",
    "tests": "toolu_03TestsD",
    "docs": "toolu_04DocsE",
}
OWN = {  # the main agent's responses: (input, output, cache read, cache write)
    "msg_m1": (900, 220, 0, 3000),
    "msg_m2": (30, 90, 3900, 200),
    "msg_m3": (20, 80, 4100, 100),
    "msg_m4": (25, 70, 4200, 90),
    "msg_m5": (10, 40, 4300, 50),
}
SUBS = {  # each sub-agent's responses, in order
    "writer": [(1500, 300, 0, 2000), (40, 120, 2000, 300)],
    "types": [(1400, 200, 0, 1800), (30, 150, 1800, 200), (20, 60, 2000, 100)],
    "tests": [(1600, 250, 0, 2100), (50, 90, 2100, 150)],
    "docs": [(1300, 180, 0, 1700)],
}
ORDER = ["writer", "types", "tests", "docs"]
"""The sub-agents in the order their blocks are in the file."""
STARTS = {"writer": 8, "types": 8, "tests": 53, "docs": 70}
"""The second each sub-agent's Task was called (its prompt's time)."""
SUB_CALLS = {"writer": 1, "types": 2, "tests": 1, "docs": 1}
SUB_FAILED = {"writer": 0, "types": 1, "tests": 0, "docs": 1}
INTERRUPT = "[Request interrupted by user for tool use]"


def stamp(second: int) -> str:
    return f"2025-08-14T09:{second // 60:02d}:{second % 60:02d}.000Z"


def _base(parent: str | None, side: bool) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": side,
        "userType": "external",
        "cwd": CWD,
        "sessionId": SESSION,
        "version": VERSION,
        "gitBranch": "main",
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


def user(uuid: str, parent: str | None, second: int, content: Any, side: bool = False, **extra):  # type: ignore[no-untyped-def]
    return {
        **_base(parent, side),
        "type": "user",
        "message": {"role": "user", "content": content},
        "uuid": uuid,
        "timestamp": stamp(second),
        **extra,
    }


def reply(uuid: str, parent: str, second: int, mid: str, block: dict, numbers, side=False):  # type: ignore[no-untyped-def]
    """One content block of a response (1.0.x writes one block per line, usage repeated)."""
    return {
        **_base(parent, side),
        "message": {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": [block],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": _usage(numbers),
        },
        "requestId": f"req_{mid}",
        "type": "assistant",
        "uuid": uuid,
        "timestamp": stamp(second),
    }


def text(words: str) -> dict:
    return {"type": "text", "text": words}


def call(call_id: str, name: str, **inputs: Any) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": inputs}


def task(key: str) -> dict:
    agent = key.split("-")[0]
    return call(
        CALLS[key],
        "Task",
        description=DESCRIPTIONS[agent],
        prompt=PROMPTS[agent],
        subagent_type="general-purpose",
    )


def result(uuid: str, parent: str, second: int, call_id: str, output: Any, side=False, **extra):  # type: ignore[no-untyped-def]
    block = {"tool_use_id": call_id, "type": "tool_result", "content": output}
    if extra.pop("error", False):
        block = {"type": "tool_result", "content": output, "is_error": True, "tool_use_id": call_id}
    return user(uuid, parent, second, [block], side, **extra)


def task_result(uuid: str, parent: str, second: int, key: str, report: str) -> dict:
    agent = key.split("-")[0]
    rows = SUBS[agent]
    meta = {
        "content": [text(report)],
        "totalDurationMs": 1000 * (second - 60),
        "totalTokens": sum(rows[-1]),
        "totalToolUseCount": SUB_CALLS[agent],
        "usage": _usage(rows[-1]),
    }
    return result(uuid, parent, second, CALLS[key], [text(report)], toolUseResult=meta)


def interrupted_result(uuid: str, parent: str, second: int, call_id: str, side=False) -> dict:  # type: ignore[no-untyped-def]
    return result(
        uuid, parent, second, call_id, INTERRUPT, side, error=True,
        toolUseResult=f"Error: {INTERRUPT}",
    )  # fmt: skip


def _sub(agent: str, n: int) -> tuple[int, int, int, int]:
    return SUBS[agent][n]


def sidechain(agent: str, start: int) -> list[dict]:
    """The block of one sub-agent (`start`: the second its Task was called)."""
    s = f"{agent[:2]}"
    root = user(f"{s}-u0", None, start, PROMPTS[agent], side=True)
    if agent == "writer":
        return [
            root,
            reply(f"{s}-a1", root["uuid"], start + 3, "msg_w1", text("I'll write the writer."),
                  _sub(agent, 0), side=True),
            reply(f"{s}-a2", f"{s}-a1", start + 4, "msg_w1",
                  call("toolu_w_write", "Write", file_path="export/writer.py", content="..."),
                  _sub(agent, 0), side=True),
            result(f"{s}-r1", f"{s}-a2", start + 5, "toolu_w_write", "File created", side=True),
            reply(f"{s}-a3", f"{s}-r1", start + 9, "msg_w2",
                  text("CsvWriter is in export/writer.py."), _sub(agent, 1), side=True),
        ]  # fmt: skip
    if agent == "types":
        return [
            root,
            reply(f"{s}-a1", root["uuid"], start + 2, "msg_t1",
                  call("toolu_t_mkdir", "Bash", command="mkdir -p export"),
                  _sub(agent, 0), side=True),
            result(f"{s}-r1", f"{s}-a1", start + 3, "toolu_t_mkdir", "", side=True),
            reply(f"{s}-a2", f"{s}-r1", start + 6, "msg_t2",
                  call("toolu_t_edit", "Edit", file_path="export/types.py", old_string="",
                       new_string="class Row: ..."),
                  _sub(agent, 1), side=True),
            result(f"{s}-r2", f"{s}-a2", start + 7, "toolu_t_edit",
                   "<tool_use_error>File has not been read yet.</tool_use_error>", side=True,
                   error=True),
            reply(f"{s}-a3", f"{s}-r2", start + 14, "msg_t3",
                  text("Row and Field are in export/types.py."), _sub(agent, 2), side=True),
        ]  # fmt: skip
    if agent == "tests":
        return [
            root,
            reply(f"{s}-a1", root["uuid"], start + 2, "msg_x1",
                  call("toolu_x_pytest", "Bash", command="pytest tests/test_writer.py"),
                  _sub(agent, 0), side=True),
            result(f"{s}-r1", f"{s}-a1", start + 8, "toolu_x_pytest", "4 passed", side=True),
            reply(f"{s}-a2", f"{s}-r1", start + 10, "msg_x2", text("4 tests, all pass."),
                  _sub(agent, 1), side=True),
        ]  # fmt: skip
    # docs: interrupted while its command ran
    return [
        root,
        reply(f"{s}-a1", root["uuid"], start + 2, "msg_d1",
              call("toolu_d_build", "Bash", command="mkdocs build"), _sub(agent, 0), side=True),
        interrupted_result(f"{s}-r1", f"{s}-a1", start + 30, "toolu_d_build", side=True),
        user(f"{s}-u1", f"{s}-r1", start + 30, [text(INTERRUPT)], side=True),
    ]  # fmt: skip


def records() -> list[dict]:
    """The main file, sidechains and all, in the order Claude Code 1.0.x writes it."""
    m1 = OWN["msg_m1"]
    out: list[dict] = [
        {"type": "summary", "summary": "CSV export with sub-agents", "leafUuid": "m-a13"},
        user("m-u1", None, 0, "Add a CSV export: the row types, the writer, and its tests."),
        reply("m-a1", "m-u1", 3, "msg_m1", text("I'll split this into parallel tasks."), m1),
        reply("m-a2", "m-a1", 5, "msg_m1", task("types"), m1),
        reply("m-a3", "m-a2", 8, "msg_m1", task("writer"), m1),
    ]
    # both Tasks start at 0:08; the writer finishes at 0:20, the types at 0:25
    out += sidechain("writer", STARTS["writer"])
    out.append(task_result("m-r1", "m-a3", 20, "writer", "CsvWriter is in export/writer.py."))
    out += sidechain("types", STARTS["types"])
    out.append(task_result("m-r2", "m-r1", 25, "types", "Row and Field are in export/types.py."))
    out += [
        reply("m-a4", "m-r2", 30, "msg_m2", task("tests-1"), OWN["msg_m2"]),
        # interrupted at once: 1.0.x wrote no block for it
        interrupted_result("m-r3", "m-a4", 33, CALLS["tests-1"]),
        user("m-u2", "m-r3", 33, [text(INTERRUPT)]),
        user("m-u3", "m-u2", 50, "Run the tests task again please."),
        reply("m-a5", "m-u3", 53, "msg_m3", task("tests"), OWN["msg_m3"]),
    ]
    out += sidechain("tests", STARTS["tests"])
    out.append(task_result("m-r4", "m-a5", 64, "tests", "4 tests, all pass."))
    out += [
        reply("m-a6", "m-r4", 70, "msg_m4", task("docs"), OWN["msg_m4"]),
    ]
    out += sidechain("docs", STARTS["docs"])
    out += [
        interrupted_result("m-r5", "m-a6", 100, CALLS["docs"]),
        user("m-u4", "m-r5", 100, [text(INTERRUPT)]),
        user("m-u5", "m-u4", 130, "ok"),
        reply("m-a13", "m-u5", 133, "msg_m5", text("Done: types, writer and tests."),
              OWN["msg_m5"]),
    ]  # fmt: skip
    return out


def write(path: Path, items: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in items)
    path.write_text(body, encoding="utf-8")
    return path


def home(root: Path, items: list[dict] | None = None) -> Path:
    """`~/.claude/projects/<slug>/<session>.jsonl` under `root`; returns the file."""
    return write(root / ".claude" / "projects" / SLUG / f"{SESSION}.jsonl", items or records())


def rebuilt(root: Path) -> Path:
    """The same session laid out the newer way: the main file without its sidechains, each
    sub-agent in `<session>/subagents/agent-<id>.jsonl` with the meta file naming its call."""
    main = [r for r in records() if not r.get("isSidechain")]
    path = write(root / ".claude" / "projects" / SLUG / f"{SESSION}.jsonl", main)
    folder = path.with_suffix("") / "subagents"
    for agent in ORDER:
        write(folder / f"agent-a{agent}.jsonl", sidechain(agent, STARTS[agent]))
        meta = {"agentType": "general-purpose", "description": DESCRIPTIONS[agent],
                "toolUseId": CALLS[agent]}  # fmt: skip
        (folder / f"agent-a{agent}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return path
