"""Claude Code records for tests, in the shape and key order Claude Code 2.1 writes them.

Every record a test needs is built here with text written for the test; `write` puts
them in a file the way Claude Code does (compact JSON, one per line, non-ASCII as is).
`home` lays a file out as `~/.claude/projects/<slug>/<session>.jsonl`, where `pivotal
sessions --root` finds it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SESSION = "6c0d5e2a-8f41-4b7e-9a3c-2d1e0f9b8a71"
CWD = "/home/dev/src/ledger"
SLUG = "-home-dev-src-ledger"
_COMMON = {
    "userType": "external",
    "entrypoint": "cli",
    "cwd": CWD,
    "sessionId": SESSION,
    "version": "2.1.240",
    "gitBranch": "main",
}


def stamp(second: int) -> str:
    return f"2026-12-03T10:{second // 60:02d}:{second % 60:02d}.000Z"


def user(uuid: str, parent: str | None, second: int, content: Any, **extra: Any) -> dict:
    """A person's record (`content` a string or a list of blocks)."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "promptId": f"p-{uuid}",
        "type": "user",
        "message": {"role": "user", "content": content},
        "uuid": uuid,
        "timestamp": stamp(second),
        "permissionMode": "default",
        **extra,
        **_COMMON,
    }


def text_blocks(*texts: str) -> list[dict]:
    return [{"type": "text", "text": text} for text in texts]


def assistant(uuid: str, parent: str, second: int, message_id: str, block: dict) -> dict:
    """One content block of a model response (Claude Code writes one block per line)."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "message": {
            "model": "claude-opus-4-8",
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "content": [block],
            "stop_reason": None,
            "usage": {"input_tokens": 40, "output_tokens": 9},
        },
        "requestId": f"req_{message_id}",
        "type": "assistant",
        "uuid": uuid,
        "timestamp": stamp(second),
        **_COMMON,
    }


def said(uuid: str, parent: str, second: int, message_id: str, text: str) -> dict:
    return assistant(uuid, parent, second, message_id, {"type": "text", "text": text})


def tool_use(uuid: str, parent: str, second: int, message_id: str, call: str, command: str) -> dict:
    block = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}
    return assistant(uuid, parent, second, message_id, block)


def tool_result(uuid: str, parent: str, second: int, call: str, output: str) -> dict:
    block = {"tool_use_id": call, "type": "tool_result", "content": output, "is_error": False}
    record = user(uuid, parent, second, [block])
    record["toolUseResult"] = {"stdout": output, "stderr": "", "interrupted": False}
    return record


def queued(
    uuid: str, parent: str, second: int, prompt: Any, *, queued_at: int | None = None
) -> dict:
    """A prompt typed while the agent was busy, absorbed into its running turn."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "attachment": {
            "type": "queued_command",
            "prompt": prompt,
            "commandMode": "prompt",
            "origin": {"kind": "keyboard"},
            "timestamp": stamp(second if queued_at is None else queued_at),
        },
        "type": "attachment",
        "uuid": uuid,
        "timestamp": stamp(second),
        **_COMMON,
    }


def queue_operation(second: int, operation: str, content: str | None = None) -> dict:
    record: dict[str, Any] = {
        "type": "queue-operation",
        "operation": operation,
        "timestamp": stamp(second),
        "sessionId": SESSION,
    }
    if content is not None:
        record["content"] = content
    return record


def system(uuid: str, parent: str, second: int, subtype: str, content: str) -> dict:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "type": "system",
        "subtype": subtype,
        "content": content,
        "timestamp": stamp(second),
        "uuid": uuid,
        "isMeta": False,
        **_COMMON,
    }


def notice(
    uuid: str, parent: str, second: int, content: str, level: str = "info", call: str = ""
) -> dict:
    """A system record with no subtype, in 1.0.x key order: a notice Claude Code shows in the
    transcript (a hook ran for a tool call, the model was switched at a usage limit)."""
    record: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": CWD,
        "sessionId": SESSION,
        "version": "1.0.51",
        "gitBranch": "main",
        "type": "system",
        "content": content,
        "isMeta": False,
        "timestamp": stamp(second),
        "uuid": uuid,
    }
    if call:
        record["toolUseID"] = call
    record["level"] = level
    return record


