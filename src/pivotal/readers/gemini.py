"""Gemini CLI chats: JSONL (>= 0.39) and the older whole-file `.json` chats.

The JSONL file is a log of edits to a message list, not a list of messages:
a message is appended again every time it changes (last one wins), `$set`
patches session fields, `$set.messages` writes a whole checkpoint and
`$rewindTo` drops a message and everything after it. The reader therefore
keeps the logical message list (`_entries`) and derives the turns from it
after each poll, reporting only the turns that changed (`replace_turns`).

Checkpoints, as Gemini 0.61 really writes them:
* On every resume it appends a header, a checkpoint holding only the
  `<session_context>` message, then a checkpoint with the full history in
  API shape (tool calls as `functionCall` parts, results as separate user
  records, fresh timestamps). A failed `-p ""` run leaves only the first of
  these. So a checkpoint never removes messages already read, and messages
  already known keep their richer first form; only unknown ids are added.
* Compression rewrites the list to `[context, <state_snapshot> user, "Got
  it. Thanks for the additional context!", kept tail...]`. The turns before
  it stay on the main line (they are what the person saw); the reader adds a
  COMPACTION_BOUNDARY system turn, the snapshot as a COMPACTION_SUMMARY
  synthetic turn and the acknowledgement as a synthetic assistant turn. The
  kept tail is a copy of messages already read under new ids: each copy is
  matched to its original (same text, or same tool call ids) and becomes an
  alias of it, so it is not shown twice.

`$rewindTo` removes turns from the main line; they are kept in
`Session.branches`. `info` / `warning` / `error` records become SYSTEM
synthetic turns (`error` also flagged ERROR; the "Request cancelled." notice
and a reply with a cancelled tool call are flagged INTERRUPTED). User records that only carry
`functionResponse` parts are tool results: they are folded into the call. The CLI's own
"go on" messages ("System: Please continue." after a malformed function call, loop-recovery
feedback, the next-speaker check's "Please continue.") are stored as user records too: they
are SYNTHETIC, never the person (`gemini_turns.RETRY_NUDGE`).

An agent the session ran (a tool named after it) wrote its own chat under
`chats/<session id>/`: those are the session's children, each tied to its agent call
(`pivotal.readers.gemini_children`); the calls are marked as running a sub-agent.

Where the session ran (its cwd, which `gemini --resume` needs): the header's `directories`,
else the `<session_context>` message, else the `.project_root` marker newer CLIs keep in
the project's folder (older ones named that folder by a hash and kept no marker).
"""

from __future__ import annotations

from pathlib import Path

from pivotal.model import (
    Session,
    SessionRef,
    Turn,
)
from pivotal.readers.base import (
    FormatSpec,
    SessionReader,
    Update,
    first_json_line,
    parse_timestamp,
)
from pivotal.readers.files import with_files
from pivotal.readers.gemini_children import Children, folder_of, parent_of
from pivotal.readers.gemini_turns import (
    ACK_TEXT,
    SNAPSHOT_TAG,
    _build_range,
    _Calls,
    _Entry,
    _id,
    _match_key,
    _plain_text,
    build_turns,
    workspace_in_head,
    workspace_of,
)
from pivotal.readers.generic_common import WholeFileJsonReader, turn_signature
from pivotal.readers.lines import LineFileReader

FORMAT = "gemini"


class _ProjectMarker:
    """Both readers: a chat that names no workspace takes its project's marker, read once."""

    ref: SessionRef
    session: Session
    _marker_read = False

    def _cwd_from_marker(self) -> None:
        if self.session.cwd is None and not self._marker_read:
            self._marker_read = True
            self.session.cwd = project_root_of(self.ref.path)


