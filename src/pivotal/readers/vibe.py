"""Mistral Vibe (3.x) sessions: `~/.vibe/logs/session/unified/<session id>/`.

The "unified session store" keeps a session as snapshots plus a journal (see
`vibe_store.py` for the layout). What is ugly about it, and what this reader
makes of it:

* The transcript is the public history (what Vibe's UI shows), split into
  content-addressed chunks named by the newest generation's manifest, followed by
  `projection_delta` operations in the journal since that snapshot. Entries are
  person messages (`source: turn_start`), assistant text, reasoning, tool
  `effect`s and `checkpoint` entries (`kind: compaction`).
* An entry does not say which model response it belongs to. Assistant text and
  reasoning name their completion (`assistant-<action>`); a tool effect names only
  its own action. The journal, while it still holds them, maps each tool action to
  its call id and each call id to the completion that asked for it, so each model
  response becomes one turn; once the journal segments are dropped (Vibe drops
  them after a snapshot), an effect joins the turn before it.
* Tool names are namespaced (`file_system.bash`, `vibe.todo`): the namespace of
  Vibe's own tools is dropped, leaving the name the model used. A shell effect's
  `structured_content` holds `returncode`, `stdout`, `stderr`, `timed_out`: the
  exit code is the one recorded there; a failed effect or a `failure` output sets
  the error flag. A call to an unknown tool never becomes an effect: it is only in
  the completion (journal) and the model's context, and is shown from there when
  they still hold it.
* A compaction is a `checkpoint` entry (automatic or manual): a
  COMPACTION_BOUNDARY turn; the latest one is followed by its summary
  (COMPACTION_SUMMARY, SYNTHETIC), the `<compaction_summary>` the model context
  now starts with. An earlier summary was in a context that has been replaced:
  it is not in the store any more.
* A chunk file that is missing (or no longer matches) is reported; the history is
  then rebuilt from the journal when its segments go back to the start, otherwise
  what that chunk held is said to be lost. Per-response token usage exists only in
  the journal; the model only in `meta.json`.

A batch read (`scan`, an export, the replayer) keeps of each entry only what the
turns' index needs and where the entry is (`vibe_store.light_entry`); a turn's
parts are read again from its entries when asked for (`lazy_items`), so a 1 GB
session is not held in memory. A followed session keeps its parts.

A folder from before the unified store (`meta.json` + `messages.jsonl`) is read by
`vibe_log.py`; the sniff, the refs and `open_reader` send it there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
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
from pivotal.readers import vibe_log
from pivotal.readers.base import (
    FormatSpec,
    SessionReader,
    Update,
    parse_timestamp,
    preview_of,
    source_gone,
)
from pivotal.readers.generic_common import replace_turns
from pivotal.readers.lazy_items import ItemStore, Piece
from pivotal.readers.vibe_store import (
    PIECE,
    Loaded,
    Store,
    as_dict,
    as_str,
    decoded,
    entry_at,
    json_text,
    load_json,
    text_of,
)

FORMAT = "vibe"
STORE_FORMAT = b"mistral.vibe.unified-session-store"
OWN_NAMESPACES = ("file_system.", "vibe.")
HUMAN_SOURCES = frozenset({"turn_start", "user"})
_SUMMARY = re.compile(r"<compaction_summary>\s*(.*?)\s*</compaction_summary>", re.S)


class VibeReader(SessionReader):
    """One session folder; the journal is followed, a new snapshot re-read."""

    format = FORMAT

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self.folder = ref.path
        self.store = Store(ref.path)
        self.session.id = ref.session_id or ref.path.name
        self._reported: set[str] = set()
        self._items: ItemStore | None = None
        """A batch read's (set by the first poll): where each turn's entries are."""
        self._pinned: bool | None = None
        """Set by the first poll: a followed session (not final) keeps its parts in memory."""

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        if not self.folder.is_dir():
            return source_gone(self.folder)
        if self._pinned is None:
            self._pinned = not final
            self.store.lazy = final
            self._items = ItemStore(self.folder, None, _rebuild) if final else None
        skipped_before = len(self.session.skipped)
        self._meta()
        loaded = self.store.load()
        notice = None
        for problem in loaded.problems:
            if problem not in self._reported:
                self._reported.add(problem)
                self.skip(None, problem)
                if "chunk" in problem:
                    self.session.notices.append(problem)
                    notice = problem
        if final and self.store.partial():
            self.skip(None, "the journal's last line is incomplete (still being written?)")
        replace_turns(self, build_turns(loaded, self._items))
        return Update(
            first_changed=self.take_first_changed(),
            notice=notice,
            new_skipped=len(self.session.skipped) - skipped_before,
        )

    def _meta(self) -> None:
        meta = load_json(self.folder / "meta.json")
        if not isinstance(meta, dict):
            return
        session = self.session
        session.id = as_str(meta.get("session_id")) or session.id
        session.title = as_str(meta.get("title")) or session.title
        session.started = parse_timestamp(meta.get("start_time")) or session.started
        session.ended = parse_timestamp(meta.get("end_time")) or session.ended
        env = meta.get("environment") if isinstance(meta.get("environment"), dict) else {}
        session.cwd = as_str(env.get("working_directory")) or session.cwd
        config = meta.get("config") if isinstance(meta.get("config"), dict) else {}
        session.model = (
            as_str(config.get("model_name")) or as_str(config.get("active_model")) or None
        )


# -- entries -> turns -------------------------------------------------------------


def build_turns(loaded: Loaded, store: ItemStore | None = None) -> list[Turn]:
    """The turns of the history's entries. With a `store` the entries are light ones
    (`vibe_store.light_entry`) and the turns are made lazy: each keeps the pieces of its
    entries, in the order they built it, and its parts are built again from them."""
    completion_of = {
        call["id"]: action
        for action, calls in loaded.calls.items()
        for call in calls
        if isinstance(call.get("id"), str)
    }
    turns: list[Turn] = []
    groups: dict[str, Turn] = {}
    current: Turn | None = None
    built: dict[int, list[Piece]] = {}
    """id(turn) -> the pieces of the entries that built it (with a store)."""

    def note(turn: Turn, entry: dict, call_id: str | None = None) -> None:
        if store is not None:
            found: Piece = entry[PIECE]
            tag = None if found.tag is None and call_id is None else (found.tag, call_id)
            built.setdefault(id(turn), []).append(found._replace(tag=tag))

    compactions = [e for e in loaded.entries if _is_compaction(e)]
    for entry in _taken(loaded.entries) if store is not None else loaded.entries:
        kind = entry.get("type")
        ident = as_str(entry.get("id"))
        where = SourceRef(record_id=ident or None)
        when = parse_timestamp(entry.get("createdAt"))
        if kind == "message" and entry.get("role") == "user":
            current = None
            turns.append(_user(entry, where, when))
            note(turns[-1], entry)
            if store is not None:  # nothing more joins a person's turn: its parts go now
                store.make_lazy(turns[-1], built.pop(id(turns[-1])))
        elif kind == "reasoning" or (kind == "message" and entry.get("role") == "assistant"):
            action = _action(ident, kind)
            current = _group(turns, groups, action, where, when)
            _content(current, entry, kind)
            note(current, entry)
        elif kind == "effect" and as_dict(entry.get("detail")).get("kind") == "tool":
            call_id = loaded.effect_call.get(ident.removeprefix("effect-"))
            action = completion_of.get(call_id) if call_id else None
            if action is not None or current is None:
                current = _group(turns, groups, action, where, when)
            current.parts.append(Part(PartKind.TOOL, tool=_effect_call(entry, call_id)))
            note(current, entry, call_id)
        elif _is_compaction(entry):
            current = None
            latest = entry is compactions[-1]
            turns.extend(_compaction(entry, loaded, latest, where, when))
    added = _unexecuted_calls(turns, groups, loaded)
    for action, turn in groups.items():
        usage = loaded.usage.get(action)
        if isinstance(usage, dict):
            turn.usage = _usage(usage)
    for index, turn in enumerate(turns):
        turn.index = index
        if turn.role is Role.ASSISTANT:
            turn.preview = preview_of(turn.text)
    if store is not None:
        _make_lazy(turns, built, added, store)
    return turns


def _taken(entries: list[dict]) -> Iterator[dict]:
    """Each of `entries`, let go of once it has been used (the list is emptied): a batch
    read's light entries are as many as the session's, its turns' index holds less."""
    for number, entry in enumerate(entries):
        entries[number] = _USED
        yield entry
    entries.clear()


