"""Qwen Code chats: `~/.qwen/projects/<cwd-slug>/chats/<session-id>.jsonl` (0.5 on).

The older whole-file chats (`~/.qwen/tmp/<hash>/chats/session-*.json`) are sniffed
here too and read by `qwen_legacy`.

Qwen Code is a Gemini CLI fork, but its chat file is an append-only JSONL of
self-contained records (`uuid`, `parentUuid`, `sessionId`, `timestamp`, `type`,
`cwd`, `version`) whose `message` is a Gemini `Content` (`role: user|model`,
`parts[]`). What is ugly about it, and what this reader makes of it:

* The records look like Claude Code's (same id fields), so this format is sniffed
  before Claude Code's: a record with Gemini `parts` or a `systemPayload` is Qwen's.
* Tool results are separate `tool_result` records holding `functionResponse`
  parts; they are folded into the call with the same id (by name when the id is
  missing). `toolCallResult.status` is "success" even for a shell command that
  exited 3: the exit code exists only in the output text (`Exit Code: N`), so it
  is parsed from there, for shell output only; "error" (a missing file, an
  unknown tool) sets the error flag. A command killed by a signal has no exit
  code in the text and keeps none (never taken for 0 or 1). From 0.2x a failing
  command is an error (`response.error`, status "error"), and `resultDisplay` is an
  object whose `exitCode` is taken as it stands.
* `system` records are interleaved: telemetry and attribution snapshots are
  skipped; `custom_title` names the session; a `slash_command` invocation is the
  command the person ran (SYNTHETIC user turn, like other readers' commands), and
  when it was sent to the model (`sentToModel`) the user record after it is its
  template (SYNTHETIC). An `at_command` record comes just before the prompt it
  expanded and holds what the person typed (`userText`): that is the person's turn,
  the files' text after it an injected one (`split_prompt`; older versions' leading
  `<system-reminder>` blocks likewise). `user` records the CLI writes itself (0.2x
  `notification` / `cron` / `goal_runtime` subtypes, `provenance` other than a
  person's) are SYNTHETIC.
* `chat_compression` holds the whole replacement history. The turns read before
  it stay (they are what the person saw); the reader adds a COMPACTION_BOUNDARY
  turn, the `<state_snapshot>` summary (COMPACTION_SUMMARY, SYNTHETIC), Qwen's
  canned "Got it. Thanks for the additional context!" and, when the kept tail
  does not start with a person's message, "Continue with the prior task using
  the context above." (both SYNTHETIC: nobody typed them). The rest of that
  history is copies of messages read already, or written right after: not shown
  twice. A manual `/compress` leaves no user record: only this record shows it.
  0.2x says why it compressed (`triggerReason`: manual, or automatic on the token
  limit): the boundary's text and `extra["trigger"]` say manual or auto, as for
  Claude Code; its summary ends "Resume the prior task using the summary above.",
  and the context it re-reads for the model after the acknowledgement (the files
  read last, "Recently accessed file …") is an injected turn.
* `parentUuid` is a chain: a rewind re-roots it at an earlier record, so a record
  whose parent is not the last one read cuts the main line back to that parent;
  the cut turns are kept in `Session.branches`. Records written by a sub-agent
  (`isSidechain`) are SIDECHAIN turns and never move the chain.
* Usage is per assistant record (`usageMetadata`; `promptTokenCount` includes
  the cached tokens). A half-written last line waits for its newline.
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
    SessionReader,
    decode_json,
    decode_json_start,
    parse_timestamp,
    single_ref,
)
from pivotal.readers.lines import LineFileReader
from pivotal.readers.qwen_prompts import injected_turn, new_turn, prompt_turns
from pivotal.readers.tokens import generated

FORMAT = "qwen"
ACK_TEXT = "Got it. Thanks for the additional context!"
CONTINUE_TEXT = "Continue with the prior task using the context above."
SNAPSHOT_TAG = "<state_snapshot>"
RESUME_TRAILER = "Resume the prior task using the summary above."
"""What 0.2x appends to a compression summary (the summary may lack its snapshot tag)."""
RESTORED_PREFIXES = (
    "Recently accessed file",
    "The following files were recently accessed",
    "Recent visual snapshots preserved",
    "<background-tasks>",
    "<system-reminder>",
)
"""How the context message a 0.2x compression adds after its acknowledgement starts: the
files read last, screenshots, running sub-agents, the plan-mode reminder."""
SHELL_TOOLS = frozenset({"run_shell_command", "shell"})
_TYPES = frozenset({"user", "assistant", "tool_result", "system"})
_INJECTED_SUBTYPES = frozenset({"notification", "cron", "goal_runtime"})
"""`user` records (0.2x) the CLI writes itself: background-task notices, cron prompts, goals."""
_NOT_TYPED = frozenset({"system", "goal_runtime", "goal_control"})
"""`provenance` values (0.2x) of user records nobody typed."""
_TRIGGERS = {"manual": "manual", "token_limit": "auto", "image_overflow": "auto"}
_STATUS = {"success": "completed", "error": "error", "cancelled": "cancelled"}
_EXIT = re.compile(r"(?m)^Exit Code: (-?\d{1,4})[ \t]*$")


def shell_exit_code(text: str) -> int | None:
    """The `Exit Code: N` line of Qwen's shell output (the last one: the output may echo one)."""
    found = _EXIT.findall(text)
    return int(found[-1]) if found else None


