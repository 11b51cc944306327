"""opencode message + parts -> one `Turn`, shared by the SQLite and legacy JSON readers.

Both stores hold the same records (`message-v2.ts`): a message info object and
its parts, each keyed by an id that sorts by time. Keeping the mapping here
means a conversation gives the same turns whichever store it came from.
"""

from __future__ import annotations

import re
from typing import Any

from pivotal.model import Part, PartKind, Role, SourceRef, ToolCall, Turn, TurnFlag, Usage
from pivotal.readers.base import parse_timestamp, preview_of, sane_duration
from pivotal.readers.lazy_items import preview_cut
from pivotal.readers.tokens import generated

ABORTED = "MessageAbortedError"
SHELL_MARK = "The following tool was executed by the user"
"""The only text of the user message opencode writes for a person's `!command`; the
command and its output are the tool part of the assistant message after it."""
SHELL_ABORTED = "User aborted the command"
INVALID_TOOL = "invalid"
"""opencode reroutes a call to an unknown tool to this tool; the call failed."""

# `opencode run " "` stores the three characters `" "`: quotes around nothing.
_ONLY_QUOTES = re.compile(r"[\s\"']*")


def is_quoted_blank(text: str) -> bool:
    """True for text that is only quotes and whitespace (empty content)."""
    return _ONLY_QUOTES.fullmatch(text) is not None


def typed_blank(text: str) -> str:
    """What the person typed, for text that is only quotes and whitespace.

    `opencode run " "` stores `" "` (it quotes an argument holding spaces): the
    person typed a space, so the turn's text is that space, not nothing.
    """
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'" and not text[1:-1].strip():
        return text[1:-1]
    return text if not text.strip() else ""


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def usage_of(tokens: object) -> Usage | None:
    """Assistant `tokens` -> Usage (counted once per message)."""
    if not isinstance(tokens, dict):
        return None
    cache = _dict(tokens.get("cache"))
    fresh, output, reasoning = (
        _int(tokens.get("input")),
        _int(tokens.get("output")),
        _int(tokens.get("reasoning")),
    )
    read, write = _int(cache.get("read")), _int(cache.get("write"))
    # whether `output` holds the reasoning depends on the provider: the total says which
    total = _int(tokens.get("total")) or None
    return Usage(
        input=fresh,
        output=generated(output, reasoning, total, fresh + read + write, beside=False),
        cache_read=read,
        cache_write=write,
        reasoning=reasoning,
    )


def tool_call(part: dict[str, Any]) -> ToolCall:
    """A `tool` part (any state) -> ToolCall with its result when there is one."""
    state = _dict(part.get("state"))
    status = _str(state.get("status")) or None
    name = _str(part.get("tool")) or "?"
    call = ToolCall(
        call_id=_str(part.get("callID")) or _str(part.get("id")),
        name=name,
        input=state.get("input"),
        status=status,
    )
    if name == INVALID_TOOL:
        asked = _dict(state.get("input")).get("tool")
        if isinstance(asked, str) and asked:
            call.name = asked  # what the model asked for; the call failed (is_error below)
    if status == "completed":
        output = state.get("output")
        call.output = output if isinstance(output, str) else None
        call.is_error = name == INVALID_TOOL
    elif status == "error":
        error = state.get("error")
        if not isinstance(error, str):
            error = state.get("output")  # some writers keep the message in `output`
        call.output = error if isinstance(error, str) else "error"
        call.is_error = True
    metadata = _dict(state.get("metadata"))
    exit_code = metadata.get("exit")
    if isinstance(exit_code, int) and not isinstance(exit_code, bool):
        call.exit_code = exit_code
    times = _dict(state.get("time"))
    start, end = times.get("start"), times.get("end")
    if isinstance(start, int | float) and isinstance(end, int | float) and end >= start:
        call.duration_ms = sane_duration(end - start)
    return call


def index_info(info: dict[str, Any]) -> dict[str, Any]:
    """What a batch read's index keeps of a message's info: all `build_turn` and the
    `!command` pairing read of it (not its paths, provider, or when it completed)."""
    light = {key: info[key] for key in _INFO_KEYS if key in info}
    created = info.get("time")
    if isinstance(created, dict):
        light["time"] = {"created": created["created"]} if "created" in created else {}
    return light