_USED: dict = {}


def _make_lazy(
    turns: list[Turn], built: dict[int, list[Piece]], added: dict[int, int], store: ItemStore
) -> None:
    """Each turn built of entries keeps their pieces instead of its parts; one that also
    shows calls only the journal holds (rare) is built whole now and keeps its parts."""
    for turn in turns:
        pieces = built.pop(id(turn), None)
        if pieces is None:
            continue  # a compaction, or a completion that left only calls: kept as built
        calls = turn.parts[len(turn.parts) - added[id(turn)] :] if id(turn) in added else []
        store.make_lazy(turn, pieces)
        if calls:
            turn.parts = [*(store.rebuilt(turn) or []), *calls]
            turn.extra, turn._loader = None, None


def _rebuild(turn: Turn, items: list[tuple[object, object]]) -> list[Part]:
    """A lazy turn's parts, from its entries read again, by the code that built it first."""
    if turn.role is Role.USER:
        entry = entry_at(*items[0]) if items else {}
        return _user(entry, turn.source, None).parts
    scratch = Turn(index=0, role=Role.ASSISTANT)
    scratch.parts = []
    for item, tag in items:
        entry = entry_at(item, tag)
        kind = entry.get("type")
        if kind == "effect":
            call_id = tag[1] if isinstance(tag, tuple) else None
            scratch.parts.append(Part(PartKind.TOOL, tool=_effect_call(entry, call_id)))
        else:
            _content(scratch, entry, kind)
    return scratch.parts


