"""Decoding Claude Code JSONL records: a cheap index pass and an on-demand full pass.

The index pass must keep up with files of hundreds of MB, so it never builds
Python objects for message content. Small lines are decoded with a typed
msgspec struct whose `content` is left raw; lines too big to be worth a full
scan (nearly always tool results or huge tool inputs) have their top-level
fields read from the line's head and tail, and are fully decoded only when
that reading is not certain. The full pass (`decode_for_parts`) runs when a
turn is shown or examined by the detector; `pivotal.readers.claude_parts`
makes parts of what it decodes. `sniff` recognises a Claude Code file by its
first records.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import msgspec

from pivotal.model import Usage
from pivotal.readers.base import decode_json, decode_json_start

BIG_LINE = 16 * 1024
"""Lines above this size take the head/tail path in the index pass."""


class RawUsage(msgspec.Struct):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def to_usage(self) -> Usage:
        return Usage(
            input=self.input_tokens,
            output=self.output_tokens,
            cache_read=self.cache_read_input_tokens,
            cache_write=self.cache_creation_input_tokens,
        )


class Message(msgspec.Struct):
    id: str | None = None
    model: str | None = None
    content: msgspec.Raw = msgspec.Raw(b"null")
    usage: RawUsage | None = None


class Record(msgspec.Struct):
    """The top-level fields the index pass reads; content stays raw JSON."""

    type: str = ""
    uuid: str | None = None
    parentUuid: str | None = None  # noqa: N815 - the source's field names
    timestamp: str | None = None
    sessionId: str | None = None  # noqa: N815
    cwd: str | None = None
    isMeta: bool = False  # noqa: N815
    isSidechain: bool = False  # noqa: N815
    isCompactSummary: bool = False  # noqa: N815
    subtype: str | None = None
    message: Message | None = None
    content: msgspec.Raw = msgspec.Raw(b"null")
    aiTitle: str | None = None  # noqa: N815
    summary: str | None = None
    compactMetadata: msgspec.Raw = msgspec.Raw(b"null")  # noqa: N815 - read for boundaries only
    attachment: msgspec.Raw = msgspec.Raw(b"null")
    """An `attachment` record's payload (a queued prompt among others), decoded when filed."""

    @property
    def body(self) -> bytes | msgspec.Raw:
        """Raw JSON of message.content (system records: the top-level content)."""
        return self.message.content if self.message is not None else self.content


_decode_record = msgspec.json.Decoder(Record).decode
_decode_records = msgspec.json.Decoder(list[Record]).decode
TOOL_RESULT_MARK = msgspec.Raw(b"[tool_result]")


def read_record(line: bytes | memoryview) -> Record | None:
    """Index-pass decoding of one line. Raises ValueError for lines that are not JSON."""
    if len(line) > BIG_LINE:
        record = _record_from_big_line(line)
        if record is not None:
            return record
    try:
        return _decode_record(line)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        # unexpected field types, invalid UTF-8, a BOM, lone surrogates, deep nesting:
        # the lenient decoder either recovers the record or raises ValueError
        return _record_from_untyped(decode_json(line))


def read_records(lines: list[bytes] | list[memoryview]) -> list[Record | None | ValueError]:
    """Decode many lines with one C call (per-line Python work is the bottleneck).

    Lines too big to be worth a full scan take the head/tail path; if any small
    line is not a valid record, the batch falls back to one line at a time so
    the bad line alone is reported.
    """
    small = [line for line in lines if len(line) <= BIG_LINE]
    try:
        decoded = _decode_records(_json_array(small)) if small else []
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return [_read_or_error(line) for line in lines]
    if len(decoded) == len(lines):
        return list(decoded)
    out: list[Record | None | ValueError] = []
    it = iter(decoded)
    for line in lines:
        out.append(next(it) if len(line) <= BIG_LINE else _read_or_error(line))
    return out


