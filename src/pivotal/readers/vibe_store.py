"""Mistral Vibe's unified session store: loading one session folder, read-only.

    meta.json                      session id, times, working directory, model
    CURRENT                        which generation is the newest snapshot
    generations/<seq>/manifest.json  the snapshot: chunk hashes, journal segment
    chunks/<sha256>.json           content-addressed JSON arrays
    journal/<first seq>.jsonl      the recovery journal since a snapshot (appended)

`Store.load()` gives the public history entries (the projection chunks of the
newest generation, then the journal's `projection_delta` operations after its
snapshot), the model-context messages of that generation, and what the journal
adds (token usage and tool-call ids per completion, in order, and which call a
tool effect ran). The journal is read incrementally; a new generation, a
missing chunk or an unreadable manifest makes the next `load()` start over.
Of the journal's records only what those need is kept.

A batch read's store (`lazy`) reads the history chunks one entry at a time and
keeps of each entry only what the turns' index needs (`light_entry`), with where
the entry is (a `Piece` of its chunk, journal line or snapshot file, under
`PIECE`): the turns' parts are read again from there (`vibe.py`), so a 1 GB
session is not held in memory. Chunks are named by their content and the journal
is only appended to, so the entries stay where they were.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from pivotal.readers.base import decode_json
from pivotal.readers.json_items import ITEMS, scan_document
from pivotal.readers.lazy_items import Piece, piece, preview_cut
from pivotal.text.plural import plural

_SEGMENT = re.compile(r"^(\d+)\.jsonl$")
CHUNK = 1 << 20
"""Bytes of a journal segment read at a time."""
PIECE = "\x00piece"
"""The member of a batch read's light entry that says where the whole entry is (no JSON
entry has it: light entries are made here, of the members named in `light_entry`)."""


@dataclass(slots=True)
class Loaded:
    """One consistent view of a session folder."""

    entries: list[dict] = field(default_factory=list)
    context: list[dict] = field(default_factory=list)
    usage: dict[str, dict] = field(default_factory=dict)
    """completion action id -> its usage."""
    calls: dict[str, list[dict]] = field(default_factory=dict)
    """completion action id -> the tool_call parts it asked for."""
    effect_call: dict[str, str] = field(default_factory=dict)
    """tool action id -> the call id it ran."""
    order: list[str] = field(default_factory=list)
    """completion action ids in the order the journal recorded them."""
    problems: list[str] = field(default_factory=list)


def load_json(path: Path) -> Any:
    """The decoded file, or None when it is missing or not JSON."""
    try:
        with open(path, "rb") as handle:
            return decode_json(handle.read())
    except (OSError, ValueError):
        return None


class Store:
    """A session folder, re-read from its newest snapshot and followed through its journal."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.lazy = False
        """A batch read: light entries, each with its `PIECE`, and nothing kept after
        `load` (a later load reads the folder again)."""
        self._generation: object = None
        self._base: Loaded | None = None
        self._snapshot = -1
        self._offsets: dict[str, int] = {}
        self._pending: dict[str, bytearray] = {}
        self._ops: list[tuple] = []
        """(sequence, what the view takes of the record: see `_digest`), as read."""
        self._journal_problems: list[str] = []
        self._truncated = False

    def load(self) -> Loaded:
        current = load_json(self.folder / "CURRENT")
        generation = current.get("generation") if isinstance(current, dict) else None
        if self._truncated:
            self._truncated, self._base = False, None
        if generation != self._generation or self._base is None:
            self._generation = generation
            self._base = self._snapshot_of(generation)
            self._offsets.clear()
            self._pending.clear()
            self._ops.clear()
            self._journal_problems.clear()
        self._tail_journal()
        if self._truncated:
            return self.load()
        view = self._view()
        if self.lazy:
            self._base, self._ops = None, []  # read again if asked again
        return view

    # -- the snapshot ------------------------------------------------------

    def _snapshot_of(self, generation: object) -> Loaded:
        """The newest snapshot whose history chunks are all there (older ones as a fallback)."""
        loaded = Loaded()
        manifests = self._manifests(generation)
        if not manifests:
            self._snapshot = 0  # no snapshot at all: the journal from its start is everything
            return loaded
        loaded.context, _ = self._chunks(as_dict(manifests[0][1].get("checkpoint")).get("chunks"))
        lost = 0
        for number, (name, manifest) in enumerate(manifests):
            entries, missing = self._history(name, manifest)
            if number == 0:
                lost = missing
            if missing:
                continue
            self._snapshot = _sequence(manifest)
            loaded.entries = entries
            if number:
                loaded.problems.append(
                    f"{plural(lost, 'history chunk')} of the newest snapshot missing; read from"
                    f" generation {name} and the journal"
                )
            self._check_journal(loaded)
            return loaded
        if self._journal_starts_at_one():
            self._snapshot = 0  # replay the whole journal instead of the lost chunks
            lost_words = plural(lost, "history chunk")
            loaded.problems.append(f"{lost_words} missing; rebuilt from the journal")
            return loaded
        self._snapshot = _sequence(manifests[0][1])
        loaded.entries = self._history(*manifests[0])[0]
        loaded.problems.append(
            f"{plural(lost, 'history chunk')} missing: the history they held cannot be shown"
        )
        return loaded

    def _manifests(self, generation: object) -> list[tuple[str, dict]]:
        """(generation, manifest), the one CURRENT names first, then the others newest first."""
        try:
            names = sorted((p.name for p in (self.folder / "generations").iterdir()), reverse=True)
        except OSError:
            names = []
        if isinstance(generation, str) and generation in names:
            names.remove(generation)
            names.insert(0, generation)
        found = []
        for name in names:
            manifest = load_json(self.folder / "generations" / name / "manifest.json")
            if isinstance(manifest, dict) and re.fullmatch(r"\d+", name):
                found.append((name, manifest))
        return found

    def _history(self, name: str, manifest: dict) -> tuple[list[dict], int]:
        """The public history entries of one snapshot, and how many of its chunks are missing."""
        state = as_dict(manifest.get("projection_state"))
        entries, missing = self._chunks(state.get("chunks"), self.lazy)
        path = state.get("path")
        inline = None
        where: Piece | None = None
        if isinstance(path, str) and "/" not in path and path:
            file = self.folder / "generations" / name / path
            data = _read_bytes(file)
            try:
                inline = decode_json(data) if data is not None else None
            except ValueError:
                inline = None
            if self.lazy and data is not None:
                where = piece(0, data, None, file)
        history = as_dict(as_dict(as_dict(inline).get("snapshot")).get("history")).get("entries")
        known = {_id(e) for e in entries} - {None}
        listed = history if isinstance(history, list) else []
        more = [
            e if where is None else light_entry(e, where._replace(tag=("snapshot", n)))
            for n, e in enumerate(listed)
            if isinstance(e, dict) and _id(e) not in known
        ]
        return entries + more, missing

    def _check_journal(self, loaded: Loaded) -> None:
        segments = self._segments()
        if segments and segments[0][0] > self._snapshot + 1:
            loaded.problems.append(
                f"journal records {self._snapshot + 1}-{segments[0][0] - 1} are gone:"
                " what they added cannot be shown"
            )

    def _chunks(self, hashes: object, light: bool = False) -> tuple[list[dict], int]:
        """The entries of the chunks named (light ones when `light`), and how many of the
        chunks are missing."""
        items: list[dict] = []
        missing = 0
        for digest in hashes if isinstance(hashes, list) else []:
            if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{16,128}", digest):
                missing += 1
                continue
            path = self.folder / "chunks" / f"{digest}.json"
            chunk = _light_chunk(path) if light else load_json(path)
            if not isinstance(chunk, list):
                missing += 1
                continue
            items.extend(_dicts(chunk))
        return items, missing

    def _segments(self) -> list[tuple[int, Path]]:
        try:
            names = [p.name for p in (self.folder / "journal").iterdir()]
        except OSError:
            return []
        found = [(int(m.group(1)), n) for n in names if (m := _SEGMENT.match(n))]
        return [(first, self.folder / "journal" / name) for first, name in sorted(found)]

    def partial(self) -> bool:
        """A journal segment ends in a line still being written."""
        return any(self._pending.values())

    def _journal_starts_at_one(self) -> bool:
        segments = self._segments()
        return bool(segments) and segments[0][0] <= 1

    # -- the journal -------------------------------------------------------

    def _tail_journal(self) -> None:
        for _, path in self._segments():
            key = str(path)
            offset = self._offsets.get(key, 0)
            try:
                with open(path, "rb") as handle:
                    if os.fstat(handle.fileno()).st_size < offset:
                        self._truncated = True  # rewritten: start over
                        return
                    handle.seek(offset)
                    while raw := handle.read(CHUNK):
                        self._journal_lines(path, offset, raw)
                        offset += len(raw)
                        self._offsets[key] = offset
            except OSError:
                continue

    def _journal_lines(self, path: Path, offset: int, raw: bytes) -> None:
        """The lines `raw` (read at `offset` of `path`) ends, after what was held back."""
        key = str(path)
        held = self._pending.pop(key, bytearray())
        start = offset - len(held)  # where the first line begins
        held += raw
        end = held.rfind(b"\n")
        if end < 0:
            self._pending[key] = held  # a long line still being read (or written)
            return
        self._pending[key] = held[end + 1 :]
        for line in bytes(held[:end]).split(b"\n"):
            at, start = start, start + len(line) + 1
            if not line.strip():
                continue
            try:
                record = decode_json(line)
            except ValueError:
                self._journal_problems.append(f"{path.name}: a malformed journal record")
                continue
            if isinstance(record, dict) and isinstance(record.get("sequence"), int):
                where = piece(at, line, None, path) if self.lazy else None
                self._ops.append((record["sequence"], *_digest(record, where)))

    def _view(self) -> Loaded:
        base = self._base or Loaded()
        view = Loaded(
            # a batch read's base is not read again: its entries need no copy
            entries=base.entries if self.lazy else list(base.entries),
            context=base.context,
            problems=base.problems + self._journal_problems,
        )
        index: dict[str, int] | None = None
        """Where each entry is, by id: made for the first operation (most views have none)."""
        seen: set[int] = set()
        for sequence, kind, *what in sorted(self._ops, key=lambda item: item[0]):
            if sequence in seen:
                continue
            seen.add(sequence)
            if kind == "intent":
                action, call = what
                view.effect_call[action] = call
            elif kind == "result":
                action, usage, calls = what
                if usage is not None:
                    view.usage[action] = usage
                view.calls[action] = calls
                view.order.append(action)
            elif kind == "delta" and sequence > self._snapshot:
                for op in what[0]:
                    if index is None:
                        index = {
                            _id(e): i for i, e in enumerate(view.entries) if _id(e) is not None
                        }
                    _apply(view.entries, index, op)
        return view