def _group(
    turns: list[Turn],
    groups: dict[str, Turn],
    action: str | None,
    where: SourceRef,
    when: float | None,
) -> Turn:
    """The turn of one model response (completion `action`), made on first sight."""
    if action is not None and action in groups:
        return groups[action]
    turn = Turn(index=0, role=Role.ASSISTANT, timestamp=when, message_id=action, source=where)
    turn.parts = []
    turns.append(turn)
    if action is not None:
        groups[action] = turn
    return turn


def _action(ident: str, kind: str) -> str | None:
    """The completion an `assistant-<action>` / `reasoning-<action>-<n>` entry came from."""
    if kind == "message" and ident.startswith("assistant-"):
        return ident.removeprefix("assistant-")
    if kind == "reasoning" and ident.startswith("reasoning-"):
        return ident.removeprefix("reasoning-").rsplit("-", 1)[0]
    return ident or None


def _user(entry: dict, where: SourceRef, when: float | None) -> Turn:
    text = text_of(entry.get("content"))
    source = entry.get("source")
    human = source is None or (isinstance(source, str) and source in HUMAN_SOURCES)
    turn = Turn(
        index=0,
        role=Role.USER,
        flags=TurnFlag.HUMAN if human else TurnFlag.SYNTHETIC,
        timestamp=when,
        message_id=where.record_id,
        source=where,
        preview=preview_of(text),
    )
    turn.parts = [Part(PartKind.TEXT, text=text)]
    return turn


def _content(turn: Turn, entry: dict, kind: str) -> None:
    if kind == "reasoning":
        text = as_str(entry.get("text"))
        if text:
            turn.parts.insert(_reasoning_end(turn), Part(PartKind.REASONING, text=text))
        return
    text = text_of(entry.get("content"))
    if text:
        turn.parts.append(Part(PartKind.TEXT, text=text))
    outcome = as_dict(entry.get("outcome")).get("type")
    if isinstance(outcome, str) and outcome != "committed":
        turn.flags |= TurnFlag.INTERRUPTED


