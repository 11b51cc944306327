"""Kimi Code CLI sessions (the successor of the Python kimi-cli; wire protocol 1.x).

`$KIMI_CODE_HOME/sessions/<work dir key>/<session id>/` (default `~/.kimi-code`) holds
`state.json` (title, work directory, times) and `agents/<agent>/wire.jsonl`, one event
journal per agent; the main agent's is `agents/main/wire.jsonl`, sub-agents' sit beside
it. The journal opens with `{"type":"metadata","protocol_version":…}`; every other line
is one flat record `{"type": T, …payload, "time": <epoch ms>}`. Of its ~55 record types
only a few carry the conversation; what is ugly about them, and what this reader makes
of it:

* The transcript is `context.append_message` (whole messages) interleaved with
  `context.append_loop_event` (one model response streamed as `step.begin`,
  `content.part` think/text, `tool.call`, `tool.result`, `step.end` with its usage).
  Each step is one agent turn; a result is folded into its call (`isError`, and the
  exit code Kimi states: "Command failed with exit code: 1.").
* A user message's `origin` says who wrote it: `user` is the person (bundled skill
  renders before their words become attachments); `injection` (system reminders),
  hooks, tasks, goal nudges and skill or plugin commands are SYNTHETIC. `turn.prompt`
  and `turn.steer` repeat what the person typed and are not shown twice.
* A person's `!command` is two user messages with origin `shell_command`: the
  `<bash-input>` (phase input) and its `<bash-stdout>`/`<bash-stderr>` (phase output).
  They become one SYNTHETIC turn `!command` (a command, like a slash command) carrying
  a shell call with that output.
* `full_compaction.begin` (source manual/auto) is a COMPACTION_BOUNDARY turn and
  `context.apply_compaction` its summary (COMPACTION_SUMMARY); a cancelled compaction
  is a notice. `turn.ended` with reason `failed` is an ERROR notice with its message.
* The model is in `llm.request` (`model`), the alias the person chose in `config.update`
  / `profile.bind` (`modelAlias`); the title and work directory in `state.json` (older
  releases: `workDir`, ISO times; newer: `cwd`, epoch ms).
* Every other record type (requests, tool snapshots, token counts, permissions, plan
  mode) is bookkeeping: read past without a word. Only lines that are not JSON objects,
  or have no type, are reported.

A batch read (`scan`, an export, the replayer) keeps each turn's index fields and the
lines that gave it parts (`lazy_items`): a turn's parts are built again by replaying
those lines through the same handlers, so a 1 GB journal is not held in memory. The
journal is only appended to. A followed session keeps its parts. Where a session lives
and what its `state.json` says: `kimi_code_home.py`.
"""

from __future__ import annotations

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
from pivotal.readers.base import (
    SessionReader,
    Update,
    decode_json,
    parse_timestamp,
    preview_of,
    source_gone,
)
from pivotal.readers.kimi_code_home import (
    FORMAT,
    MAIN_WIRE,
    read_state,
    state_cwd,
    state_time,
    state_title,
    wire_of,
)
from pivotal.readers.lazy_items import ItemStore, Piece, close_lazily, pieces_of
from pivotal.readers.lines import LineFileReader
from pivotal.text.plural import plural

_EXIT = re.compile(r"exit code:? (-?\d{1,4})")
_BASH = re.compile(r"<(bash-input|bash-stdout|bash-stderr)>(.*?)</\1>", re.S)
_PERSON = frozenset({"user"})
"""Prompt origins that are the person's own words (others are the harness's)."""


class KimiCodeReader(SessionReader):
    """One agent's journal of a session folder (the main agent's unless a sub-agent's
    folder was named), with the session's facts from `state.json`."""

    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.folder = ref.path
        wire = wire_of(ref.path) or ref.path / MAIN_WIRE
        self.session_dir = ref.path if wire.parent.name == "main" else ref.path.parent.parent
        self._journal = _Journal(replace(ref, path=wire), self)
        self._pinned: bool | None = None
        """Set by the first poll: a followed session (not final) keeps its parts in memory."""

    @property
    def progress(self) -> tuple[int, int]:
        return self._journal.progress

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        state = read_state(self.session_dir)
        session = self.session
        session.id = self.ref.session_id or self.session_dir.name
        session.title = state_title(state) or session.title
        if self._pinned is None:
            self._pinned = not final
            if final:
                self._journal.store = ItemStore(self._journal.ref.path, None, _rebuild)
        update = self._journal.poll(final=final, budget=budget)
        if update.gone and not self.folder.is_dir():
            return source_gone(self.folder)  # the session is gone, not only its journal
        if final:
            self._journal.close_step()
        session.cwd = state_cwd(state) or self._journal.disclosed_cwd or session.cwd
        session.model = self._journal.session_model or session.model
        session.started = state_time(state.get("createdAt")) or session.started
        return Update(
            first_changed=self.take_first_changed(),
            reloaded=update.reloaded,
            notice=update.notice,
            new_skipped=update.new_skipped,
            gone=update.gone,
        )


