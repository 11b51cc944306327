"""Kimi CLI (`kimi-cli` 1.x) sessions: `~/.kimi/sessions/<md5(work dir)>/<session id>/`.

A session is a folder of three files: `wire.jsonl` (the event log the UI replays,
append-only over the whole session), `context.jsonl` (the model's context) and
`state.json` (title, todos). What is ugly about it, and what this reader makes of it:

* The context is not a history: every compaction (and every `/clear` or checkpoint
  revert) *renames* it to `context_N.jsonl` and starts a new one holding only the
  summary and a few kept messages. The wire log is the one record of everything,
  so the turns come from it, read incrementally as it grows: `TurnBegin` /
  `SteerInput` carry what the person typed (a slash command such as `/compact` is
  SYNTHETIC, like other readers' commands), each `StepBegin` starts one model
  response (its think/text parts and tool calls), `ToolResult` is folded into its
  call, `StatusUpdate` gives that step's token usage.
* `CompactionBegin` / `CompactionEnd` are empty: the summary is only in the context
  file the compaction started ("<system>Previous context has been compacted. …</system>").
  The reader shows a COMPACTION_BOUNDARY turn and, after it, the summary of the
  same rank found in the context files (COMPACTION_SUMMARY, SYNTHETIC); while
  following, a summary not written yet is added as soon as it is.
* A tool result has `is_error` and a message: "Command failed with exit code: 3."
  states the exit code, "Command executed successfully." does not (no exit code is
  invented for it).
* Neither file names the model: turns have none. The work directory is only in
  `~/.kimi/kimi.json`, found by the md5 of each listed path; the title in `state.json`.
* With no `wire.jsonl` (older Kimi), the context files are read in rotation order
  instead, each rotation after a summary being a compaction (see `kimi_context.py`);
  those files have no timestamps.

A batch read (`scan`, an export, the replayer) keeps each turn's index fields and
where its lines are in the wire log (`lazy_items`): the person's words, a step's
text, calls and results are decoded again when asked for, so a 1 GB log is not held
in memory. The log is only appended to, so the lines stay where they were. A
followed session keeps its parts, as a session read line by line always did.

Kimi Code, the TypeScript successor, keeps `state.json` and `agents/<agent>/wire.jsonl`
under `~/.kimi-code/sessions/`: same agent, same resume command, another journal
(`kimi_code.py`). The sniff, the refs and `open_reader` ask it first.
"""

from __future__ import annotations

import hashlib
import os
import re
import zlib
from pathlib import Path

from msgspec.structs import replace

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
from pivotal.readers import kimi_code, kimi_code_home
from pivotal.readers.base import (
    FormatSpec,
    SessionReader,
    Update,
    decode_json,
    parse_timestamp,
    preview_of,
    source_gone,
)
from pivotal.readers.files import SessionFiles, with_files
from pivotal.readers.generic_common import replace_turns
from pivotal.readers.kimi_context import (
    call_input,
    compaction_turns,
    content_texts,
    context_files,
    exit_code_in,
    summaries,
    summary_turn,
    turns_from_contexts,
)
from pivotal.readers.lazy_items import ItemStore, Piece, close_lazily, pieces_of
from pivotal.readers.lines import LineFileReader

FORMAT = "kimi"
WIRE = "wire.jsonl"
_CONTEXT_START = re.compile(rb'\A\s*\{\s*"role"\s*:\s*"(?:_system_prompt|_checkpoint)"')


