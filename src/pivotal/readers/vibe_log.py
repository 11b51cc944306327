"""Mistral Vibe before the unified store (1.x–2.x): `~/.vibe/logs/session/session_<time>_<id>/`.

Such a folder holds `meta.json` (session id, start and end time, working directory,
title, the whole config with the active model's alias) and `messages.jsonl`: the
model's messages, one JSON object a line, appended as the conversation grows (the
system prompt left out). Folders of this kind stay on disk after an upgrade to Vibe 3,
whose unified store `vibe.py` reads. What is ugly about them, and what this reader
makes of it:

* Messages carry no time: only the session's start and end are known.
* A user message with `injected: true` is Vibe's own (plan-file notices, hook output,
  the messages kept through a compaction): SYNTHETIC. A compaction starts a new folder
  (naming its parent) whose first message is the injected compaction context; it is a
  COMPACTION_BOUNDARY followed by the `<compaction_summary>` it holds.
* Tool results are `role: tool` messages paired to their call by `tool_call_id`. A
  failure is wrapped in `<tool_error>` (the shell's "Return code: N" is its exit code),
  a cancelled call in `<user_cancellation>`; a shell success states `returncode: 0`.
* The model is named by its alias (`config.active_model`), resolved to the model's
  name through `config.models` when the config lists it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from pivotal.model import Part, PartKind, Role, SessionRef, SourceRef, ToolCall, Turn, TurnFlag
from pivotal.readers.base import (
    SessionReader,
    Update,
    decode_json,
    parse_timestamp,
    preview_of,
    source_gone,
)
from pivotal.readers.lines import LineFileReader

FORMAT = "vibe"
MESSAGES = "messages.jsonl"
META = "meta.json"
_SUMMARY = re.compile(r"<compaction_summary>\s*(.*?)\s*</compaction_summary>", re.S)
_EXIT = re.compile(r"^(?:returncode|Return code): (-?\d{1,4})$", re.M)


def session_folder(path: Path) -> Path | None:
    """The session folder `path` is or holds a file of (`meta.json`, `messages.jsonl`)."""
    if path.is_dir():
        folder = path
    elif path.name in (MESSAGES, META):
        folder = path.parent
    else:
        return None
    if not (folder / MESSAGES).is_file():
        return None
    try:
        with open(folder / META, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    return folder if b'"session_id"' in head else None


def read_meta(folder: Path) -> dict[str, Any]:
    try:
        with open(folder / META, "rb") as handle:
            meta = decode_json(handle.read())
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def meta_cwd(meta: dict[str, Any]) -> str | None:
    return _str(_dict(meta.get("environment")).get("working_directory"))


def meta_model(meta: dict[str, Any]) -> str | None:
    """The model's name: the config's `model_name`, or its active alias resolved."""
    config = _dict(meta.get("config"))
    alias = _str(config.get("active_model"))
    models = config.get("models") if isinstance(config.get("models"), list) else []
    for model in models:
        if isinstance(model, dict) and alias is not None and model.get("alias") == alias:
            return _str(model.get("name")) or alias
    return _str(config.get("model_name")) or alias


def refs(path: Path) -> list[SessionRef]:
    folder = session_folder(path)
    if folder is None:
        return []
    meta = read_meta(folder)
    try:
        st = (folder / MESSAGES).stat()
    except OSError:
        st = None
    return [
        SessionRef(
            format=FORMAT,
            path=folder,
            session_id=_str(meta.get("session_id")) or folder.name,
            title=_str(meta.get("title")),
            cwd=meta_cwd(meta),
            started=parse_timestamp(meta.get("start_time")),
            updated=st.st_mtime if st is not None else parse_timestamp(meta.get("end_time")),
            size=st.st_size if st is not None else None,
        )
    ]


class VibeLogReader(SessionReader):
    """One session folder: `messages.jsonl` followed as it grows, `meta.json` re-read."""

    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._messages = _Messages(replace(ref, path=ref.path / MESSAGES), self)

    @property
    def progress(self) -> tuple[int, int]:
        return self._messages.progress

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        meta = read_meta(self.ref.path)
        session = self.session
        session.id = _str(meta.get("session_id")) or self.ref.session_id or self.ref.path.name
        session.title = _str(meta.get("title")) or session.title
        session.cwd = meta_cwd(meta) or session.cwd
        session.model = meta_model(meta) or session.model
        session.started = parse_timestamp(meta.get("start_time")) or session.started
        session.ended = parse_timestamp(meta.get("end_time")) or session.ended
        self._messages.model = session.model
        update = self._messages.poll(final=final, budget=budget)
        if update.gone and not self.ref.path.is_dir():
            return source_gone(self.ref.path)  # the session is gone, not only its messages
        return Update(
            first_changed=self.take_first_changed(),
            reloaded=update.reloaded,
            notice=update.notice,
            new_skipped=update.new_skipped,
            gone=update.gone,
        )


class _Messages(LineFileReader):
    """`messages.jsonl`, one message a line; the turns go into the owner's session."""

    format = FORMAT

    def __init__(self, ref: SessionRef, owner: VibeLogReader) -> None:
        super().__init__(ref)
        self.owner = owner
        self.session = owner.session
        self.model: str | None = None
        self.reset()

    def reset(self) -> None:
        self._calls: dict[str, tuple[ToolCall, int]] = {}

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        message = self.json_object(line_no, line)
        if message is None:
            return
        where = SourceRef(line=line_no, offset=offset, record_id=_str(message.get("message_id")))
        role = message.get("role")
        try:
            if role == "user":
                self._user(message, where)
            elif role == "assistant":
                self._assistant(message, where)
            elif role == "tool":
                self._result(message)
            elif role != "system":
                self.skip(line_no, "message without a known role")
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.skip(line_no, f"unexpected {role} message: {type(exc).__name__}")

    def _user(self, message: dict, where: SourceRef) -> None:
        text = _text(message.get("content"))
        injected = message.get("injected") is True
        summary = _SUMMARY.search(text) if injected else None
        if summary is not None:
            self._compaction(summary.group(1), where)
            return
        shown = _display_text(message.get("user_display_content"))
        turn = Turn(
            index=0,
            role=Role.USER,
            flags=TurnFlag.SYNTHETIC if injected else TurnFlag.HUMAN,
            message_id=where.record_id,
            source=where,
        )
        images = message.get("images") if isinstance(message.get("images"), list) else []
        turn.parts = [
            Part(PartKind.TEXT, text=shown if shown is not None else text),
            *(Part(PartKind.ATTACHMENT, text="[image]") for _ in images),
        ]
        turn.preview = preview_of(turn.text)
        self.owner.append_turn(turn)

    def _compaction(self, summary: str, where: SourceRef) -> None:
        flags = TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
        boundary = Turn(index=0, role=Role.SYSTEM, flags=flags, source=where)
        boundary.parts = [Part(PartKind.TEXT, text="Context compacted")]
        boundary.preview = "Context compacted"
        self.owner.append_turn(boundary)
        flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
        turn = Turn(index=0, role=Role.USER, flags=flags, source=where)
        turn.parts = [Part(PartKind.TEXT, text=summary)]
        turn.preview = preview_of(summary)
        self.owner.append_turn(turn)

    def _assistant(self, message: dict, where: SourceRef) -> None:
        turn = Turn(index=0, role=Role.ASSISTANT, message_id=where.record_id, source=where)
        turn.model = self.model
        parts: list[Part] = []
        reasoning = _text(message.get("reasoning_content"))
        if reasoning:
            parts.append(Part(PartKind.REASONING, text=reasoning))
        text = _text(message.get("content"))
        if text:
            parts.append(Part(PartKind.TEXT, text=text))
        calls = message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else []
        pending: list[tuple[str, ToolCall]] = []
        for number, raw in enumerate(calls):
            if not isinstance(raw, dict):
                continue
            function = _dict(raw.get("function"))
            name = _str(function.get("name")) or "tool"
            ident = _str(raw.get("id")) or f"{name}#{where.line}.{number}"
            call = ToolCall(call_id=ident, name=name, input=_arguments(function.get("arguments")))
            parts.append(Part(PartKind.TOOL, tool=call))
            pending.append((ident, call))
        turn.parts = parts
        turn.preview = preview_of(turn.text)
        self.owner.append_turn(turn)
        for ident, call in pending:
            self._calls[ident] = (call, turn.index)

    def _result(self, message: dict) -> None:
        answered = message.get("tool_call_id")
        found = self._calls.get(answered) if isinstance(answered, str) else None
        if found is None:
            return
        call, index = found
        text = _text(message.get("content"))
        body = text.strip()
        status = "completed"
        for tag, said in (("tool_error", "error"), ("user_cancellation", "cancelled")):
            if body.startswith(f"<{tag}>") and body.endswith(f"</{tag}>"):
                text, status = body[len(tag) + 2 : -(len(tag) + 3)], said
        call.output = text
        call.is_error = status == "error"
        call.status = status
        code = _EXIT.search(text)
        call.exit_code = int(code.group(1)) if code else None
        self.owner.mark_changed(index)


def _text(content: object) -> str:
    """Message content: a string, or parts whose text is joined (as Vibe does)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [
        p["text"] if isinstance(p, dict) and isinstance(p.get("text"), str) else "" for p in content
    ]
    return "\n".join(t for t in texts if t)


def _display_text(display: object) -> str | None:
    """What the person's client showed for their message, when it says (ACP hosts)."""
    items = _dict(display).get("content")
    if not isinstance(items, list):
        return None
    texts = [i["text"] for i in items if isinstance(i, dict) and isinstance(i.get("text"), str)]
    return "".join(texts) if texts else None


def _arguments(arguments: object) -> object:
    if not isinstance(arguments, str):
        return arguments
    try:
        return decode_json(arguments.encode("utf-8", "surrogatepass"))
    except ValueError:
        return arguments
