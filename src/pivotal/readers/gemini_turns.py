"""Gemini CLI messages -> turns: the half of the Gemini reader that knows message shapes.

`gemini.py` keeps the logical message list (what the JSONL edits add up to);
this module turns that list into turns: person / model / info records, tool
calls folded with their `functionResponse` results, compaction boundaries and
the copies a compression makes of messages already read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import msgspec

from pivotal.model import (
    Part,
    PartKind,
    Role,
    SourceRef,
    ToolCall,
    Turn,
    TurnFlag,
    Usage,
)
from pivotal.readers.base import (
    parse_timestamp,
    preview_of,
)
from pivotal.readers.tokens import generated
from pivotal.readers.tooltext import exit_code_from_output

ACK_TEXT = "Got it. Thanks for the additional context!"
SNAPSHOT_TAG = "<state_snapshot>"
# what Gemini CLI records when the person presses Esc / Ctrl+C mid-turn
CANCEL_NOTICES = ("Request cancelled.", "Request cancelled")
CONTEXT_TAG = "<session_context>"
# What the CLI itself sends as a `user` message to get the model going again (client.ts):
# after an invalid stream ("Response stopped due to malformed function call", an empty
# reply; 0.11 to 0.40), and as loop-recovery feedback (0.33 on). Both are stored as
# `type: "user"` like anything the person typed.
RETRY_NUDGE = "System: Please continue."
LOOP_FEEDBACK = "System: Potential loop detected. Details:"
# The next-speaker check's nudge. A person may type exactly this too, so it counts as the
# CLI's only when the record carries the query that started the exchange as its
# `displayContent` (the person's prompt, or tool results): the CLI passes that along to
# every request it sends on its own, while a typed "Please continue." stores none.
NEXT_SPEAKER_NUDGE = "Please continue."
_WORKSPACE = re.compile(
    r"\*\*Workspace Directories:\*\*\s*\n\s*- ([^\n]+)"
    r"|I'm currently working in the directory: ([^\n]+)"
)
_WORKSPACE_RAW = re.compile(rb'Workspace Directories:\*\*\\n\s*- ((?:[^"\\]|\\(?!n)["\\/bfrtu])+)')


def workspace_of(text: str) -> str | None:
    """The project directory Gemini's `<session_context>` message names (its first workspace)."""
    if CONTEXT_TAG not in text[:200]:
        return None
    match = _WORKSPACE.search(text)
    if match is None:
        return None
    return (match.group(1) or match.group(2)).strip() or None


def workspace_in_head(head: bytes) -> str | None:
    """The same, from a file's first bytes (the context message JSON-escaped in them)."""
    match = _WORKSPACE_RAW.search(head)
    if match is None:
        return None
    try:
        found = msgspec.json.decode(b'"' + match.group(1) + b'"')
    except msgspec.DecodeError:
        return None
    return found.strip() or None if isinstance(found, str) else None


_COMMAND_RE = re.compile(r"^/[A-Za-z][\w:-]*(?:\s|$)")
RESPONSE_MARK = "[Function Response: "
# Chats of late 2025 store a user message as text, each part written the way the CLI's
# `partToString(…, {verbose: true})` writes it: a `functionResponse` as `[Function Response:
# read_file]`, an `inlineData` as `<image/webp>`. A tool result is recorded when it is more
# than function responses (a file's bytes beside them), so its text is only these pieces.
_RESPONSES_TEXT = re.compile(r"(?:\s*(?:\[Function Response: [^\]\n]*\]|<[\w.+-]+/[\w.+-]+>))+\s*")
_RESPONSE_NAME = re.compile(r"\[Function Response: ([^\]\n]*)\]")
_STATUS = {
    "success": "completed",
    "error": "error",
    "cancelled": "cancelled",
    "executing": "running",
    "scheduled": "pending",
    "validating": "pending",
    "awaiting_approval": "pending",
}


def _id(rec: dict) -> str | None:
    """A record's id, only when it is a string (anything else is treated as no id)."""
    ident = rec.get("id")
    return ident if isinstance(ident, str) else None


@dataclass(slots=True)
class _Entry:
    """One message on the logical list (or a compaction boundary marker)."""

    rec: dict
    line: int | None
    offset: int | None
    boundary: bool = False