def _json_array(items: list[bytes] | list[memoryview]) -> bytes:
    """`[a,b,c]` from JSON texts with one copy (`b"[" + joined + b"]"` copies twice more)."""
    pieces: list[bytes | memoryview] = list(items)
    pieces[0] = b"[" + pieces[0]
    pieces[-1] = bytes(pieces[-1]) + b"]"
    return b",".join(pieces)


def _read_or_error(line: bytes | memoryview) -> Record | None | ValueError:
    try:
        return read_record(line)
    except ValueError as exc:
        return exc


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _record_from_untyped(obj: object) -> Record | None:
    """Lenient path for records whose fields have unexpected types."""
    if not isinstance(obj, dict):
        return None
    kind = obj.get("type")
    if not isinstance(kind, str):
        return None
    msg = obj.get("message")
    content = msg.get("content") if isinstance(msg, dict) else obj.get("content")
    raw = msgspec.Raw(msgspec.json.encode(content) if content is not None else b"null")
    message = None
    if isinstance(msg, dict):
        message = Message(
            id=_text_or_none(msg.get("id")), model=_text_or_none(msg.get("model")), content=raw
        )
    return Record(
        type=kind,
        uuid=_text_or_none(obj.get("uuid")),
        parentUuid=_text_or_none(obj.get("parentUuid")),
        timestamp=_text_or_none(obj.get("timestamp")),
        sessionId=_text_or_none(obj.get("sessionId")),
        cwd=_text_or_none(obj.get("cwd")),
        isMeta=obj.get("isMeta") is True,
        isSidechain=obj.get("isSidechain") is True,
        isCompactSummary=obj.get("isCompactSummary") is True,
        subtype=_text_or_none(obj.get("subtype")),
        message=message,
        content=raw if message is None else msgspec.Raw(b"null"),
        aiTitle=_text_or_none(obj.get("aiTitle")),
        summary=_text_or_none(obj.get("summary")),
        compactMetadata=msgspec.Raw(msgspec.json.encode(obj.get("compactMetadata"))),
        attachment=msgspec.Raw(msgspec.json.encode(obj.get("attachment"))),
    )


# -- the head/tail path for big lines ------------------------------------------

_FIELD = re.compile(rb'"(type|parentUuid|uuid|timestamp|sessionId|cwd|subtype)":"([^"\\]{0,400})"')
_FLAG = re.compile(rb'"(isMeta|isSidechain|isCompactSummary)":(true|false)')
_UUID = re.compile(rb"^[0-9a-fA-F-]{8,64}$")
_MSG_ID = re.compile(rb'\{"id":"([^"\\]{1,200})"')
_MODEL = re.compile(rb'"model":"([^"\\]{1,200})"')
TOOL_RESULT_START = re.compile(rb'\[\{(?:"tool_use_id":"[^"\\]*",)?"type":"tool_result"')
_EDGE = 4096


_MESSAGE_KEY = re.compile(rb'"message":\{')
_CONTENT_KEY = re.compile(rb'"content":')
_UUID_KEY = re.compile(rb',"uuid":"')


