"""Codex CLI 0.171 rollout JSONL, shaped like the rollouts codex-cli 0.171.0 wrote.

Every line is `{timestamp, ordinal, type, payload}`. A prompt opens a turn
(thread_settings_applied, task_started, turn_context, the user `response_item`
and an `item_completed UserMessage` event); each model response writes its
reasoning / message / function_call items (each text twice: `item_completed` and
`response_item`), a `token_usage_record`, the command results
(`item_completed CommandExecution` + `function_call_output` whose text carries
"Process exited with code N") and a `token_count`. Compaction: the summary as an
assistant message (`compaction_output`), a `compacted` line with
`replacement_history`, fresh world_state/turn_context and an `item_completed
ContextCompaction`. Codex stores an empty prompt verbatim (input_text ""). An
interrupt is an `event_msg turn_aborted`; Codex writes no nudge or meta records, so those
steps leave no trace.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from samplegen.dsl import A, Compact, H, Interrupt, Meta, Nudge, Scenario, T
from samplegen.writers.common import (
    EMPTY,
    Ids,
    Usage,
    anchor,
    is_blank,
    iso,
    quote,
    rel,
    shell_command,
    timeline,
)

CLI = "0.171.0"
MODEL = "gpt-5.3-codex"
WINDOW = 258400
SUMMARY_PREFIX = (
    "Another language model started to solve this problem and produced a summary of its "
    "thinking process. You also have access to the state of the tools that were used by that "
    "language model. Use this to build on the work that has already been done and avoid "
    "duplicating work. Here is the summary produced by the other language model, use the "
    "information in this summary to assist with your own analysis:\n"
)
BASE_INSTRUCTIONS = (
    "You are a coding agent running in the Codex CLI, a terminal-based coding assistant. Codex "
    "CLI is an open source project led by OpenAI. You are expected to be precise, safe, and "
    "helpful.\n\nYour capabilities:\n\n- Receive user prompts and other context provided by the "
    "harness, such as files in the workspace.\n- Communicate with the user by streaming "
    "thinking & responses, and by making & updating plans.\n- Emit function calls to run "
    "terminal commands and apply patches."
)
PERMISSIONS = (
    "<permissions instructions>\nFilesystem sandboxing defines which files can be read or "
    "written. `sandbox_mode` is `danger-full-access`: No filesystem sandboxing - all commands "
    "are permitted. Network access is enabled.\nApproval policy is currently never.\n"
    "</permissions instructions>"
)


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def uuid7ish(ids: Ids, at: datetime) -> str:
    """A time-ordered id shaped like Codex's UUIDv7 (ms timestamp first)."""
    ms = int(at.timestamp() * 1000)
    h = f"{ms:012x}"
    return f"{h[:8]}-{h[8:12]}-7{ids.hex(3)}-{ids.rng.choice('89ab')}{ids.hex(3)}-{ids.hex(12)}"


def zero_usage() -> dict[str, int]:
    return {
        "input_tokens": 0,
        "cached_input_tokens": 0,
        "cache_write_input_tokens": 0,
        "output_tokens": 0,
        "reasoning_output_tokens": 0,
        "total_tokens": 0,
    }


