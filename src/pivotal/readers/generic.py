"""Generic chat transcripts: `{"role", "content"}` messages in JSONL or JSON.

Three shapes: one message per line (JSONL, read incrementally), a JSON array
of messages, or an object with `"messages": [...]` (OpenAI chat style). Both
JSON shapes are rewritten whole by their writers, so they are re-read on
change. `content` is a string or a list of parts (`{type: text, text}`,
images, and Anthropic-style `tool_use` / `tool_result` blocks).

Roles: user / human -> USER + HUMAN; assistant / model / ai -> ASSISTANT;
system / developer -> SYSTEM + SYNTHETIC. Tool results are not turns:
`role: "tool"` messages (`tool_call_id`), legacy `role: "function"` messages
and `tool_result` blocks are folded into the call they answer. A result that
answers no structured call (the command was written in the reply's text) is
never dropped: it becomes a call of the reply before it, or a SYSTEM turn of
its own when no reply precedes it; its exit status is read from its text. This format is
sniffed last and only claims files whose first message clearly has this shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import msgspec

from pivotal.model import Part, PartKind, Role, SessionRef, SourceRef, ToolCall, Turn, TurnFlag
from pivotal.readers.base import (
    FormatSpec,
    SessionReader,
    decode_json,
    first_json_line,
    parse_timestamp,
    preview_of,
    sane_duration,
    single_ref,
)
from pivotal.readers.generic_common import WholeFileJsonReader
from pivotal.readers.lines import LineFileReader
from pivotal.readers.tooltext import duration_ms_from_output, exit_code_from_output

FORMAT = "generic"
USER_ROLES = ("user", "human")
ASSISTANT_ROLES = ("assistant", "model", "ai", "bot")
SYSTEM_ROLES = ("system", "developer")
TOOL_ROLES = ("tool", "function")
ROLES = USER_ROLES + ASSISTANT_ROLES + SYSTEM_ROLES + TOOL_ROLES
_TEXT_TYPES = ("text", "input_text", "output_text")
_IMAGE_TYPES = ("image_url", "image", "input_image")
_ROLE_RE = re.compile(rb'"role"\s*:\s*"(' + b"|".join(r.encode() for r in ROLES) + rb')"')


class ChatBuilder:
    """Turns chat messages into turns, folding tool results into their calls."""

    def __init__(self, append: Callable[[Turn], Turn], touch: Callable[[int], None]) -> None:
        self._append = append
        self._touch = touch
        self._calls: dict[str, tuple[ToolCall, Turn]] = {}
        self._open: list[tuple[ToolCall, Turn]] = []
        self._made = 0
        self._last: Turn | None = None

    def add(self, msg: dict, line: int | None = None, offset: int | None = None) -> str | None:
        """Add one message; returns why it was unusable, or None."""
        role = msg.get("role")
        role = role.lower() if isinstance(role, str) else role
        if role not in ROLES:
            return f"unknown role {str(role)[:30]!r}"
        if role in TOOL_ROLES:
            text = _text_of(msg.get("content"))
            where = SourceRef(line=line, offset=offset)
            self._result(msg.get("tool_call_id"), msg.get("name"), text, _is_error(msg), where)
            return None
        parts: list[Part] = []
        texts: list[str] = []
        results = 0
        content = msg.get("content")
        if isinstance(content, str):
            texts.append(content)
        for block in _dicts(content):
            kind = block.get("type")
            if kind in _TEXT_TYPES or (kind is None and isinstance(block.get("text"), str)):
                texts.append(block.get("text") if isinstance(block.get("text"), str) else "")
            elif kind in _IMAGE_TYPES:
                parts.append(Part(PartKind.ATTACHMENT, text="[image]"))
            elif kind in ("thinking", "reasoning"):
                body = block.get("thinking", block.get("text"))
                if isinstance(body, str) and body:
                    parts.append(Part(PartKind.REASONING, text=body))
            elif kind == "tool_use":
                parts.append(self._call(block.get("id"), block.get("name"), block.get("input")))
            elif kind == "tool_result":
                results += 1
                text = _text_of(block.get("content"))
                error = bool(block.get("is_error"))
                where = SourceRef(line=line, offset=offset)
                self._result(block.get("tool_use_id"), None, text, error, where)
        reasoning = msg.get("reasoning_content") or msg.get("reasoning")
        if isinstance(reasoning, str) and reasoning:
            parts.insert(0, Part(PartKind.REASONING, text=reasoning))
        for raw in _dicts(msg.get("tool_calls")):
            function = raw.get("function") if isinstance(raw.get("function"), dict) else raw
            parts.append(
                self._call(raw.get("id"), function.get("name"), _args(function.get("arguments")))
            )
        legacy = msg.get("function_call")
        if isinstance(legacy, dict):
            parts.append(self._call(None, legacy.get("name"), _args(legacy.get("arguments"))))
        if results and not texts and not parts:
            return None  # a message that only carries tool results
        text = "\n\n".join(texts) if len(texts) > 1 else (texts[0] if texts else "")
        if role in USER_ROLES:
            new_role, flags = Role.USER, TurnFlag.HUMAN
        elif role in ASSISTANT_ROLES:
            new_role, flags = Role.ASSISTANT, TurnFlag.NONE
        else:
            new_role, flags = Role.SYSTEM, TurnFlag.SYNTHETIC
        ident = msg.get("id")
        ident = str(ident) if isinstance(ident, str | int) and not isinstance(ident, bool) else None
        turn = Turn(
            index=0,
            role=new_role,
            flags=flags,
            timestamp=parse_timestamp(
                msg.get("timestamp", msg.get("created_at", msg.get("created")))
            ),
            message_id=ident,
            source=SourceRef(line=line, record_id=ident, offset=offset),
        )
        model = msg.get("model")
        turn.model = model if isinstance(model, str) else None
        turn.parts = ([Part(PartKind.TEXT, text=text)] if texts else []) + parts
        turn.preview = preview_of(text)
        self._append(turn)
        self._last = turn
        for part in parts:
            if part.tool is not None:
                self._calls[part.tool.call_id] = (part.tool, turn)
                self._open.append((part.tool, turn))
        return None

    def _orphan(self, call_id: object, name: object, where: SourceRef) -> tuple[ToolCall, Turn]:
        """A result answering no structured call (the command was in the reply's text).

        It is kept: as a call of the reply just before it, or, when no reply
        precedes it, in a turn of its own.
        """
        call = self._new_call(call_id, name, None)
        turn = self._last
        if turn is None or turn.role is not Role.ASSISTANT:
            turn = Turn(index=0, role=Role.SYSTEM, flags=TurnFlag.SYNTHETIC, source=where)
            turn.parts = []
            self._append(turn)
            self._last = turn
        turn.parts.append(Part(PartKind.TOOL, tool=call))
        return call, turn

    def _call(self, ident: object, name: object, arguments: object) -> Part:
        return Part(PartKind.TOOL, tool=self._new_call(ident, name, arguments))

    def _new_call(self, ident: object, name: object, arguments: object) -> ToolCall:
        self._made += 1
        call_id = ident if isinstance(ident, str) and ident else f"call-{self._made}"
        return ToolCall(call_id=call_id, name=str(name or "tool"), input=arguments)

    def _result(
        self, call_id: object, name: object, text: str, is_error: bool, where: SourceRef
    ) -> None:
        found = self._calls.get(call_id) if isinstance(call_id, str) else None
        if found is None:
            # no id (legacy "function" role): the oldest open call with that name
            found = next(
                (
                    (c, t)
                    for c, t in self._open
                    if c.output is None and (name is None or c.name == name)
                ),
                None,
            )
        if found is None:
            found = self._orphan(call_id, name, where)
        call, turn = found
        call.output = text
        call.is_error = call.is_error or is_error
        call.exit_code = exit_code_from_output(text)
        call.duration_ms = sane_duration(duration_ms_from_output(text))
        call.status = "error" if call.failed else "completed"
        self._open = [(c, t) for c, t in self._open if c is not call]
        self._touch(turn.index)


class GenericJsonlReader(LineFileReader):
    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.reset()

    def reset(self) -> None:
        self._builder = ChatBuilder(self.append_turn, self.mark_changed)

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        obj = self.json_object(line_no, line)
        if obj is None:
            return
        try:
            problem = self._builder.add(obj, line_no, offset)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            problem = f"unexpected message shape: {type(exc).__name__}"
        if problem:
            self.skip(line_no, problem)
        elif isinstance(obj.get("model"), str) and obj.get("role") in ASSISTANT_ROLES:
            self.session.model = obj["model"]


class GenericJsonReader(WholeFileJsonReader):
    """A JSON array of messages, or an object with `messages`, rewritten whole."""

    format = FORMAT

    def build(self, doc: object) -> list[Turn] | None:
        if isinstance(doc, dict):
            messages = doc.get("messages")
            for key, attr in (("id", "id"), ("title", "title"), ("model", "model")):
                if isinstance(doc.get(key), str):
                    setattr(self.session, attr, doc[key])
        else:
            messages = doc
        if not isinstance(messages, list):
            return None
        turns: list[Turn] = []

        def append(turn: Turn) -> Turn:
            turn.index = len(turns)
            turns.append(turn)
            return turn

        builder = ChatBuilder(append, lambda index: None)
        self.session.skipped.clear()
        for number, msg in enumerate(messages, start=1):
            try:
                problem = builder.add(msg) if isinstance(msg, dict) else "not a JSON object"
            except (TypeError, ValueError, AttributeError, KeyError) as exc:
                problem = f"unexpected message shape: {type(exc).__name__}"
            if problem:
                self.skip(None, f"message {number}: {problem}")
        return turns


# ---------------------------------------------------------------------------
# helpers


def _dicts(value: object) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in _dicts(content) if isinstance(b.get("text"), str))
    if content is None:
        return ""
    return msgspec.json.encode(content).decode("utf-8", "replace")


def _args(raw: object) -> object:
    if isinstance(raw, str):
        try:
            return msgspec.json.decode(raw)
        except msgspec.DecodeError:
            return raw
    return raw


def _is_error(msg: dict) -> bool:
    return bool(msg.get("is_error")) or msg.get("status") in ("error", "failed")


def _is_message(obj: object) -> bool:
    if not isinstance(obj, dict):
        return False
    role = obj.get("role")
    if not isinstance(role, str) or role.lower() not in ROLES:
        return False
    return "content" in obj or "tool_calls" in obj


def sniff(path: Path, head: bytes) -> bool:
    """Only files whose first message is clearly `{role, content}` shaped."""
    if path.is_dir() or _in_cline_session(path) or _in_vibe_store(path):
        return False
    start = head.lstrip()
    if start.startswith(b"["):
        try:
            doc = decode_json(head)
        except ValueError:
            # longer than the head: the first element must look like a message
            return re.match(rb"\[\s*\{", start) is not None and _looks_like_message(start[:4096])
        return isinstance(doc, list) and bool(doc) and _is_message(doc[0])
    if not start.startswith(b"{"):
        return False
    first = first_json_line(start)
    if _is_message(first):
        return True
    try:
        doc = decode_json(head)
    except ValueError:
        match = re.search(rb'"messages"\s*:\s*\[\s*\{', start[:16384])
        return match is not None and _looks_like_message(start[match.end() - 1 :][:4096])
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        return False
    messages = doc["messages"]
    return bool(messages) and _is_message(messages[0])


def _in_cline_session(path: Path) -> bool:
    """A file of a Cline session folder (`<id>/<id>.messages.json` ...): the cline reader's."""
    folder = path.parent.name
    return (
        path.name.startswith(f"{folder}.") and (path.parent / f"{folder}.messages.json").is_file()
    )


def _in_vibe_store(path: Path) -> bool:
    """A chunk or journal file of a Vibe session store: the vibe reader's."""
    store = path.parent.parent
    return path.parent.name in ("chunks", "journal") and (store / "CURRENT").is_file()


def _looks_like_message(text: bytes) -> bool:
    return _ROLE_RE.search(text) is not None and b'"content"' in text


def open_reader(ref: SessionRef) -> SessionReader:
    try:
        with open(ref.path, "rb") as handle:
            head = handle.read(64 * 1024)
    except OSError:
        return GenericJsonlReader(ref)
    start = head.lstrip()
    if start.startswith(b"[") or not _is_message(first_json_line(start)):
        if start:
            return GenericJsonReader(ref)
    return GenericJsonlReader(ref)


SPEC = FormatSpec(
    name=FORMAT,
    description="generic chat messages ({role, content}) as JSONL, a JSON array or {messages}",
    sniff=sniff,
    refs=single_ref(FORMAT),
    open=open_reader,
)