class GeminiJsonlReader(_ProjectMarker, LineFileReader):
    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.reset()

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        update = super().poll(final=final, budget=budget)
        self._cwd_from_marker()  # neither the header nor the context message named it (yet)
        if update.changed or not self._children_listed:
            self._list_children()
        return update

    def _list_children(self) -> None:
        """The sub-agents' own chats (`gemini_children`), tied to the agent calls."""
        self._children_listed = True
        folder = folder_of(self.ref.path, self.session.id)
        if folder is not None and self._children.list(
            FORMAT, folder, self.session.turns, self._calls.agents
        ):
            self.session.children = list(self._children.refs)

    def reset(self) -> None:
        self._entries: list[_Entry] = []
        self._index: dict[str, int] = {}
        self._dropped: list[list[_Entry]] = []
        self._reported: set[int | None] = set()
        self._dirty_from: int | None = 0
        self._branches_dirty = False
        self._calls = _Calls()
        self._state = {"after_snapshot": False}
        self._marks: list[tuple[int, bool]] = []
        self._start_guessed = False  # no header yet: the first record's time stands for it
        self._children = Children()
        self._children_listed = False
        self.session.children = []

    def _changed_from(self, pos: int) -> None:
        if self._dirty_from is None or pos < self._dirty_from:
            self._dirty_from = pos

    def take_first_changed(self) -> int | None:
        if self._dirty_from is not None:
            self._rebuild(min(self._dirty_from, len(self._marks)))
            self._dirty_from = None
        if self._branches_dirty:
            self._branches_dirty = False
            self.session.branches = [build_turns(lost) for lost in self._dropped]
        return super().take_first_changed()

    def _rebuild(self, start: int) -> None:
        """Re-derive the turns of entries[start:] (usually only the last few)."""
        if start == 0:
            self._calls, self._state = _Calls(), {"after_snapshot": False}
            base = 0
        elif start == len(self._marks):
            base = len(self.session.turns)  # only new entries: carry on where we were
        else:
            base, self._state["after_snapshot"] = self._marks[start]
            self._calls.forget_from(start)
        del self._marks[start:]
        bad: list[_Entry] = []
        # build into a scratch list whose length starts at `base`
        scratch: list[Turn] = self.session.turns[:base]
        _build_range(self._entries, start, self._calls, self._state, scratch, self._marks, bad)
        tail = scratch[base:]
        turns = self.session.turns
        old = turns[base:]
        same = 0
        while same < min(len(old), len(tail)) and turn_signature(old[same]) == turn_signature(
            tail[same]
        ):
            same += 1
        if same < len(old) or same < len(tail):
            del turns[base + same :]
            turns.extend(tail[same:])
            self.mark_changed(base + same)
        for index in self._calls.touched:
            if index < base + same:
                self.mark_changed(index)
        self._calls.touched.clear()
        for entry in bad:
            if entry.line not in self._reported:
                self._reported.add(entry.line)
                self.skip(entry.line, "message record of an unexpected shape")
        for turn in reversed(turns):
            if turn.model:
                self.session.model = turn.model
                break

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        obj = self.json_object(line_no, line)
        if obj is None:
            return
        try:
            self._record(obj, line_no, offset)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.skip(line_no, f"unexpected record shape: {type(exc).__name__}")

    def _record(self, obj: dict, line_no: int, offset: int) -> None:
        if "$set" in obj:
            patch = obj["$set"]
            if isinstance(patch, dict):
                self._patch(patch, line_no, offset)
            else:
                self.skip(line_no, "$set without an object")
        elif "$rewindTo" in obj:
            self._rewind(obj["$rewindTo"])
        elif "type" in obj:
            self._upsert(obj, line_no, offset)
        elif "sessionId" in obj:
            self._header(obj)

    def _header(self, obj: dict) -> None:
        session = self.session
        if session.id is None and isinstance(obj.get("sessionId"), str):
            session.id = obj["sessionId"]
        self._directories(obj.get("directories"))
        started = parse_timestamp(obj.get("startTime"))
        if started is not None and (session.started is None or self._start_guessed):
            session.started, self._start_guessed = started, False
        ended = parse_timestamp(obj.get("lastUpdated"))
        if ended is not None:
            session.ended = ended

    def _patch(self, patch: dict, line_no: int, offset: int) -> None:
        summary = patch.get("summary")
        if isinstance(summary, str) and summary:
            self.session.title = summary
        ended = parse_timestamp(patch.get("lastUpdated"))
        if ended is not None:
            self.session.ended = ended
        self._directories(patch.get("directories"))
        messages = patch.get("messages")
        if isinstance(messages, list):
            kept = [m for m in messages if isinstance(m, dict)]
            self._checkpoint(kept, line_no, offset, patch.get("lastUpdated"))

    def _directories(self, value: object) -> None:
        """The session's workspace (its first directory) is where it ran: the cwd."""
        if self.session.cwd is None and isinstance(value, list):
            first = next((d for d in value if isinstance(d, str) and d), None)
            self.session.cwd = first

    def _upsert(self, rec: dict, line_no: int | None, offset: int | None) -> None:
        if self.session.cwd is None and rec.get("type") == "user":
            self.session.cwd = workspace_of(_plain_text(rec))
        if self.session.started is None:  # a chat whose header was cut off (`_headless`)
            self.session.started = parse_timestamp(rec.get("timestamp"))
            self._start_guessed = self.session.started is not None
        ident = _id(rec)
        if ident is not None and ident in self._index:
            pos = self._index[ident]
            self._entries[pos].rec = rec
            self._changed_from(pos)
        else:
            if ident is not None:
                self._index[ident] = len(self._entries)
            self._changed_from(len(self._entries))
            self._entries.append(_Entry(rec, line_no, offset))

    def _rewind(self, ident: object) -> None:
        if not isinstance(ident, str) or ident not in self._index:
            return
        cut = self._index[ident]
        self._dropped.append(self._entries[cut:])
        del self._entries[cut:]
        self._index = {i: p for i, p in self._index.items() if p < cut}
        self.session.notices.append("the session was rewound; later turns kept as a branch")
        self._changed_from(0)  # results folded by the dropped messages must go too
        self._branches_dirty = True

    def _checkpoint(
        self, messages: list[dict], line_no: int, offset: int, stamp: object = None
    ) -> None:
        """Merge a full checkpoint without losing what was read (see module docstring)."""
        snap = next(
            (
                k
                for k, m in enumerate(messages)
                if m.get("type") == "user"
                and SNAPSHOT_TAG in _plain_text(m)
                and _id(m) not in self._index
            ),
            None,
        )
        if snap is None:
            for message in messages:
                if _id(message) not in self._index:
                    self._upsert(message, line_no, offset)
            return
        for message in messages[:snap]:
            if _id(message) not in self._index:
                self._upsert(message, line_no, offset)
        known = len(self._entries)
        self._changed_from(known)
        # the boundary happened when this line was written: its `lastUpdated`
        self._entries.append(_Entry({"timestamp": stamp}, line_no, offset, boundary=True))
        self._upsert(messages[snap], line_no, offset)
        tail = messages[snap + 1 :]
        if tail and tail[0].get("type") == "gemini" and _plain_text(tail[0]).strip() == ACK_TEXT:
            self._upsert(tail[0], line_no, offset)
            tail = tail[1:]
        taken: set[int] = set()
        for message in tail:
            ident = _id(message)
            if ident in self._index:
                continue
            original = self._match(message, known, taken)
            if original is not None and ident is not None:
                taken.add(original)
                self._index[ident] = original
            else:
                self._upsert(message, line_no, offset)

    def _match(self, message: dict, limit: int, taken: set[int]) -> int | None:
        """The entry (before `limit`) a kept-tail copy duplicates, searching backwards."""
        key = _match_key(message)
        if key is None:
            return None
        for pos in range(limit - 1, -1, -1):
            entry = self._entries[pos]
            if pos in taken or entry.boundary:
                continue
            if _match_key(entry.rec) == key:
                return pos
        return None