class KimiReader(SessionReader):
    """A session folder: the wire log when there is one, else the context files."""

    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.folder = ref.path
        self._wire = _WireReader(ref, self)
        self._contexts_stamp: tuple | None = None
        self._pinned: bool | None = None
        """Set by the first poll: a followed session (not final) keeps its parts in memory."""
        _folder_facts(self.session, self.folder)

    @property
    def progress(self) -> tuple[int, int]:
        return self._wire.progress

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        skipped_before = len(self.session.skipped)
        if self._pinned is None:
            self._pinned = not final
            if final:
                self._wire.store = ItemStore(self.folder / WIRE, None, _rebuild)
        if not (self.folder / WIRE).exists() and not self._wire.lines_read:
            if not self.folder.is_dir():
                return source_gone(self.folder)
            stamp = tuple(_stamp(p) for p in context_files(self.folder))
            if stamp != self._contexts_stamp:
                self._contexts_stamp = stamp
                replace_turns(self, turns_from_contexts(self.folder))
            return Update(first_changed=self.take_first_changed())
        update = self._wire.poll(final=final, budget=budget)
        if update.gone and not self.folder.is_dir():
            return source_gone(self.folder)  # the session is gone, not only its wire log
        if update.reloaded:
            self.mark_changed(0)
        self._wire.fill_summaries()
        if final:
            self._wire.close_step()
        return Update(
            first_changed=self.take_first_changed(),
            reloaded=update.reloaded,
            notice=update.notice,
            new_skipped=len(self.session.skipped) - skipped_before,
            gone=update.gone,
        )