def _reasoning_end(turn: Turn) -> int:
    return sum(1 for p in turn.parts if p.kind is PartKind.REASONING)


def _short(name: str) -> str:
    for prefix in OWN_NAMESPACES:
        if name.startswith(prefix):
            return name[len(prefix) :]
    return name


def _effect_call(entry: dict, call_id: str | None) -> ToolCall:
    detail = as_dict(entry.get("detail"))
    state = as_dict(entry.get("state"))
    output = as_dict(state.get("output"))
    call = ToolCall(
        call_id=call_id or as_str(entry.get("id")) or "?",
        name=_short(as_str(detail.get("toolName")) or "tool"),
        input=detail.get("input"),
    )
    status = as_str(state.get("status"))
    failed = status == "failed" or output.get("type") == "failure" or bool(state.get("error"))
    structured = output.get("structured_content")
    texts: list[str] = []
    if isinstance(structured, dict):
        code = structured.get("returncode")
        if isinstance(code, int) and not isinstance(code, bool):
            call.exit_code = code
        streams = [structured.get("stdout"), structured.get("stderr")]
        if any(isinstance(s, str) for s in streams):
            texts = [s for s in streams if isinstance(s, str) and s]
        else:
            texts = [json_text(structured)]
        if structured.get("timed_out") is True:
            status = "timeout"
    if not texts:
        texts = [text_of(output.get("content")), as_str(state.get("outputText"))]
        error = as_dict(state.get("error")) or as_dict(output.get("error"))
        texts.append(as_str(error.get("message")))
    text = "\n".join(t for t in texts if t)
    if status in ("completed", "failed", "timeout") or output:
        call.output = text
    call.is_error = failed
    call.status = {"completed": "error" if failed else "completed", "failed": "error"}.get(
        status, status or None
    )
    if state.get("decision") in ("reject", "deny", "skip"):
        call.status = "cancelled"
    return call


def _unexecuted_calls(turns: list[Turn], groups: dict[str, Turn], loaded: Loaded) -> dict[int, int]:
    """Calls a completion asked for that never became an effect (an unknown tool).

    They are in the journal's completion and, with their rejection, in the model's
    context. A completion that left no entry at all gets its own turn, placed after
    the turn of the completion the journal recorded before it. Returns how many calls
    each turn got (by `id(turn)`).
    """
    added: dict[int, int] = {}
    results = {
        as_str(m.get("tool_call_id")): m
        for m in (as_dict(c.get("message")) for c in loaded.context)
        if m.get("role") == "tool"
    }
    previous: Turn | None = None
    for action in loaded.order:
        calls = loaded.calls.get(action, [])
        turn = groups.get(action)
        if turn is None and calls and previous is not None and previous in turns:
            turn = Turn(
                index=0, role=Role.ASSISTANT, message_id=action, source=SourceRef(record_id=action)
            )
            turn.timestamp, turn.parts = previous.timestamp, []
            turns.insert(turns.index(previous) + 1, turn)
            groups[action] = turn
        if turn is None:
            continue
        previous = turn
        known = {c.call_id for c in turn.tool_calls}
        for part in calls:
            call_id = as_str(part.get("id"))
            if not call_id or call_id in known:
                continue
            arguments = part.get("arguments_json")
            call = ToolCall(
                call_id=call_id, name=as_str(part.get("name")) or "tool", input=decoded(arguments)
            )
            result = results.get(call_id)
            if result is not None:
                call.output = text_of(result.get("content"))
                call.is_error = result.get("outcome") == "failure"
                call.status = "error" if call.is_error else "completed"
            turn.parts.append(Part(PartKind.TOOL, tool=call))
            added[id(turn)] = added.get(id(turn), 0) + 1
    return added