class GeminiJsonReader(_ProjectMarker, WholeFileJsonReader):
    """Gemini CLI <= 0.38: one `{sessionId, messages: [...]}` document rewritten whole."""

    format = FORMAT

    def build(self, doc: object) -> list[Turn] | None:
        if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
            return None
        session = self.session
        if isinstance(doc.get("sessionId"), str):
            session.id = doc["sessionId"]
        session.started = parse_timestamp(doc.get("startTime"))
        session.ended = parse_timestamp(doc.get("lastUpdated"))
        if isinstance(doc.get("summary"), str):
            session.title = doc["summary"]
        entries: list[_Entry] = []
        index: dict[str, int] = {}
        for message in doc["messages"]:
            if not isinstance(message, dict):
                continue
            ident = _id(message)
            if ident is not None and ident in index:
                entries[index[ident]].rec = message
                continue
            if ident is not None:
                index[ident] = len(entries)
            entries.append(_Entry(message, None, None))
        turns = build_turns(entries)
        models = [t.model for t in turns if t.model]
        session.model = models[-1] if models else None
        if session.cwd is None:
            first = next((e.rec for e in entries if e.rec.get("type") == "user"), None)
            session.cwd = workspace_of(_plain_text(first)) if first is not None else None
        self._cwd_from_marker()
        return turns


# ---------------------------------------------------------------------------
# entries -> turns


_MESSAGE_TYPES = ("user", "gemini", "info", "warning", "error")
_MODEL_RECORD = b'"type":"gemini"'
_OTHER_KEYS = ("sessionId", "uuid", "message", "role", "payload", "parts")