def _sequence(manifest: dict) -> int:
    value = manifest.get("snapshot_sequence")
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _digest(record: dict, where: Piece | None) -> tuple:
    """What the view takes of a journal record: ("intent", action, call id) for a tool
    action's intent, ("result", action, usage, tool calls) for a completion, ("delta",
    operations) for a projection delta (their entries light, each with its `PIECE`, when
    `where` says where the record is), and (None,) for anything else."""
    payload = as_dict(record.get("payload"))
    kind = record.get("type")
    if kind == "action_intent":
        request = as_dict(payload.get("request"))
        if payload.get("kind") == "tool" and isinstance(request.get("call_id"), str):
            return ("intent", str(payload.get("action_id")), request["call_id"])
    elif kind == "action_result":
        outer = as_dict(payload.get("result"))
        result = as_dict(outer.get("result"))
        action = payload.get("action_id")
        if isinstance(action, str) and isinstance(result.get("parts"), list):
            usage = result.get("usage")
            calls = [p for p in _dicts(result["parts"]) if p.get("type") == "tool_call"]
            return ("result", action, usage if isinstance(usage, dict) else None, calls)
    elif kind == "projection_delta":
        delta = payload.get("delta")
        ops = delta if isinstance(delta, list) else []
        if where is None:
            return ("delta", _dicts(ops))
        return (
            "delta",
            [_light_op(op, where, n) for n, op in enumerate(ops) if isinstance(op, dict)],
        )
    return (None,)


