"""opencode 1.18 `opencode.db` (SQLite, WAL), shaped like the database opencode 1.18.33 wrote.

The schema is the real one (`opencode_schema.py`). One `message` row per user
prompt and per model step (assistant), `part` rows for step-start / reasoning /
text / tool / step-finish, the final task list in `todo`. Prompts typed through
`opencode run` are stored with literal double quotes when they contain spaces,
so an empty-looking message is `" "` (three characters). Compaction: a user
message whose only part is `{type: "compaction"}`, an assistant `summary: true`
message and, when automatic, a synthetic "Continue if you have next steps…" user
message. Interrupts mark the running assistant message `MessageAbortedError`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from samplegen.dsl import A, Compact, H, Interrupt, Meta, Nudge, Scenario, T
from samplegen.writers.common import EMPTY, Ids, Usage, anchor, epoch_ms, is_blank, timeline
from samplegen.writers.opencode_schema import DDL, MIGRATIONS

VERSION = "1.18.33"
PROVIDER, MODEL = "anthropic", "claude-sonnet-4-6"
CONTINUE = (
    "Continue if you have next steps, or stop and ask for clarification if you are unsure how "
    "to proceed."
)
PERMISSION = (
    '[{"permission":"question","pattern":"*","action":"deny"},'
    '{"permission":"plan_enter","pattern":"*","action":"deny"},'
    '{"permission":"plan_exit","pattern":"*","action":"deny"}]'
)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def run_quoted(text: str) -> str:
    """What `opencode run` stores: argv joined, args containing whitespace in double quotes."""
    return f'"{text}"' if any(c.isspace() for c in text) else text


class _Writer:
    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.ids = Ids(f"opencode:{scenario.name}")
        self.usage = Usage(f"opencode-usage:{scenario.name}")
        self.counter = 0
        self.messages: list[list[Any]] = []  # [id, time_created, time_updated, data]
        self.parts: list[list[Any]] = []  # [id, message_id, time_created, time_updated, data]
        self.last_user = ""
        self.last_assistant: list[Any] | None = None
        self.todos: list[dict[str, Any]] = []
        self.todo_time = 0
        self.title = ""
        self.session = ""
        self.totals = {"input": 0, "output": 0, "reasoning": 0, "read": 0}

    def ascending(self, prefix: str, ms: int) -> str:
        self.counter = (self.counter + 1) % 4096
        return f"{prefix}_{(ms * 4096 + self.counter) & 0xFFFFFFFFFFFF:012x}{self.ids.alnum(14)}"

    def message(self, ms: int, data: dict[str, Any], end: int | None = None) -> list[Any]:
        row = [self.ascending("msg", ms), ms, end or ms + 5, data]
        self.messages.append(row)
        return row

    def part(self, msg: list[Any], ms: int, data: dict[str, Any], end: int | None = None) -> str:
        pid = self.ascending("prt", ms)
        self.parts.append([pid, msg[0], ms, end or ms + 2, data])
        return pid

    def user_message(self, ms: int) -> list[Any]:
        row = self.message(
            ms,
            {
                "role": "user",
                "time": {"created": ms},
                "agent": "build",
                "model": {"providerID": PROVIDER, "modelID": MODEL},
                "summary": {"diffs": []},
            },
        )
        self.last_user = row[0]
        return row

    def tool_part(self, tool: T, start: int, end: int) -> dict[str, Any]:
        inp, out = tool.input, tool.output
        call = "toolu_01" + self.ids.base62(22)
        t = {"start": start, "end": end}
        if tool.name == "Bash":
            args = {"command": inp.get("command", ""), "description": inp.get("description", "")}
            if tool.error and tool.exit_code is None:
                state = {"status": "error", "input": args, "error": out, "time": t}
            else:
                state = {
                    "status": "completed",
                    "input": args,
                    "output": out,
                    "metadata": {
                        "output": out,
                        "exit": tool.exit_code or 0,
                        "description": args["description"],
                        "truncated": False,
                    },
                    "title": args["command"][:80],
                    "time": t,
                }
            return {"type": "tool", "tool": "bash", "callID": call, "state": state}
        if tool.name == "TodoWrite":
            todos = [
                {
                    "content": x["content"],
                    "status": x["status"],
                    "priority": x.get("priority", "high"),
                }
                for x in inp.get("todos", [])
            ]
            self.todos, self.todo_time = todos, end
            pending = sum(1 for x in todos if x["status"] != "completed")
            state = {
                "status": "completed",
                "input": {"todos": todos},
                "output": json.dumps(todos, indent=2, ensure_ascii=False),
                "metadata": {"todos": todos, "truncated": False},
                "title": f"{pending} todos",
                "time": t,
            }
            return {"type": "tool", "tool": "todowrite", "callID": call, "state": state}
        name = {"Read": "read", "Edit": "edit", "Write": "write", "Grep": "grep"}.get(
            tool.name, tool.name.lower()
        )
        path = inp.get("file_path", "")
        if tool.name == "Read":
            args: dict[str, Any] = {"filePath": path}
            rows = out.split("\n")
            out = (
                f"<path>{path}</path>\n<type>file</type>\n<content>\n"
                + "\n".join(f"{i + 1}: {r}" for i, r in enumerate(rows))
                + f"\n\n(End of file - total {len(rows)} lines)\n</content>"
            )
        elif tool.name == "Edit":
            args = {
                "filePath": path,
                "oldString": inp.get("old_string", ""),
                "newString": inp.get("new_string", ""),
            }
            out = out if tool.error else "Edit applied successfully."
        elif tool.name == "Write":
            args = {"filePath": path, "content": inp.get("content", "")}
            out = out if tool.error else "Wrote file successfully."
        elif tool.name == "Grep":
            args = {"pattern": inp.get("pattern", ""), "path": inp.get("path", self.s.cwd)}
            n = out.count("\n") + 1 if out else 0
            out = f"Found {n} matches\n{out}"
        else:
            args = dict(inp)
        if tool.error:
            state = {"status": "error", "input": args, "error": out, "time": t}
        else:
            state = {
                "status": "completed",
                "input": args,
                "output": out,
                "metadata": {"truncated": False},
                "title": path or name,
                "time": t,
            }
        return {"type": "tool", "tool": name, "callID": call, "state": state}

    def assistant(self, step: A, timed, summary: bool = False) -> list[Any]:
        start, end = epoch_ms(timed.at), epoch_ms(timed.end)
        u = self.usage.next(len(step.text) + len(step.reasoning), len(step.tools))
        tokens = {
            "total": u["input"] + u["cached"] + u["output"],
            "input": u["input"],
            "output": u["output"],
            "reasoning": len(step.reasoning) // 4,
            "cache": {"write": 0, "read": u["cached"]},
        }
        for k, v in (("input", u["input"]), ("output", u["output"]), ("read", u["cached"])):
            self.totals[k] += v
        finish = "tool-calls" if step.tools else "stop"
        data: dict[str, Any] = {"parentID": self.last_user, "role": "assistant"}
        data.update(
            {"mode": "compaction", "agent": "compaction", "summary": True}
            if summary
            else {"mode": "build", "agent": "build"}
        )
        data.update(
            {
                "path": {"cwd": self.s.cwd, "root": self.s.cwd},
                "cost": 0 if summary else round(u["output"] * 1.5e-5 + u["input"] * 3e-6, 6),
                "tokens": tokens,
                "modelID": MODEL,
                "providerID": PROVIDER,
                "time": {"created": start, "completed": end},
                "finish": finish,
            }
        )
        row = self.message(start, data, end + 2)
        cursor = start + 700
        self.part(row, cursor, {"type": "step-start"})
        if step.reasoning:
            self.part(
                row,
                cursor + 2,
                {
                    "type": "reasoning",
                    "text": step.reasoning,
                    "time": {"start": cursor + 2, "end": cursor + 300},
                },
                cursor + 300,
            )
        if step.text:
            self.part(
                row,
                cursor + 310,
                {
                    "type": "text",
                    "text": step.text,
                    "time": {"start": cursor + 310, "end": cursor + 600},
                },
                cursor + 600,
            )
        for k, tool in enumerate(step.tools):
            a, b = timed.tool_times[k]
            self.part(
                row, epoch_ms(a) - 5, self.tool_part(tool, epoch_ms(a), epoch_ms(b)), epoch_ms(b)
            )
        self.part(
            row,
            end - 3,
            {"reason": finish, "type": "step-finish", "tokens": tokens, "cost": data["cost"]},
        )
        if not summary:
            self.last_assistant = row
        return row

    def synthetic(self, ms: int, text: str, continue_after_compaction: bool = False) -> None:
        row = self.user_message(ms)
        data: dict[str, Any] = {"type": "text"}
        if continue_after_compaction:
            data["metadata"] = {"compaction_continue": True}
        data.update({"synthetic": True, "text": text, "time": {"start": ms, "end": ms}})
        self.part(row, ms, data)

    def compact(self, step: Compact, timed) -> str:
        start = epoch_ms(timed.at)
        row = self.message(
            start,
            {
                "role": "user",
                "model": {"providerID": PROVIDER, "modelID": MODEL},
                "agent": "build",
                "time": {"created": start},
                "summary": {"diffs": []},
            },
        )
        self.last_user = row[0]
        self.part(row, start + 2, {"type": "compaction", "auto": step.auto, "overflow": False})
        self.assistant(A(text=step.summary), timed, summary=True)
        self.usage.compacted()
        if step.auto:
            self.synthetic(epoch_ms(timed.end) + 4, CONTINUE, continue_after_compaction=True)
        return row[0]

    def run(self) -> list[dict[str, Any]]:
        anchors: list[dict[str, Any]] = []
        prev = None
        for timed in timeline(self.s):
            step = timed.step
            ms = epoch_ms(timed.at)
            if not self.session:
                if not isinstance(step, H):
                    continue
                self.session = "ses_" + f"{~(ms * 4096) & 0xFFFFFFFFFFFF:012x}" + self.ids.alnum(14)
                self.created = ms
            if isinstance(step, H):
                silence = step.expect[1] if step.expect else ""
                text = step.text
                if is_blank(text):
                    text = " "
                    silence = EMPTY if step.expect else silence
                if not self.title:
                    self.title = step.text.strip().split("\n")[0][:50] or "New session"
                row = self.user_message(ms)
                self.part(row, ms + 12, {"type": "text", "text": run_quoted(text)})
                if step.expect:
                    anchors.append(anchor(None, row[0], step.expect, silence))
            elif isinstance(step, A):
                self.assistant(step, timed)
            elif isinstance(step, Nudge):
                if not (isinstance(prev, Compact) and prev.auto):
                    self.synthetic(ms, CONTINUE if step.text == Nudge().text else step.text)
            elif isinstance(step, Meta):
                self.synthetic(ms, step.text)
            elif isinstance(step, Interrupt):
                if self.last_assistant is not None:
                    data = self.last_assistant[3]
                    data["error"] = {
                        "name": "MessageAbortedError",
                        "data": {"message": "The operation was aborted."},
                    }
                    data.pop("finish", None)
            elif isinstance(step, Compact):
                mid = self.compact(step, timed)
                if step.expect:
                    anchors.append(anchor(None, mid, step.expect, step.expect[1]))
            prev = step
            self.updated = epoch_ms(timed.end)
        return anchors

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(path)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            for stmt in DDL:
                db.execute(stmt)
            for i, name in enumerate(MIGRATIONS):
                db.execute(
                    "INSERT INTO migration VALUES (?, ?)", (name, self.created - 5000 + i // 8)
                )
            db.execute(
                "INSERT INTO project VALUES "
                "('global', '/', NULL, NULL, NULL, NULL, NULL, ?, ?, NULL, '[]', NULL)",
                (self.created - 4000, self.updated),
            )
            slug = "-".join(
                self.ids.rng.choice(w)
                for w in (("calm", "brave", "swift", "quiet"), ("squid", "otter", "falcon", "lynx"))
            )
            db.execute(
                "INSERT INTO session (id, project_id, workspace_id, parent_id, slug, directory, "
                "path, "
                "title, version, share_url, summary_additions, summary_deletions, summary_files, "
                "summary_diffs, metadata, cost, tokens_input, tokens_output, tokens_reasoning, "
                "tokens_cache_read, tokens_cache_write, revert, permission, agent, model, "
                "time_created, time_updated, time_compacting, time_archived) VALUES "
                "(?, 'global', NULL, NULL, ?, ?, ?, ?, ?, NULL, 0, 0, 0, NULL, NULL, "
                "?, ?, ?, 0, ?, 0, NULL, ?, 'build', ?, ?, ?, NULL, NULL)",
                (
                    self.session,
                    slug,
                    self.s.cwd,
                    self.s.cwd.lstrip("/"),
                    self.title,
                    VERSION,
                    round(sum(m[3].get("cost", 0) for m in self.messages), 6),
                    self.totals["input"],
                    self.totals["output"],
                    self.totals["read"],
                    PERMISSION,
                    dumps({"id": MODEL, "providerID": PROVIDER, "variant": "default"}),
                    self.created,
                    self.updated,
                ),
            )
            db.executemany(
                "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                [(m[0], self.session, m[1], m[2], dumps(m[3])) for m in self.messages],
            )
            db.executemany(
                "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
                [(p[0], p[1], self.session, p[2], p[3], dumps(p[4])) for p in self.parts],
            )
            db.executemany(
                "INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        self.session,
                        t["content"],
                        t["status"],
                        t["priority"],
                        i,
                        self.todo_time,
                        self.todo_time,
                    )
                    for i, t in enumerate(self.todos)
                ],
            )
            db.execute(
                "INSERT INTO event_sequence VALUES (?, ?, NULL)",
                (self.session, len(self.messages) + len(self.parts)),
            )
            db.commit()
        finally:
            db.close()


def write(scenario: Scenario, path: Path) -> list[dict[str, Any]]:
    """Write `scenario` as an opencode database; return the expected pivots' anchors."""
    w = _Writer(scenario)
    anchors = w.run()
    for suffix in ("", "-wal", "-shm"):
        p = Path(str(path) + suffix)
        if p.exists():
            p.unlink()
    w.save(path)
    return anchors


EXT = "db"
