"""Generic chat JSONL: one OpenAI-style message per line (`{"role", "content"}`).

Assistant messages carry `tool_calls` (`function.arguments` as a JSON string) and
`reasoning_content` when there is reasoning; each result is a `tool` message
with `tool_call_id`. There is no compaction, meta or interrupt record in this
shape, so those steps leave no trace (a labelled compaction is listed under
`not_in_file`). An empty human message is `""`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from samplegen.dsl import A, Compact, H, Scenario
from samplegen.writers.common import EMPTY, Ids, anchor, is_blank, timeline

SYSTEM = (
    "You are a careful coding agent working in {cwd}. Use the tools to inspect and change files."
)


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def write(scenario: Scenario, path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Write `scenario` as chat-message JSONL; return (anchors, moments not in the file)."""
    ids = Ids(f"generic:{scenario.name}")
    lines = [dumps({"role": "system", "content": SYSTEM.format(cwd=scenario.cwd)})]
    anchors: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    started = False
    for timed in timeline(scenario):
        step = timed.step
        if isinstance(step, H):
            started = True
            silence = step.expect[1] if step.expect else ""
            text = step.text
            if is_blank(text):
                text, silence = "", (EMPTY if step.expect else silence)
            lines.append(dumps({"role": "user", "content": text}))
            if step.expect:
                anchors.append(anchor(len(lines), None, step.expect, silence))
        elif not started:
            continue
        elif isinstance(step, A):
            msg: dict[str, Any] = {"role": "assistant", "content": step.text or None}
            if step.reasoning:
                msg["reasoning_content"] = step.reasoning
            calls = []
            for tool in step.tools:
                calls.append(
                    {
                        "id": "call_" + ids.base62(24),
                        "type": "function",
                        "function": {
                            "name": tool.name,
                            "arguments": json.dumps(tool.input, ensure_ascii=False),
                        },
                    }
                )
            if calls:
                msg["tool_calls"] = calls
            lines.append(dumps(msg))
            for call, tool in zip(calls, step.tools, strict=True):
                out = tool.output
                if tool.error and tool.exit_code is not None:
                    out = f"Process exited with code {tool.exit_code}\n{out}"
                elif tool.error:
                    out = f"Error: {out}"
                lines.append(dumps({"role": "tool", "tool_call_id": call["id"], "content": out}))
        elif isinstance(step, Compact) and step.expect:
            kind, silence = step.expect
            missing.append({"kind": kind, "silence": silence, "why": "no compaction record"})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return anchors, missing


EXT = "jsonl"