def _light_op(op: dict, where: Piece, number: int) -> dict:
    """A delta operation as `_apply` reads it, its entry light (the `number`th of its line)."""
    light = {k: op[k] for k in ("op", "id", "entryId") if k in op}
    entry = op.get("entry")
    if entry is not None:
        light["entry"] = (
            light_entry(entry, where._replace(tag=("journal", number)))
            if isinstance(entry, dict)
            else entry
        )
    return light


def light_entry(entry: dict, where: Piece) -> dict:
    """What the turns' index takes of a history entry (`vibe.build_turns`), and where it is.

    Its kind (type, role, source, kind), id and time; a checkpoint whole (a few short
    fields); of a message's text only what a preview shows (`preview_cut`); of a tool
    effect its detail's kind; of an outcome its type. Reasoning shows in no preview: its
    text is left out. `where` (a `Piece`, whose tag says how to find the entry in what it
    points at) goes under `PIECE`.
    """
    if entry.get("type") == "checkpoint":
        light = dict(entry)
    else:
        light = {k: _shared(entry[k]) for k in _KINDS if k in entry}
        for key in ("id", "createdAt"):
            if key in entry:
                light[key] = entry[key]
        if "content" in entry:
            light["content"] = preview_cut(text_of(entry["content"]))
        detail = entry.get("detail")
        if isinstance(detail, dict):
            light["detail"] = _one("kind", detail["kind"]) if "kind" in detail else {}
        outcome = entry.get("outcome")
        if isinstance(outcome, dict) and "type" in outcome:
            light["outcome"] = _one("type", outcome["type"])
    light[PIECE] = where
    return light


_KINDS = ("type", "role", "source", "kind")


def _shared(value: object) -> object:
    """A short name (an entry's type, role, ...) as one string for every entry that has it."""
    return sys.intern(value) if type(value) is str and len(value) <= 32 else value