class QwenReader(LineFileReader):
    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.reset()

    def reset(self) -> None:
        self._chain: list[str] = []
        """uuids of the main line's records, in order."""
        self._kept: dict[str, int] = {}
        """uuid -> how many turns the main line had once that record was read."""
        self._calls: dict[str, tuple[ToolCall, int]] = {}
        """call id -> the call and the index of the turn that made it."""
        self._typed: str | None = None
        """What the person typed for the next prompt, when an `at_command` record said it."""
        self._expanded = False
        """The next prompt is a slash command's template (the command was sent to the model)."""
        self._compress_command = False
        """A `/compress` invocation came after the last message (older versions name no
        trigger: the compression that follows it is the manual one)."""

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        obj = self.json_object(line_no, line)
        if obj is None:
            return
        try:
            self._record(obj, line_no, offset)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.skip(line_no, f"unexpected record shape: {type(exc).__name__}")

    # -- records -----------------------------------------------------------

    def _record(self, obj: dict, line_no: int, offset: int) -> None:
        kind = obj.get("type")
        if kind not in _TYPES:
            self.skip(line_no, "record without a known type")
            return
        uuid = obj.get("uuid") if isinstance(obj.get("uuid"), str) else None
        side = obj.get("isSidechain") is True
        if uuid is not None and not side:
            if uuid in self._kept:
                return  # written twice: read once
            self._follow_chain(obj.get("parentUuid"))
        self._session_facts(obj)
        where = SourceRef(line=line_no, record_id=uuid, offset=offset)
        if kind == "system":
            turns = self._system(obj, where)
        else:
            if kind == "user":
                turns = self._user(obj, where)
            elif kind == "assistant":
                turns = self._assistant(obj, where)
            else:
                turns = []
                self._tool_result(obj, line_no)
            self._typed, self._expanded, self._compress_command = None, False, False
        for turn in turns:
            if side:
                turn.flags = (turn.flags & ~TurnFlag.HUMAN) | TurnFlag.SIDECHAIN
            self.append_turn(turn)
            for call in turn.tool_calls:
                self._calls[call.call_id] = (call, turn.index)
        if uuid is not None and not side:
            self._chain.append(uuid)
            self._kept[uuid] = len(self.session.turns)

    def _follow_chain(self, parent: object) -> None:
        """A parent other than the last record read is a rewind to that parent."""
        if not self._chain or not isinstance(parent, str) or parent == self._chain[-1]:
            return
        if parent not in self._kept:
            return  # a parent never written (Qwen logs a failed write and goes on)
        keep = self._kept[parent]
        cut = self._chain.index(parent) + 1
        for uuid in self._chain[cut:]:
            del self._kept[uuid]
        del self._chain[cut:]
        dropped = self.session.turns[keep:]
        if dropped:
            self.session.branches.append(list(dropped))
            self.truncate_turns(keep)
            self.session.notices.append("the session was rewound; later turns kept as a branch")

    def _session_facts(self, obj: dict) -> None:
        session = self.session
        if session.id is None and isinstance(obj.get("sessionId"), str):
            session.id = obj["sessionId"]
        if session.cwd is None and isinstance(obj.get("cwd"), str):
            session.cwd = obj["cwd"]
        stamp = parse_timestamp(obj.get("timestamp"))
        if stamp is not None:
            if session.started is None:
                session.started = stamp
            session.ended = stamp
        if obj.get("type") == "assistant" and isinstance(obj.get("model"), str):
            session.model = obj["model"]

    def _user(self, obj: dict, where: SourceRef) -> list[Turn]:
        texts: list[str] = []
        attachments: list[Part] = []
        responses = 0
        for part in _parts(obj.get("message")):
            if "functionResponse" in part:
                responses += 1
                self._fold(part["functionResponse"], None)
            elif isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif "inlineData" in part or "fileData" in part:
                data = part.get("inlineData") or part.get("fileData")
                mime = data.get("mimeType") if isinstance(data, dict) else None
                attachments.append(Part(PartKind.ATTACHMENT, text=f"[{mime or 'attachment'}]"))
        if responses and not texts and not attachments:
            return []
        text = "".join(texts)
        if not self._injected_prompt(obj):
            return prompt_turns(obj, where, text, attachments, self._typed)
        turn = new_turn(Role.USER, TurnFlag.SYNTHETIC, obj, where, text)
        turn.parts = [Part(PartKind.TEXT, text=text), *attachments]
        return [turn]

    def _injected_prompt(self, obj: dict) -> bool:
        """A user record nobody typed: an external input, a notice, a cron or goal prompt,
        or the template of a slash command the person ran (its invocation came first)."""
        return (
            obj.get("externalInputKind") is not None
            or obj.get("subtype") in _INJECTED_SUBTYPES
            or obj.get("provenance") in _NOT_TYPED
            or self._expanded
        )

    def _assistant(self, obj: dict, where: SourceRef) -> list[Turn]:
        parts: list[Part] = []
        texts: list[str] = []
        calls: list[Part] = []
        for part in _parts(obj.get("message")):
            if isinstance(part.get("text"), str):
                if part.get("thought") is True:
                    parts.append(Part(PartKind.REASONING, text=part["text"]))
                else:
                    texts.append(part["text"])
            elif isinstance(part.get("functionCall"), dict):
                raw = part["functionCall"]
                name = raw.get("name") if isinstance(raw.get("name"), str) else "tool"
                ident = raw.get("id")
                call_id = ident if isinstance(ident, str) and ident else f"{name}#{where.line}"
                call = ToolCall(call_id=call_id, name=name, input=raw.get("args"))
                calls.append(Part(PartKind.TOOL, tool=call))
        text = "".join(texts)
        if text:
            parts.append(Part(PartKind.TEXT, text=text))
        turn = new_turn(Role.ASSISTANT, TurnFlag.NONE, obj, where, text)
        turn.parts = parts + calls
        turn.model = obj["model"] if isinstance(obj.get("model"), str) else None
        turn.usage = _usage(obj.get("usageMetadata"))
        return [turn]

    def _tool_result(self, obj: dict, line_no: int) -> None:
        result = obj.get("toolCallResult")
        result = result if isinstance(result, dict) else {}
        folded = False
        for part in _parts(obj.get("message")):
            if "functionResponse" in part:
                folded = self._fold(part["functionResponse"], result) or folded
        if not folded:
            self.skip(line_no, "tool result without the call it answers")

    def _fold(self, response: object, result: dict | None) -> bool:
        """Put one functionResponse (and the record's status) into its call."""
        if not isinstance(response, dict):
            return False
        found = self._calls.get(response["id"]) if isinstance(response.get("id"), str) else None
        if found is None:
            name = response.get("name")
            found = next(
                (
                    c
                    for c in reversed(self._calls.values())
                    if c[0].name == name and not c[0].output
                ),
                None,
            )
        if found is None:
            return False
        call, index = found
        body = response.get("response")
        if isinstance(body, dict) and isinstance(body.get("error"), str):
            call.output, call.is_error = body["error"], True
        elif isinstance(body, dict) and isinstance(body.get("output"), str):
            call.output = body["output"]
        elif isinstance(body, str):
            call.output = body
        elif body is not None:
            call.output = _json_text(body)
        status = (result or {}).get("status")
        if isinstance(status, str):
            call.status = _STATUS.get(status, status)
            call.is_error = call.is_error or status == "error"
        elif call.output is not None:
            call.status = "error" if call.is_error else "completed"
        display = (result or {}).get("resultDisplay")
        if call.output is None and isinstance(display, str):
            call.output = display
        elif isinstance(display, dict):  # 0.24: a shell result says its exit code itself
            if call.output is None and isinstance(display.get("output"), str):
                call.output = display["output"]
            if _is_int(display.get("exitCode")):
                call.exit_code = display["exitCode"]
        if (
            call.exit_code is None
            and call.output is not None
            and (call.name in SHELL_TOOLS or call.output.startswith("Command: "))
        ):
            call.exit_code = shell_exit_code(call.output)
        self.mark_changed(index)
        return True

    def _system(self, obj: dict, where: SourceRef) -> list[Turn]:
        subtype = obj.get("subtype")
        payload = obj.get("systemPayload")
        payload = payload if isinstance(payload, dict) else {}
        if subtype == "chat_compression":
            manual, self._compress_command = self._compress_command, False
            return _compression(obj, payload, where, manual)
        if subtype == "custom_title" and isinstance(payload.get("customTitle"), str):
            self.session.title = payload["customTitle"]
        elif subtype == "at_command":  # written just before the prompt it expanded
            typed = payload.get("userText")
            self._typed = typed if isinstance(typed, str) else None
        elif subtype == "slash_command" and payload.get("phase") == "invocation":
            command = payload.get("rawCommand")
            if isinstance(command, str):
                self._expanded = payload.get("sentToModel") is True
                self._compress_command = command.split(maxsplit=1)[:1] == ["/compress"]
                turn = new_turn(Role.USER, TurnFlag.SYNTHETIC, obj, where, command)
                turn.parts = [Part(PartKind.TEXT, text=command)]
                return [turn]
        elif subtype == "mid_turn_user_message":
            return self._user(obj, where)
        elif subtype == "notification" and isinstance(payload.get("displayText"), str):
            turn = new_turn(Role.SYSTEM, TurnFlag.SYNTHETIC, obj, where, payload["displayText"])
            turn.parts = [Part(PartKind.TEXT, text=payload["displayText"])]
            return [turn]
        return []