def sniff(path: Path, head: bytes) -> bool:
    """A JSONL header line `{sessionId, projectHash, startTime, ...}` or a legacy chat JSON;
    or a JSONL chat whose header was cut off (`_headless`)."""
    if path.is_dir():
        return False
    first = first_json_line(head)
    if isinstance(first, dict):
        if "type" in first or "role" in first or "$set" in first or "$rewindTo" in first:
            return _headless(first, head)
        return isinstance(first.get("sessionId"), str) and (
            "projectHash" in first or "startTime" in first
        )
    # pretty-printed legacy document: look at its first keys
    start = head.lstrip()[:2048]
    return (
        start.startswith(b"{")
        and b'"sessionId"' in start
        and b'"projectHash"' in start
        and b'"messages"' in head
    )


def _headless(first: dict, head: bytes) -> bool:
    """A JSONL chat that starts mid-session: a copy taken (or committed) while the CLI was
    writing it, its header and first records gone. Its first line is a message record
    (`{id, timestamp, type, content}`, no other agent's keys) or a `$set` / `$rewindTo`
    patch, and a model message (`"type":"gemini"`, as the CLI's JSON.stringify writes it,
    and a type no other agent uses) is among its first lines."""
    if len(first) == 1 and ("$set" in first or "$rewindTo" in first):
        return _MODEL_RECORD in head
    if first.get("type") not in _MESSAGE_TYPES or not isinstance(first.get("id"), str):
        return False
    if "content" not in first or any(key in first for key in _OTHER_KEYS):
        return False
    return first["type"] == "gemini" or _MODEL_RECORD in head


def open_reader(ref: SessionRef) -> SessionReader:
    try:
        with open(ref.path, "rb") as handle:
            head = handle.read(64 * 1024)
    except OSError:
        return GeminiJsonlReader(ref)
    first = first_json_line(head)
    if isinstance(first, dict) and "messages" not in first:
        return GeminiJsonlReader(ref)
    if not head.strip():
        return GeminiJsonlReader(ref)
    return GeminiJsonReader(ref)


def refs(path: Path) -> list[SessionRef]:
    try:
        st = path.stat()
        with open(path, "rb") as handle:
            head = handle.read(16384)
    except OSError:
        return [SessionRef(format=FORMAT, path=path)]
    first = first_json_line(head[:8192])
    session_id = started = None
    if isinstance(first, dict):
        session_id = first.get("sessionId") if isinstance(first.get("sessionId"), str) else None
        started = parse_timestamp(first.get("startTime"))
        if started is None and "type" in first:  # no header: the first record's time
            started = parse_timestamp(first.get("timestamp"))
    return [
        SessionRef(
            format=FORMAT,
            path=path,
            session_id=session_id,
            cwd=_cwd_of(first, head) or project_root_of(path),
            started=started,
            size=st.st_size,
            updated=st.st_mtime,
            parent=parent_of(path, first),
        )
    ]


def _cwd_of(first: object, head: bytes) -> str | None:
    """The workspace a session ran in, from its header or its context message."""
    if isinstance(first, dict) and isinstance(first.get("directories"), list):
        found = next((d for d in first["directories"] if isinstance(d, str) and d), None)
        if found:
            return found
    return workspace_in_head(head)


PROJECT_ROOT = ".project_root"
"""Gemini CLI's ownership marker (`projectRegistry.ts`): the project's folder names the
project by a short slug, and this file in it holds the project's root path."""


def _marker(path: Path) -> Path:
    return path.parent.parent / PROJECT_ROOT


def project_root_of(path: Path) -> str | None:
    """The project root the CLI recorded for the project a chat belongs to, if any.

    Chats written before the slug folders (a sha256 folder name) and chats that carry
    their workspace themselves need no marker; a marker that is not one short path is
    ignored.
    """
    if path.parent.name != "chats":
        return None
    try:
        with open(_marker(path), "rb") as handle:
            raw = handle.read(4097)
    except OSError:
        return None
    text = raw.decode("utf-8", "replace").strip()
    if not text or len(raw) > 4096 or "\n" in text or "\x00" in text:
        return None
    return text


SPEC = FormatSpec(
    name=FORMAT,
    description="Gemini CLI chats (~/.gemini/tmp/<project>/chats/session-*.jsonl or .json)",
    sniff=sniff,
    refs=refs,
    open=open_reader,
    files=lambda ref: with_files(
        ref, [_marker(ref.path)] if ref.path.parent.name == "chats" else []
    ),
)
