"""Kimi CLI's model-context files: `context.jsonl` and its rotations `context_N.jsonl`.

`kimi.py` reads a session from `wire.jsonl` (the event log); this module knows the
context files it needs beside it: where the compaction summaries are (the first user
message of the file a compaction started, "<system>Previous context has been
compacted. …</system>" then the summary), and how to read a session that has
no wire log at all (older Kimi versions): the context files in rotation order,
each later file starting with a summary (a compaction) or nothing (a `/clear`),
followed by copies of the messages the rotation kept, which are not shown again.
"""

from __future__ import annotations

import re
from pathlib import Path

from pivotal.model import Part, PartKind, Role, SourceRef, ToolCall, Turn, TurnFlag
from pivotal.readers.base import decode_json, preview_of

COMPACTED = "<system>Previous context has been compacted. Here is the compaction output:</system>"
SUMMARY_HEAD = 256 * 1024
"""The summary is the first message after the system prompt: the head of a file is enough."""
_ROTATED = re.compile(r"^context_(\d+)\.jsonl$")
_ERROR = re.compile(r"\A\s*<system>ERROR:")
_EXIT = re.compile(r"exit code:? (-?\d{1,4})")


def context_files(folder: Path) -> list[Path]:
    """The context files in the order they were written: context_1, context_2, …, context."""
    try:
        names = [p.name for p in folder.iterdir()]
    except OSError:
        return []
    rotated = sorted((int(m.group(1)), n) for n in names if (m := _ROTATED.match(n)))
    files = [folder / n for _, n in rotated]
    if "context.jsonl" in names:
        files.append(folder / "context.jsonl")
    return files


def records(path: Path, limit: int | None = None) -> list[tuple[int, dict]]:
    """(line number, record) for each JSON object line of a context file (or its head)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read() if limit is None else handle.read(limit)
    except OSError:
        return []
    out = []
    lines = data.split(b"\n")
    if limit is not None and len(data) == limit:
        lines = lines[:-1]  # the head may end inside a line
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = decode_json(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            out.append((number, obj))
    return out


def summary_of(message: dict) -> str | None:
    """The compaction summary a user message carries, or None when it is not one."""
    if message.get("role") != "user":
        return None
    texts = content_texts(message.get("content"))
    if not texts or texts[0].strip() != COMPACTED:
        return None
    return "\n\n".join(texts[1:])


def summaries(folder: Path) -> list[str]:
    """Every compaction summary in the session's context files, oldest first."""
    found = []
    for path in context_files(folder):
        for _, record in records(path, SUMMARY_HEAD)[:6]:
            text = summary_of(record)
            if text is not None:
                found.append(text)
                break
    return found


def content_texts(content: object) -> list[str]:
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]


def call_input(arguments: object) -> object:
    """Tool arguments are a JSON string; decoded when they are JSON, kept as given otherwise."""
    if not isinstance(arguments, str):
        return arguments
    try:
        return decode_json(arguments.encode("utf-8", "surrogatepass"))
    except ValueError:
        return arguments


def exit_code_in(message: str) -> int | None:
    """The exit code Kimi states ("Command failed with exit code: 3.")."""
    found = _EXIT.search(message)
    return int(found.group(1)) if found else None


# -- a session with no wire log: turns from the context files alone -------------------


def turns_from_contexts(folder: Path) -> list[Turn]:
    turns: list[Turn] = []
    calls: dict[str, ToolCall] = {}
    previous: set[tuple] = set()
    for number, path in enumerate(context_files(folder)):
        seen: set[tuple] = set()
        copying = number > 0
        for line, record in records(path):
            role = record.get("role")
            if not isinstance(role, str) or role.startswith("_"):
                continue
            key = _key(record)
            seen.add(key)
            summary = summary_of(record)
            if summary is not None:
                turns.extend(_compaction(summary, path, line))
                continue
            if copying and key in previous:
                continue  # a message the rotation kept: read already
            copying = False
            turn = _turn_of(record, path, line, calls)
            if turn is not None:
                turns.append(turn)
        previous = seen
    for index, turn in enumerate(turns):
        turn.index = index
    return turns


def _key(record: dict) -> tuple:
    """What a kept copy of a message shares with it (only hashable, string parts)."""
    calls = record.get("tool_calls")
    listed = calls if isinstance(calls, list) else []
    ids = tuple(c["id"] for c in listed if isinstance(c, dict) and isinstance(c.get("id"), str))
    answered = record.get("tool_call_id")
    text = "".join(content_texts(record.get("content")))
    return (str(record.get("role")), text, ids, answered if isinstance(answered, str) else None)


def compaction_turns(summary: str | None, where: SourceRef, when: float | None) -> list[Turn]:
    """A COMPACTION_BOUNDARY turn, and the summary after it when it is known."""
    boundary = Turn(
        index=0,
        role=Role.SYSTEM,
        flags=TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC,
        timestamp=when,
        source=where,
    )
    _text(boundary, "Context compacted")
    if summary is None:
        return [boundary]
    return [boundary, summary_turn(summary, where, when)]


def summary_turn(summary: str, where: SourceRef, when: float | None) -> Turn:
    flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    turn = Turn(index=0, role=Role.USER, flags=flags, timestamp=when, source=where)
    _text(turn, summary)
    return turn


def _compaction(summary: str, path: Path, line: int) -> list[Turn]:
    return compaction_turns(summary, SourceRef(line=line, record_id=path.name), None)


def _turn_of(record: dict, path: Path, line: int, calls: dict[str, ToolCall]) -> Turn | None:
    role = record.get("role")
    where = SourceRef(line=line, record_id=path.name)
    if role == "tool":
        answered = record.get("tool_call_id")
        call = calls.get(answered) if isinstance(answered, str) else None
        if call is not None and call.output is None:
            texts = content_texts(record.get("content"))
            call.output = "\n".join(texts)
            call.is_error = bool(texts) and _ERROR.match(texts[0]) is not None
            call.status = "error" if call.is_error else "completed"
            call.exit_code = exit_code_in(texts[0]) if call.is_error and texts else None
        return None
    if role == "user":
        text = "\n".join(content_texts(record.get("content")))
        synthetic = text.lstrip().startswith("<system>")
        turn = Turn(
            index=0,
            role=Role.USER,
            flags=TurnFlag.SYNTHETIC if synthetic else TurnFlag.HUMAN,
            source=where,
        )
        _text(turn, text)
        return turn
    if role != "assistant":
        return None
    turn = Turn(index=0, role=Role.ASSISTANT, source=where)
    parts: list[Part] = []
    content = record.get("content")
    for part in content if isinstance(content, list) else [{"type": "text", "text": content}]:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "think" and isinstance(part.get("think"), str):
            parts.append(Part(PartKind.REASONING, text=part["think"]))
        elif part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"]:
            parts.append(Part(PartKind.TEXT, text=part["text"]))
    listed = record.get("tool_calls")
    for raw in listed if isinstance(listed, list) else []:
        if isinstance(raw, dict):
            function = raw.get("function") if isinstance(raw.get("function"), dict) else {}
            name = function.get("name") if isinstance(function.get("name"), str) else "tool"
            ident = raw.get("id") if isinstance(raw.get("id"), str) else f"{name}#{line}"
            call = ToolCall(call_id=ident, name=name, input=call_input(function.get("arguments")))
            calls[ident] = call
            parts.append(Part(PartKind.TOOL, tool=call))
    turn.parts = parts
    turn.preview = preview_of(turn.text)
    return turn


def _text(turn: Turn, text: str) -> None:
    turn.parts = [Part(PartKind.TEXT, text=text)]
    turn.preview = preview_of(text)