def _record_from_big_line(line: bytes | memoryview) -> Record | None:
    """Top-level fields of a huge line from its head and tail, or None when unsure.

    Claude Code writes the top-level keys in a fixed order: the bookkeeping
    fields and `type` before `message`, then `uuid`/`timestamp` after it (and
    sometimes a `toolUseResult` copy of the output before or after them). The
    byte pattern `"key":"` cannot occur inside a JSON string (its quotes would
    be escaped), so the only risk is a nested object using the same key; the
    values are checked and anything doubtful goes to the full decoder. `line`
    may be a memoryview: only regexes and small copies touch it.
    """
    found = _MESSAGE_KEY.search(line, 0, _EDGE + 11)
    if found is None or bytes(line[:1]) != b"{":
        return None
    start = found.start()
    fields: dict[bytes, bytes] = {}
    for match in _FIELD.finditer(line, 0, start):
        fields[match.group(1)] = match.group(2)
    kind = fields.get(b"type")
    if kind not in (b"user", b"assistant"):
        return None
    flags = {m.group(1): m.group(2) == b"true" for m in _FLAG.finditer(line, 0, start)}
    body = bytes(line[start + 10 : start + 10 + _EDGE])
    if kind == b"assistant":
        match = _MSG_ID.match(body)
        if match is None:
            return None
        model = _MODEL.search(body)
        message = Message(
            id=match.group(1).decode(), model=model.group(1).decode() if model else None
        )
    else:
        content_at = body.find(b'"content":')
        if content_at < 0 or not TOOL_RESULT_START.match(body, content_at + 10):
            return None  # a big human message: decode it properly
        message = Message(content=TOOL_RESULT_MARK)
    tail_fields = _tail_fields(line, start)
    if tail_fields is None:
        return None
    uuid, timestamp = tail_fields
    return Record(
        type=kind.decode(),
        uuid=uuid,
        parentUuid=_opt(fields.get(b"parentUuid")),
        timestamp=timestamp,
        sessionId=_opt(fields.get(b"sessionId")),
        cwd=_opt(fields.get(b"cwd")),
        isMeta=flags.get(b"isMeta", False),
        isSidechain=flags.get(b"isSidechain", False),
        message=message,
    )


def _tail_fields(line: bytes | memoryview, message_at: int) -> tuple[str, str | None] | None:
    """The top-level uuid and timestamp, which follow the message object.

    They sit at the very end of the line (assistant lines), or right after the
    message and before a huge `toolUseResult` copy (tool results): look in the
    last bytes first, then forward from the message (a C-speed scan). The top-level
    uuid is always followed by the timestamp, which tells it from a nested key.
    """
    size = len(line)
    tail_start = max(0, size - 512)
    uuid_at = bytes(line[tail_start:]).rfind(b',"uuid":"')
    if uuid_at >= 0:
        uuid_at += tail_start
    else:
        found = _UUID_KEY.search(line, message_at)
        if found is None:
            return None
        uuid_at = found.start()
    window = bytes(line[uuid_at : uuid_at + 9 + 80 + 15 + 64])
    value_end = window.find(b'"', 9)
    uuid = window[9:value_end]
    if value_end < 0 or not _UUID.match(uuid):
        return None
    if not window.startswith(b',"timestamp":"', value_end + 1):
        return None
    stamp_end = window.find(b'"', value_end + 15)
    if stamp_end < 0:
        return None
    return uuid.decode(), window[value_end + 15 : stamp_end].decode("ascii", "replace")


def _opt(value: bytes | None) -> str | None:
    return value.decode("utf-8", "replace") if value is not None else None


# -- the full pass: one turn's records, decoded for `claude_parts` --------------------------------


class _ToolUseMeta(msgspec.Struct):
    interrupted: bool | None = None
    durationMs: float | None = None  # noqa: N815
    totalDurationMs: float | None = None  # noqa: N815
    totalToolUseCount: int | None = None  # noqa: N815


class _FullMessage(msgspec.Struct):
    content: object = None


class _FullRecord(msgspec.Struct):
    type: str = ""
    message: _FullMessage | None = None
    toolUseResult: msgspec.Raw = msgspec.Raw(b"null")  # noqa: N815


class _TypedRecord(msgspec.Struct):
    """`_FullRecord` with the metadata of `toolUseResult` read in the same pass."""

    type: str = ""
    message: _FullMessage | None = None
    toolUseResult: _ToolUseMeta | str | list[object] | int | float | bool | None = None  # noqa: N815


_decode_typed = msgspec.json.Decoder(_TypedRecord).decode
_decode_full = msgspec.json.Decoder(_FullRecord).decode
_decode_meta = msgspec.json.Decoder(_ToolUseMeta).decode
_DECODE_ERRORS = (msgspec.ValidationError, msgspec.DecodeError, RecursionError)