def _compression(obj: dict, payload: dict, where: SourceRef, after_compress: bool) -> list[Turn]:
    """A chat_compression record -> boundary, summary and Qwen's injected turns.

    The trigger (0.2x `info.triggerReason`: `manual` for `/compress`, `token_limit` or
    `image_overflow` when the CLI compressed on its own) is said in the boundary's text and
    in its `extra`, as Claude Code's reader does; older records name none, and a `/compress`
    invocation just before is the manual one.
    """
    info = payload.get("info") if isinstance(payload.get("info"), dict) else {}
    before, after = info.get("originalTokenCount"), info.get("newTokenCount")
    reason = info.get("triggerReason") if isinstance(info.get("triggerReason"), str) else None
    trigger = _TRIGGERS.get(reason, "auto") if reason else ("manual" if after_compress else None)
    details = [trigger] if trigger else []
    if _is_int(before) and _is_int(after):
        details.append(f"{before:,} → {after:,} tokens")
    label = "Context compressed" + (f" ({'; '.join(details)})" if details else "")
    boundary = new_turn(
        Role.SYSTEM, TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC, obj, where, label
    )
    boundary.parts = [Part(PartKind.TEXT, text=label)]
    boundary.extra = {"original_tokens": before, "new_tokens": after}
    if trigger:
        boundary.extra["trigger"] = trigger
    if reason:
        boundary.extra["trigger_reason"] = reason
    turns = [boundary]
    listed = payload.get("compressedHistory")
    history = [h for h in listed if isinstance(h, dict)] if isinstance(listed, list) else []
    texts = [(h.get("role"), "".join(_texts(h))) for h in history]
    pos = 0
    summary = None
    if texts and texts[0][0] == "user" and _is_summary(texts[0][1]):
        summary, pos = texts[0][1], 1
    elif isinstance(payload.get("summary"), str):
        summary = payload["summary"]
    synthetic = TurnFlag.SYNTHETIC
    if summary is not None:
        flags = TurnFlag.COMPACTION_SUMMARY | synthetic
        turns.append(injected_turn(Role.USER, flags, obj, where, summary, "summary"))
    if pos < len(texts) and texts[pos][0] == "model" and texts[pos][1].strip() == ACK_TEXT:
        turns.append(injected_turn(Role.ASSISTANT, synthetic, obj, where, ACK_TEXT, "ack"))
        pos += 1
    if pos < len(texts) and texts[pos][0] == "user":
        text = texts[pos][1]
        if text.strip() == CONTINUE_TEXT:
            turns.append(injected_turn(Role.USER, synthetic, obj, where, text, "nudge"))
        elif text.lstrip().startswith(RESTORED_PREFIXES):  # the files read last, re-read
            turns.append(injected_turn(Role.USER, synthetic, obj, where, text, "context"))
    return turns