_INFO_KEYS = ("role", "parentID", "modelID", "tokens", "summary", "error", "time")


def index_part(part: dict[str, Any], assistant: bool) -> dict[str, Any]:
    """What a batch read's index keeps of a part: all `build_turn` and `build_shell_turn`
    read of it for a turn's flags, preview and extra, and the `!command` pairing; the parts
    are built again from the whole records when asked for.

    A person's text is kept whole (a quoted blank, an injected text's length, a marker are
    read of it); of an assistant's text what a preview shows; of a tool call its command;
    of a file its name and type; the rest is its type, or a note's few short fields.
    """
    kind = part.get("type")
    if kind == "text":
        light = {key: part[key] for key in ("type", "synthetic", "ignored") if key in part}
        text = part.get("text")
        light["text"] = preview_cut(text) if assistant and isinstance(text, str) else text
        return light
    if kind == "tool":
        command = _dict(_dict(part.get("state")).get("input")).get("command")
        if isinstance(command, str):
            return {"type": kind, "state": {"input": {"command": command}}}
        return {"type": kind}
    if kind == "file":
        return {key: part[key] for key in ("type", "mime", "filename") if key in part}
    if kind in ("subtask", "agent", "compaction"):
        return part
    if "type" not in part:
        return {}
    shared = _TYPE_ONLY.get(kind) if type(kind) is str else None
    if shared is None:
        shared = {"type": kind}
        if type(kind) is str and len(_TYPE_ONLY) < 64:
            _TYPE_ONLY[kind] = shared
    return shared


_TYPE_ONLY: dict[str, dict[str, Any]] = {}
"""One dict, never changed, for every part of a kind the index reads only the type of
(steps, reasoning, patches): a session has thousands of them, of a few kinds."""


def is_shell_mark(parts: list[dict[str, Any]]) -> bool:
    """A user message's parts are opencode's marker of a person's `!command` (and nothing else)."""
    return bool(parts) and all(
        p.get("type") == "text" and _injected(p) and _str(p.get("text")).strip() == SHELL_MARK
        for p in parts
    )


def is_shell_run(parts: list[dict[str, Any]]) -> bool:
    """An assistant message that only ran tools (no text, no reasoning): a `!command`'s run."""
    return all(p.get("type") in _RUN_PARTS for p in parts)


_RUN_PARTS = frozenset({"tool", "step-start", "step-finish"})


def build_shell_turn(message_id: str, info: dict[str, Any], run: list[dict[str, Any]]) -> Turn:
    """The person's `!command`: a SYNTHETIC user turn (a command, like a slash command)
    whose text is `!` and the command, carrying the shell call with its output."""
    calls = [tool_call(p) for p in run if p.get("type") == "tool"]
    for call in calls:
        if call.output is not None and call.output.rstrip().endswith(
            f"{SHELL_ABORTED}\n</metadata>"
        ):
            call.status = "cancelled"  # stopped by the person: opencode keeps status completed
    command = next(
        (c.input["command"] for c in calls if isinstance(_dict(c.input).get("command"), str)),
        None,
    )
    turn = Turn(
        index=0,
        role=Role.USER,
        flags=TurnFlag.SYNTHETIC,
        timestamp=parse_timestamp(_dict(info.get("time")).get("created")),
        message_id=message_id,
        source=SourceRef(record_id=message_id),
    )
    text = f"!{command}" if command is not None else SHELL_MARK
    turn.parts = [Part(PartKind.TEXT, text=text), *(Part(PartKind.TOOL, tool=c) for c in calls)]
    turn.preview = preview_of(text)
    return turn


def _attachment(part: dict[str, Any]) -> Part:
    mime = _str(part.get("mime")) or "file"
    name = _str(part.get("filename"))
    return Part(PartKind.ATTACHMENT, text=f"[{mime} {name}]" if name else f"[{mime}]")


def _note(part: dict[str, Any]) -> Part | None:
    """Parts that are not content of their own, shown as a short bracketed note."""
    kind = part.get("type")
    if kind == "subtask":
        agent = _str(part.get("agent")) or "agent"
        what = _str(part.get("description")) or _str(part.get("prompt"))
        return Part(PartKind.TEXT, text=f"[subtask → {agent}: {what}]")
    if kind == "agent":
        return Part(PartKind.TEXT, text=f"[@{_str(part.get('name')) or 'agent'}]")
    return None