class _Journal(LineFileReader):
    """`wire.jsonl`, line by line; the turns go into the owning reader's session."""

    format = FORMAT

    def __init__(self, ref: SessionRef, owner: SessionReader) -> None:
        super().__init__(ref)
        self.owner = owner
        self.session = owner.session  # one session: skipped lines and notices land there
        self.store: ItemStore | None = None
        """A batch read's: each turn keeps the lines that gave it parts, not the parts."""
        self._line: tuple[int, int, bytes] = (0, 0, b"")
        """The line being handled (its number, offset and bytes): what a piece is made of."""
        self.reset()

    def reset(self) -> None:
        self._step: Turn | None = None
        self._step_id: object = None
        self._step_pieces: list[Piece] = []
        """The lines the open step is built of (batch read)."""
        self._calls: dict[str, tuple[ToolCall | None, int]] = {}
        """Each call's id, its call (in a batch read, only while its step is open) and the
        index of its turn."""
        self._shell: tuple[ToolCall | None, int] | None = None
        self._compaction: Turn | None = None
        self.model: str | None = None
        self._alias: str | None = None
        self.disclosed_cwd: str | None = None

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        obj = self.json_object(line_no, line)
        if obj is None:
            return
        kind = obj.get("type")
        if not isinstance(kind, str):
            self.skip(line_no, "wire record without a type")
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            return  # bookkeeping: requests, snapshots, token counts, permissions …
        stamp = obj.get("time")
        when = parse_timestamp(stamp) if isinstance(stamp, int | float) else None
        if when is not None:
            if self.session.started is None:
                self.session.started = when
            self.session.ended = when
        self._line = (line_no, offset, line)
        try:
            handler(self, obj, SourceRef(line=line_no, offset=offset), when)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.skip(line_no, f"unexpected {kind} record: {type(exc).__name__}")

    # -- steps: one model response each --------------------------------------------

    def _loop_event(self, obj: dict, where: SourceRef, when: float | None) -> None:
        event = obj.get("event")
        if not isinstance(event, dict):
            raise ValueError("no event")
        kind = event.get("type")
        if kind == "step.begin":
            self.close_step()
            self._step_id = event.get("uuid")
        elif kind == "content.part":
            self._content(event.get("part"), event.get("stepUuid"), where, when)
        elif kind == "tool.call":
            step = self._open_step(event.get("stepUuid"), where, when)
            self._builds(step)
            name = event.get("name") if isinstance(event.get("name"), str) else "tool"
            ident = event.get("toolCallId")
            ident = ident if isinstance(ident, str) else f"{name}#{where.line}"
            call = ToolCall(call_id=ident, name=name, input=event.get("args"))
            step.parts.append(Part(PartKind.TOOL, tool=call))
            self._calls[ident] = (call, step.index)
            self.owner.mark_changed(step.index)
        elif kind == "tool.result":
            result = event.get("result")
            answered = event.get("toolCallId")
            if isinstance(result, dict) and isinstance(answered, str):
                self._result(answered, result.get("output"), result.get("isError") is True)
        elif kind == "step.end":
            self._step_end(event)

    def _open_step(self, step_id: object, where: SourceRef, when: float | None) -> Turn:
        if self._step is None or (step_id is not None and step_id != self._step_id):
            self.close_step()
            turn = Turn(index=0, role=Role.ASSISTANT, timestamp=when, source=where)
            turn.parts = []
            turn.model = self.model or self._alias
            self._step = self.owner.append_turn(turn)
            self._step_id = step_id
        return self._step

    def close_step(self) -> None:
        step = self._step
        if step is None:
            return
        self._step = None
        close_lazily(step, self.store, self._step_pieces, self._calls)
        self._step_pieces = []

    def _builds(self, turn: Turn) -> None:
        """The line being handled gives `turn` parts: in a batch read, one of its pieces
        (the open step's are kept until it closes)."""
        if self.store is None:
            return
        line_no, offset, line = self._line
        pieces = self._step_pieces if turn is self._step else list(pieces_of(turn) or ())
        if pieces and pieces[-1].offset == offset:
            return  # a line that gives several parts (a whole message) counts once
        pieces.append(Piece(offset, len(line), zlib.crc32(line), line_no))
        if turn is not self._step:
            self.store.make_lazy(turn, pieces)

    def _content(self, part: object, step_id: object, where: SourceRef, when: float | None) -> None:
        if not isinstance(part, dict):
            return
        kind = part.get("type")
        if kind == "think" and isinstance(part.get("think"), str):
            new = Part(PartKind.REASONING, text=part["think"])
        elif kind == "text" and isinstance(part.get("text"), str):
            new = Part(PartKind.TEXT, text=part["text"])
        else:
            return
        step = self._open_step(step_id, where, when)
        self._builds(step)
        last = step.parts[-1] if step.parts else None
        if last is not None and last.kind is new.kind and last.tool is None:
            last.text += new.text  # one block streamed in pieces
        else:
            step.parts.append(new)
        step.preview = preview_of(step.text)
        self.owner.mark_changed(step.index)

    def _step_end(self, event: dict) -> None:
        step = self._step
        if step is None or (event.get("uuid") not in (None, self._step_id)):
            return
        usage = event.get("usage")
        if isinstance(usage, dict):
            step.usage = _usage(usage)
        if isinstance(event.get("messageId"), str):
            step.message_id = event["messageId"]
        reason = event.get("finishReason")
        if reason == "interrupted":
            step.flags |= TurnFlag.INTERRUPTED
        elif reason == "error":
            step.flags |= TurnFlag.ERROR
        self.owner.mark_changed(step.index)
        self.close_step()

    def _result(self, answered: str, output: object, is_error: bool) -> None:
        found = self._calls.get(answered)
        if found is None:
            return
        call, index = found
        if call is None:  # a batch read's closed step: the line is one of its pieces
            self._builds(self.owner.session.turns[index])
            self.owner.mark_changed(index)
            return
        if self.store is not None:
            self._builds(self._step_of(index))
        text = output if isinstance(output, str) else "\n".join(_texts(output))
        call.output = text
        call.is_error = is_error
        call.status = "error" if is_error else "completed"
        code = _EXIT.search(text[-200:]) if is_error else None
        call.exit_code = int(code.group(1)) if code else None
        self.owner.mark_changed(index)

    def _step_of(self, index: int) -> Turn:
        """The turn at `index` (the open step, while one of its calls is open)."""
        step = self._step
        return step if step is not None and step.index == index else self.session.turns[index]

    # -- whole messages --------------------------------------------------------------

    def _message(self, obj: dict, where: SourceRef, when: float | None) -> None:
        message = obj.get("message")
        if not isinstance(message, dict):
            raise ValueError("no message")
        role = message.get("role")
        if role == "user":
            self.close_step()
            self._user(message, where, when)
        elif role == "assistant":
            self.close_step()
            step = self._open_step(None, where, when)
            for part in _list(message.get("content")):
                self._content(part, None, where, when)
            for raw in _list(message.get("toolCalls")):
                if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                    self._builds(step)
                    name = raw.get("name") if isinstance(raw.get("name"), str) else "tool"
                    call = ToolCall(call_id=raw["id"], name=name, input=_arguments(raw))
                    step.parts.append(Part(PartKind.TOOL, tool=call))
                    self._calls[raw["id"]] = (call, step.index)
            if _origin(message).get("kind") is not None:
                step.flags |= TurnFlag.SYNTHETIC  # a hook's words, not the model's
            self.close_step()
        elif role == "tool" and isinstance(message.get("toolCallId"), str):
            content = message.get("content")
            self._result(message["toolCallId"], content, message.get("isError") is True)

    def _user(self, message: dict, where: SourceRef, when: float | None) -> None:
        origin = _origin(message)
        kind = origin.get("kind", "user")
        content = _list(message.get("content")) or [message.get("content")]
        if kind == "shell_command":
            self._shell_command(origin, "".join(_texts(content)), where, when)
            return
        flags = TurnFlag.HUMAN if kind in _PERSON else TurnFlag.SYNTHETIC
        if kind == "compaction_summary":
            flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
        bundled = len(origin["skillActivations"]) if _is_list(origin.get("skillActivations")) else 0
        parts: list[Part] = []
        for number, part in enumerate(content):
            text = part if isinstance(part, str) else None
            if isinstance(part, dict):
                text = part.get("text") if isinstance(part.get("text"), str) else None
                if text is None and part.get("type") not in (None, "think"):
                    parts.append(Part(PartKind.ATTACHMENT, text=f"[{part.get('type')}]"))
                    continue
            if text is None:
                continue
            if number < bundled:
                parts.append(Part(PartKind.ATTACHMENT, text=f"[skill text, {len(text)} chars]"))
            else:
                parts.append(Part(PartKind.TEXT, text=text))
        if not any(p.kind is PartKind.TEXT for p in parts):
            parts.insert(0, Part(PartKind.TEXT, text=""))
        turn = Turn(index=0, role=Role.USER, flags=flags, timestamp=when, source=where)
        turn.parts = parts
        turn.message_id = message["id"] if isinstance(message.get("id"), str) else None
        turn.preview = preview_of(turn.text)
        self.owner.append_turn(turn)
        self._builds(turn)

    def _shell_command(self, origin: dict, text: str, where: SourceRef, when: float | None) -> None:
        tags = {tag: _unescape(body) for tag, body in _BASH.findall(text)}
        if origin.get("phase") == "output":
            if self._shell is None:
                return
            call, index = self._shell
            if call is None:  # a batch read's: the line is one of its turn's pieces
                self._builds(self.owner.session.turns[index])
                self._shell = None
                self.owner.mark_changed(index)
                return
            streams = [tags.get("bash-stdout", ""), tags.get("bash-stderr", "")]
            call.output = "\n".join(s for s in streams if s) if tags else text
            call.is_error = origin.get("isError") is True
            call.status = "error" if call.is_error else "completed"
            self._shell = None
            self.owner.mark_changed(index)
            return
        command = tags.get("bash-input", text).strip()
        call = ToolCall(call_id=f"shell#{where.line}", name="Bash", input={"command": command})
        turn = Turn(index=0, role=Role.USER, flags=TurnFlag.SYNTHETIC, timestamp=when, source=where)
        turn.parts = [Part(PartKind.TEXT, text=f"!{command}"), Part(PartKind.TOOL, tool=call)]
        turn.preview = preview_of(f"!{command}")
        self.owner.append_turn(turn)
        self._shell = (call if self.store is None else None, turn.index)
        self._builds(turn)

    # -- compaction, notices, model ---------------------------------------------------

    def _compaction_begin(self, obj: dict, where: SourceRef, when: float | None) -> None:
        self.close_step()
        source = obj.get("source") if isinstance(obj.get("source"), str) else None
        text = f"Context compacted ({source})" if source else "Context compacted"
        flags = TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
        turn = self._notice(text, flags, where, when)
        turn.extra = {"trigger": source}
        self._compaction = turn

    def _compaction_applied(self, obj: dict, where: SourceRef, when: float | None) -> None:
        self.close_step()
        if self._compaction is None:
            self._compaction_begin({}, where, when)
        summary = obj.get("summary")
        if not isinstance(summary, str):
            summary = obj.get("contextSummary")
        if not isinstance(summary, str):
            message = summary if isinstance(summary, dict) else {}
            summary = "\n".join(_texts(message.get("content")))
        turn = Turn(
            index=0,
            role=Role.USER,
            flags=TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC,
            timestamp=when,
            source=where,
        )
        turn.parts = [Part(PartKind.TEXT, text=summary)]
        turn.preview = preview_of(summary)
        self.owner.append_turn(turn)
        self._compaction = None

    def _compaction_cancelled(self, obj: dict, where: SourceRef, when: float | None) -> None:
        turn, self._compaction = self._compaction, None
        if turn is not None:  # nothing was compacted: the boundary becomes a notice
            turn.flags = TurnFlag.SYNTHETIC
            turn.parts = [Part(PartKind.TEXT, text="Compaction cancelled")]
            turn.preview = "Compaction cancelled"
            self.owner.mark_changed(turn.index)

    def _compaction_complete(self, obj: dict, where: SourceRef, when: float | None) -> None:
        self._compaction = None

    def _turn_ended(self, obj: dict, where: SourceRef, when: float | None) -> None:
        self.close_step()
        error = obj.get("error")
        if obj.get("reason") == "failed" and isinstance(error, dict):
            message = error.get("message") if isinstance(error.get("message"), str) else ""
            text = f"Turn failed: {message}" if message else "Turn failed"
            self._notice(text, TurnFlag.SYNTHETIC | TurnFlag.ERROR, where, when)

    def _cleared(self, obj: dict, where: SourceRef, when: float | None) -> None:
        self.close_step()
        self._notice("Context cleared", TurnFlag.SYNTHETIC, where, when)

    def _undone(self, obj: dict, where: SourceRef, when: float | None) -> None:
        self.close_step()
        count = obj.get("count")
        what = plural(count, "message") if isinstance(count, int) else "messages"
        self._notice(f"Undid the last {what} of the context", TurnFlag.SYNTHETIC, where, when)

    def _notice(self, text: str, flags: TurnFlag, where: SourceRef, when: float | None) -> Turn:
        turn = Turn(index=0, role=Role.SYSTEM, flags=flags, timestamp=when, source=where)
        turn.parts = [Part(PartKind.TEXT, text=text)]
        turn.preview = preview_of(text)
        return self.owner.append_turn(turn)

    def _request(self, obj: dict, where: SourceRef, when: float | None) -> None:
        if obj.get("kind") != "compaction" and isinstance(obj.get("model"), str):
            self.model = obj["model"] or self.model

    def _config(self, obj: dict, where: SourceRef, when: float | None) -> None:
        if isinstance(obj.get("modelAlias"), str) and obj["modelAlias"]:
            self._alias = obj["modelAlias"]  # stands in until a request names the model
        disclosure = obj.get("environmentDisclosure")
        if isinstance(disclosure, dict) and isinstance(disclosure.get("cwd"), str):
            self.disclosed_cwd = disclosure["cwd"] or self.disclosed_cwd

    @property
    def session_model(self) -> str | None:
        return self.model or self._alias