def _is_summary(text: str) -> bool:
    return SNAPSHOT_TAG in text or RESUME_TRAILER in text


def _parts(message: object) -> list[dict]:
    parts = message.get("parts") if isinstance(message, dict) else None
    return [p for p in parts if isinstance(p, dict)] if isinstance(parts, list) else []


def _texts(content: dict) -> list[str]:
    return [p["text"] for p in _parts(content) if isinstance(p.get("text"), str)]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _usage(meta: object) -> Usage | None:
    if not isinstance(meta, dict):
        return None

    def num(key: str) -> int:
        value = meta.get(key)
        return value if _is_int(value) and value > 0 else 0

    # Qwen Code translates OpenAI's usage into Gemini's fields: whether the thoughts are
    # in `candidatesTokenCount` depends on the translation, and the total says which
    cached, prompt, thoughts = (
        num("cachedContentTokenCount"),
        num("promptTokenCount"),
        num("thoughtsTokenCount"),
    )
    output = num("candidatesTokenCount")
    return Usage(
        input=max(prompt - cached, 0),
        output=generated(output, thoughts, num("totalTokenCount") or None, prompt, beside=True),
        cache_read=cached,
        reasoning=thoughts,
    )


def _json_text(value: object) -> str:
    import msgspec

    try:
        return msgspec.json.encode(value).decode("utf-8", "replace")
    except (TypeError, ValueError, OverflowError):
        return repr(value)


