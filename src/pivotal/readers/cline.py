"""Cline CLI (3.x, the SDK "hub" CLI) sessions: `~/.cline/data/sessions/<id>/`.

A session is a folder: `<id>.json` (the manifest: cwd, model, times, title),
`<id>.messages.json` (`{sessionId, messages[], ...}`, rewritten whole after every
change) and, once the context was compacted, `<id>.compaction.json`. What is ugly
about it, and what this reader makes of it:

* The messages are Anthropic-style content blocks. A person's text is wrapped as
  `<user_input mode="act">…</user_input>`: the turn's text is what is inside,
  exactly as typed. Tool results are `tool_result` blocks in user messages and are
  folded into their calls.
* `run_commands` takes a list of commands and its result is a list with one
  `{query, result, error, success}` entry per command (the editor's is a JSON
  string instead). The call failed when any entry did (or the block says
  `is_error`, or an unknown tool was rejected). The exit code is the one the
  entry states ("Command exited with code 3"), and only for a single command: a
  list of commands has no one exit code.
* `messages.json` always keeps the full, uncompacted history. The compaction
  file is the compacted view for later requests: `source_message_count` says how
  many messages it replaced, and its first message is the synthetic summary
  (`metadata.kind: compaction_summary`). The reader puts a COMPACTION_BOUNDARY
  turn and that summary (COMPACTION_SUMMARY, SYNTHETIC) after that many messages.
  Only the latest compaction is kept by Cline, so an earlier one cannot be placed.
  `/compact` itself is not stored as a message.
* The files are rewritten whole: the folder is re-read when any of them changes;
  a half-written document keeps the turns read before until it is whole again.

The messages file is read one message at a time (`json_items`). A batch read
keeps only each turn's index and where its messages are (`lazy_items`): the
parts are decoded again when asked for, so a 1 GB session is not held in memory.
A followed session keeps its parts, as the files it was read from may be
rewritten at any moment.
"""

from __future__ import annotations

import os
import re
import zlib
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
    SessionReader,
    Update,
    decode_json,
    describe_decode_error,
    parse_timestamp,
    preview_of,
    source_gone,
)
from pivotal.readers.generic_common import replace_turns
from pivotal.readers.json_items import ITEMS, decode_light, scan_document
from pivotal.readers.lazy_items import ItemStore, Piece

FORMAT = "cline"
MESSAGES = ".messages.json"
_WRAPPED = re.compile(r"\A\s*<user_input(?:\s[^>]*)?>(.*)</user_input>\s*\Z", re.S)
_EXITED = re.compile(r"exited with code (-?\d{1,4})")


def _files(folder: Path) -> tuple[Path, Path, Path]:
    """The manifest, messages and compaction files of a session folder."""
    ident = folder.name
    return (
        folder / f"{ident}.json",
        folder / f"{ident}{MESSAGES}",
        folder / f"{ident}.compaction.json",
    )