class _Calls(dict):
    """Tool calls made so far (call id -> ToolCall) and where each was made.

    `origin` lets a rebuild from entry N forget the calls made at N or later,
    and lets a result folded into an older turn's call report that turn.
    """

    def __init__(self) -> None:
        super().__init__()
        self.origin: dict[str, tuple[int, int]] = {}
        self.pos = 0
        self.turn_index = 0
        self.touched: set[int] = set()
        self.agents: set[str] = set()
        """Calls that ran a sub-agent (`runs_agent`)."""

    def add(self, call: ToolCall) -> None:
        self[call.call_id] = call
        self.origin[call.call_id] = (self.pos, self.turn_index)

    def filled(self, call: ToolCall) -> None:
        origin = self.origin.get(call.call_id)
        if origin is not None:
            self.touched.add(origin[1])

    def forget_from(self, pos: int) -> None:
        for call_id, (made_at, _) in list(self.origin.items()):
            if made_at >= pos:
                del self.origin[call_id]
                self.pop(call_id, None)
                self.agents.discard(call_id)


def build_turns(entries: list[_Entry], bad: list[_Entry] | None = None) -> list[Turn]:
    """Turns of a logical message list; tool results are folded into their calls.

    An entry whose shape breaks the conversion is left out and added to `bad`.
    """
    turns: list[Turn] = []
    _build_range(entries, 0, _Calls(), {"after_snapshot": False}, turns, None, bad)
    return turns


def _build_range(
    entries: list[_Entry],
    start: int,
    calls: _Calls,
    state: dict,
    turns: list[Turn],
    marks: list[tuple[int, bool]] | None,
    bad: list[_Entry] | None,
) -> None:
    """Append the turns of `entries[start:]` to `turns`, recording a mark per entry."""
    for pos in range(start, len(entries)):
        entry = entries[pos]
        if marks is not None:
            marks.append((len(turns), state["after_snapshot"]))
        calls.pos, calls.turn_index = pos, len(turns)
        try:
            turn = _entry_turn(entry, calls, state)
        except (TypeError, ValueError, AttributeError, KeyError):
            if bad is not None:
                bad.append(entry)
            continue
        if turn is not None:
            turn.index = len(turns)
            turns.append(turn)


def _entry_turn(entry: _Entry, calls: _Calls, state: dict) -> Turn | None:
    """The turn for one entry (None for tool results and unknown record types)."""
    after_snapshot = state["after_snapshot"]
    state["after_snapshot"] = False
    if entry.boundary:
        turn = _turn(Role.SYSTEM, TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC, entry)
        turn.parts = [Part(PartKind.TEXT, text="Context compressed")]
        turn.preview = "Context compressed"
        return turn
    rec = entry.rec
    kind = rec.get("type")
    if kind == "user":
        turn = _user_turn(entry, calls)
        state["after_snapshot"] = turn is not None and bool(
            turn.flags & TurnFlag.COMPACTION_SUMMARY
        )
        return turn
    if kind in ("gemini", "model", "qwen"):  # "qwen": the Qwen Code fork's older chats
        turn = _model_turn(entry, calls)
        if after_snapshot and turn.text.strip() == ACK_TEXT:
            turn.flags |= TurnFlag.SYNTHETIC
        if any(c.status == "cancelled" for c in turn.tool_calls):
            turn.flags |= TurnFlag.INTERRUPTED
        return turn
    if kind in ("info", "warning", "error"):
        flags = TurnFlag.SYNTHETIC | (TurnFlag.ERROR if kind == "error" else TurnFlag.NONE)
        text = _plain_text(rec)
        if text.strip() in CANCEL_NOTICES:
            flags |= TurnFlag.INTERRUPTED
        turn = _turn(Role.SYSTEM, flags, entry)
        turn.parts = [Part(PartKind.TEXT, text=text)]
        turn.preview = preview_of(text)
        return turn
    return None


def _turn(role: Role, flags: TurnFlag, entry: _Entry) -> Turn:
    ident = _id(entry.rec)
    return Turn(
        index=0,
        role=role,
        flags=flags,
        timestamp=parse_timestamp(entry.rec.get("timestamp")),
        message_id=ident,
        source=SourceRef(line=entry.line, record_id=ident, offset=entry.offset),
    )


def _user_turn(entry: _Entry, calls: _Calls) -> Turn | None:
    rec = entry.rec
    content = rec.get("content")
    texts: list[str] = []
    attachments: list[Part] = []
    responses = 0
    if isinstance(content, str):
        texts.append(content)
    for part in _dicts(content):
        if "functionResponse" in part:
            responses += 1
            _fold_response(part["functionResponse"], calls)
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif "inlineData" in part or "fileData" in part:
            data = part.get("inlineData") or part.get("fileData") or {}
            mime = data.get("mimeType") if isinstance(data, dict) else None
            attachments.append(Part(PartKind.ATTACHMENT, text=f"[{mime or 'attachment'}]"))
    if responses and not texts:
        return None  # tool results; inline data beside them is a tool's (read_file of an image)
    text = "".join(texts)
    stripped = text.lstrip()
    if stripped.startswith(RESPONSE_MARK) and _RESPONSES_TEXT.fullmatch(text):
        return _written_results(entry, text, calls)
    if stripped.startswith(CONTEXT_TAG):
        flags = TurnFlag.SYNTHETIC
    elif SNAPSHOT_TAG in text:
        flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    elif _COMMAND_RE.match(stripped) or _cli_nudge(rec, stripped):
        flags = TurnFlag.SYNTHETIC
    else:
        flags = TurnFlag.HUMAN
    turn = _turn(Role.USER, flags, entry)
    turn.parts = [Part(PartKind.TEXT, text=text), *attachments]
    turn.preview = preview_of(text)
    return turn