def _looks_qwen(obj: dict) -> bool:
    if obj.get("type") not in _TYPES or not isinstance(obj.get("uuid"), str):
        return False
    if isinstance(obj.get("systemPayload"), dict):
        return True
    message = obj.get("message")
    return isinstance(message, dict) and isinstance(message.get("parts"), list)


def is_legacy_chat(path: Path, head: bytes) -> bool:
    """An older (before 0.5) whole-file chat: Gemini's `{sessionId, projectHash, messages}`
    document with Qwen's `"type": "qwen"` messages, or one kept under a `.qwen` folder (a
    first prompt of over 64 KB leaves no model message in the head).

    Asked of every file first, so the common "no" is one search of 2 KB.
    """
    if not _is_document(head) or b'"sessionId"' not in head[:2048]:
        return False
    return b'"messages"' in head and (_QWEN_TYPE.search(head) is not None or ".qwen" in path.parts)


_QWEN_TYPE = re.compile(rb'"type"\s*:\s*"qwen"')


def _is_document(head: bytes) -> bool:
    """Gemini's whole-file chat shape; no JSONL record of Qwen's carries a `projectHash`."""
    start = head[:2048]
    return b'"projectHash"' in start and start.lstrip().startswith(b"{")


def sniff(path: Path, head: bytes) -> bool:
    """The first record carrying a `sessionId` has Gemini `parts` or a `systemPayload`;
    or the file is an older whole-file chat (`is_legacy_chat`).

    Every Claude Code file is asked first here, so the common "no" must be cheap:
    the head is cut into lines only as far as the first record with a session id.
    """
    if not head:  # a directory, or an empty file
        return False
    if is_legacy_chat(path, head):
        return True
    start = 0
    for _ in range(8):
        end = head.find(b"\n", start)
        line = head[start:] if end < 0 else head[start:end]
        start = end + 1
        if b'"sessionId"' in line:
            if b'"parts"' not in line and b'"systemPayload"' not in line:
                return False  # most likely Claude Code's: no need to decode it
            try:
                obj = decode_json(line)
            except ValueError:  # the head's last line may be a long record cut short
                obj = decode_json_start(line) if end < 0 else None
            if isinstance(obj, dict) and "sessionId" in obj:
                return _looks_qwen(obj)
        if end < 0:
            break
    return False


def open_reader(ref: SessionRef) -> SessionReader:
    """The JSONL reader, or the older whole-file chats' (`qwen_legacy`) for such a file."""
    try:
        with open(ref.path, "rb") as handle:
            head = handle.read(2048)
    except OSError:
        return QwenReader(ref)
    if _is_document(head.removeprefix(b"\xef\xbb\xbf")):
        from pivotal.readers.qwen_legacy import QwenJsonReader

        return QwenJsonReader(ref)
    return QwenReader(ref)


SPEC = FormatSpec(
    name=FORMAT,
    description=(
        "Qwen Code chats (~/.qwen/projects/<project>/chats/<session>.jsonl; before 0.5"
        " ~/.qwen/tmp/<hash>/chats/session-*.json)"
    ),
    sniff=sniff,
    refs=single_ref(FORMAT),
    open=open_reader,
)
