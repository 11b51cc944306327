"""Claude Code 2.1 JSONL, shaped like the files Claude Code 2.1.197 wrote (REALCLIENTS.md).

One line per assistant content block (thinking / text / tool_use) sharing
`message.id`; tool results as `user` records with `tool_result` blocks and a
`toolUseResult`; a uuid/parentUuid chain; queue-operation and last-prompt
bookkeeping around every prompt; `compact_boundary` (parentUuid null) then an
`isCompactSummary` user record; TaskCreate/TaskUpdate for task lists (TodoWrite
is gone in 2.1); "[Request interrupted by user]" interrupts. Claude Code refuses
an empty prompt, so an empty human message is written as "." and labelled `ack`.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from samplegen.dsl import A, Compact, H, Interrupt, Meta, Nudge, Scenario, T
from samplegen.writers.common import ACK, Ids, Usage, anchor, is_blank, iso, timeline

VERSION = "2.1.197"
CONTINUE = "Continue from where you left off."
SUMMARY_HEAD = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The summary below covers the earlier portion of the conversation.\n\n"
)
SUMMARY_TAIL = (
    "\n\nIf you need specific details from before compaction (like exact code snippets, error "
    "messages, or content you generated), read the full transcript at: {path}\n"
    "Continue the conversation from where it left off without asking the user any further "
    "questions. Resume directly — do not acknowledge the summary, do not recap what was "
    'happening, do not preface with "I\'ll continue" or similar. Pick up the last task as if '
    "the break never happened."
)
SKILLS = (
    "- code-review: Review the current diff for correctness bugs and reuse/simplification "
    "cleanups at the given effort level.\n- verify: Verify that a code change actually does "
    "what it's supposed to by running the app and observing behavior.\n- simplify: Review the "
    "changed code for reuse, simplification, efficiency, and altitude cleanups, then apply "
    "the fixes."
)


_BEFORE_UUID = ("isMeta", "isVisibleInTranscriptOnly", "isCompactSummary")


def project_slug(cwd: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class _Writer:
    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.ids = Ids(f"claude:{scenario.name}")
        self.usage = Usage(f"claude-usage:{scenario.name}")
        self.session = self.ids.uuid4()
        self.lines: list[str] = []
        self.leaf: str | None = None
        self.slug: str | None = None
        self.tasks: dict[str, tuple[str, str]] = {}  # content -> (task id, status)
        self.last_prompt: str | None = None
        self.last_user_rec: dict[str, Any] | None = None
        self.prompt_id = self.ids.uuid4()
        self.transcript = (
            f"/home/dev/.claude/projects/{project_slug(scenario.cwd)}/{self.session}.jsonl"
        )

    # -- record helpers -------------------------------------------------
    def tail(self, ts: str) -> dict[str, Any]:
        out: dict[str, Any] = {
            "timestamp": ts,
            "userType": "external",
            "entrypoint": "sdk-cli",
            "cwd": self.s.cwd,
            "sessionId": self.session,
            "version": VERSION,
            "gitBranch": "main",
        }
        if self.slug:
            out["slug"] = self.slug
        return out

    def emit(self, rec: dict[str, Any]) -> int:
        self.lines.append(dumps(rec))
        return len(self.lines)

    def user(self, content: Any, ts: str, **extra: Any) -> tuple[int, str]:
        uid = self.ids.uuid4()
        rec: dict[str, Any] = {
            "parentUuid": self.leaf,
            "isSidechain": False,
            "promptId": self.prompt_id,
            "type": "user",
            "message": {"role": "user", "content": content},
        }
        rec.update({k: v for k, v in extra.items() if k in _BEFORE_UUID})
        rec["uuid"] = uid
        rec["timestamp"] = ts
        rec.update({k: v for k, v in extra.items() if k not in _BEFORE_UUID})
        tail = self.tail(ts)
        tail.pop("timestamp")
        rec.update(tail)
        line = self.emit(rec)
        self.leaf = uid
        self.last_user_rec = rec
        return line, uid

    def bookkeeping_end(self) -> None:
        if self.last_prompt is not None and self.leaf is not None:
            self.emit(
                {
                    "type": "last-prompt",
                    "lastPrompt": self.last_prompt,
                    "leafUuid": self.leaf,
                    "sessionId": self.session,
                }
            )

    # -- steps ----------------------------------------------------------
    def human(self, step: H, at, first: bool) -> tuple[int, str, str]:
        text = step.text
        silence = step.expect[1] if step.expect else ""
        if is_blank(text):
            text, silence = ".", ACK  # Claude Code refuses an empty prompt
        if not first:
            self.bookkeeping_end()
        self.prompt_id = self.ids.uuid4()
        q = iso(at.replace(microsecond=max(0, at.microsecond - 90_000)))
        self.emit(
            {
                "type": "queue-operation",
                "operation": "enqueue",
                "timestamp": q,
                "sessionId": self.session,
                "content": text,
            }
        )
        self.emit(
            {
                "type": "queue-operation",
                "operation": "dequeue",
                "timestamp": q,
                "sessionId": self.session,
            }
        )
        line, uid = self.user(text, iso(at), permissionMode="default", promptSource="sdk")
        self.last_prompt = text
        if first:
            aid = self.ids.uuid4()
            rec = {
                "parentUuid": self.leaf,
                "isSidechain": False,
                "attachment": {"type": "skill_listing", "content": SKILLS, "isInitial": True},
                "type": "attachment",
                "uuid": aid,
            }
            rec.update(self.tail(iso(at)))
            self.emit(rec)
            self.leaf = aid
        return line, uid, silence

    def todo_calls(self, tool: T) -> list[tuple[str, dict[str, Any], str, Any]]:
        """Map a neutral TodoWrite to Claude Code 2.1's TaskCreate / TaskUpdate calls."""
        calls = []
        for item in tool.input.get("todos", []):
            content, status = item["content"], item["status"]
            if content not in self.tasks:
                tid = str(len(self.tasks) + 1)
                self.tasks[content] = (tid, "pending")
                calls.append(
                    (
                        "TaskCreate",
                        {
                            "subject": content,
                            "description": item.get("description", content),
                            "activeForm": item.get("activeForm", content),
                        },
                        f"Task #{tid} created successfully: {content}",
                        {"task": {"id": tid, "subject": content}},
                    )
                )
            tid, old = self.tasks[content]
            if status != old:
                self.tasks[content] = (tid, status)
                calls.append(
                    (
                        "TaskUpdate",
                        {"taskId": tid, "status": status},
                        f"Updated task #{tid} status",
                        {
                            "success": True,
                            "taskId": tid,
                            "updatedFields": ["status"],
                            "statusChange": {"from": old, "to": status},
                        },
                    )
                )
        return calls

    def tool_result(self, tool: T) -> tuple[str, Any, bool]:
        """(content, toolUseResult, is_error) as Claude Code records them."""
        inp, out = tool.input, tool.output
        if tool.error:
            if tool.name == "Bash" and tool.exit_code is not None:
                body = f"Exit code {tool.exit_code}\n{out}"
                return body, "Error: " + body, True
            if tool.name == "Bash":
                return out, "Error: " + out, True
            return f"<tool_use_error>{out}</tool_use_error>", "Error: " + out, True
        if tool.name == "Bash":
            return (
                out,
                {
                    "stdout": out,
                    "stderr": "",
                    "interrupted": False,
                    "isImage": False,
                    "noOutputExpected": False,
                },
                False,
            )
        if tool.name == "Read":
            rows = out.split("\n")
            start = int(inp.get("offset", 1))
            numbered = "\n".join(f"{start + i:>6}\t{r}" for i, r in enumerate(rows))
            return (
                numbered,
                {
                    "type": "text",
                    "file": {
                        "filePath": inp.get("file_path"),
                        "content": out,
                        "numLines": len(rows),
                        "startLine": start,
                        "totalLines": start + len(rows) + 40,
                    },
                },
                False,
            )
        if tool.name == "Edit":
            path = inp.get("file_path")
            msg = (
                f"The file {path} has been updated successfully. (file state is current in "
                "your context — no need to Read it back)"
            )
            return (
                msg,
                {
                    "filePath": path,
                    "oldString": inp.get("old_string"),
                    "newString": inp.get("new_string"),
                    "originalFile": None,
                    "structuredPatch": [],
                    "userModified": False,
                    "replaceAll": False,
                },
                False,
            )
        if tool.name == "Write":
            path = inp.get("file_path")
            msg = (
                f"File created successfully at: {path} (file state is current in your "
                "context — no need to Read it back)"
            )
            return (
                msg,
                {
                    "type": "create",
                    "filePath": path,
                    "content": inp.get("content", ""),
                    "structuredPatch": [],
                    "originalFile": None,
                    "userModified": False,
                },
                False,
            )
        if tool.name == "Grep":
            return (
                out,
                {
                    "mode": "content",
                    "numFiles": 0,
                    "filenames": [],
                    "content": out,
                    "numLines": out.count("\n") + 1,
                },
                False,
            )
        return out, {"output": out}, False

    def tool_input(self, tool: T) -> dict[str, Any]:
        inp = dict(tool.input)
        if tool.name == "Bash" and "description" not in inp:
            inp["description"] = inp.get("command", "")[:40]
        if tool.name == "Edit":
            inp = {"replace_all": False, **inp}
        if tool.name == "Grep":
            inp = {**inp, "output_mode": "content", "-n": True}
        return inp

    def assistant(self, step: A, timed) -> str:
        mid = "msg_01" + self.ids.base62(22)
        req = "req_011C" + self.ids.base62(20)
        blocks: list[dict[str, Any]] = []
        if step.reasoning:
            sig = "Eu" + self.ids.base62(86)
            blocks.append({"type": "thinking", "thinking": step.reasoning, "signature": sig})
        if step.text:
            blocks.append({"type": "text", "text": step.text})
        results: list[tuple[str, str, Any, bool, int]] = []  # id, content, tur, err, tool idx
        for k, tool in enumerate(step.tools):
            if tool.name == "TodoWrite":
                for name, inp, content, tur in self.todo_calls(tool):
                    tid = "toolu_01" + self.ids.base62(22)
                    blocks.append({"type": "tool_use", "id": tid, "name": name, "input": inp})
                    results.append((tid, content, tur, False, k))
                continue
            tid = "toolu_01" + self.ids.base62(22)
            blocks.append(
                {"type": "tool_use", "id": tid, "name": tool.name, "input": self.tool_input(tool)}
            )
            content, tur, err = self.tool_result(tool)
            results.append((tid, content, tur, err, k))
        if not blocks:
            blocks.append({"type": "text", "text": ""})
        u = self.usage.next(len(step.text) + len(step.reasoning), len(step.tools))
        usage = {
            "input_tokens": u["input"] // 40 + 3,
            "cache_creation_input_tokens": u["input"],
            "cache_read_input_tokens": u["cached"],
            "output_tokens": u["output"],
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": "standard",
            "cache_creation": {
                "ephemeral_1h_input_tokens": 0,
                "ephemeral_5m_input_tokens": u["input"],
            },
            "inference_geo": "",
            "iterations": [],
            "speed": "standard",
        }
        stop = "tool_use" if results else "end_turn"
        uses: dict[str, str] = {}
        first_uid = ""
        for j, block in enumerate(blocks):
            uid = self.ids.uuid4()
            first_uid = first_uid or uid
            rec: dict[str, Any] = {
                "parentUuid": self.leaf,
                "isSidechain": False,
                "message": {
                    "id": mid,
                    "type": "message",
                    "role": "assistant",
                    "model": self.s.model,
                    "content": [block],
                    "stop_reason": stop,
                    "stop_sequence": None,
                    "usage": usage,
                    "stop_details": None,
                },
                "requestId": req,
                "type": "assistant",
                "uuid": uid,
            }
            rec.update(self.tail(iso(timed.at + timedelta(milliseconds=3 * j))))
            self.emit(rec)
            self.leaf = uid
            if block["type"] == "tool_use":
                uses[block["id"]] = uid
        for tid, content, tur, err, k in results:
            _, stop_at = timed.tool_times[k]
            block = {"tool_use_id": tid, "type": "tool_result", "content": content}
            if err or step.tools[k].name == "Bash":
                block["is_error"] = err
            self.leaf = uses[tid]
            self.user(
                [block],
                iso(stop_at),
                toolUseResult=tur,
                sourceToolAssistantUUID=uses[tid],
            )
        return mid

    def compact(self, step: Compact, timed) -> tuple[int, str]:
        pre = self.usage.compacted()
        bid = self.ids.uuid4()
        if self.slug is None:
            self.slug = "-".join(
                self.ids.rng.choice(w)
                for w in (
                    ("quiet", "purring", "brisk", "mellow"),
                    ("noodling", "wandering", "humming", "tinkering"),
                    ("bachman", "lovelace", "hopper", "turing"),
                )
            )
        last = self.last_user_rec
        if (
            step.auto
            and last is not None
            and "toolUseResult" in last
            and self.lines[-1] == dumps(last)
        ):
            # Claude Code 2.1.197 writes the tool_result just before an automatic boundary twice
            # (same uuid, the second copy carrying the session slug): a real duplicate.
            self.emit({**last, "slug": self.slug})
        if not step.auto:
            # `/compact` typed by the person: the command record comes first.
            self.user(
                "<command-name>/compact</command-name>\n"
                "            <command-message>compact</command-message>\n"
                "            <command-args></command-args>",
                iso(timed.at),
            )
        rec = {
            "parentUuid": None,
            "logicalParentUuid": self.leaf,
            "isSidechain": False,
            "type": "system",
            "subtype": "compact_boundary",
            "content": "Conversation compacted",
            "isMeta": False,
            "timestamp": iso(timed.end),
            "uuid": bid,
            "level": "info",
            "compactMetadata": {
                "trigger": "auto" if step.auto else "manual",
                "preTokens": pre,
                "durationMs": int((timed.end - timed.at).total_seconds() * 1000),
                "postTokens": self.usage.context,
            },
        }
        tail = self.tail(iso(timed.end))
        tail.pop("timestamp")
        rec.update(tail)
        line = self.emit(rec)
        self.leaf = bid
        text = SUMMARY_HEAD + step.summary + SUMMARY_TAIL.format(path=self.transcript)
        self.user(text, iso(timed.end), isVisibleInTranscriptOnly=True, isCompactSummary=True)
        if not step.auto:
            self.user(
                "<local-command-caveat>Caveat: The messages below were generated by the user "
                "while running local commands. DO NOT respond to these messages or otherwise "
                "consider them in your response unless the user explicitly asks you to."
                "</local-command-caveat>",
                iso(timed.end),
                isMeta=True,
            )
            self.user(
                "<local-command-stdout>Compacted (ctrl+o to see full summary)"
                "</local-command-stdout>",
                iso(timed.end),
            )
        return line, bid

    def run(self) -> tuple[list[str], list[dict[str, Any]]]:
        anchors: list[dict[str, Any]] = []
        first = True
        for timed in timeline(self.s):
            step = timed.step
            if isinstance(step, H):
                line, uid, silence = self.human(step, timed.at, first)
                first = False
                if step.expect:
                    anchors.append(anchor(line, uid, step.expect, silence))
            elif isinstance(step, A):
                self.assistant(step, timed)
            elif isinstance(step, Nudge):
                text = CONTINUE if step.text == Nudge().text else step.text
                self.user(text, iso(timed.at), isMeta=True)
            elif isinstance(step, Meta):
                if step.text.lstrip().startswith("<command-name>"):
                    self.user(step.text, iso(timed.at))
                else:
                    self.user(step.text, iso(timed.at), isMeta=True)
            elif isinstance(step, Interrupt):
                self.user(
                    [{"type": "text", "text": "[Request interrupted by user]"}], iso(timed.at)
                )
            elif isinstance(step, Compact):
                line, bid = self.compact(step, timed)
                if step.expect:
                    anchors.append(anchor(line, bid, step.expect, step.expect[1]))
        self.bookkeeping_end()
        return self.lines, anchors


def write(scenario: Scenario, path: Path) -> list[dict[str, Any]]:
    """Write `scenario` as a Claude Code session file; return the expected pivots' anchors."""
    lines, anchors = _Writer(scenario).run()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return anchors


EXT = "jsonl"