def _is_compaction(entry: dict) -> bool:
    return entry.get("type") == "checkpoint" and entry.get("kind") == "compaction"


def _compaction(
    entry: dict, loaded: Loaded, latest: bool, where: SourceRef, when: float | None
) -> list[Turn]:
    details = as_dict(entry.get("details"))
    trigger = as_str(details.get("trigger"))
    label = as_str(entry.get("message")) or "Context compacted"
    boundary = Turn(
        index=0,
        role=Role.SYSTEM,
        flags=TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC,
        timestamp=when,
        source=where,
    )
    boundary.parts = [Part(PartKind.TEXT, text=f"{label} ({trigger})" if trigger else label)]
    boundary.preview = preview_of(boundary.text)
    boundary.extra = {"trigger": trigger or None, "summary_length": details.get("summaryLength")}
    summary = _context_summary(loaded.context) if latest else None
    if summary is None:
        return [boundary]
    turn = Turn(
        index=0,
        role=Role.USER,
        flags=TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC,
        timestamp=when,
        source=where,
    )
    turn.parts = [Part(PartKind.TEXT, text=summary)]
    turn.preview = preview_of(summary)
    return [boundary, turn]


def _context_summary(context: list[dict]) -> str | None:
    for item in context[:8]:
        if item.get("source") == "injection":
            found = _SUMMARY.search(text_of(as_dict(item.get("message")).get("content")))
            if found:
                return found.group(1)
    return None


def _usage(usage: dict) -> Usage:
    def num(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

    cached = num("cached_input_tokens")
    return Usage(
        input=max(num("input_tokens") - cached, 0), output=num("output_tokens"), cache_read=cached
    )


# -- registry ------------------------------------------------------------------------


def _session_folder(path: Path) -> Path | None:
    folder = path if path.is_dir() else path.parent
    if not path.is_dir() and path.parent.name in ("chunks", "journal"):
        folder = path.parent.parent  # a file of the store: the session is its folder
    elif not path.is_dir() and path.name not in ("CURRENT", "meta.json"):
        return None
    try:
        with open(folder / "CURRENT", "rb") as handle:
            head = handle.read(1024)
    except OSError:
        head = b""
    if STORE_FORMAT in head:
        return folder
    if (folder / "meta.json").is_file() and (folder / "journal").is_dir():
        return folder
    return None


def sniff(path: Path, head: bytes) -> bool:
    """A unified-store session folder (or one of its files), or an older Vibe's
    `meta.json` + `messages.jsonl` folder (`vibe_log`)."""
    return _session_folder(path) is not None or vibe_log.session_folder(path) is not None


def open_reader(ref: SessionRef) -> SessionReader:
    """The unified store when the folder holds one, else an older Vibe's message log."""
    if _session_folder(ref.path) is None and vibe_log.session_folder(ref.path) is not None:
        return vibe_log.VibeLogReader(ref)
    return VibeReader(ref)


def refs(path: Path) -> list[SessionRef]:
    folder = _session_folder(path)
    if folder is None:
        return vibe_log.refs(path)
    meta = load_json(folder / "meta.json")
    meta = meta if isinstance(meta, dict) else {}
    env = meta.get("environment") if isinstance(meta.get("environment"), dict) else {}
    return [
        SessionRef(
            format=FORMAT,
            path=folder,
            session_id=as_str(meta.get("session_id")) or folder.name,
            title=as_str(meta.get("title")) or None,
            cwd=as_str(env.get("working_directory")) or None,
            started=parse_timestamp(meta.get("start_time")),
            updated=parse_timestamp(meta.get("end_time")),
        )
    ]


SPEC = FormatSpec(
    name=FORMAT,
    description=(
        "Mistral Vibe sessions (~/.vibe/logs/session/unified/<session>/; before Vibe 3,"
        " ~/.vibe/logs/session/session_<time>_<id>/ with meta.json and messages.jsonl)"
    ),
    sniff=sniff,
    refs=refs,
    open=open_reader,
)
