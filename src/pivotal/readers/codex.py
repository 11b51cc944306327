"""Codex CLI rollout files (`~/.codex/sessions/Y/M/D/rollout-*.jsonl`).

Every line is `{"timestamp", "type", "payload"}`. Codex writes user and
assistant text twice: as `response_item` messages and as `event_msg`
(`user_message` / `agent_message` in older builds, `item_completed` in
0.171). This reader builds turns from the `response_item` stream, because it
is the one every version writes and it holds the harness text too (environment
context, AGENTS.md, skills), which becomes SYNTHETIC turns instead of being
lost. `event_msg` lines add what the response stream lacks: token usage, exit
codes, interrupts and errors, and a person's message that has no response copy
(`pivotal.readers.codex_inputs` pairs the two copies, in either order).

A custom prompt's expansion is two turns: the person's own words (the
template's `## User Input` block, `pivotal.readers.codex_prompts`), then the
template as injected text.

One assistant turn is one model response: its reasoning, text and tool calls
up to the first tool output, user message or token report. Tool outputs are
folded into their call by `call_id`.

Compaction: 0.171 writes the model's summary as an assistant message marked
`metadata.compaction_output`, then a `compacted` line; older builds only the
`compacted` line; most builds add a `context_compacted` event, before or after
it and not always next to it. The pieces of one compaction make one
COMPACTION_BOUNDARY system turn and one COMPACTION_SUMMARY user turn (what
Codex puts back into the history); `replacement_history` is never replayed as
new turns.

Sub-agents: a thread the session started (`spawn_agent`) has a rollout of its own; the
session's children are those rollouts, found by the thread ids the session names (the
spawn call's result, v2's `sub_agent_activity`, a child's `<subagent_notification>`), each
with the call that spawned it (`pivotal.readers.codex_children`).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from pivotal.model import (
    Part,
    PartKind,
    Role,
    SessionRef,
    SourceRef,
    ToolCall,
    Turn,
    TurnFlag,
)
from pivotal.readers.base import (
    FormatSpec,
    Update,
    parse_timestamp,
    preview_of,
    sane_duration,
)
from pivotal.readers.codex_children import (
    NOTIFICATION,
    find_rollouts,
    is_spawn,
    is_thread,
    notified,
    spawn_output,
    title_of,
)
from pivotal.readers.codex_ide import ide_request
from pivotal.readers.codex_inputs import Copy, Exchange, Held, Made, find, take
from pivotal.readers.codex_prompts import custom_prompt
from pivotal.readers.codex_records import (
    FORMAT,
    HARNESS_PREFIXES,
    SUMMARY_PREFIX,
    content_text,
    dicts,
    duration_ms,
    is_harness,
    output_fields,
    refs,
    refused,
    sniff,
    unwrap,
    usage_from,
)
from pivotal.readers.lines import LineFileReader

_TOOL_CALL_TYPES = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUT_TYPES = ("function_call_output", "custom_tool_call_output")
_WRAPPER_TYPES = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")
_HARNESS_KINDS = ("environment_context", "user_instructions")
_REMOTE_ITEMS = ("compaction", "compaction_summary", "context_compaction")
REMOTE_LABEL = "Context compacted (remote; the summary is encrypted)"
"""`user_message` kinds of 2025 builds that carry the harness's text, not the person's."""


class _Compaction:
    """The pieces of one compaction seen so far ("item", "record", "event")."""

    __slots__ = ("pieces", "summary")

    def __init__(self) -> None:
        self.pieces: set[str] = set()
        self.summary = False


class _Child:
    """A sub-agent thread the session started: the call that started it, what it is
    called, when (for where its rollout is kept), and its file once found."""

    __slots__ = ("call", "path", "title", "when")

    def __init__(self, call: str | None, title: str | None, when: float | None) -> None:
        self.call, self.title, self.when = call, title, when
        self.path: Path | None = None


class CodexReader(LineFileReader):
    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.reset()

    def reset(self) -> None:
        self._current: Turn | None = None
        self._calls: dict[str, ToolCall] = {}
        self._call_turn: dict[str, Turn] = {}
        self._early: dict[str, list[dict]] = {}
        self._seen: set[str] = set()
        self._model: str | None = None
        self._compaction: _Compaction | None = None
        self._exchange = Exchange()
        self._children: dict[str, _Child] = {}
        """Sub-agent threads by id, in the order they were started (`codex_children`)."""
        self._tasks: dict[str, str] = {}
        """v2: a spawn call's task path -> the call's id (its thread comes in an event)."""
        self._task_threads: dict[str, str] = {}
        """v2: a task path -> its thread, from `sub_agent_activity` (the call may come later)."""
        self._relist = False
        """A child was learnt (or learnt its call) since the children were last listed; one
        not found yet (its first line not written) is looked for again at the end of a poll
        that read more of the session."""
        self.session.children = []

    # -- lines ------------------------------------------------------------
    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        obj = self.json_object(line_no, line)
        if obj is None:
            return
        kind = obj.get("type")
        payload = obj.get("payload")
        if "payload" not in obj:
            # pre-2025 rollouts: a bare meta line, then bare response items
            if kind is None and "id" in obj and "timestamp" in obj:
                kind, payload = "session_meta", obj
            elif isinstance(kind, str) and kind not in _WRAPPER_TYPES:
                kind, payload = "response_item", obj
        if not isinstance(payload, dict):
            if kind in ("session_meta", "response_item", "event_msg", "compacted"):
                self.skip(line_no, f"{kind} without an object payload")
            return
        ts = parse_timestamp(obj.get("timestamp"))
        if ts is not None:
            self.session.ended = ts  # rollouts are appended in time order: the last one ends it
        where = SourceRef(line=line_no, offset=offset)
        try:
            if kind == "response_item":
                self._response_item(payload, ts, where, obj.get("metadata"))
            elif kind == "event_msg":
                self._event(payload, ts, where, obj.get("timestamp"))
            elif kind == "session_meta":
                self._session_meta(payload, ts)
            elif kind == "turn_context":
                model = payload.get("model")
                if isinstance(model, str) and model:
                    self._model = model
                    self.session.model = model
            elif kind == "compacted":
                self._compacted(payload, ts, where)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.skip(line_no, f"unexpected {kind} shape: {type(exc).__name__}")

    def handle_lines(self, batch: list[tuple[int, int, bytes]]) -> None:
        super().handle_lines(batch)
        if self._exchange.held:
            self._show_held()  # shown now; a copy in a later batch still pairs with it

    def finish(self) -> None:
        if self._exchange.held:
            self._show_held()

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        before = self._offset
        update = super().poll(final=final, budget=budget)
        if self._relist or (
            self._offset != before and any(c.path is None for c in self._children.values())
        ):
            self._find_children()
        return update

    # -- sub-agents (`codex_children`) --------------------------------------------
    def _child(self, thread: str, call: str | None, title: str | None, when: float | None) -> None:
        """A thread the session started (known again: what was missing is filled in)."""
        if thread == self.session.id:
            return
        known = self._children.get(thread)
        if known is None:
            self._children[thread] = _Child(call, title, when)
        elif call is not None and known.call is None:
            known.call, known.title = call, title or known.title
        elif known.title is None and title is not None:
            known.title = title
        else:
            return
        self._relist = True

    def _spawned(self, call: ToolCall) -> None:
        """A spawn call's result: the thread it started (v1), or its task (v2)."""
        thread, nickname, task = spawn_output(call.output or "")
        role = call.input.get("agent_type") if isinstance(call.input, dict) else None
        title = title_of(nickname, role if isinstance(role, str) and role else None, task)
        when = self._call_turn[call.call_id].timestamp
        if thread is None and task is not None:
            self._tasks[task] = call.call_id
            thread = self._task_threads.get(task)
        if thread is not None:
            self._child(thread, call.call_id, title, when)

    def _activity(self, payload: dict, ts: float | None) -> None:
        """v2's `sub_agent_activity`: the thread of a task a spawn call started."""
        thread, task = payload.get("agent_thread_id"), payload.get("agent_path")
        if not isinstance(thread, str) or not is_thread(thread):
            return
        if isinstance(task, str) and task:
            self._task_threads[task] = thread
            self._child(thread, self._tasks.get(task), title_of(None, None, task), ts)
        else:
            self._child(thread, None, None, ts)

    def _notified(self, text: str, ts: float | None) -> None:
        """A finished child's notification names it (started by whatever means)."""
        about = notified(text)
        if about is None:
            return
        thread = about if is_thread(about) else self._task_threads.get(about)
        if thread is not None:
            self._child(thread, self._tasks.get(about), None, ts)

    def _find_children(self) -> None:
        """Find the rollouts of the threads not found yet; list the children found."""
        wanted = {t: c.when for t, c in self._children.items() if c.path is None}
        if wanted:
            for thread, path in find_rollouts(self.ref.path, wanted).items():
                self._children[thread].path = path
        self._relist = False
        self.session.children = [
            SessionRef(format=FORMAT, path=c.path, session_id=t, title=c.title, parent_call=c.call)
            for t, c in self._children.items()
            if c.path is not None
        ]

    def _session_meta(self, payload: dict, ts: float | None) -> None:
        session = self.session
        ident = payload.get("id")
        if isinstance(ident, str) and session.id is None:
            session.id = ident
        cwd = payload.get("cwd")
        if isinstance(cwd, str) and session.cwd is None:
            session.cwd = cwd
        started = parse_timestamp(payload.get("timestamp")) or ts
        if session.started is None:
            session.started = started

    # -- response items -----------------------------------------------------
    def _response_item(self, item: dict, ts: float | None, where: SourceRef, meta: object) -> None:
        kind = item.get("type")
        if kind == "message":
            self._message(item, ts, where, meta)
        elif kind == "reasoning":
            texts = [s.get("text", "") for s in dicts(item.get("summary"))]
            if not any(texts):
                texts = [s.get("text", "") for s in dicts(item.get("content"))]
            text = "\n\n".join(t for t in texts if isinstance(t, str) and t)
            turn = self._assistant(item, ts, where)
            if text:
                turn.parts.append(Part(PartKind.REASONING, text=text))
            self.mark_changed(turn.index)
        elif kind in _TOOL_CALL_TYPES or (
            isinstance(kind, str) and kind.endswith("_call") and "call_id" in item
        ):
            self._tool_call(kind, item, ts, where)
        elif kind in _OUTPUT_TYPES or (
            isinstance(kind, str) and kind.endswith("_call_output") and "call_id" in item
        ):
            self._tool_output(item)
        elif kind in ("compaction", "compaction_summary", "context_compaction"):
            self._compaction_piece("item", ts, where, REMOTE_LABEL, None, None)
        # other item types (ghost_snapshot, ...) carry no conversation

    def _message(self, item: dict, ts: float | None, where: SourceRef, meta: object) -> None:
        ident = item.get("id")
        if isinstance(ident, str):
            if ident in self._seen:
                return  # the same message written again (never shown twice)
            self._seen.add(ident)
        role = item.get("role")
        texts, attachments = content_text(item.get("content"))
        text = "\n\n".join(texts) if len(texts) > 1 else (texts[0] if texts else "")
        if role == "assistant":
            if isinstance(meta, dict) and meta.get("compaction_output"):
                self._compaction_piece("item", ts, where, "Context compacted", text, ident)
                return
            turn = self._assistant(item, ts, where)
            if isinstance(item.get("id"), str):
                turn.message_id = item["id"]  # the message's id names the response best
            turn.parts.append(Part(PartKind.TEXT, text=text))
            turn.parts.extend(attachments)
            if not turn.preview:
                turn.preview = preview_of(turn.text)
            self.mark_changed(turn.index)
            return
        self._current = None
        if role == "developer" or role == "system":
            turn = self._new(Role.SYSTEM, TurnFlag.SYNTHETIC, ts, where, ident)
        elif is_harness(item, text):
            self._exchange.harness.append(Copy(text))
            if text.lstrip().startswith(NOTIFICATION):
                self._notified(text, ts)
            flags = TurnFlag.SYNTHETIC
            if text.lstrip().startswith("<turn_aborted>"):
                flags |= TurnFlag.INTERRUPTED
            turn = self._new(Role.USER, flags, ts, where, ident)
        else:
            self._person_copy(text, attachments, ts, where, ident)
            return
        turn.parts = [Part(PartKind.TEXT, text=text), *attachments]
        turn.preview = preview_of(text)
        self._append(turn)

    # -- the person's messages --------------------------------------------------
    def _person_copy(
        self, text: str, attachments: list[Part], ts: float | None, where: SourceRef, ident: object
    ) -> None:
        """The response copy of a person's message: one turn, unless its event made it."""
        exchange = self._exchange
        at = find(exchange.held, text) if exchange.held else None
        if at is None and exchange.from_events:
            made = take(exchange.from_events, text)
            if made is not None:  # shown from its event when a read ended between the two
                self._adopt(made, self._person_turns(text, attachments, ts, where, ident))
                return
        later: list[Held] = []
        if at is not None:  # its event came first: events held after it still wait
            later, exchange.held = exchange.held[at + 1 :], exchange.held[:at]
        turns = self._person(self._person_turns(text, attachments, ts, where, ident))
        exchange.held.extend(later)
        if at is None:
            exchange.answered.append(Made(text, turns))

    def _user_message(self, payload: dict, ts: float | None, where: SourceRef, raw: object) -> None:
        """The event copy of a person's message: held until its response copy comes (or not)."""
        message = payload.get("message")
        if not isinstance(message, str) or payload.get("kind") in _HARNESS_KINDS:
            return
        if message.lstrip().startswith(HARNESS_PREFIXES):
            return
        exchange = self._exchange
        if isinstance(raw, str):
            stamp = (raw, message)
            if stamp == exchange.last_event:
                return  # the same message written twice in the same instant (a /review request)
            exchange.last_event = stamp
        if take(exchange.answered, message) is not None:
            return
        if take(exchange.harness, message, contained=False) is not None:
            return  # the harness's text, shown as an event too
        attachments = [
            Part(PartKind.ATTACHMENT, text="[image]")
            for name in ("images", "local_images")
            for _ in (payload.get(name) if isinstance(payload.get(name), list) else ())
        ]
        exchange.held.append(Held(message, attachments, ts, where))

    def _show_held(self) -> None:
        """Events whose response copy has not come: each is the person's message, in order."""
        held, self._exchange.held = self._exchange.held, []
        for event in held:
            turns = self._person_turns(event.text, event.attachments, event.timestamp, event.where)
            self._exchange.from_events.append(Made(event.text, self._person(turns)))

    def _person_turns(
        self,
        text: str,
        attachments: list[Part],
        ts: float | None,
        where: SourceRef,
        ident: object = None,
    ) -> list[Turn]:
        """The person's turn; for a custom prompt, their words and then the template.

        A custom prompt run with nothing after the command is a command, not an empty
        message: the template alone stands for it, injected (as Claude Code's slash-command
        wrappers are), so it is never read as the person falling silent.

        The IDE's notes above the words (`pivotal.readers.codex_ide`) come first, as an
        injected turn of their own; notes with no words and nothing attached are all
        injected, one turn."""
        ide = ide_request(text)
        if ide is not None:
            notes, said = ide
            if not said and not attachments:
                return [self._injected(text, ts, where, ident)]
            context = self._injected(notes, ts, where, None)
            context.source = SourceRef(
                line=where.line,
                record_id=f"{ident}#context" if isinstance(ident, str) else None,
                offset=where.offset,
            )
            return [context, *self._said_turns(said, attachments, ts, where, ident)]
        return self._said_turns(text, attachments, ts, where, ident)

    def _injected(self, text: str, ts: float | None, where: SourceRef, ident: object) -> Turn:
        turn = self._new(Role.USER, TurnFlag.SYNTHETIC, ts, where, ident)
        turn.parts = [Part(PartKind.TEXT, text=text)]
        turn.preview = preview_of(text)
        return turn

    def _said_turns(
        self,
        text: str,
        attachments: list[Part],
        ts: float | None,
        where: SourceRef,
        ident: object,
    ) -> list[Turn]:
        """What the person typed: their turn, and a custom prompt's template after it."""
        words = custom_prompt(text)
        if words is not None and not words.strip() and not attachments:
            return [self._injected(text, ts, where, ident)]
        turn = self._new(Role.USER, TurnFlag.HUMAN, ts, where, ident)
        turn.parts = [Part(PartKind.TEXT, text=text if words is None else words), *attachments]
        turn.preview = preview_of(text if words is None else words)
        if words is None:
            return [turn]
        name = f"{ident}#prompt" if isinstance(ident, str) else f"line:{where.line}#prompt"
        template = Turn(
            index=0,
            role=Role.USER,
            flags=TurnFlag.SYNTHETIC,
            timestamp=ts,
            message_id=name if isinstance(ident, str) else None,
            source=SourceRef(line=where.line, record_id=name, offset=where.offset),
        )
        template.parts = [Part(PartKind.TEXT, text=text)]
        template.preview = preview_of(text)
        return [turn, template]

    def _person(self, turns: list[Turn]) -> list[Turn]:
        self._current = None
        self._compaction = None  # the person spoke: a later compaction record is a new one
        for turn in turns:
            self._append(turn)
        return turns

    def _adopt(self, made: Made, fresh: list[Turn]) -> None:
        """Give turns made from an event what their response copy says (id, line, content)."""
        if len(fresh) != len(made.turns):
            fresh = []  # the copies disagree on the shape: keep what is shown
        for turn, new in zip(made.turns, fresh, strict=False):
            turn.flags, turn.timestamp, turn.message_id = new.flags, new.timestamp, new.message_id
            turn.source, turn.parts, turn.preview = new.source, new.parts, new.preview
            self.mark_changed(turn.index)

    def _assistant(self, item: dict, ts: float | None, where: SourceRef) -> Turn:
        """The open assistant turn (this model response), started if needed."""
        turn = self._current
        if turn is None:
            turn = self._new(Role.ASSISTANT, TurnFlag.NONE, ts, where, item.get("id"))
            turn.model = self._model
            turn.parts = []
            self._append(turn)
            self._exchange.over()
            self._current = turn
        elif turn.message_id is None and isinstance(item.get("id"), str):
            turn.message_id = item["id"]
        return turn

    def _tool_call(self, kind: str, item: dict, ts: float | None, where: SourceRef) -> None:
        call_id = item.get("call_id") or item.get("id")
        if not isinstance(call_id, str) or call_id in self._calls:
            return
        if kind == "function_call":
            name = item.get("name") or "function"
            raw = item.get("arguments")
            arguments: object = raw
            if isinstance(raw, str):
                try:
                    arguments = msgspec.json.decode(raw)
                except msgspec.DecodeError:
                    arguments = raw
            namespace = item.get("namespace")
            if isinstance(namespace, str) and namespace:
                name = f"{namespace}.{name}"
        elif kind == "custom_tool_call":
            name = item.get("name") or "custom_tool"
            arguments = item.get("input")
        else:
            name = kind.removesuffix("_call")
            arguments = item.get("action", item.get("arguments"))
        call = ToolCall(call_id=call_id, name=str(name), input=arguments)
        status = item.get("status")
        if isinstance(status, str) and kind not in ("function_call", "custom_tool_call"):
            call.status = status
        turn = self._assistant(item, ts, where)
        turn.parts.append(Part(PartKind.TOOL, tool=call))
        self._calls[call_id] = call
        self._call_turn[call_id] = turn
        self.mark_changed(turn.index)
        for early in self._early.pop(call_id, []):
            self._apply_result(call_id, early)

    def _tool_output(self, item: dict) -> None:
        self._current = None
        call_id = item.get("call_id")
        if not isinstance(call_id, str):
            return
        self._apply_result(call_id, {"output": item.get("output")})

    def _apply_result(self, call_id: str, result: dict) -> None:
        """Fill a call's result fields; results that arrive before their call wait."""
        call = self._calls.get(call_id)
        if call is None:
            self._early.setdefault(call_id, []).append(result)
            return
        if "output" in result:
            text, success, exit_code, duration = output_fields(result["output"])
            wrapped = unwrap(text)
            if wrapped is not None:  # only the command's own output is shown and read
                text = wrapped.output
                exit_code = exit_code if exit_code is not None else wrapped.exit_code
                duration = duration if duration is not None else wrapped.duration_ms
            call.output = text
            if call.exit_code is None:
                call.exit_code = exit_code  # stays None unless the file states it
            if call.duration_ms is None:
                call.duration_ms = sane_duration(duration)
            if (
                success is False
                or (wrapped is not None and wrapped.failed)
                or (wrapped is None and refused(text))
            ):
                call.is_error = True  # Codex's own refusal, not words of a command's output
            if call.status is None:
                call.status = "error" if call.failed else "completed"
            elif call.status in ("in_progress", "pending", "running"):
                call.status = "error" if call.failed else "completed"
            if is_spawn(call.name):
                self._spawned(call)
        if result.get("exit_code") is not None and isinstance(result["exit_code"], int):
            call.exit_code = result["exit_code"]
        if result.get("duration_ms") is not None and call.duration_ms is None:
            call.duration_ms = sane_duration(result["duration_ms"])
        if result.get("error"):
            call.is_error = True
        status = result.get("status")
        if isinstance(status, str):
            call.status = "error" if status in ("failed", "declined") else "completed"
            if status == "failed" and call.exit_code is None:
                call.is_error = True
        if call.output is None and isinstance(result.get("fallback_output"), str):
            call.output = result["fallback_output"]
        self.mark_changed(self._call_turn[call_id].index)

    # -- events -------------------------------------------------------------
    def _event(self, payload: dict, ts: float | None, where: SourceRef, raw: object) -> None:
        kind = payload.get("type")
        if kind == "user_message":
            self._user_message(payload, ts, where, raw)
        elif kind == "token_count":
            self._current = None
            self._usage(payload.get("info"))
        elif kind == "turn_aborted":
            self._current = None
            self._interrupted(payload, ts, where)
        elif kind == "exec_command_end":
            self._exec_end(payload.get("call_id"), payload)
        elif kind == "patch_apply_end":
            call_id = payload.get("call_id")
            if isinstance(call_id, str) and payload.get("success") is False:
                self._apply_result(call_id, {"error": True})
        elif kind == "item_completed":
            item = payload.get("item")
            if isinstance(item, dict) and item.get("type") in ("CommandExecution", "FileChange"):
                self._exec_end(item.get("id"), item)
        elif kind in ("task_complete", "turn_complete"):
            self._current = None
        elif kind == "sub_agent_activity":
            self._activity(payload, ts)
        elif kind == "context_compacted":
            self._compaction_piece("event", ts, where, "Context compacted", None, None)
        elif kind in ("error", "stream_error"):
            self._current = None
            message = payload.get("message")
            text = message if isinstance(message, str) else "error"
            turn = self._new(Role.SYSTEM, TurnFlag.SYNTHETIC | TurnFlag.ERROR, ts, where, None)
            turn.parts = [Part(PartKind.TEXT, text=text)]
            turn.preview = preview_of(text)
            self._append(turn)

    def _exec_end(self, call_id: object, data: dict) -> None:
        if not isinstance(call_id, str):
            return
        result: dict = {}
        if isinstance(data.get("exit_code"), int):
            result["exit_code"] = data["exit_code"]
        duration = duration_ms(data.get("duration"))
        if duration is not None:
            result["duration_ms"] = duration
        status = data.get("status")
        if isinstance(status, str):
            result["status"] = status
        output = data.get("aggregated_output")
        if isinstance(output, str):
            result["fallback_output"] = output
        if result:
            self._apply_result(call_id, result)

    def _usage(self, info: object) -> None:
        if not isinstance(info, dict):
            return
        last = info.get("last_token_usage")
        if not isinstance(last, dict):
            return
        for turn in reversed(self.session.turns):
            if turn.role is Role.USER and turn.flags & TurnFlag.HUMAN:
                return
            if turn.role is Role.ASSISTANT or turn.flags & TurnFlag.COMPACTION_SUMMARY:
                # a compaction's summary is a model response too: its tokens are its own
                if turn.usage is None:
                    turn.usage = usage_from(last)
                    self.mark_changed(turn.index)
                return

    def _interrupted(self, payload: dict, ts: float | None, where: SourceRef) -> None:
        for turn in reversed(self.session.turns):
            if turn.role is Role.USER:
                break
            if turn.role is Role.ASSISTANT:
                turn.flags |= TurnFlag.INTERRUPTED
                self.mark_changed(turn.index)
                return
        reason = payload.get("reason")
        text = f"Turn aborted ({reason})" if isinstance(reason, str) else "Turn aborted"
        turn = self._new(Role.SYSTEM, TurnFlag.SYNTHETIC | TurnFlag.INTERRUPTED, ts, where, None)
        turn.parts = [Part(PartKind.TEXT, text=text)]
        turn.preview = text
        self._append(turn)

    # -- compaction ---------------------------------------------------------
    def _compacted(self, payload: dict, ts: float | None, where: SourceRef) -> None:
        """A `compacted` record. A remote compaction writes an empty `message`: its summary
        is the encrypted `compaction` item of `replacement_history`, so there is no summary
        to show (an empty one would read as Codex handing the model nothing)."""
        message = payload.get("message")
        summary: str | None = message if isinstance(message, str) and message.strip() else None
        label = "Context compacted"
        if summary is None:
            summary, remote = _replacement_summary(payload.get("replacement_history"))
            if remote and summary is None:
                label = REMOTE_LABEL
        group = self._compaction
        if group is not None and "item" in group.pieces and "record" not in group.pieces:
            summary = None  # already shown (the compaction_output message / a remote item)
        self._compaction_piece("record", ts, where, label, summary, None)

    def _compaction_piece(
        self,
        piece: str,
        ts: float | None,
        where: SourceRef,
        label: str,
        summary: str | None,
        ident: object,
    ) -> None:
        """One record of a compaction: the first piece shows it, the others join it.

        A piece already seen starts a new compaction (so does a model summary after
        a record: it always comes first); the record and the event together, or the
        person's next message, close it.
        """
        self._current = None
        group = self._compaction
        if group is None or piece in group.pieces or (piece == "item" and "record" in group.pieces):
            self._boundary(ts, where, label)
            group = self._compaction = _Compaction()
        group.pieces.add(piece)
        if summary is not None and not group.summary:
            self._summary(summary, ts, where, ident)
            group.summary = True
        if "record" in group.pieces and "event" in group.pieces:
            self._compaction = None

    def _boundary(self, ts: float | None, where: SourceRef, text: str) -> None:
        turn = self._new(
            Role.SYSTEM, TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC, ts, where, None
        )
        turn.parts = [Part(PartKind.TEXT, text=text)]
        turn.preview = text
        self._append(turn)

    def _summary(self, text: str, ts: float | None, where: SourceRef, ident: object) -> None:
        flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
        turn = self._new(Role.USER, flags, ts, where, ident)
        turn.parts = [Part(PartKind.TEXT, text=text)]
        turn.preview = preview_of(text)
        self._append(turn)

    def _append(self, turn: Turn) -> None:
        """Append a turn; events still held came before it, so they go first."""
        if self._exchange.held:
            self._show_held()
        self.append_turn(turn)

    def _new(
        self, role: Role, flags: TurnFlag, ts: float | None, where: SourceRef, ident: object
    ) -> Turn:
        ident = ident if isinstance(ident, str) else None
        source = SourceRef(line=where.line, record_id=ident, offset=where.offset)
        return Turn(index=0, role=role, flags=flags, timestamp=ts, message_id=ident, source=source)


def _replacement_summary(history: object) -> tuple[str | None, bool]:
    """(the summary put back as a user message, whether it is encrypted) of a `compacted`
    record's `replacement_history`, for a record whose `message` is empty. An encrypted
    `compaction` item is this compaction's summary: a readable one beside it is older."""
    summary = None
    for item in dicts(history):
        kind = item.get("type")
        if kind in _REMOTE_ITEMS:
            return None, True
        if kind == "message" and item.get("role") == "user":
            texts, _ = content_text(item.get("content"))
            text = "\n\n".join(texts)
            if text.lstrip().startswith(SUMMARY_PREFIX):
                summary = text
    return summary, False


# ---------------------------------------------------------------------------
# registry entry


def open_reader(ref: SessionRef) -> CodexReader:
    return CodexReader(ref)


SPEC = FormatSpec(
    name=FORMAT,
    description="Codex CLI rollout JSONL (~/.codex/sessions/...)",
    sniff=sniff,
    refs=refs,
    open=open_reader,
)