class _WireReader(LineFileReader):
    """`wire.jsonl`, line by line; the turns go into the owning reader's session."""

    format = FORMAT

    def __init__(self, ref: SessionRef, owner: KimiReader) -> None:
        super().__init__(replace(ref, path=ref.path / WIRE))
        self.owner = owner
        self.session = owner.session  # one session: skipped lines and notices land there
        self.store: ItemStore | None = None
        """A batch read's: each turn keeps where its lines are, its parts are read again."""
        self._line: tuple[int, int, bytes] = (0, 0, b"")
        """The line being handled (its number, offset and bytes): what a piece is made of."""
        self.reset()

    def reset(self) -> None:
        self._step: Turn | None = None
        self._pieces: list[Piece] = []
        """The lines the open step is built from (batch read)."""
        self._calls: dict[str, tuple[ToolCall | None, int]] = {}
        """Each call's id, its call while its step is open (or always, when followed) and
        the index of its step."""
        self._compactions: list[tuple[Turn, bool]] = []
        """Each compaction's boundary turn, and whether its summary is in place."""
        self._known: list[str] | None = None

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        obj = self.json_object(line_no, line)
        if obj is None:
            return
        if obj.get("type") == "metadata":
            return
        message = obj.get("message")
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            self.skip(line_no, "wire record without a message type")
            return
        stamp = obj.get("timestamp")
        # a number (epoch seconds) only; 1e20 or 1e400 is no time (parse_timestamp)
        when = parse_timestamp(stamp) if isinstance(stamp, int | float) else None
        payload = message.get("payload")
        payload = payload if isinstance(payload, dict) else {}
        where = SourceRef(line=line_no, offset=offset)
        self._line = (line_no, offset, line)
        if when is not None:
            if self.session.started is None:
                self.session.started = when
            self.session.ended = when
        try:
            self._event(message["type"], payload, where, when)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.skip(line_no, f"unexpected {message['type']} record: {type(exc).__name__}")

    def _event(self, kind: str, payload: dict, where: SourceRef, when: float | None) -> None:
        owner = self.owner
        if kind in ("TurnBegin", "SteerInput"):
            self.close_step()
            turn = owner.append_turn(_user_turn(payload.get("user_input"), where, when))
            if self.store is not None:
                self.store.make_lazy(turn, [self._piece()])
        elif kind == "StepBegin":
            self.close_step()
        elif kind == "ContentPart":
            self._content(payload, where, when)
        elif kind == "ToolCall":
            step = self._open_step(where, when)
            self._step_line()
            call = _tool_call(payload, where.line)
            step.parts.append(Part(PartKind.TOOL, tool=call))
            self._calls[call.call_id] = (call, step.index)
            owner.mark_changed(step.index)
        elif kind == "ToolResult":
            self._result(payload)
        elif kind == "StatusUpdate":
            usage = payload.get("token_usage")
            if self._step is not None and isinstance(usage, dict):
                self._step.usage = _usage(usage)
                if isinstance(payload.get("message_id"), str):
                    self._step.message_id = payload["message_id"]
                owner.mark_changed(self._step.index)
        elif kind == "CompactionBegin":
            self.close_step()
            [boundary] = compaction_turns(None, where, when)
            owner.append_turn(boundary)
            self._compactions.append((boundary, False))
            self._known = None
        elif kind == "StepInterrupted" and self._step is not None:
            self._step.flags |= TurnFlag.INTERRUPTED
            owner.mark_changed(self._step.index)
        elif kind == "TurnEnd":
            self.close_step()

    def _open_step(self, where: SourceRef, when: float | None) -> Turn:
        if self._step is None:
            turn = Turn(index=0, role=Role.ASSISTANT, timestamp=when, source=where)
            turn.parts = []
            self._step = self.owner.append_turn(turn)
        return self._step

    def close_step(self) -> None:
        step = self._step
        if step is None:
            return
        self._step = None
        close_lazily(step, self.store, self._pieces, self._calls)
        self._pieces = []

    def _step_line(self) -> None:
        """The line being handled builds the open step (kept as a piece in a batch read)."""
        if self.store is not None:
            self._pieces.append(self._piece())

    def _piece(self) -> Piece:
        """The line being handled, as a piece of a lazily read turn (its number as tag)."""
        line_no, offset, line = self._line
        return Piece(offset, len(line), zlib.crc32(line), line_no)

    def _content(self, payload: dict, where: SourceRef, when: float | None) -> None:
        part = _content_part(payload)
        if part is None:
            return
        step = self._open_step(where, when)
        self._step_line()
        _add_content(step, part)
        step.preview = preview_of(step.text)
        self.owner.mark_changed(step.index)

    def _result(self, payload: dict) -> None:
        answered = payload.get("tool_call_id")
        found = self._calls.get(answered) if isinstance(answered, str) else None
        value = payload.get("return_value")
        if found is None or not isinstance(value, dict):
            return
        call, index = found
        if self.store is not None:
            if call is not None:
                self._step_line()  # its step is the open one
            else:
                turn = self.owner.session.turns[index]
                turn.extra = {"pieces": (*(pieces_of(turn) or ()), self._piece())}
        if call is not None:
            _fill_result(call, value)
        self.owner.mark_changed(index)

    def fill_summaries(self) -> None:
        """Put each compaction's summary after its boundary once the context files hold it."""
        missing = [i for i, (_, placed) in enumerate(self._compactions) if not placed]
        if not missing:
            return
        if self._known is None or len(self._known) <= missing[-1]:
            self._known = summaries(self.owner.folder)
        turns = self.owner.session.turns
        for rank in missing:
            boundary, _ = self._compactions[rank]
            if (
                rank >= len(self._known)
                or boundary.index >= len(turns)
                or turns[boundary.index] is not boundary
            ):
                continue
            turn = summary_turn(self._known[rank], boundary.source, boundary.timestamp)
            turns.insert(boundary.index + 1, turn)
            for index in range(boundary.index + 1, len(turns)):
                turns[index].index = index
            self._calls = {k: (c, i + (i > boundary.index)) for k, (c, i) in self._calls.items()}
            self._compactions[rank] = (boundary, True)
            self.owner.mark_changed(boundary.index + 1)


def _content_part(payload: dict) -> Part | None:
    """A `ContentPart`'s part: thinking or text (None for any other kind)."""
    kind = payload.get("type")
    if kind == "think" and isinstance(payload.get("think"), str):
        return Part(PartKind.REASONING, text=payload["think"])
    if kind == "text" and isinstance(payload.get("text"), str):
        return Part(PartKind.TEXT, text=payload["text"])
    return None


