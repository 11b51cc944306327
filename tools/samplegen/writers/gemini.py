"""Gemini CLI 0.61 session JSONL, shaped like the files gemini-cli 0.61.0 wrote.

A header line, `{"$set": {...}}` patches after every record, each model message
appended twice when it calls tools (first without `toolCalls`, then with them and
their results), tool results echoed as `user` records of `functionResponse`
parts, and a resume (after a long pause) that re-appends a header plus `$set
messages` checkpoints replacing the whole history. Compression is a `$set
messages` rewrite to [session context, user `<state_snapshot>…`, model "Got it.
Thanks for the additional context!"]. Gemini has no synthetic nudge or meta
records: those steps leave no trace. An empty message is stored as " ".
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from samplegen.dsl import A, Compact, H, Interrupt, Scenario, T
from samplegen.writers.common import EMPTY, Ids, Usage, anchor, is_blank, iso, timeline

MODEL = "gemini-3.8-flash"
GOT_IT = "Got it. Thanks for the additional context!"
RESUME_GAP = timedelta(minutes=25)


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class _Writer:
    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.ids = Ids(f"gemini:{scenario.name}")
        self.usage = Usage(f"gemini-usage:{scenario.name}")
        self.session = self.ids.uuid4()
        self.project = hashlib.sha256(scenario.cwd.encode()).hexdigest()
        self.lines: list[str] = []
        self.history: list[dict[str, Any]] = []  # the Content-form checkpoint list
        self.ctx_id = self.ids.hex(32)

    def emit(self, obj: dict[str, Any]) -> int:
        self.lines.append(dumps(obj))
        return len(self.lines)

    def touch(self, at: datetime) -> None:
        self.emit({"$set": {"lastUpdated": iso(at)}})

    def context(self, at: datetime) -> dict[str, Any]:
        text = (
            "<session_context>\nThis is the Gemini CLI. We are setting up the context for our "
            f"chat.\nToday's date is {at.strftime('%A, %B %d, %Y')} (formatted according to the "
            "user's locale).\nMy operating system is: linux\nThe project's temporary directory "
            f"is: /home/dev/.gemini/tmp/{Path(self.s.cwd).name}\n- **Workspace Directories:**\n"
            f"  - {self.s.cwd}\n- **Directory Structure:**\n\nShowing up to 200 items (files + "
            f"folders).\n\n{self.s.cwd}/\n├───pyproject.toml\n├───README.md\n└───src/\n\n"
            "</session_context>"
        )
        return {
            "id": self.ctx_id,
            "timestamp": iso(at),
            "type": "user",
            "content": [{"text": text}],
        }

    def header(self, at: datetime) -> None:
        self.emit(
            {
                "sessionId": self.session,
                "projectHash": self.project,
                "startTime": iso(at),
                "lastUpdated": iso(at),
                "kind": "main",
            }
        )
        self.emit({"$set": {"messages": [self.context(at)], "lastUpdated": iso(at)}})

    def resume(self, at: datetime) -> None:
        """What `gemini --resume latest` appends before the next prompt."""
        self.header(at)
        self.emit({"$set": {"sessionId": self.session}})
        stamped = [{**m, "timestamp": iso(at)} for m in self.history]
        self.emit({"$set": {"messages": [self.context(at), *stamped], "lastUpdated": iso(at)}})

    def call(
        self, tool: T, cid_suffix: str
    ) -> tuple[str, dict[str, Any], dict[str, Any], str, str]:
        """(name, args, response, status, displayName) in Gemini's vocabulary."""
        inp, out = tool.input, tool.output
        if tool.name == "Bash":
            args = {"command": inp.get("command", ""), "description": inp.get("description", "")}
            if tool.error and tool.exit_code is None:
                return "run_shell_command", args, {"error": out}, "error", "Shell"
            body = f"Output: {out}"
            if tool.exit_code:
                body += f"\nExit Code: {tool.exit_code}"
            body += f"\nProcess Group PGID: {self.ids.rng.randint(1000, 60000)}"
            resp = {"output": f"<untrusted_context>\n{body}\n</untrusted_context>"}
            return "run_shell_command", args, resp, "success", "Shell"
        if tool.name == "Read":
            args = {"file_path": inp.get("file_path", "")}
            name, disp = "read_file", "ReadFile"
        elif tool.name == "Edit":
            args = {
                "file_path": inp.get("file_path", ""),
                "instruction": "apply the planned change",
                "old_string": inp.get("old_string", ""),
                "new_string": inp.get("new_string", ""),
            }
            name, disp = "replace", "Edit"
            out = (
                out
                if tool.error
                else f"Successfully modified file: {args['file_path']} (1 replacements)."
            )
        elif tool.name == "Write":
            args = {"file_path": inp.get("file_path", ""), "content": inp.get("content", "")}
            name, disp = "write_file", "WriteFile"
            out = (
                out
                if tool.error
                else f"Successfully created and wrote to new file: {args['file_path']}."
            )
        elif tool.name == "Grep":
            args = {"pattern": inp.get("pattern", ""), "dir_path": inp.get("path", ".")}
            name, disp = "grep_search", "SearchText"
            n = out.count("\n") + 1 if out else 0
            out = f'Found {n} matches for pattern "{args["pattern"]}":\n---\n{out}'
        elif tool.name == "TodoWrite":
            todos = [
                {"description": t["content"], "status": t["status"]} for t in inp.get("todos", [])
            ]
            args = {"todos": todos}
            name, disp = "write_todos", "WriteTodos"
            listing = "\n".join(
                f"{i + 1}. [{t['status']}] {t['description']}" for i, t in enumerate(todos)
            )
            out = f"Successfully updated the todo list. The current list is now:\n{listing}"
        else:
            args, name, disp = dict(inp), tool.name, tool.name
        if tool.error:
            return name, args, {"error": out}, "error", disp
        return name, args, {"output": out}, "success", disp

    def human(self, step: H, at: datetime) -> tuple[int, str, str]:
        text = step.text
        silence = step.expect[1] if step.expect else ""
        if is_blank(text):
            text = " "
            silence = EMPTY if step.expect else silence
        mid = self.ids.uuid4()
        rec = {"id": mid, "timestamp": iso(at), "type": "user", "content": [{"text": text}]}
        line = self.emit(rec)
        self.touch(at)
        self.history.append(rec)
        return line, mid, silence

    def assistant(self, step: A, timed) -> str:
        at = timed.at
        mid = self.ids.uuid4()
        u = self.usage.next(len(step.text) + len(step.reasoning), len(step.tools))
        tokens = {
            "input": u["input"] + u["cached"],
            "output": u["output"],
            "cached": u["cached"],
            "thoughts": len(step.reasoning) // 4,
            "tool": 0,
            "total": u["input"] + u["cached"] + u["output"] + len(step.reasoning) // 4,
        }
        thoughts = []
        if step.reasoning:
            subject, _, rest = step.reasoning.partition("\n")
            thoughts = [
                {
                    "subject": subject[:60] if rest else "",
                    "description": rest or subject,
                    "timestamp": iso(at),
                }
            ]
        base = {
            "id": mid,
            "timestamp": iso(at),
            "type": "gemini",
            "content": step.text,
            "thoughts": thoughts,
            "tokens": tokens,
            "model": MODEL,
        }
        self.emit(base)
        self.touch(at)
        content: list[dict[str, Any]] = [{"text": step.text}] if step.text else []
        if not step.tools:
            self.history.append(
                {"id": mid, "timestamp": iso(at), "type": "gemini", "content": content}
            )
            return mid
        calls, responses = [], []
        for k, tool in enumerate(step.tools):
            cid_suffix = self.ids.hex(26)
            name, args, resp, status, disp = self.call(tool, cid_suffix)
            cid = f"{name}__gc{cid_suffix}"
            _, stop = timed.tool_times[k]
            fr = {"functionResponse": {"id": cid, "name": name, "response": resp}}
            responses.append(fr)
            content.append({"functionCall": {"id": cid, "name": name, "args": args}})
            display = resp.get("output", resp.get("error", ""))
            if name == "run_shell_command" and "output" in resp:
                display = tool.output
            calls.append(
                {
                    "id": cid,
                    "name": name,
                    "args": args,
                    "result": [fr],
                    "status": status,
                    "timestamp": iso(stop),
                    "resultDisplay": display,
                    "description": args.get("description", args.get("file_path", name)),
                    "displayName": disp,
                    "renderOutputAsMarkdown": name != "run_shell_command",
                }
            )
        self.emit({**base, "toolCalls": calls})
        _, last_stop = timed.tool_times[-1]
        rid = self.ids.uuid4()
        self.emit({"id": rid, "timestamp": iso(last_stop), "type": "user", "content": responses})
        self.touch(last_stop)
        self.history.append({"id": mid, "timestamp": iso(at), "type": "gemini", "content": content})
        self.history.append(
            {"id": mid + "_response", "timestamp": iso(at), "type": "user", "content": responses}
        )
        self.history.append({"id": rid, "timestamp": iso(at), "type": "user", "content": responses})
        return mid

    def compact(self, step: Compact, timed) -> int:
        end = timed.end
        self.usage.compacted()
        snap = {
            "id": self.ids.uuid4(),
            "timestamp": iso(end),
            "type": "user",
            "content": [{"text": f"<state_snapshot>\n{step.summary}\n</state_snapshot>"}],
        }
        ack = {
            "id": self.ids.uuid4(),
            "timestamp": iso(end),
            "type": "gemini",
            "content": [{"text": GOT_IT}],
        }
        self.history = [snap, ack]
        line = self.emit(
            {"$set": {"messages": [self.context(end), snap, ack], "lastUpdated": iso(end)}}
        )
        return line

    def run(self) -> tuple[list[str], list[dict[str, Any]]]:
        anchors: list[dict[str, Any]] = []
        started = False
        last_end: datetime | None = None
        for timed in timeline(self.s):
            step = timed.step
            if isinstance(step, H):
                if not started:
                    self.header(timed.at - timedelta(milliseconds=30))
                    started = True
                elif last_end is not None and timed.at - last_end >= RESUME_GAP:
                    self.resume(timed.at - timedelta(milliseconds=30))
                line, mid, silence = self.human(step, timed.at)
                if step.expect:
                    anchors.append(anchor(line, mid, step.expect, silence))
            elif not started:
                continue
            elif isinstance(step, A):
                self.assistant(step, timed)
            elif isinstance(step, Interrupt):
                self.emit(
                    {
                        "id": self.ids.uuid4(),
                        "timestamp": iso(timed.at),
                        "type": "info",
                        "content": "Request cancelled.",
                    }
                )
                self.touch(timed.at)
            elif isinstance(step, Compact):
                line = self.compact(step, timed)
                if step.expect:
                    anchors.append(anchor(line, None, step.expect, step.expect[1]))
            last_end = timed.end
        return self.lines, anchors


def write(scenario: Scenario, path: Path) -> list[dict[str, Any]]:
    """Write `scenario` as a Gemini CLI session file; return the expected pivots' anchors."""
    lines, anchors = _Writer(scenario).run()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return anchors


EXT = "jsonl"