_HANDLERS = {
    "context.append_loop_event": _Journal._loop_event,
    "context.append_message": _Journal._message,
    "context.apply_compaction": _Journal._compaction_applied,
    "context.clear": _Journal._cleared,
    "context.undo": _Journal._undone,
    "full_compaction.begin": _Journal._compaction_begin,
    "full_compaction.cancel": _Journal._compaction_cancelled,
    "full_compaction.complete": _Journal._compaction_complete,
    "turn.ended": _Journal._turn_ended,
    "llm.request": _Journal._request,
    "config.update": _Journal._config,
    "profile.bind": _Journal._config,
}


class _Replay(SessionReader):
    """The session a lazy turn's lines are replayed into (its one turn)."""

    format = FORMAT

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        return Update()


def _rebuild(turn: Turn, items: list[tuple[object, object]]) -> list[Part]:
    """A lazy turn's parts: its lines handled again, in order, by the same handlers, into a
    session of their own, where they make that one turn."""
    replay = _Replay(SessionRef(format=FORMAT, path=Path()))
    journal = _Journal(replay.ref, replay)
    for record, line in items:
        try:
            handler = _HANDLERS[record["type"]]  # type: ignore[index]  (read as such before)
            handler(journal, record, SourceRef(line=line), None)  # type: ignore[arg-type]
        except (TypeError, ValueError, AttributeError, KeyError):
            continue  # as the first read skipped it
    turns = replay.session.turns
    return turns[0].parts if turns else []


def _origin(message: dict) -> dict:
    origin = message.get("origin")
    return origin if isinstance(origin, dict) else {}


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def _is_list(value: object) -> bool:
    return isinstance(value, list)


def _texts(content: object) -> list[str]:
    """The text of a content value: a string, or parts (`text`; media as a placeholder)."""
    if isinstance(content, str):
        return [content]
    out = []
    for part in _list(content):
        if isinstance(part, dict):
            if isinstance(part.get("text"), str):
                out.append(part["text"])
            elif isinstance(part.get("type"), str) and part["type"] != "think":
                out.append(f"[{part['type']}]")
    return out


def _arguments(call: dict) -> object:
    arguments = call.get("arguments")
    if not isinstance(arguments, str):
        return arguments
    try:
        return decode_json(arguments.encode("utf-8", "surrogatepass"))
    except ValueError:
        return arguments


def _unescape(text: str) -> str:
    for escaped, plain in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&amp;", "&")):
        text = text.replace(escaped, plain)
    return text


def _usage(tokens: dict) -> Usage:
    def num(key: str) -> int:
        value = tokens.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

    return Usage(
        input=num("inputOther"),
        output=num("output"),
        cache_read=num("inputCacheRead"),
        cache_write=num("inputCacheCreation"),
    )