def _add_content(step: Turn, part: Part) -> None:
    last = step.parts[-1] if step.parts else None
    if last is not None and last.kind is part.kind and last.tool is None:
        last.text += part.text  # one block streamed in pieces
    else:
        step.parts.append(part)


def _tool_call(payload: dict, line: int | None) -> ToolCall:
    """A `ToolCall`'s call; one with no id is named by its tool and line."""
    function = payload.get("function") if isinstance(payload.get("function"), dict) else {}
    name = function.get("name") if isinstance(function.get("name"), str) else "tool"
    ident = payload.get("id") if isinstance(payload.get("id"), str) else f"{name}#{line}"
    return ToolCall(call_id=ident, name=name, input=call_input(function.get("arguments")))


def _fill_result(call: ToolCall, value: dict) -> None:
    """A `ToolResult`'s return value, folded into the call it answers."""
    output = value.get("output")
    message = value.get("message") if isinstance(value.get("message"), str) else ""
    text = "\n".join(content_texts(output)) if not isinstance(output, str) else output
    call.output = text or message
    call.is_error = value.get("is_error") is True
    call.status = "error" if call.is_error else "completed"
    call.exit_code = exit_code_in(message) if message else None


def _rebuild(turn: Turn, items: list[tuple[object, object]]) -> list[Part]:
    """A lazily read turn's parts, from its lines decoded again, by the code that read them
    first: the person's words, or a step's content and calls with their results."""
    if turn.role is Role.USER:
        payload = _payload(items[0][0]) if items else {}
        return _user_turn(payload.get("user_input"), turn.source, None).parts
    step = Turn(index=0, role=Role.ASSISTANT)
    step.parts = []
    calls: dict[str, ToolCall] = {}
    for record, line in items:
        payload = _payload(record)
        try:
            kind = record["message"]["type"]  # type: ignore[index]  (read as such before)
            if kind == "ContentPart":
                part = _content_part(payload)
                if part is not None:
                    _add_content(step, part)
            elif kind == "ToolCall":
                call = _tool_call(payload, line)  # type: ignore[arg-type]
                step.parts.append(Part(PartKind.TOOL, tool=call))
                calls[call.call_id] = call
            elif kind == "ToolResult":
                answered = calls.get(payload.get("tool_call_id"))  # type: ignore[arg-type]
                if answered is not None:
                    _fill_result(answered, payload["return_value"])
        except (TypeError, ValueError, AttributeError, KeyError):
            continue  # as the first read skipped it
    return step.parts


def _payload(record: object) -> dict:
    message = record.get("message") if isinstance(record, dict) else None
    payload = message.get("payload") if isinstance(message, dict) else None
    return payload if isinstance(payload, dict) else {}


def _user_turn(value: object, where: SourceRef, when: float | None) -> Turn:
    text = "".join(content_texts(value))
    attachments = [
        Part(PartKind.ATTACHMENT, text=f"[{p.get('type')}]")
        for p in (value if isinstance(value, list) else [])
        if isinstance(p, dict) and p.get("type") not in ("text", None)
    ]
    command = text.startswith("/") and not text.startswith("//")
    turn = Turn(
        index=0,
        role=Role.USER,
        flags=TurnFlag.SYNTHETIC if command else TurnFlag.HUMAN,
        timestamp=when,
        source=where,
        preview=preview_of(text),
    )
    turn.parts = [Part(PartKind.TEXT, text=text), *attachments]
    return turn


def _usage(tokens: dict) -> Usage:
    def num(key: str) -> int:
        value = tokens.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

    return Usage(
        input=num("input_other"),
        output=num("output"),
        cache_read=num("input_cache_read"),
        cache_write=num("input_cache_creation"),
    )


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns)


def _folder_facts(session, folder: Path) -> None:  # type: ignore[no-untyped-def]
    """Id, title (state.json) and work directory (the share folder's kimi.json)."""
    session.id = folder.name
    state = _json(folder / "state.json")
    if isinstance(state, dict) and isinstance(state.get("custom_title"), str):
        session.title = state["custom_title"] or None
    session.cwd = work_dir(folder)


