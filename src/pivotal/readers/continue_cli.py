"""Continue CLI (`cn`) sessions: `~/.continue/sessions/<uuid>.json`.

One JSON document, `{sessionId, title, workspaceDirectory, history[], usage}`,
rewritten whole after every change, beside a `sessions.json` index. What is
ugly about it, and what this reader makes of it:

* Tool results are not messages: they live in `toolCallStates` of the assistant
  item that made the calls, each with a `status` (`done`, `errored`, `canceled`,
  ...) and `output[]` context items. `errored` sets the error flag; an exit code is
  taken only where the output states one ("Error (exit code 1): ..."). Continue
  stores a command that printed to stdout and then exited non-zero as `done` with
  its stdout and no exit code: that failure cannot be known from the file and the
  call is not failed.
* The items carry no timestamps (only reasoning blocks have `startAt`): turns
  have none, and the session's start comes from `dateCreated` in the index.
* Auto-compaction replaces the whole history with `[summary, ...]`, the summary
  an assistant item holding `conversationSummary`; the messages before it are gone
  from the file. The reader shows a COMPACTION_BOUNDARY turn and the summary
  (COMPACTION_SUMMARY); while following a session live, the turns read before the
  rewrite are kept in front of them (nothing the person saw disappears). After an
  auto-compaction Continue injects a user message `continue` that nobody typed: the
  first user item saying exactly `continue` after a summary, with only assistant
  items between, is SYNTHETIC. (A person typing `continue` right after a manual
  compaction looks the same and is read the same way.) The prompt that triggered
  the compaction is not saved at all.
* A half-written document (the writer is mid-rewrite) keeps the turns read before
  and is read again on the next change; system messages are the prompt, not turns.
"""

from __future__ import annotations

import re
from pathlib import Path

from pivotal.model import (
    Part,
    PartKind,
    Role,
    SessionRef,
    SourceRef,
    ToolCall,
    Turn,
    TurnFlag,
    Usage,
)
from pivotal.readers.base import (
    FormatSpec,
    decode_json,
    decode_json_start,
    parse_timestamp,
    preview_of,
)
from pivotal.readers.files import with_files
from pivotal.readers.generic_common import WholeFileJsonReader

FORMAT = "continue"
INJECTED_CONTINUE = "continue"
INDEX_NAME = "sessions.json"
_STATUS = {
    "done": "completed",
    "errored": "error",
    "canceled": "cancelled",
    "calling": "running",
    "generated": "pending",
    "generating": "pending",
}
_EXIT = re.compile(r"\(exit code (-?\d{1,4})\)")


class ContinueReader(WholeFileJsonReader):
    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._reported: set[str] = set()

    def build(self, doc: object) -> list[Turn] | None:
        if not isinstance(doc, dict) or not isinstance(doc.get("history"), list):
            return None
        session = self.session
        session.id = _str(doc.get("sessionId")) or session.id
        title = _str(doc.get("title"))
        session.title = title if title and title != "Untitled Session" else session.title
        session.cwd = _str(doc.get("workspaceDirectory")) or session.cwd
        if session.started is None:
            session.started = _index_entry(self.ref.path).get("started")
        bad: list[int] = []
        turns = build_turns([h for h in doc["history"] if isinstance(h, dict)], bad)
        for position in bad:
            reason = f"history[{position}]: an item of an unexpected shape"
            if reason not in self._reported:
                self._reported.add(reason)
                self.skip(None, reason)
        models = [t.model for t in turns if t.model]
        session.model = models[-1] if models else session.model
        return self._kept_before_compaction(turns) + turns

    def _kept_before_compaction(self, turns: list[Turn]) -> list[Turn]:
        """Turns read before a compaction rewrote the file: they stay in front of it."""
        if not turns or not turns[0].flags & TurnFlag.COMPACTION_BOUNDARY:
            return []
        summary = turns[1].text if len(turns) > 1 else ""
        old = self.session.turns
        for index, turn in enumerate(old):
            if turn.flags & TurnFlag.COMPACTION_BOUNDARY and index + 1 < len(old):
                if old[index + 1].text == summary:
                    return list(old[:index])
        if old and not self._noted:
            self._noted = True
            self.session.notices.append(
                "the file was compacted and rewritten; the turns read before are kept"
            )
        return list(old)

    _noted = False