class ClineReader(SessionReader):
    """One session folder, re-read whenever one of its files changes."""

    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.session.id = ref.session_id
        self._stamps: tuple | None = None
        self._size = 0
        self._pinned: bool | None = None
        """Set by the first poll: a followed session (not final) keeps its parts in memory."""
        self._store = ItemStore(_files(ref.path)[1], "messages", _rebuild)

    @property
    def progress(self) -> tuple[int, int]:
        return (self._size, self._size) if self._stamps else (0, self._size)

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        folder = self.ref.path
        skipped_before = len(self.session.skipped)
        if self._pinned is None:
            self._pinned = not final
        manifest, messages, compaction = _files(folder)
        stamps = tuple(_stamp(p) for p in (manifest, messages, compaction))
        if stamps[1] is None and not folder.is_dir():
            return source_gone(folder)
        if stamps != self._stamps or final:
            self._reload(manifest, messages, compaction, stamps, final)
        return Update(
            first_changed=self.take_first_changed(),
            new_skipped=max(len(self.session.skipped) - skipped_before, 0),
        )

    def _reload(
        self, manifest: Path, messages: Path, compaction: Path, stamps: tuple, final: bool
    ) -> None:
        meta = _load(manifest)
        if isinstance(meta, dict):
            self._meta(meta)
        index = _Index(None if self._pinned else self._store)
        doc = index.read(messages)
        if isinstance(doc, ValueError) or doc is None:
            if final and (self._stamps is None or stamps != self._stamps):
                reason = describe_decode_error(doc) if doc is not None else "no messages file"
                self.skip(None, f"{messages.name}: {reason}")
            if final:
                self._stamps = stamps
            return  # half-written (or not there yet): keep what was read, retry on change
        listed = doc.get("messages") if isinstance(doc, dict) else doc
        if listed is not ITEMS:
            if final:
                self.skip(None, f"{messages.name}: no message list")
                self._stamps = stamps
            return
        self._size = stamps[1][2] if stamps[1] else 0
        if isinstance(doc, dict) and isinstance(doc.get("sessionId"), str):
            self.session.id = doc["sessionId"]
        compacted = _load(compaction)
        turns = index.finished(compacted if isinstance(compacted, dict) else None)
        models = [t.model for t in turns if t.model]
        if models:
            self.session.model = models[-1]
        self._stamps = stamps
        replace_turns(self, turns)

    def _meta(self, meta: dict) -> None:
        session = self.session
        session.id = _str(meta.get("session_id")) or session.id
        session.cwd = _str(meta.get("cwd")) or session.cwd
        session.model = _str(meta.get("model")) or session.model
        session.started = parse_timestamp(meta.get("started_at")) or session.started
        session.ended = parse_timestamp(meta.get("ended_at")) or session.ended
        extra = meta.get("metadata")
        if isinstance(extra, dict) and _str(extra.get("title")):
            session.title = extra["title"]


class _Index:
    """The turns of the messages file, built one message at a time as it is read.

    With a store (a batch read), each turn keeps its index fields and the pieces of
    the file it is built from (its message, and the later messages whose tool results
    answer its calls); its parts are dropped as soon as it is built. Without one, the
    turns keep their parts as well.
    """

    def __init__(self, store: ItemStore | None) -> None:
        self.store = store
        self.begin()

    def begin(self) -> None:
        self.turns: list[Turn] = []
        self.pieces: list[list[Piece]] = []
        self.starts: list[int] = []
        """The number of turns before each message (where a compaction goes)."""
        self.calls: dict[str, ToolCall] = {}
        self.owner: dict[str, int] = {}
        """The turn (its position in `turns`) of each call in `calls`."""

    def read(self, path: Path) -> object:
        """The document's members (`ITEMS` for the messages), None when there is no file,
        a ValueError when it is not whole JSON."""
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return None
        try:
            return scan_document(fd, os.fstat(fd).st_size, "messages", self.item, self.begin)
        except ValueError as exc:
            return exc
        except OSError:
            return None
        finally:
            os.close(fd)

    def item(self, offset: int, item: memoryview) -> None:
        message = _decode(item) if self.store is None else _decode_light(item)
        if not isinstance(message, dict):
            return
        position = len(self.starts)
        self.starts.append(len(self.turns))
        filled: list[ToolCall] = []
        turn = _message_turn(message, position, self.calls, filled)
        if turn is None and not filled:
            return
        lazy = self.store is not None
        length, crc = len(item), zlib.crc32(item)
        answered: dict[int, list[str]] = {}
        for call in filled:
            answered.setdefault(self.owner[call.call_id], []).append(call.call_id)
            if lazy:
                call.output = ""  # answered (a second answer is not taken), and not kept
        for owner, ids in answered.items():
            self.pieces[owner].append(Piece(offset, length, crc, tuple(ids)))
        if turn is None:
            return
        number = len(self.turns)
        made: list[str] = []
        for part in turn.parts:
            call = part.tool
            if call is not None:
                self.owner[call.call_id] = number
                made.append(call.call_id)
                if lazy:
                    call.input = None
        # a call with no id of its own is named by the calls before it in the session:
        # the names given here are kept for the turn's parts to be rebuilt with
        named = any(ident.startswith("tool#") for ident in made)
        tag = (position, tuple(made)) if named else position
        self.turns.append(turn)
        self.pieces.append([Piece(offset, length, crc, tag)])
        if lazy:
            turn._parts = None

    def finished(self, compaction: dict | None) -> list[Turn]:
        """Every turn, the latest compaction placed where it happened."""
        turns = self.turns
        for turn, pieces in zip(turns, self.pieces, strict=True):
            if self.store is not None:
                self.store.make_lazy(turn, pieces)
            else:
                turn.extra = {"pieces": tuple(pieces)}
        cut = _compaction_point(compaction, len(self.starts))
        if cut is not None:
            at = self.starts[cut] if cut < len(self.starts) else len(turns)
            turns[at:at] = _compaction_turns(compaction or {})
        for index, turn in enumerate(turns):
            turn.index = index
        return turns


class _Block(msgspec.Struct):
    """What a batch read's index takes of a content block (no text of tools or thinking)."""

    type: Any = None
    text: Any = None
    id: Any = None
    name: Any = None
    tool_use_id: Any = None


class _Message(msgspec.Struct):
    """What a batch read's index takes of a message: what its turn's index fields, and
    which calls its tool results answer, come from. The same code builds the turn from
    it as from the whole message; the parts it gets are dropped."""

    role: Any = None
    id: Any = None
    ts: Any = None
    content: list[_Block] | str | None = None
    metadata: Any = None
    modelInfo: Any = None  # noqa: N815 (Cline's name)
    metrics: Any = None


_light = msgspec.json.Decoder(_Message).decode


def _decode(item: memoryview) -> object:
    return decode_json(item)


def _decode_light(item: memoryview) -> object:
    """The message without its bulk (tool inputs and results, thinking), as a dict; the
    whole message when it does not have the usual shape (or needs `decode_json`'s repair)."""
    light = decode_light(item, _light)
    if light is None:
        return decode_json(item)
    message = asdict(light)
    content = light.content
    if isinstance(content, list):
        message["content"] = [asdict(block) for block in content]
    return message


def _rebuild(turn: Turn, items: list[tuple[object, object]]) -> list[Part]:
    """A lazy turn's parts: its message's, with the answers later messages gave its calls."""
    (message, tag), *answers = items
    position, names = tag if isinstance(tag, tuple) else (tag, None)
    if not isinstance(message, dict):
        return []
    built = _message_turn(message, position, {})  # type: ignore[arg-type]
    if built is None:
        return []
    calls = built.tool_calls
    for call, name in zip(calls, names or (), strict=False):
        call.call_id = name  # as the index named it
    by_id = {call.call_id: call for call in calls}
    for answer, ids in answers:
        mine = {i: by_id[i] for i in ids if i in by_id}  # type: ignore[union-attr]
        for block in _content_blocks(answer) if isinstance(answer, dict) else []:
            if block.get("type") == "tool_result":
                _fold(block, mine)
    return built.parts


def _compaction_point(compaction: dict | None, total: int) -> int | None:
    if not isinstance(compaction, dict) or not _summary_message(compaction):
        return None
    count = compaction.get("source_message_count")
    if isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= total:
        return count
    return total


def _summary_message(compaction: dict) -> dict | None:
    listed = compaction.get("messages")
    first = listed[0] if isinstance(listed, list) and listed else None
    meta = first.get("metadata") if isinstance(first, dict) else None
    if isinstance(meta, dict) and meta.get("kind") == "compaction_summary":
        return first
    return None


def _compaction_turns(compaction: dict) -> list[Turn]:
    summary = _summary_message(compaction) or {}
    meta = summary.get("metadata") if isinstance(summary.get("metadata"), dict) else {}
    when = parse_timestamp(meta.get("generatedAt")) or parse_timestamp(compaction.get("updated_at"))
    where = SourceRef(record_id=_str(summary.get("id")) or "compaction")
    boundary = Turn(
        index=0,
        role=Role.SYSTEM,
        flags=TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC,
        timestamp=when,
        source=where,
    )
    before = meta.get("tokensBefore")
    label = "Context compacted" + (f" ({before:,} tokens before)" if _is_int(before) else "")
    _text(boundary, label)
    text = "".join(
        b["text"] for b in _blocks(summary.get("content")) if isinstance(b.get("text"), str)
    )
    turn = Turn(
        index=0,
        role=Role.USER,
        flags=TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC,
        timestamp=when,
        message_id=_str(summary.get("id")) or None,
        source=where,
    )
    _text(turn, text or _str(meta.get("summary")))
    return [boundary, turn]


def _content_blocks(message: dict) -> list[dict]:
    content = message.get("content")
    return [{"type": "text", "text": content}] if isinstance(content, str) else _blocks(content)


def _message_turn(
    message: dict,
    position: int,
    calls: dict[str, ToolCall],
    filled: list[ToolCall] | None = None,
) -> Turn | None:
    """The turn of one message (None for a message of tool results only); the calls its
    tool results answer are filled in `calls` and added to `filled`."""
    role = message.get("role")
    ident = _str(message.get("id")) or None
    where = SourceRef(record_id=ident or f"messages[{position}]")
    turn = Turn(
        index=0,
        role=Role.ASSISTANT if role == "assistant" else Role.USER,
        timestamp=parse_timestamp(message.get("ts")),
        message_id=ident,
        source=where,
    )
    blocks = _content_blocks(message)
    if role == "assistant":
        _assistant(turn, message, blocks, calls)
        return turn
    if role != "user":
        return None
    meta = message.get("metadata") if isinstance(message.get("metadata"), dict) else {}
    typed: list[str] = []
    parts: list[Part] = []
    results = 0
    for block in blocks:
        kind = block.get("type")
        if kind == "tool_result":
            results += 1
            answered = _fold(block, calls)
            if answered is not None and filled is not None:
                filled.append(answered)
        elif kind == "text" and isinstance(block.get("text"), str):
            inner = _WRAPPED.match(block["text"])
            typed.append(inner.group(1) if inner else block["text"])
        elif kind in ("image", "file", "document"):
            parts.append(Part(PartKind.ATTACHMENT, text=f"[{kind}]"))
    if results and not typed and not parts:
        return None
    text = "\n\n".join(typed)
    if meta.get("kind") == "compaction_summary":
        turn.flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    else:
        turn.flags = TurnFlag.HUMAN
    turn.parts = [Part(PartKind.TEXT, text=text), *parts]
    turn.preview = preview_of(text)
    return turn


def _assistant(turn: Turn, message: dict, blocks: list[dict], calls: dict[str, ToolCall]) -> None:
    parts: list[Part] = []
    texts: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind == "thinking" and isinstance(block.get("thinking"), str):
            parts.append(Part(PartKind.REASONING, text=block["thinking"]))
        elif kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "tool_use":
            call = ToolCall(
                call_id=_str(block.get("id")) or f"tool#{len(calls)}",
                name=_str(block.get("name")) or "tool",
                input=block.get("input"),
            )
            calls[call.call_id] = call
            parts.append(Part(PartKind.TOOL, tool=call))
    text = "".join(texts)
    if text:
        parts.insert(
            sum(p.kind is PartKind.REASONING for p in parts), Part(PartKind.TEXT, text=text)
        )
    turn.parts = parts
    turn.preview = preview_of(text)
    info = message.get("modelInfo")
    turn.model = _str(info.get("id")) or None if isinstance(info, dict) else None
    metrics = message.get("metrics")
    if isinstance(metrics, dict):
        turn.usage = Usage(
            input=_num(metrics.get("inputTokens")),
            output=_num(metrics.get("outputTokens")),
            cache_read=_num(metrics.get("cacheReadTokens")),
            cache_write=_num(metrics.get("cacheWriteTokens")),
        )


def _fold(block: dict, calls: dict[str, ToolCall]) -> ToolCall | None:
    """Put a tool result into the call it answers; that call (None if none took it)."""
    call = calls.get(_str(block.get("tool_use_id")))
    if call is None or call.output is not None:
        return None
    content = block.get("content")
    if isinstance(content, str):
        try:
            decoded = decode_json(content.encode("utf-8", "surrogatepass"))
        except ValueError:
            decoded = content
        content = decoded
    entries = content if isinstance(content, list) else [content]
    outputs: list[str] = []
    failed = block.get("is_error") is True
    stated: list[int] = []
    for entry in entries:
        if isinstance(entry, dict) and (
            "result" in entry or "error" in entry or "success" in entry
        ):
            result, error = _str(entry.get("result")), _str(entry.get("error"))
            failed = (
                failed
                or entry.get("success") is False
                or bool(error and not result and "success" not in entry)
            )
            body = result or error
            if len(entries) > 1:
                body = f"$ {_str(entry.get('query'))}\n{body}"
            outputs.append(body)
            code = _EXITED.search(error or result[:200])
            if code:
                stated.append(int(code.group(1)))
        elif isinstance(entry, dict) and entry.get("type") == "text":
            outputs.append(_str(entry.get("text")))
        elif isinstance(entry, str):
            outputs.append(entry)
    call.output = "\n".join(outputs)
    call.is_error = failed
    call.status = "error" if failed else "completed"
    if len(entries) == 1 and stated:
        call.exit_code = stated[0]
    return call


def _text(turn: Turn, text: str) -> None:
    turn.parts = [Part(PartKind.TEXT, text=text)]
    turn.preview = preview_of(text)


def _blocks(value: object) -> list[dict]:
    return [b for b in value if isinstance(b, dict)] if isinstance(value, list) else []


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _num(value: object) -> int:
    return value if _is_int(value) and value > 0 else 0  # type: ignore[return-value]


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _load(path: Path) -> object:
    """The decoded document, None when the file is missing, a ValueError when it is not JSON."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    try:
        return decode_json(data)
    except ValueError as exc:
        return exc


def _session_folder(path: Path) -> Path | None:
    """The session folder `path` is, or the one a session file of it lives in."""
    folder = path if path.is_dir() else path.parent
    manifest, messages, compaction = _files(folder)
    if path.is_dir() or path in (manifest, messages, compaction):
        return folder if messages.is_file() or manifest.is_file() else None
    return None


def sniff(path: Path, head: bytes) -> bool:
    """A session folder (or one of its three files) whose messages file is Cline's."""
    folder = _session_folder(path)
    if folder is None:
        return False
    _, messages, _ = _files(folder)
    try:
        with open(messages, "rb") as handle:
            start = handle.read(4096)
    except OSError:
        return False
    return b'"sessionId"' in start and b'"messages"' in start and b'"agent"' in start


def refs(path: Path) -> list[SessionRef]:
    folder = _session_folder(path)
    if folder is None:
        return []
    manifest, messages, _ = _files(folder)
    meta = _load(manifest)
    meta = meta if isinstance(meta, dict) else {}
    stamp = _stamp(messages)
    extra = meta.get("metadata") if isinstance(meta.get("metadata"), dict) else {}
    return [
        SessionRef(
            format=FORMAT,
            path=folder,
            session_id=_str(meta.get("session_id")) or folder.name,
            title=_str(extra.get("title")) or None,
            cwd=_str(meta.get("cwd")) or None,
            started=parse_timestamp(meta.get("started_at")),
            updated=stamp[3] / 1e9 if stamp else None,
            size=stamp[2] if stamp else None,
        )
    ]


SPEC = FormatSpec(
    name=FORMAT,
    description="Cline CLI sessions (~/.cline/data/sessions/<id>/<id>.messages.json)",
    sniff=sniff,
    refs=refs,
    open=ClineReader,
)