def _written_results(entry: _Entry, text: str, calls: _Calls) -> Turn | None:
    """Tool results stored as their text (`_RESPONSES_TEXT`): the tool's, never the person.

    Each names its tool: it fills the latest call of that name still without a result. The
    chats that write them often record no calls at all; the results then stay in view as
    one injected turn, where the tool ran."""
    found = list(_RESPONSE_NAME.finditer(text))
    ends = [m.start() for m in found[1:]] + [len(text)]
    results: list[tuple[ToolCall, str]] = []
    for match, end in zip(found, ends, strict=True):
        name = match.group(1)
        taken = {id(call) for call, _ in results}
        call = next(
            (
                c
                for c in reversed(calls.values())
                if c.name == name and c.output is None and id(c) not in taken
            ),
            None,
        )
        if call is None:
            break
        results.append((call, text[match.end() : end].strip() or match.group(0)))
    else:
        for call, output in results:
            call.output = output
            call.status = call.status or "completed"
            calls.filled(call)
        return None
    turn = _turn(Role.USER, TurnFlag.SYNTHETIC, entry)
    turn.parts = [Part(PartKind.TEXT, text=text)]
    turn.preview = preview_of(text)
    return turn


def _cli_nudge(rec: dict, text: str) -> bool:
    """A message the CLI sent to make the model go on (see RETRY_NUDGE): never the person."""
    if not text.startswith(("System: P", NEXT_SPEAKER_NUDGE)):
        return False  # every other prompt, however long, costs one comparison
    text = text.rstrip()
    if text == RETRY_NUDGE or text.startswith(LOOP_FEEDBACK):
        return True
    return text == NEXT_SPEAKER_NUDGE and _display_differs(rec.get("displayContent"), text)


def _display_differs(display: object, text: str) -> bool:
    """A `displayContent` that is not the message itself (tool results, another prompt)."""
    if isinstance(display, str):
        return display.strip() != text
    parts = _dicts(display)
    if not parts:
        return False
    shown = "".join(p["text"] for p in parts if isinstance(p.get("text"), str))
    return shown.strip() != text or any("text" not in p for p in parts)


def _model_turn(entry: _Entry, calls: _Calls) -> Turn:
    rec = entry.rec
    turn = _turn(Role.ASSISTANT, TurnFlag.NONE, entry)
    model = rec.get("model")
    turn.model = model if isinstance(model, str) else None
    parts: list[Part] = []
    for thought in _dicts(rec.get("thoughts")):
        subject, body = thought.get("subject"), thought.get("description")
        pieces = [p for p in (subject, body) if isinstance(p, str) and p]
        if pieces:
            parts.append(Part(PartKind.REASONING, text="\n".join(pieces)))
    content = rec.get("content")
    texts = [content] if isinstance(content, str) else []
    pending_calls: list[dict] = []
    for part in _dicts(content):
        if isinstance(part.get("text"), str):
            if part.get("thought") is True:
                parts.append(Part(PartKind.REASONING, text=part["text"]))
            else:
                texts.append(part["text"])
        elif isinstance(part.get("functionCall"), dict):
            pending_calls.append(part["functionCall"])
    text = "".join(texts)
    if text:
        parts.append(Part(PartKind.TEXT, text=text))
    seen: set[str] = set()
    for raw in _dicts(rec.get("toolCalls")):
        call = _tool_call(raw)
        seen.add(call.call_id)
        calls.add(call)
        if runs_agent(raw, call):
            call.runs_subagent = True
            calls.agents.add(call.call_id)
        parts.append(Part(PartKind.TOOL, tool=call))
    for raw in pending_calls:
        ident = raw.get("id")
        call_id = ident if isinstance(ident, str) else f"{raw.get('name')}#{len(calls)}"
        if call_id in seen:
            continue
        call = ToolCall(call_id=call_id, name=str(raw.get("name") or "tool"), input=raw.get("args"))
        calls.add(call)
        parts.append(Part(PartKind.TOOL, tool=call))
    turn.parts = parts
    turn.preview = preview_of(text)
    tokens = rec.get("tokens")
    if isinstance(tokens, dict):
        turn.usage = _usage(tokens)
    return turn