def build_turns(history: list[dict], bad: list[int] | None = None) -> list[Turn]:
    """Turns of the `history` items, tool results folded into their calls.

    An item whose shape breaks the conversion is left out and its position added to `bad`.
    """
    turns: list[Turn] = []
    after_summary = False
    for position, item in enumerate(history):
        try:
            after_summary = _item_turns(item, position, after_summary, turns)
        except (TypeError, ValueError, AttributeError, KeyError):
            if bad is not None:
                bad.append(position)
    for index, turn in enumerate(turns):
        turn.index = index
    return turns


def _item_turns(item: dict, position: int, after_summary: bool, turns: list[Turn]) -> bool:
    """Append the turns of one history item; says whether a summary was the last thing seen."""
    message = item.get("message")
    if not isinstance(message, dict):
        return after_summary
    role = message.get("role")
    where = SourceRef(record_id=f"history[{position}]")
    summary = item.get("conversationSummary")
    if isinstance(summary, str):
        boundary = _turn(Role.SYSTEM, TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC, where)
        _set_text(boundary, "Conversation compacted")
        turns.append(boundary)
        flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
        turn = _turn(Role.ASSISTANT, flags, where)
        _set_text(turn, _content_text(message.get("content")) or summary)
        turns.append(turn)
        return True
    if role == "user":
        turns.append(_user(item, message, where, after_summary))
        return False
    if role == "assistant":
        turns.append(_assistant(item, message, where))
    elif role == "tool":
        _fold_tool_message(turns, message)
    return after_summary


def _user(item: dict, message: dict, where: SourceRef, after_summary: bool) -> Turn:
    text = _content_text(message.get("content"))
    injected = after_summary and text == INJECTED_CONTINUE
    turn = _turn(Role.USER, TurnFlag.SYNTHETIC if injected else TurnFlag.HUMAN, where)
    _set_text(turn, text)
    for context in _list(item.get("contextItems")):
        if isinstance(context, dict):
            name = _str(context.get("name")) or _str(context.get("description")) or "context"
            turn.parts.append(Part(PartKind.ATTACHMENT, text=f"[context: {name}]"))
    content = message.get("content")
    for part in content if isinstance(content, list) else []:
        if isinstance(part, dict) and part.get("type") == "imageUrl":
            turn.parts.append(Part(PartKind.ATTACHMENT, text="[image]"))
    return turn


def _assistant(item: dict, message: dict, where: SourceRef) -> Turn:
    turn = _turn(Role.ASSISTANT, TurnFlag.NONE, where)
    parts: list[Part] = []
    reasoning = item.get("reasoning")
    if isinstance(reasoning, dict) and _str(reasoning.get("text")):
        parts.append(Part(PartKind.REASONING, text=reasoning["text"]))
        turn.timestamp = parse_timestamp(reasoning.get("startAt"))
    text = _content_text(message.get("content"))
    if text:
        parts.append(Part(PartKind.TEXT, text=text))
    states = {
        s["toolCallId"]: s
        for s in _list(item.get("toolCallStates"))
        if isinstance(s, dict) and isinstance(s.get("toolCallId"), str)
    }
    for raw in _list(message.get("toolCalls")):
        if isinstance(raw, dict):
            call = _call(raw)
            _fill(call, states.pop(call.call_id, None))
            parts.append(Part(PartKind.TOOL, tool=call))
    for state in states.values():  # a state whose call is missing from the message
        raw = state.get("toolCall")
        call = _call(raw if isinstance(raw, dict) else {"id": state["toolCallId"]})
        _fill(call, state)
        parts.append(Part(PartKind.TOOL, tool=call))
    turn.parts = parts
    turn.preview = preview_of(text)
    usage = message.get("usage")
    if isinstance(usage, dict):
        turn.usage = Usage(
            input=_int(usage.get("prompt_tokens")), output=_int(usage.get("completion_tokens"))
        )
        turn.model = _str(usage.get("model")) or None
    return turn