def _listing(folder: Path) -> Path:
    """The share folder's `kimi.json`, which names the work directories."""
    return folder.parent.parent.parent / "kimi.json"


def work_dir(folder: Path) -> str | None:
    """The work directory whose md5 names the session's parent folder (from kimi.json)."""
    listed = _json(_listing(folder))
    dirs = listed.get("work_dirs") if isinstance(listed, dict) else None
    for entry in dirs if isinstance(dirs, list) else []:
        path = entry.get("path") if isinstance(entry, dict) else None
        if isinstance(path, str) and _md5(path) == folder.parent.name:
            return path
    return None


def _md5(text: str) -> str:
    return hashlib.md5(text.encode("utf-8", "surrogatepass"), usedforsecurity=False).hexdigest()


def _json(path: Path) -> object:
    try:
        with open(path, "rb") as handle:
            return decode_json(handle.read())
    except (OSError, ValueError):
        return None


def _session_folder(path: Path) -> Path | None:
    folder = path if path.is_dir() else path.parent
    if not path.is_dir() and path.name != WIRE and not path.name.startswith("context"):
        return None
    wire = folder / WIRE
    try:
        with open(wire, "rb") as handle:
            first = handle.readline(4096)
    except OSError:
        first = b""
    if b'"protocol_version"' in first and b'"metadata"' in first:
        return folder
    files = context_files(folder)
    try:
        with open(files[0], "rb") as handle:
            start = handle.read(256) if files else b""
    except (OSError, IndexError):
        return None
    return folder if _CONTEXT_START.match(start) else None


def sniff(path: Path, head: bytes) -> bool:
    """A session folder (or a file of one) holding Kimi's wire log or context files, or a
    Kimi Code session (`agents/<agent>/wire.jsonl` beside `state.json`)."""
    return kimi_code_home.session_folder(path) is not None or _session_folder(path) is not None


def open_reader(ref: SessionRef) -> SessionReader:
    """Kimi Code's journal when the folder holds one, else kimi-cli's wire log or contexts."""
    if kimi_code_home.wire_of(ref.path) is not None:
        return kimi_code.KimiCodeReader(ref)
    return KimiReader(ref)


def files(ref: SessionRef) -> SessionFiles:
    """kimi-cli: the session folder and the share folder's `kimi.json` (its work folder);
    Kimi Code: the agent's folder and its session's `state.json`."""
    wire = kimi_code_home.wire_of(ref.path)
    if wire is None:
        return with_files(ref, [_listing(ref.path)])
    session = ref.path if wire.parent.name == "main" else ref.path.parent.parent
    return SessionFiles(files=(session / kimi_code_home.STATE,), folders=(ref.path,))


def refs(path: Path) -> list[SessionRef]:
    if kimi_code_home.session_folder(path) is not None:
        return kimi_code_home.refs(path)
    folder = _session_folder(path)
    if folder is None:
        return []
    wire = folder / WIRE
    target = wire if wire.exists() else (context_files(folder) or [folder])[-1]
    try:
        st = os.stat(target)
    except OSError:
        return [SessionRef(format=FORMAT, path=folder, session_id=folder.name)]
    return [
        SessionRef(
            format=FORMAT,
            path=folder,
            session_id=folder.name,
            cwd=work_dir(folder),
            size=st.st_size,
            updated=st.st_mtime,
        )
    ]


SPEC = FormatSpec(
    name=FORMAT,
    description=(
        "Kimi CLI sessions (~/.kimi/sessions/<md5(work dir)>/<session>/wire.jsonl) and"
        " Kimi Code's (~/.kimi-code/sessions/<work dir>/<session>/agents/main/wire.jsonl)"
    ),
    sniff=sniff,
    refs=refs,
    open=open_reader,
    files=files,
)