_AGENT_RESULT = re.compile(r"Subagent '([^'\n]{1,200})' (?:finished|failed)\b")
"""How Gemini CLI words an agent call's result for the model (`local-invocation.ts`)."""


def runs_agent(raw: dict, call: ToolCall) -> bool:
    """A call that ran one of Gemini CLI's sub-agents (they are tools named after the agent):
    its display is the agent's progress (`isSubagentProgress`), or its result says so."""
    display = raw.get("resultDisplay")
    if isinstance(display, dict) and display.get("isSubagentProgress") is True:
        return True
    match = _AGENT_RESULT.match(call.output or "")
    return match is not None and match.group(1) == call.name


def _tool_call(raw: dict) -> ToolCall:
    ident = raw.get("id")
    call = ToolCall(
        call_id=ident if isinstance(ident, str) else str(raw.get("name")),
        name=str(raw.get("name") or "tool"),
        input=raw.get("args"),
    )
    status = raw.get("status")
    if isinstance(status, str):
        call.status = _STATUS.get(status, status)
        call.is_error = status == "error"
    for part in _dicts(raw.get("result")):
        if "functionResponse" in part:
            _fill(call, part["functionResponse"])
    if call.output is None and isinstance(raw.get("resultDisplay"), str):
        call.output = raw["resultDisplay"]
    return call


def _fold_response(response: object, calls: _Calls) -> None:
    if not isinstance(response, dict):
        return
    call = calls.get(response.get("id")) if isinstance(response.get("id"), str) else None
    if call is None:
        name = response.get("name")
        call = next(
            (c for c in reversed(calls.values()) if c.name == name and c.output is None), None
        )
    if call is not None and call.output is None:
        _fill(call, response)
        calls.filled(call)
        if runs_agent({}, call):  # an agent call written in the API's shape (a checkpoint)
            call.runs_subagent = True
            calls.agents.add(call.call_id)


def _fill(call: ToolCall, response: object) -> None:
    """Output / error of one functionResponse; the exit code only exists in the text."""
    if not isinstance(response, dict):
        return
    body = response.get("response")
    if isinstance(body, dict):
        if isinstance(body.get("error"), str):
            call.output = body["error"]
            call.is_error = True
        elif isinstance(body.get("output"), str):
            call.output = body["output"]
        else:
            call.output = msgspec.json.encode(body).decode("utf-8", "replace")
    elif isinstance(body, str):
        call.output = body
    if call.output is not None:
        if call.exit_code is None:
            call.exit_code = exit_code_from_output(call.output)
        if call.status is None:
            call.status = "error" if call.is_error else "completed"


def _usage(tokens: dict) -> Usage:
    def num(key: str) -> int:
        value = tokens.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    # Gemini's `input` (promptTokenCount) holds the cached tokens; `output`
    # (candidatesTokenCount) leaves out the thoughts and `tool` (tool-use prompt)
    # tokens, which its `total` counts beside them
    cached, prompt, thoughts, tool = num("cached"), num("input"), num("thoughts"), num("tool")
    total = num("total") or None
    if tool and (total is None or total >= prompt + num("output") + thoughts + tool):
        prompt += tool
    return Usage(
        input=max(prompt - cached, 0),
        output=generated(num("output"), thoughts, total, prompt, beside=True),
        cache_read=cached,
        reasoning=thoughts,
    )


def _dicts(value: object) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _plain_text(rec: dict) -> str:
    content = rec.get("content")
    if isinstance(content, str):
        return content
    return "".join(p["text"] for p in _dicts(content) if isinstance(p.get("text"), str))


def _match_key(rec: dict) -> tuple | None:
    """What identifies a message across Gemini's re-written copies of it."""
    kind = rec.get("type")
    content = rec.get("content")
    call_ids = [
        p["functionCall"].get("id")
        for p in _dicts(content)
        if isinstance(p.get("functionCall"), dict)
    ]
    call_ids += [c.get("id") for c in _dicts(rec.get("toolCalls"))]
    if any(isinstance(c, str) for c in call_ids):
        return (kind, "calls", tuple(sorted(c for c in call_ids if isinstance(c, str))))
    responses = [
        p["functionResponse"].get("id")
        for p in _dicts(content)
        if isinstance(p.get("functionResponse"), dict)
    ]
    if responses:
        return (kind, "responses", tuple(sorted(str(r) for r in responses)))
    if kind in ("user", "gemini", "model"):
        return (kind, "text", _plain_text(rec))
    return None


# ---------------------------------------------------------------------------
# registry entry