def _call(raw: dict) -> ToolCall:
    function = raw.get("function") if isinstance(raw.get("function"), dict) else {}
    arguments = function.get("arguments")
    decoded: object = arguments
    if isinstance(arguments, str):
        try:
            decoded = decode_json(arguments.encode("utf-8", "surrogatepass"))
        except ValueError:
            decoded = arguments
    return ToolCall(
        call_id=_str(raw.get("id")) or "?",
        name=_str(function.get("name")) or "tool",
        input=decoded,
    )


def _fill(call: ToolCall, state: dict | None) -> None:
    if state is None:
        return
    status = _str(state.get("status"))
    if status:
        call.status = _STATUS.get(status, status)
        call.is_error = status == "errored"
    if not isinstance(call.input, dict) and isinstance(state.get("parsedArgs"), dict):
        call.input = state["parsedArgs"]
    outputs = [o for o in _list(state.get("output")) if isinstance(o, dict)]
    texts = [o["content"] for o in outputs if isinstance(o.get("content"), str)]
    if texts or status in ("done", "errored", "canceled"):
        call.output = "\n".join(texts)
    if call.is_error and call.output:
        found = _EXIT.search(call.output[:4096])
        call.exit_code = int(found.group(1)) if found else None


def _fold_tool_message(turns: list[Turn], message: dict) -> None:
    """An older layout: a `tool` role message answering a call by `toolCallId`."""
    call_id = message.get("toolCallId")
    for turn in reversed(turns):
        for call in turn.tool_calls:
            if call.call_id == call_id and call.output is None:
                call.output = _content_text(message.get("content"))
                call.status = call.status or "completed"
                return


def _turn(role: Role, flags: TurnFlag, where: SourceRef) -> Turn:
    return Turn(index=0, role=role, flags=flags, message_id=where.record_id, source=where)


def _set_text(turn: Turn, text: str) -> None:
    turn.parts = [Part(PartKind.TEXT, text=text)]
    turn.preview = preview_of(text)


def _content_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _index_entry(path: Path) -> dict:
    """This session's entry in the `sessions.json` index beside it (start time), if any."""
    try:
        with open(path.parent / INDEX_NAME, "rb") as handle:
            index = decode_json(handle.read())
    except (OSError, ValueError):
        return {}
    for entry in index if isinstance(index, list) else []:
        if isinstance(entry, dict) and entry.get("sessionId") == path.stem:
            created = entry.get("dateCreated")
            if isinstance(created, str) and created.isdigit():
                created = int(created)
            return {"started": parse_timestamp(created), "title": _str(entry.get("title"))}
    return {}


def sniff(path: Path, head: bytes) -> bool:
    """A JSON document whose first keys are Continue's: sessionId, history, workspaceDirectory."""
    if path.is_dir():
        return False
    start = head.lstrip()[:4096]
    if not start.startswith(b"{") or b'"sessionId"' not in start:
        return False
    if b'"history"' in start and b'"workspaceDirectory"' in start:
        return True
    doc = decode_json_start(head)  # a long title first: the document's keys as far as read
    return isinstance(doc, dict) and "history" in doc and "workspaceDirectory" in doc


def refs(path: Path) -> list[SessionRef]:
    try:
        st = path.stat()
    except OSError:
        return [SessionRef(format=FORMAT, path=path)]
    entry = _index_entry(path)
    return [
        SessionRef(
            format=FORMAT,
            path=path,
            session_id=path.stem,
            started=entry.get("started"),
            size=st.st_size,
            updated=st.st_mtime,
        )
    ]


SPEC = FormatSpec(
    name=FORMAT,
    description="Continue CLI sessions (~/.continue/sessions/<uuid>.json)",
    sniff=sniff,
    refs=refs,
    open=ContinueReader,
    files=lambda ref: with_files(ref, [ref.path.parent / INDEX_NAME]),
)
