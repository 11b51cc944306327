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

The document is read one history item at a time (`json_items`). A batch read
keeps only each turn's index and where its items are (`lazy_items`): the parts
are decoded again when asked for, so a 1 GB session is not held in memory. A
followed session keeps its parts: a compaction rewrites the file without the
items the turns kept in front of it were read from.
"""

from __future__ import annotations

import os
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import asdict

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
    Update,
    decode_json,
    decode_json_start,
    parse_timestamp,
    preview_of,
)
from pivotal.readers.files import with_files
from pivotal.readers.generic_common import WholeFileJsonReader
from pivotal.readers.json_items import ITEMS, decode_light, scan_document
from pivotal.readers.lazy_items import ItemStore, Piece

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
        self._pinned: bool | None = None
        """Set by the first poll: a followed session (not final) keeps its parts in memory."""
        self._store = ItemStore(ref.path, "history", _rebuild)
        self._index = _Index(None)

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        if self._pinned is None:
            self._pinned = not final
        return super().poll(final, budget)

    def read_document(self) -> object:
        """The document's members, its history's items indexed one by one on the way."""
        self._index = _Index(None if self._pinned else self._store)
        with open(self.ref.path, "rb") as handle:
            fd = handle.fileno()
            size = os.fstat(fd).st_size
            try:
                return scan_document(fd, size, "history", self._index.item, self._index.begin)
            except ValueError:
                if _blank(fd, size):
                    return None  # an empty file: no turns (yet)
                raise

    def build(self, doc: object) -> list[Turn] | None:
        if not isinstance(doc, dict) or doc.get("history") is not ITEMS:
            return None
        session = self.session
        session.id = _str(doc.get("sessionId")) or session.id
        title = _str(doc.get("title"))
        session.title = title if title and title != "Untitled Session" else session.title
        session.cwd = _str(doc.get("workspaceDirectory")) or session.cwd
        if session.started is None:
            session.started = _index_entry(self.ref.path).get("started")
        index, self._index = self._index, _Index(None)
        turns = index.finished()
        for position in index.bad:
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


class _Index:
    """The turns of the history, built one item at a time as the document is read.

    With a store (a batch read), each turn keeps its index fields and the pieces of
    the file it is built from (its item, and the later `tool` items that answer its
    calls, an older layout); its parts are dropped as soon as it is built. Without
    one, the turns keep their parts as well. A compaction's two turns always do.
    """

    def __init__(self, store: ItemStore | None) -> None:
        self.store = store
        self.begin()

    def begin(self) -> None:
        self.turns: list[Turn] = []
        self.pieces: list[list[Piece] | None] = []
        self.calls: list[list[ToolCall]] = []
        """Each turn's calls, for the `tool` items that answer one (parts or not)."""
        self.bad: list[int] = []
        self.position = 0
        self.after_summary = False

    def item(self, offset: int, item: memoryview) -> None:
        history_item = decode_json(item) if self.store is None else _decode_light(item)
        if not isinstance(history_item, dict):
            return
        position = self.position
        self.position += 1
        before = len(self.turns)
        answered: list[int] = []
        try:
            self.after_summary = _item_turns(
                history_item, position, self.after_summary, self.turns, self._answer(answered)
            )
        except (TypeError, ValueError, AttributeError, KeyError):
            self.bad.append(position)
        if not answered and len(self.turns) == before:
            return
        length, crc = len(item), zlib.crc32(item)
        lazy = self.store is not None
        for number in answered:
            self.pieces[number].append(Piece(offset, length, crc, "answer"))  # type: ignore[union-attr]
        for turn in self.turns[before:]:
            calls = turn.tool_calls
            self.calls.append(calls)
            if turn.is_compaction:
                self.pieces.append(None)
                continue
            self.pieces.append([Piece(offset, length, crc, position)])
            if lazy:
                for call in calls:
                    call.input = None
                    call.output = None if call.output is None else ""
                turn._parts = None

    def _answer(self, answered: list[int]) -> Callable[[list[Turn], dict], None]:
        def answer(turns: list[Turn], message: dict) -> None:
            """`_fold_tool_message` over the calls kept per turn (a lazy turn has no parts)."""
            call_id = message.get("toolCallId")
            for number in range(len(self.calls) - 1, -1, -1):
                for call in self.calls[number]:
                    if call.call_id == call_id and call.output is None:
                        _answer_call(call, message)
                        if self.store is not None:
                            call.output = ""
                        answered.append(number)
                        return

        return answer

    def finished(self) -> list[Turn]:
        turns = self.turns
        for turn, pieces in zip(turns, self.pieces, strict=True):
            if pieces is None:
                continue
            if self.store is not None:
                self.store.make_lazy(turn, pieces)
            else:
                turn.extra = {"pieces": tuple(pieces)}
        for index, turn in enumerate(turns):
            turn.index = index
        return turns