def _one(key: str, value: object) -> dict:
    """`{key: value}`, one dict (never changed) for every entry with that short name: an
    effect's detail, an outcome."""
    if type(value) is not str or len(value) > 32:
        return {key: value}
    found = _ONES.get((key, value))
    if found is None:
        found = {key: sys.intern(value)}
        if len(_ONES) < 64:
            _ONES[(key, value)] = found
    return found


_ONES: dict[tuple[str, str], dict] = {}


def entry_at(item: object, tag: object) -> dict:
    """The entry a light entry's piece points at, in `item` (what the piece holds, decoded):
    the item itself (a chunk's), an operation of a journal record, or one of a snapshot's."""
    where = tag[0] if isinstance(tag, tuple) else None  # (where, call id), or None
    if where is None:
        return as_dict(item)
    kind, number = where
    if kind == "journal":
        listed = as_dict(as_dict(item).get("payload")).get("delta")
        return as_dict(as_dict(listed[number]).get("entry")) if isinstance(listed, list) else {}
    snapshot = as_dict(as_dict(item).get("snapshot"))
    listed = as_dict(snapshot.get("history")).get("entries")
    return as_dict(listed[number]) if isinstance(listed, list) else {}


def _light_chunk(path: Path) -> list[dict] | None:
    """A chunk's entries, each decoded alone and kept light (None when it is not a whole
    JSON array).

    Vibe writes a chunk as one line of compact JSON, a few MB at most: it is read whole
    and cut into its items by msgspec (`_RAW_ITEMS`), each found in the bytes after the
    one before. A chunk that is not valid JSON as it stands (raw control bytes, a BOM)
    or is bigger than `WHOLE_CHUNK` is read item by item (`scan_document`, slower on
    JSON that is not indented), repaired as `decode_json` repairs it.
    """
    entries: list[dict] = []

    def each(offset: int, item: memoryview | msgspec.Raw) -> None:
        entry = decode_json(item)
        if isinstance(entry, dict):
            entries.append(light_entry(entry, piece(offset, item, None, path)))

    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        data = os.pread(fd, size, 0) if size <= WHOLE_CHUNK else b""
        items = _raw_items(data)
        if items is None:
            data = b""  # not kept while the items are read one by one
            found = scan_document(fd, size, "", each)
            return entries if found is ITEMS else None
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    at = 0
    for item in items:
        at = data.find(item, at)  # only white space and commas come before it
        try:
            each(at, item)
        except ValueError:
            return None
        at += len(item)
    return entries


WHOLE_CHUNK = 64 << 20
"""A chunk at most this big is read at once."""
_RAW_ITEMS = msgspec.json.Decoder(list[msgspec.Raw]).decode


def _raw_items(data: bytes) -> list[msgspec.Raw] | None:
    """The items of the JSON array `data`, undecoded; None when it is not one as it stands."""
    if not data:
        return None
    try:
        return _RAW_ITEMS(data)
    except (msgspec.DecodeError, RecursionError):  # a ValidationError is a DecodeError
        return None


def _read_bytes(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _apply(entries: list[dict], index: dict[str, int], op: dict) -> None:
    """One `projection_delta` operation; entries are matched by their string id."""
    kind = op.get("op")
    entry = op.get("entry")
    if kind in ("append_entry", "replace_entry") and isinstance(entry, dict):
        ident = _id(entry)
        if ident is not None and ident in index:
            entries[index[ident]] = entry
        else:
            if ident is not None:
                index[ident] = len(entries)
            entries.append(entry)
    elif kind == "remove_entry":
        ident = op.get("id", op.get("entryId"))
        if isinstance(ident, str) and ident in index:
            del entries[index.pop(ident)]
            index.clear()
            index.update({_id(e): i for i, e in enumerate(entries) if _id(e) is not None})


def _id(entry: dict) -> str | None:
    ident = entry.get("id")
    return ident if isinstance(ident, str) else None


def as_dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def as_str(value: object) -> str:
    return value if isinstance(value, str) else ""


def text_of(content: object) -> str:
    """The text of a content value: a string, or a list of `{type, text}` parts."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(
        p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
    )


def decoded(arguments: object) -> object:
    """JSON-string tool arguments decoded; anything else (or broken JSON) kept as given."""
    if not isinstance(arguments, str):
        return arguments
    try:
        return decode_json(arguments.encode("utf-8", "surrogatepass"))
    except ValueError:
        return arguments


def json_text(value: object) -> str:
    import msgspec

    try:
        return msgspec.json.encode(value).decode("utf-8", "replace")
    except (TypeError, ValueError, OverflowError):
        return repr(value)


def _dicts(value: object) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []
