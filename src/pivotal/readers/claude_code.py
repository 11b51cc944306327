"""Claude Code session files (`~/.claude/projects/<slug>/<session>.jsonl`).

One JSON record per line, appended as the session runs. What this reader
makes of them:

* assistant lines sharing `message.id` (Claude Code writes one content block
  per line) are merged into one turn; usage is counted once per message;
* `user` records that only carry `tool_result` blocks are folded into the
  assistant turn that made the call (found through `parentUuid`), never shown
  as a person speaking;
* `isMeta` records, command wrappers, `<system-reminder>` and hook output are
  SYNTHETIC; "[Request interrupted by user…]" marks an interrupt;
* `compact_boundary` system records become a COMPACTION_BOUNDARY turn and the
  `isCompactSummary` record that follows a COMPACTION_SUMMARY turn;
* a person's message whose parent is an earlier point of the conversation is
  a rewind: the abandoned turns move to `Session.branches` (still reachable)
  and the main line continues from the parent;
* records written twice with the same uuid are read once.

Only an index is kept per turn (where its records are in the file); the
content is decoded when someone asks for `turn.parts`, through a bounded
cache, so huge sessions do not have to fit in memory as Python objects.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path

from pivotal.model import (
    Part,
    PartKind,
    Role,
    SessionRef,
    SourceRef,
    Turn,
    TurnFlag,
)
from pivotal.readers.base import (
    FormatSpec,
    LineFileReader,
    Update,
    decode_json,
    describe_decode_error,
    parse_timestamp,
    preview_of,
    single_ref,
)
from pivotal.readers.claude_records import (
    INTERRUPT_PREFIX,
    SUMMARY_PREFIX,
    SYNTHETIC_PREFIXES,
    Head,
    parts_from_records,
    read_head,
    read_user_content,
)

NAME = "claude-code"
CACHE_TURNS = 512
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
}
_ID_KEYS = ("uuid", "parentUuid", "leafUuid", "sessionId")


class ClaudeCodeReader(LineFileReader):
    format = NAME

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._cache: OrderedDict[tuple[int, int], list[Part]] = OrderedDict()
        self.reset()
        self._children_listed = False

    def reset(self) -> None:
        self._uuid_turn: dict[str, int] = {}
        self._msg_turn: dict[str, int] = {}
        self._last_assistant: int | None = None
        self._last_stamp: str | None = None
        self._cache.clear()

    # -- index pass -----------------------------------------------------------
    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        try:
            head = read_head(line)
        except ValueError as exc:
            self.skip(line_no, describe_decode_error(exc))
            return
        if head is None:
            self.skip(line_no, "not a Claude Code record (no type)")
            return
        if head.uuid is not None and head.uuid in self._uuid_turn:
            return  # the same record written twice
        self._note_session_fields(head)
        kind = head.type
        if kind == "assistant":
            self._assistant(head, line_no, offset, len(line))
        elif kind == "user":
            self._user(head, line_no, offset, len(line))
        elif kind == "system":
            self._system(head, line_no, offset)
        elif kind in ("ai-title", "summary") and head.title:
            if kind == "ai-title" or not self.session.title:
                self.session.title = head.title
        self._remember_uuid(head.uuid)

    def _remember_uuid(self, uuid: str | None) -> None:
        if uuid is not None and uuid not in self._uuid_turn and self.session.turns:
            self._uuid_turn[uuid] = len(self.session.turns) - 1

    def _note_session_fields(self, head: Head) -> None:
        session = self.session
        if session.id is None and head.session_id:
            session.id = head.session_id
        if session.cwd is None and head.cwd:
            session.cwd = head.cwd
        if head.timestamp:
            if session.started is None:
                session.started = parse_timestamp(head.timestamp)
            self._last_stamp = head.timestamp

    def _new_turn(self, head: Head, role: Role, flags: TurnFlag, line_no: int, offset: int) -> Turn:
        if head.sidechain:
            flags = (flags & ~TurnFlag.HUMAN) | TurnFlag.SIDECHAIN
        turn = Turn(
            index=0,
            role=role,
            flags=flags,
            timestamp=parse_timestamp(head.timestamp),
            message_id=head.message_id if role is Role.ASSISTANT else head.uuid,
            source=SourceRef(line=line_no, record_id=head.uuid, offset=offset),
            model=head.model,
            usage=head.usage,
        )
        self.append_turn(turn)
        if head.uuid is not None:
            self._uuid_turn[head.uuid] = turn.index
        return turn

    def _assistant(self, head: Head, line_no: int, offset: int, length: int) -> None:
        key = head.message_id or head.uuid or f"line-{line_no}"
        index = self._msg_turn.get(key)
        turns = self.session.turns
        if index is not None and index < len(turns) and turns[index].message_id == key:
            turn = turns[index]
            self._add_span(turn, offset, length)
            if head.usage is not None:
                turn.usage = head.usage
            if head.uuid is not None:
                self._uuid_turn[head.uuid] = index
            return
        head.message_id = key
        turn = self._new_turn(head, Role.ASSISTANT, TurnFlag.NONE, line_no, offset)
        turn.extra = {"spans": [(offset, length)]}
        turn._loader = self._load_parts
        self._msg_turn[key] = turn.index
        if not head.sidechain:
            self._last_assistant = turn.index
        if head.model:
            self.session.model = head.model

    def _add_span(self, turn: Turn, offset: int, length: int) -> None:
        extra = turn.extra if turn.extra is not None else {}
        extra.setdefault("spans", []).append((offset, length))
        turn.extra = extra
        self.mark_changed(turn.index)

    def _user(self, head: Head, line_no: int, offset: int, length: int) -> None:
        content = read_user_content(head.content)
        if content.tool_results_only:
            self._tool_result(head, offset, length)
            return
        text = content.text
        flags = _user_flags(head, text)
        if not head.sidechain:
            self._maybe_rewind(head.parent)
        turn = self._new_turn(head, Role.USER, flags, line_no, offset)
        turn.parts = content.parts
        turn.preview = preview_of(text)
        if flags & TurnFlag.INTERRUPTED and self._last_assistant is not None:
            last = self.session.turns[self._last_assistant]
            last.flags |= TurnFlag.INTERRUPTED
            self.mark_changed(last.index)

    def _tool_result(self, head: Head, offset: int, length: int) -> None:
        index = self._uuid_turn.get(head.parent) if head.parent else None
        if index is None or self.session.turns[index].role is not Role.ASSISTANT:
            index = self._last_assistant
        if index is None:
            return  # a result with no call we know of: nothing to attach it to
        self._add_span(self.session.turns[index], offset, length)
        if head.uuid is not None:
            self._uuid_turn[head.uuid] = index

    def _maybe_rewind(self, parent: str | None) -> None:
        """A person's message continuing from an earlier point starts a new branch."""
        if parent is None:
            return
        index = self._uuid_turn.get(parent)
        turns = self.session.turns
        if index is None or index >= len(turns) - 1:
            return
        abandoned = turns[index + 1 :]
        if not any(
            (t.role is Role.ASSISTANT or t.is_human) and not t.flags & TurnFlag.SIDECHAIN
            for t in abandoned
        ):
            return
        self.session.branches.append(list(abandoned))
        self.truncate_turns(index + 1)
        self._last_assistant = next(
            (t.index for t in reversed(turns) if t.role is Role.ASSISTANT), None
        )
        self.session.notices.append(
            f"rewind at turn {index}: {len(abandoned)} later turns kept as branch "
            f"{len(self.session.branches)}"
        )

    def _system(self, head: Head, line_no: int, offset: int) -> None:
        if head.subtype == "compact_boundary":
            flags = TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
        elif head.subtype == "api_error":
            flags = TurnFlag.ERROR | TurnFlag.SYNTHETIC
        else:
            return
        text = _plain(head.content) or "Conversation compacted"
        turn = self._new_turn(head, Role.SYSTEM, flags, line_no, offset)
        turn.parts = [Part(PartKind.TEXT, text)]
        turn.preview = preview_of(text)

    # -- on-demand content ----------------------------------------------------
    def _load_parts(self, turn: Turn) -> list[Part]:
        spans = (turn.extra or {}).get("spans", [])
        key = (id(turn), len(spans))
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        parts = parts_from_records(self._read_records(spans))
        if not turn.preview:
            turn.preview = preview_of("\n".join(p.text for p in parts if p.kind is PartKind.TEXT))
        self._cache[key] = parts
        if len(self._cache) > CACHE_TURNS:
            self._cache.popitem(last=False)
        return parts

    def _read_records(self, spans: list[tuple[int, int]]) -> list[object]:
        records: list[object] = []
        try:
            fd = os.open(self.ref.path, os.O_RDONLY)
        except OSError:
            return records
        try:
            for offset, length in spans:
                try:
                    records.append(decode_json(os.pread(fd, length, offset)))
                except (OSError, ValueError):
                    continue
        finally:
            os.close(fd)
        return records

    # -- the reader interface ---------------------------------------------------
    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        update = super().poll(final=final, budget=budget)
        if self._last_stamp is not None:
            self.session.ended = parse_timestamp(self._last_stamp)
        if not self._children_listed:
            self._children_listed = True
            self.session.children = _subagent_refs(self.ref.path)
        return update


def _user_flags(head: Head, text: str) -> TurnFlag:
    stripped = text.lstrip()
    if head.compact_summary or stripped.startswith(SUMMARY_PREFIX):
        return TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    if stripped.startswith(INTERRUPT_PREFIX):
        return TurnFlag.INTERRUPTED | TurnFlag.SYNTHETIC
    if head.meta:
        return TurnFlag.META | TurnFlag.SYNTHETIC
    if stripped.startswith(SYNTHETIC_PREFIXES):
        return TurnFlag.SYNTHETIC
    return TurnFlag.HUMAN


def _plain(raw: bytes) -> str:
    try:
        value = decode_json(raw)
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""


def _subagent_refs(path: Path) -> list[SessionRef]:
    folder = path.with_suffix("") / "subagents"
    try:
        files = sorted(folder.glob("*.jsonl"))
    except OSError:
        return []
    return [SessionRef(format=NAME, path=f) for f in files]


def sniff(path: Path, head: bytes) -> bool:
    if not head:
        return False
    for line in head.split(b"\n")[:40]:
        if not line.strip():
            continue
        try:
            obj = decode_json(line)
        except ValueError:
            continue
        if (
            isinstance(obj, dict)
            and obj.get("type") in _KNOWN_TYPES
            and any(key in obj for key in _ID_KEYS)
            and "payload" not in obj
        ):
            return True
    return False


SPEC = FormatSpec(
    name=NAME,
    description="Claude Code JSONL (~/.claude/projects/<project>/<session>.jsonl)",
    sniff=sniff,
    refs=single_ref(NAME),
    open=ClaudeCodeReader,
)