class _Output(msgspec.Struct):
    content: msgspec.Raw = msgspec.Raw()
    """Only whether it is a string: a call with text output has an output."""


class _State(msgspec.Struct):
    toolCallId: Any = None  # noqa: N815 (Continue's names)
    status: Any = None
    toolCall: Any = None  # noqa: N815
    output: list[_Output] | None = None


class _Item(msgspec.Struct):
    """What a batch read's index takes of a history item: what its turn's index fields,
    and which calls a later `tool` item answers, come from (no tool output, no context
    items). The same code builds the turn from it as from the whole item; the parts it
    gets are dropped."""

    message: Any = None
    conversationSummary: Any = None  # noqa: N815
    reasoning: Any = None
    toolCallStates: list[_State] | None = None  # noqa: N815


_light = msgspec.json.Decoder(_Item).decode


def _decode_light(item: memoryview) -> object:
    """The history item without its bulk, as a dict; the whole item when it does not have
    the usual shape (or holds what only `decode_json` reads)."""
    light = decode_light(item, _light)
    if light is None:
        return decode_json(item)
    found = asdict(light)
    if light.toolCallStates is not None:
        found["toolCallStates"] = states = []
        for state in light.toolCallStates:
            states.append(asdict(state))
            if state.output is not None:
                states[-1]["output"] = [{"content": _text_mark(o.content)} for o in state.output]
    return found


def _text_mark(raw: msgspec.Raw) -> str | None:
    """ "" for a string (its text is not needed by the index), None for anything else."""
    return "" if bytes(memoryview(raw)[:1]) == b'"' else None


def _rebuild(turn: Turn, items: list[tuple[object, object]]) -> list[Part]:
    """A lazy turn's parts: its item's, with what later `tool` items answered its calls."""
    (item, position), *answers = items
    built: list[Turn] = []
    try:
        _item_turns(item, position, False, built)  # type: ignore[arg-type]
    except (TypeError, ValueError, AttributeError, KeyError):
        return []
    if not built:
        return []
    calls = built[-1].tool_calls
    for answer, _ in answers:
        message = answer.get("message") if isinstance(answer, dict) else None
        if not isinstance(message, dict):
            continue
        for call in calls:
            if call.call_id == message.get("toolCallId") and call.output is None:
                _answer_call(call, message)
                break
    return built[-1].parts


def _blank(fd: int, size: int) -> bool:
    """The file holds nothing but white space (read in chunks)."""
    for offset in range(0, size, 1 << 20):
        if not os.pread(fd, 1 << 20, offset).isspace():
            return False
    return True


def _item_turns(
    item: dict,
    position: int,
    after_summary: bool,
    turns: list[Turn],
    answer: Callable[[list[Turn], dict], None] | None = None,
) -> bool:
    """Append the turns of one history item; says whether a summary was the last thing seen.

    A `tool` item answers a call of an earlier turn: `answer(turns, message)` (by default
    `_fold_tool_message`) puts it there."""
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
        (answer or _fold_tool_message)(turns, message)
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
                _answer_call(call, message)
                return


def _answer_call(call: ToolCall, message: dict) -> None:
    call.output = _content_text(message.get("content"))
    call.status = call.status or "completed"


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