def compact_boundary(uuid: str, logical_parent: str, second: int, trigger: str) -> dict:
    """The `compact_boundary` record: it starts a new chain (`parentUuid` null) and says
    why it compacted (`auto` when the context filled, `manual` for the person's /compact)."""
    return {
        "parentUuid": None,
        "logicalParentUuid": logical_parent,
        "isSidechain": False,
        "type": "system",
        "subtype": "compact_boundary",
        "content": "Conversation compacted",
        "isMeta": False,
        "timestamp": stamp(second),
        "uuid": uuid,
        "level": "info",
        "compactMetadata": {"trigger": trigger, "preTokens": 152340},
        **_COMMON,
    }


def compact_summary(uuid: str, parent: str, second: int, summary: str) -> dict:
    """The summary Claude Code hands the model after a boundary (shown in the transcript only)."""
    text = (
        "This session is being continued from a previous conversation that ran out of "
        f"context. The summary below covers the earlier portion of the conversation.\n\n{summary}"
    )
    return user(uuid, parent, second, text, isVisibleInTranscriptOnly=True, isCompactSummary=True)


LOCAL_CAVEAT = (
    "<local-command-caveat>Caveat: The messages below were generated by the user while "
    "running local commands. DO NOT respond to these messages or otherwise consider them in "
    "your response unless the user explicitly asks you to.</local-command-caveat>"
)


def compact_command(uuid: str, parent: str, second: int) -> list[dict]:
    """The records a person's `/compact` leaves after the boundary it caused: the caveat, the
    command (stamped when it was typed, before the boundary) and its output."""
    command = (
        "<command-name>/compact</command-name>\n            <command-message>compact"
        "</command-message>\n            <command-args></command-args>"
    )
    stdout = "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>"
    return [
        user(f"{uuid}-caveat", parent, second, LOCAL_CAVEAT, isMeta=True),
        user(f"{uuid}-command", f"{uuid}-caveat", second - 6, command),
        user(uuid, f"{uuid}-command", second, stdout),
    ]


def harness_reply(uuid: str, parent: str, second: int, text: str) -> dict:
    """A reply Claude Code wrote itself (model `<synthetic>`): "No response requested." after
    an interrupt, an API error, a usage limit."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "type": "assistant",
        "uuid": uuid,
        "timestamp": stamp(second),
        "message": {
            "id": f"{uuid}-reply",
            "model": "<synthetic>",
            "role": "assistant",
            "stop_reason": "stop_sequence",
            "stop_sequence": "",
            "type": "message",
            "usage": {"input_tokens": 0, "output_tokens": 0},
            "content": [{"type": "text", "text": text}],
        },
        "isApiErrorMessage": False,
        **_COMMON,
    }


_V1_HEAD = ("parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch")
_V1_TAIL = {
    "assistant": ("type", "timestamp", "message", "requestId", "uuid"),
    "synthetic": ("type", "uuid", "timestamp", "message", "isApiErrorMessage"),
    "user": ("type", "message", "isCompactSummary", "isMeta", "uuid", "timestamp", "toolUseResult"),
    "system": ("type", "content", "isMeta", "timestamp", "uuid", "level"),
}
_V2_ONLY = ("promptId", "entrypoint", "permissionMode", "isVisibleInTranscriptOnly", "slug")


def in_v1(record: dict, version: str = "1.0.81", **fields: Any) -> dict:
    """`record` as Claude Code 1.0 wrote it: its key order (the session fields first, then the
    type), none of the fields 2.x added, `fields` set (a `timestamp`, another `sessionId`)."""
    record = {k: v for k, v in {**record, **fields}.items() if k not in _V2_ONLY}
    record["version"] = version
    kind = record["type"]
    if kind == "assistant" and record["message"].get("model") == "<synthetic>":
        kind = "synthetic"
    order = _V1_HEAD + _V1_TAIL.get(kind, ("type",))
    out = {key: record[key] for key in order if key in record}
    out.update((key, value) for key, value in record.items() if key not in out)
    return out


def permission_mode() -> dict:
    return {"type": "permission-mode", "permissionMode": "acceptEdits", "sessionId": SESSION}


def file_history_snapshot(message_id: str) -> dict:
    return {
        "type": "file-history-snapshot",
        "messageId": message_id,
        "snapshot": {"messageId": message_id, "trackedFileBackups": {}, "timestamp": stamp(0)},
        "isSnapshotUpdate": False,
    }


def encode(record: object) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()


def write(path: Path, records: list[object | bytes]) -> Path:
    """The records as Claude Code writes them (a `bytes` item is written as it is)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [r if isinstance(r, bytes) else encode(r) for r in records]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def home(root: Path, records: list[object | bytes], name: str = SESSION) -> Path:
    """A home folder with one Claude Code session in its own place; returns the file."""
    return write(root / ".claude" / "projects" / SLUG / f"{name}.jsonl", records)