def decode_for_parts(line: bytes) -> object:
    """A record as parts_from_records wants it, without materialising `toolUseResult`.

    Claude Code stores every tool output twice (in the content block and again
    in `toolUseResult`); only the few metadata fields of the copy are needed.
    They are read in the same pass as the record (the copy of a big output is
    scanned once, not twice); a record that pass refuses (a metadata field of
    an unexpected type, bad JSON) is read as before, field by field.
    """
    try:
        typed = _decode_typed(line)
    except _DECODE_ERRORS:
        return _decode_in_two_steps(line)
    found = typed.toolUseResult
    meta: dict[str, object] = {}
    if isinstance(found, _ToolUseMeta):
        meta = {k: v for k, v in msgspec.structs.asdict(found).items() if v is not None}
    message = {"content": typed.message.content} if typed.message is not None else None
    return {"type": typed.type, "message": message, "toolUseResult": meta}


def _decode_in_two_steps(line: bytes) -> object:
    """The record first, then the metadata of `toolUseResult` on its own (which may fail alone)."""
    try:
        rec = _decode_full(line)
    except _DECODE_ERRORS:
        return decode_json(line)
    meta: dict[str, object] = {}
    raw = rec.toolUseResult
    if memoryview(raw)[:1] == b"{":
        try:
            found = _decode_meta(raw)
        except _DECODE_ERRORS:
            found = None
        if found is not None:
            meta = {k: v for k, v in msgspec.structs.asdict(found).items() if v is not None}
    message = {"content": rec.message.content} if rec.message is not None else None
    return {"type": rec.type, "message": message, "toolUseResult": meta}


# -- recognising a Claude Code file ---------------------------------------------------

_KNOWN_TYPES = {
    "user",
    "assistant",
    "system",
    "summary",
    "queue-operation",
    "file-history-snapshot",
    "ai-title",
    "attachment",
    "last-prompt",
    "progress",
    "permission-mode",
    "custom-title",
    "agent-name",
    "agent-setting",
    "pr-link",
    "worktree-state",
}
"""Record types Claude Code writes; one of them with an id key (`_ID_KEYS`) tells its file."""
_ID_KEYS = ("uuid", "parentUuid", "leafUuid", "sessionId")
_TYPE_NEAR_START = re.compile(
    rb'"type":"(?:' + b"|".join(re.escape(t.encode()) for t in sorted(_KNOWN_TYPES)) + rb')"'
)
"""One of those types in a record's first 4 KB, where Claude Code writes it."""


def _first_lines(head: bytes, count: int) -> Iterator[tuple[bytes, bool]]:
    """`head.split(b"\n")[:count]`, cut one line at a time (most files are known by their
    first), each with whether a newline ends it (the last one may be cut by the head)."""
    start = 0
    for _ in range(count):
        end = head.find(b"\n", start)
        if end < 0:
            yield head[start:], False
            return
        yield head[start:end], True
        start = end + 1


def sniff(path: Path, head: bytes) -> bool:
    """One of the first 40 records is one only Claude Code writes.

    A record longer than the head (a pasted log in the first prompt, a long queued
    prompt) is known by its leading keys (`decode_json_start`): the type and ids come
    before the message in every record Claude Code writes.
    """
    if not head:
        return False
    for line, whole in _first_lines(head, 40):
        if not line.strip():
            continue
        try:
            obj = decode_json(line)
        except ValueError:
            if whole or _TYPE_NEAR_START.search(line, 0, 4096) is None:
                continue  # malformed, or a cut record of another agent's (cheaply told)
            obj = decode_json_start(line)
        if isinstance(obj, dict) and _is_claude_record(obj):
            return True
    return False


def _is_claude_record(obj: dict) -> bool:
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _KNOWN_TYPES or "payload" in obj:
        return False  # (a list or object is not hashable: checked for a string first)
    if kind == "file-history-snapshot":  # no id key, but a shape of its own
        return "messageId" in obj and "snapshot" in obj
    return any(key in obj for key in _ID_KEYS)