class _Writer:
    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.ids = Ids(f"codex:{scenario.name}")
        self.usage = Usage(f"codex-usage:{scenario.name}")
        self.lines: list[str] = []
        self.ordinal = 0
        self.seq = 0
        self.turn: str | None = None
        self.thread = ""
        self.window = ""
        self.total = zero_usage()
        self.turn_usage = zero_usage()
        self.last_agent = ""
        self.turn_started: datetime | None = None
        self.history: list[dict[str, Any]] = []  # real user messages, for replacement_history
        self.plan: list[dict[str, str]] = []

    def emit(self, at: datetime, kind: str, payload: dict[str, Any]) -> int:
        self.lines.append(
            dumps({"timestamp": iso(at), "ordinal": self.ordinal, "type": kind, "payload": payload})
        )
        self.ordinal += 1
        return len(self.lines)

    def meta(self, **extra: Any) -> dict[str, Any]:
        self.seq += 1
        out: dict[str, Any] = {
            "history_sequence": self.seq,
            "sampled_through_sequence": self.seq - 1,
        }
        out.update(extra)
        out.setdefault("client_authored", False)
        out["model_search_state"] = "unused"
        return out

    def passthrough(self, **extra: Any) -> dict[str, Any]:
        return {"turn_id": self.turn, **extra}

    def settings(self) -> dict[str, Any]:
        return {
            "model": MODEL,
            "model_provider_id": "openai",
            "approval_policy": "never",
            "approvals_reviewer": "user",
            "requested_approvals_reviewer": "user",
            "permission_profile": {"type": "disabled"},
            "cwd": self.s.cwd,
            "runtime_workspace_roots": [self.s.cwd],
            "collaboration_mode": {
                "mode": "default",
                "settings": {
                    "model": MODEL,
                    "reasoning_effort": "high",
                    "developer_instructions": None,
                },
            },
            "disabled_plugin_ids": [],
        }

    def turn_context(self, at: datetime) -> None:
        self.emit(
            at,
            "turn_context",
            {
                "turn_id": self.turn,
                "root_turn_id": self.turn,
                "disabled_plugin_ids": [],
                "cwd": self.s.cwd,
                "approval_policy": "never",
                "approvals_reviewer": "user",
                "permission_profile": {"type": "disabled"},
                "model": MODEL,
                "collaboration_mode": {
                    "mode": "default",
                    "settings": {
                        "model": MODEL,
                        "reasoning_effort": "high",
                        "developer_instructions": None,
                    },
                },
                "multi_agent_version": "v1",
                "realtime_active": False,
                "summary": "auto",
                "sandbox_policy": {"type": "danger-full-access"},
            },
        )

    def world_state(self, at: datetime) -> None:
        self.emit(
            at,
            "world_state",
            {
                "full": True,
                "state": {
                    "agents_md": {},
                    "collaboration_mode": {"mode": "default", "model": MODEL},
                    "environments": {
                        "environments": {
                            "local": {"cwd": self.s.cwd, "status": "available", "shell": "bash"}
                        },
                        "current_date": at.strftime("%Y-%m-%d"),
                        "timezone": "Etc/UTC",
                    },
                    "model": MODEL,
                    "realtime": {"active": False},
                },
            },
        )

    def harness_message(self, at: datetime, role: str, text: str, kind: str) -> int:
        mid = "msg_" + uuid7ish(self.ids, at)
        return self.emit(
            at,
            "response_item",
            {
                "type": "message",
                "id": mid,
                "role": role,
                "content": [{"type": "input_text", "text": text}],
                "internal_chat_message_metadata_passthrough": self.passthrough(
                    create_time=at.timestamp(),
                    content_item_kinds=[kind],
                    content_item_metadata=[{"provenance": {"type": "harness", "hook": False}}],
                ),
                "metadata": self.meta(),
            },
        )

    def env_context(self, at: datetime) -> str:
        return (
            f"<environment_context>\n  <cwd>{self.s.cwd}</cwd>\n  <shell>bash</shell>\n"
            f"  <current_date>{at.strftime('%Y-%m-%d')}</current_date>\n"
            "  <timezone>Etc/UTC</timezone>\n</environment_context>"
        )

    def start_session(self, at: datetime) -> None:
        self.thread = uuid7ish(self.ids, at)
        self.window = uuid7ish(self.ids, at)
        self.emit(
            at,
            "session_meta",
            {
                "account_scoped": True,
                "session_id": self.thread,
                "id": self.thread,
                "timestamp": iso(at),
                "cwd": self.s.cwd,
                "runtime_workspace_roots": [self.s.cwd],
                "originator": "codex_cli_rs",
                "cli_version": CLI,
                "source": "cli",
                "thread_source": "user",
                "model_provider": "openai",
                "base_instructions": {
                    "text": BASE_INSTRUCTIONS,
                    "provenance": {"type": "model", "model": MODEL},
                },
                "history_mode": "paginated",
                "context_window": {"window_id": self.window},
            },
        )

    def end_turn(self, at: datetime) -> None:
        if self.turn is None:
            return
        started = self.turn_started or at
        self.emit(
            at,
            "event_msg",
            {
                "type": "task_complete",
                "root_turn_id": self.turn,
                "turn_id": self.turn,
                "last_agent_message": self.last_agent or None,
                "started_at": int(started.timestamp()),
                "completed_at": int(at.timestamp()),
                "duration_ms": int((at - started).total_seconds() * 1000),
                "time_to_first_token_ms": 800 + self.ids.rng.randint(0, 2400),
            },
        )
        self.turn = None

    def begin_turn(self, at: datetime, first: bool) -> None:
        self.turn = uuid7ish(self.ids, at)
        self.turn_started = at
        self.turn_usage = zero_usage()
        self.last_agent = ""
        if not first:
            self.emit(
                at,
                "event_msg",
                {
                    "type": "thread_settings_applied",
                    "thread_id": self.thread,
                    "thread_settings": self.settings(),
                },
            )
        self.emit(
            at,
            "event_msg",
            {
                "type": "task_started",
                "turn_attribution": {
                    "turn_id": self.turn,
                    "turn_trigger": "user",
                    "parent_turn_id": None,
                    "initiating_agent_path": None,
                    "root_turn_id": self.turn,
                },
                "turn_id": self.turn,
                "root_turn_id": self.turn,
                "started_at": int(at.timestamp()),
                "model_context_window": WINDOW,
                "collaboration_mode_kind": "default",
            },
        )
        if first:
            self.harness_message(at, "developer", PERMISSIONS, "permissions.instructions")
            self.harness_message(
                at, "user", self.env_context(at), "environments.environment_context"
            )
            self.world_state(at)
            self.turn_context(at)
            self.emit(
                at,
                "event_msg",
                {
                    "type": "thread_settings_applied",
                    "thread_id": self.thread,
                    "thread_settings": self.settings(),
                },
            )
        else:
            self.turn_context(at)

    def human(self, step: H, at: datetime, first: bool) -> tuple[int, str, str]:
        if first:
            self.start_session(at)
        else:
            self.end_turn(at - timedelta(milliseconds=1))
        self.begin_turn(at, first)
        text = step.text  # Codex stores what was typed, "" included
        silence = step.expect[1] if step.expect else ""
        if is_blank(text) and step.expect:
            silence = EMPTY
        mid = "msg_" + uuid7ish(self.ids, at)
        order = self.seq
        item = {
            "type": "message",
            "id": mid,
            "role": "user",
            "content": [{"type": "input_text", "text": text}],
            "internal_chat_message_metadata_passthrough": self.passthrough(
                create_time=at.timestamp(),
                content_item_kinds=["user.text"],
                content_item_metadata=[{"provenance": {"type": "user"}}],
            ),
        }
        line = self.emit(
            at,
            "response_item",
            {
                **item,
                "metadata": self.meta(
                    retained_source={
                        "id": {"message_id": mid, "turn_id": self.turn, "role": "user"},
                        "revision": "retained_" + uuid7ish(self.ids, at),
                        "complete": True,
                    },
                    client_authored=False,
                    user_input_order=order,
                    mcp_attribution={"status": "none"},
                ),
            },
        )
        self.history.append(item)
        self.emit(
            at + timedelta(milliseconds=1),
            "event_msg",
            {
                "type": "item_completed",
                "thread_id": self.thread,
                "turn_id": self.turn,
                "item": {
                    "type": "UserMessage",
                    "id": uuid7ish(self.ids, at),
                    "content": [{"type": "text", "text": text, "text_elements": []}],
                },
                "started_at_ms": int(at.timestamp() * 1000),
                "completed_at_ms": int(at.timestamp() * 1000),
            },
        )
        return line, mid, silence

    def call_for(self, tool: T) -> tuple[str, dict[str, Any]]:
        """Codex's spelling of a neutral call: exec_command (apply_patch too) or update_plan."""
        if tool.name == "TodoWrite":
            plan = [
                {"step": t["content"], "status": t["status"]} for t in tool.input.get("todos", [])
            ]
            return "update_plan", {"plan": plan}
        if tool.name in ("Edit", "Write"):
            path = rel(tool.input.get("file_path", ""), self.s.cwd)
            if tool.name == "Write":
                body = "\n".join("+" + x for x in tool.input.get("content", "").split("\n"))
                patch = f"*** Begin Patch\n*** Add File: {path}\n{body}\n*** End Patch"
            else:
                old = "\n".join("-" + x for x in tool.input.get("old_string", "").split("\n"))
                new = "\n".join("+" + x for x in tool.input.get("new_string", "").split("\n"))
                patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n{old}\n{new}\n*** End Patch"
            return "exec_command", {"cmd": f"apply_patch <<'PATCH'\n{patch}\nPATCH"}
        cmd = shell_command(tool) or f"echo {quote(tool.name)}"
        return "exec_command", {"cmd": cmd, "workdir": self.s.cwd, "yield_time_ms": 10000}

    def output_for(self, tool: T, name: str, args: dict[str, Any], took_ms: int) -> tuple[str, int]:
        if name == "update_plan":
            return "Plan updated", 0
        code = tool.exit_code if tool.exit_code is not None else (1 if tool.error else 0)
        if args["cmd"].startswith("apply_patch"):
            if tool.error:
                return f"apply_patch verification failed: {tool.output}", 1
            path = rel(tool.input.get("file_path", ""), self.s.cwd)
            letter = "A" if tool.name == "Write" else "M"
            body = f"Success. Updated the following files:\n{letter} {path}\n"
            return (
                f"Wall time: {took_ms / 1000:.4f} seconds\nOutput:\nExit code: 0\n"
                f"Wall time: {took_ms // 1000} seconds\nOutput:\n{body}"
            ), 0
        out = tool.output if tool.output.endswith("\n") or not tool.output else tool.output + "\n"
        if tool.error and tool.exit_code is None:
            # a command still running when the yield window closed: no exit code, only a session
            return (
                f"Chunk ID: {self.ids.hex(6)}\nWall time: {took_ms / 1000:.4f} seconds\n"
                f"Process running with session ID {self.ids.rng.randint(1000, 99999)}\n"
                f"Original token count: {max(1, len(out) // 4)}\nOutput:\n{out}"
            ), -1
        return (
            f"Chunk ID: {self.ids.hex(6)}\nWall time: {took_ms / 1000:.4f} seconds\n"
            f"Process exited with code {code}\nOriginal token count: {max(1, len(out) // 4)}\n"
            f"Output:\n{out}"
        ), code

    def add_usage(self, u: dict[str, int]) -> dict[str, int]:
        last = {
            "input_tokens": u["input"] + u["cached"],
            "cached_input_tokens": u["cached"],
            "cache_write_input_tokens": 0,
            "output_tokens": u["output"],
            "reasoning_output_tokens": u["output"] // 3,
            "total_tokens": u["input"] + u["cached"] + u["output"],
        }
        for k, v in last.items():
            self.total[k] += v
            self.turn_usage[k] += v
        return last

    def token_records(self, at: datetime, last: dict[str, int]) -> None:
        self.emit(
            at,
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": dict(self.total),
                    "last_token_usage": last,
                    "last_usage_includes_reasoning": False,
                    "model_context_window": WINDOW,
                },
                "rate_limits": {
                    "limit_id": "codex",
                    "limit_name": None,
                    "primary": {
                        "used_percent": 12.0,
                        "window_minutes": 300,
                        "resets_at": 1796030000,
                    },
                    "secondary": None,
                    "credits": None,
                    "individual_limit": None,
                    "spend_control_reached": None,
                    "plan_type": "pro",
                    "rate_limit_reached_type": None,
                },
            },
        )

    def usage_record(self, at: datetime, last: dict[str, int]) -> None:
        self.emit(
            at,
            "token_usage_record",
            {
                "thread_id": self.thread,
                "turn_id": self.turn,
                "session_id": self.thread,
                "root_turn_id": self.turn,
                "response_id": "resp_" + self.ids.hex(32),
                "usage": last,
                "turn_token_usage": dict(self.turn_usage),
                "thread_token_usage": dict(self.total),
            },
        )

    def assistant(self, step: A, timed, summary: bool = False) -> str:
        at = timed.at
        ms = int(at.timestamp() * 1000)
        mid = ""
        if step.reasoning:
            rid = "rs_" + self.ids.hex(48)
            self.emit(
                at,
                "event_msg",
                {
                    "type": "item_completed",
                    "thread_id": self.thread,
                    "turn_id": self.turn,
                    "item": {
                        "type": "Reasoning",
                        "id": rid,
                        "summary_text": [step.reasoning],
                        "raw_content": [],
                    },
                    "started_at_ms": ms,
                    "completed_at_ms": ms + 2,
                },
            )
            self.emit(
                at,
                "response_item",
                {
                    "type": "reasoning",
                    "id": rid,
                    "summary": [{"type": "summary_text", "text": step.reasoning}],
                    "content": None,
                    "encrypted_content": "gAAAAB" + self.ids.base62(120),
                    "internal_chat_message_metadata_passthrough": self.passthrough(),
                },
            )
            mid = rid
        if step.text or not step.tools:
            mid = "msg_" + self.ids.hex(48)
            t2 = at + timedelta(milliseconds=40)
            self.emit(
                t2,
                "event_msg",
                {
                    "type": "item_completed",
                    "thread_id": self.thread,
                    "turn_id": self.turn,
                    "item": {
                        "type": "AgentMessage",
                        "id": mid,
                        "content": [{"type": "Text", "text": step.text}],
                    },
                    "started_at_ms": ms + 40,
                    "completed_at_ms": ms + 41,
                },
            )
            meta = self.meta(
                retained_source={
                    "id": {"message_id": mid, "turn_id": self.turn, "role": "assistant"},
                    "revision": "retained_" + uuid7ish(self.ids, at),
                    "complete": True,
                },
                client_authored=False,
            )
            if summary:
                meta = {k: v for k, v in meta.items() if k != "retained_source"}
                meta["compaction_output"] = True
                meta["model_search_state"] = meta.pop("model_search_state")
            self.emit(
                t2,
                "response_item",
                {
                    "type": "message",
                    "status": "completed",
                    "id": mid,
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": step.text, "annotations": []}],
                    "internal_chat_message_metadata_passthrough": self.passthrough(
                        content_item_kinds=["unknown"]
                    ),
                    "metadata": meta,
                },
            )
            if step.text:
                self.last_agent = step.text
        calls = []
        for k, tool in enumerate(step.tools):
            name, args = self.call_for(tool)
            cid = "call_" + self.ids.base62(24)
            self.emit(
                at + timedelta(milliseconds=60 + k),
                "response_item",
                {
                    "type": "function_call",
                    "status": "completed",
                    "id": "fc_" + self.ids.hex(48),
                    "name": name,
                    "arguments": json.dumps(args, ensure_ascii=False),
                    "call_id": cid,
                    "internal_chat_message_metadata_passthrough": self.passthrough(),
                    "metadata": self.meta(user_input_order=self.seq),
                },
            )
            calls.append((tool, name, args, cid, k))
            mid = mid or cid
        u = self.usage.next(len(step.text) + len(step.reasoning), len(step.tools))
        last = self.add_usage(u)
        self.usage_record(at + timedelta(milliseconds=70), last)
        for tool, name, args, cid, k in calls:
            start, stop = timed.tool_times[k]
            took = int((stop - start).total_seconds() * 1000)
            text, code = self.output_for(tool, name, args, took)
            if name == "exec_command" and not args["cmd"].startswith("apply_patch"):
                self.emit(
                    stop,
                    "event_msg",
                    {
                        "type": "item_completed",
                        "thread_id": self.thread,
                        "turn_id": self.turn,
                        "item": {
                            "type": "CommandExecution",
                            "id": cid,
                            "process_id": str(self.ids.rng.randint(1000, 99999)),
                            "command": ["/bin/bash", "-lc", args["cmd"]],
                            "cwd": "file://" + self.s.cwd,
                            "parsed_cmd": [{"type": "unknown", "cmd": args["cmd"]}],
                            "source": "unified_exec_startup",
                            "status": "in_progress"
                            if code < 0
                            else ("failed" if code else "completed"),
                            "aggregated_output": tool.output,
                            "exit_code": None if code < 0 else code,
                            "duration": {"secs": took // 1000, "nanos": (took % 1000) * 1_000_000},
                        },
                        "started_at_ms": int(start.timestamp() * 1000),
                        "completed_at_ms": int(stop.timestamp() * 1000),
                    },
                )
            self.emit(
                stop + timedelta(milliseconds=3),
                "response_item",
                {
                    "type": "function_call_output",
                    "id": "fco_" + uuid7ish(self.ids, stop),
                    "call_id": cid,
                    "output": text,
                    "internal_chat_message_metadata_passthrough": self.passthrough(
                        create_time=stop.timestamp()
                    ),
                    "metadata": self.meta(fallback_token_limit_override=3000),
                },
            )
            self.token_records(stop + timedelta(milliseconds=4), last)
        if not calls:
            self.token_records(at + timedelta(milliseconds=75), last)
        return mid

    def compact(self, step: Compact, timed) -> int:
        at = timed.at
        if self.turn is None:
            self.begin_turn(at, False)
        self.assistant(A(text=step.summary), timed, summary=True)
        self.usage.compacted()
        end = timed.end
        new_window = uuid7ish(self.ids, end)
        summary_msg = {
            "type": "message",
            "id": "msg_" + uuid7ish(self.ids, end),
            "role": "user",
            "content": [{"type": "input_text", "text": SUMMARY_PREFIX + step.summary}],
            "internal_chat_message_metadata_passthrough": {
                "turn_id": self.turn,
                "content_item_kinds": ["compaction.summary"],
                "content_item_metadata": [{"provenance": {"type": "harness", "hook": False}}],
            },
        }
        env = {
            "type": "message",
            "id": "msg_" + uuid7ish(self.ids, end),
            "role": "user",
            "content": [{"type": "input_text", "text": self.env_context(end)}],
            "internal_chat_message_metadata_passthrough": {
                "turn_id": self.turn,
                "content_item_kinds": ["environments.environment_context"],
                "content_item_metadata": [{"provenance": {"type": "harness", "hook": False}}],
            },
        }
        line = self.emit(
            end,
            "compacted",
            {
                "message": SUMMARY_PREFIX + step.summary,
                "replacement_history": [*self.history[-6:], env, summary_msg],
                "window_number": 1,
                "first_window_id": self.window,
                "previous_window_id": self.window,
                "window_id": new_window,
            },
        )
        self.window = new_window
        self.world_state(end)
        self.turn_context(end)
        self.token_records(end, zero_usage())
        ms = int(end.timestamp() * 1000)
        self.emit(
            end,
            "event_msg",
            {
                "type": "item_completed",
                "thread_id": self.thread,
                "turn_id": self.turn,
                "item": {"type": "ContextCompaction", "id": uuid7ish(self.ids, end)},
                "started_at_ms": int(at.timestamp() * 1000),
                "completed_at_ms": ms,
            },
        )
        return line

    def run(self) -> tuple[list[str], list[dict[str, Any]]]:
        anchors: list[dict[str, Any]] = []
        first = True
        last_at = None
        for timed in timeline(self.s):
            step = timed.step
            last_at = timed.end
            if isinstance(step, H):
                line, mid, silence = self.human(step, timed.at, first)
                first = False
                if step.expect:
                    anchors.append(anchor(line, mid, step.expect, silence))
            elif first:
                continue  # nothing is written before the first prompt
            elif isinstance(step, A):
                self.assistant(step, timed)
            elif isinstance(step, (Nudge, Meta)):
                continue  # Codex injects neither: no record to write
            elif isinstance(step, Interrupt):
                self.emit(
                    timed.at,
                    "event_msg",
                    {"type": "turn_aborted", "turn_id": self.turn, "reason": "interrupted"},
                )
                self.turn = None
            elif isinstance(step, Compact):
                line = self.compact(step, timed)
                if step.expect:
                    anchors.append(anchor(line, None, step.expect, step.expect[1]))
        if last_at is not None:
            self.end_turn(last_at)
        return self.lines, anchors


def write(scenario: Scenario, path: Path) -> list[dict[str, Any]]:
    """Write `scenario` as a Codex rollout; return the expected pivots' anchors."""
    lines, anchors = _Writer(scenario).run()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return anchors


EXT = "jsonl"