def _error_of(info: dict[str, Any]) -> tuple[str | None, str]:
    error = info.get("error")
    if not isinstance(error, dict):
        return None, ""
    name = _str(error.get("name")) or "Error"
    message = _str(_dict(error.get("data")).get("message"))
    return name, message


def build_turn(message_id: str, info: dict[str, Any], parts: list[dict[str, Any]]) -> Turn:
    """One message (info without parts) and its parts, ordered by id -> one Turn."""
    role = info.get("role")
    created = parse_timestamp(_dict(info.get("time")).get("created"))
    turn = Turn(
        index=0,
        role=Role.ASSISTANT if role == "assistant" else Role.USER,
        timestamp=created,
        message_id=message_id,
        source=SourceRef(record_id=message_id),
    )
    if role == "assistant":
        _fill_assistant(turn, info, parts)
    else:
        _fill_user(turn, parts)
    return turn


def _fill_assistant(turn: Turn, info: dict[str, Any], parts: list[dict[str, Any]]) -> None:
    out: list[Part] = []
    for part in parts:
        kind = part.get("type")
        if kind == "text":
            out.append(Part(PartKind.TEXT, text=_str(part.get("text"))))
        elif kind == "reasoning":
            out.append(Part(PartKind.REASONING, text=_str(part.get("text"))))
        elif kind == "tool":
            out.append(Part(PartKind.TOOL, tool=tool_call(part)))
        elif kind == "file":
            out.append(_attachment(part))
        elif (note := _note(part)) is not None:
            out.append(note)
    turn.parts = out
    turn.model = _str(info.get("modelID")) or None
    turn.usage = usage_of(info.get("tokens"))
    if info.get("summary") is True:
        turn.flags |= TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    name, message = _error_of(info)
    if name == ABORTED:
        turn.flags |= TurnFlag.INTERRUPTED
    elif name is not None:
        turn.flags |= TurnFlag.ERROR
    if name is not None:
        turn.extra = {"error": f"{name}: {message}" if message else name}
    turn.preview = preview_of(turn.text)


def _fill_user(turn: Turn, parts: list[dict[str, Any]]) -> None:
    """Human if any non-synthetic text part; only synthetic text -> SYNTHETIC; only
    a compaction part -> SYSTEM boundary. Injected parts of a human message become
    attachments so the turn's text stays what the person typed."""
    typed = [p for p in parts if p.get("type") == "text" and not _injected(p)]
    injected = [p for p in parts if p.get("type") == "text" and _injected(p)]
    compaction = [p for p in parts if p.get("type") == "compaction"]
    out: list[Part] = []
    raw: list[str] = []
    if typed or (parts and not injected and not compaction):
        turn.flags |= TurnFlag.HUMAN
    elif compaction and not injected:
        turn.role = Role.SYSTEM
        turn.flags |= TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
        auto = any(p.get("auto") is True for p in compaction)
        overflow = any(p.get("overflow") is True for p in compaction)
        label = "auto" if auto else "manual"
        out.append(Part(PartKind.TEXT, text=f"[context compaction ({label})]"))
        turn.extra = {"auto": auto, "overflow": overflow}
    elif injected:
        turn.flags |= TurnFlag.SYNTHETIC
    human = bool(turn.flags & TurnFlag.HUMAN)
    for part in parts:
        kind = part.get("type")
        if kind == "text":
            text = _str(part.get("text"))
            if human and _injected(part):
                out.append(Part(PartKind.ATTACHMENT, text=f"[injected text, {len(text)} chars]"))
            elif human and is_quoted_blank(text):
                typed = typed_blank(text)
                if typed != text:
                    raw.append(text)
                out.append(Part(PartKind.TEXT, text=typed))
            else:
                out.append(Part(PartKind.TEXT, text=text))
        elif kind == "file":
            out.append(_attachment(part))
        elif (note := _note(part)) is not None:
            out.append(note)
    if raw and any(r for r in raw):
        turn.extra = {"raw_text": "\n\n".join(raw)}
    turn.parts = out
    turn.preview = preview_of(turn.text)


def _injected(part: dict[str, Any]) -> bool:
    return part.get("synthetic") is True or part.get("ignored") is True
