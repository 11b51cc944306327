"""opencode < 1.2: one session spread over a `storage/` tree of JSON files.

    storage/session/<projectID>/<sessionID>.json   session info
    storage/message/<sessionID>/<messageID>.json   message info (no content)
    storage/part/<messageID>/<partID>.json         content parts

opencode rewrites a whole file on every change, and some builds do it without
an atomic rename, so a file can be read half-written. Such a file is left out
of this poll and read again on the next one; it is only reported as skipped
when it is still unreadable unchanged (or on the final read), and what was
read before from it is kept.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pivotal.model import SessionRef
from pivotal.readers.base import Update, decode_json, parse_timestamp, source_gone
from pivotal.readers.opencode_base import FORMAT, OpencodeReader

Stamp = tuple[int, int]


def storage_root(path: Path) -> Path | None:
    """`path` itself or its `storage/` child, when it looks like an opencode storage tree."""
    for candidate in (path, path / "storage"):
        if (candidate / "session").is_dir() and (candidate / "message").is_dir():
            return candidate
    return None


def _read_json(path: Path) -> dict[str, Any] | None:
    """The file's JSON object, or None when it is unreadable (half-written, not an object)."""
    try:
        with open(path, "rb") as handle:
            value = decode_json(handle.read())
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _session_files(root: Path) -> list[Path]:
    try:
        projects = sorted(p for p in (root / "session").iterdir() if p.is_dir())
    except OSError:
        return []
    files: list[Path] = []
    for project in projects:
        try:
            files.extend(sorted(project.glob("*.json")))
        except OSError:
            continue
    return files


def _meta(info: dict[str, Any]) -> dict[str, Any]:
    times = info.get("time") if isinstance(info.get("time"), dict) else {}
    return {
        "title": info.get("title") if isinstance(info.get("title"), str) else None,
        "directory": info.get("directory") if isinstance(info.get("directory"), str) else None,
        "time_created": times.get("created"),
        "time_updated": times.get("updated"),
        "parent_id": info.get("parentID") if isinstance(info.get("parentID"), str) else None,
    }


def _session_ref(root: Path, file: Path) -> tuple[SessionRef, str | None]:
    """The ref of one session file, and the id of its parent session (if a child)."""
    sid = file.stem
    meta = _meta(_read_json(file) or {})
    try:
        turns: int | None = sum(1 for _ in (root / "message" / sid).glob("*.json"))
    except OSError:
        turns = None
    ref = SessionRef(
        format=FORMAT,
        path=root,
        key=sid,
        session_id=sid,
        title=meta["title"],
        cwd=meta["directory"],
        started=parse_timestamp(meta["time_created"]),
        updated=parse_timestamp(meta["time_updated"]),
        turns=turns,
    )
    return ref, meta["parent_id"]


def legacy_refs(root: Path, exclude: set[str] | None = None) -> list[SessionRef]:
    """One ref per session file (ids in `exclude` are already known from a database)."""
    refs = [
        _session_ref(root, file)[0]
        for file in _session_files(root)
        if not (exclude and file.stem in exclude)
    ]
    refs.sort(key=lambda r: (r.updated or 0.0, r.key or ""), reverse=True)
    return refs


def child_refs(root: Path, sid: str) -> list[SessionRef]:
    """Sessions whose `parentID` is `sid` (sub-agent sessions), oldest first."""
    children = [
        _session_ref(root, file)[0]
        for file in _session_files(root)
        if _meta(_read_json(file) or {})["parent_id"] == sid
    ]
    return sorted(children, key=lambda r: (r.started or 0.0, r.key or ""))


class LegacyReader(OpencodeReader):
    """One session of a legacy `storage/` tree; new and rewritten files found by mtime."""

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._root = storage_root(ref.path) or ref.path
        self._seen: dict[Path, Stamp] = {}
        self._bad: dict[Path, Stamp] = {}
        """Files that failed to parse, with the stamp they had (to tell in-flight from broken)."""
        self._reported: set[tuple[Path, Stamp]] = set()
        self._children_read = False

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        sid = self.ref.key or ""
        if not (self._root / "message").is_dir():
            return source_gone(self._root)
        reloaded = self._messages_deleted(self._root / "message" / sid)
        if reloaded:
            self.forget()
            self._seen.clear()
            self._bad.clear()
            self._reported.clear()
        skipped_before = len(self.session.skipped)
        self._read_session_info(sid, final)
        if not self._children_read:
            self._children_read = True
            self.session.children = child_refs(self._root, sid)
        for file in self._changed(self._root / "message" / sid):
            info = self._load(file, final)
            if info is not None:
                self.put_message(file.stem, info)
        for message_id in list(self._infos):
            for file in self._changed(self._root / "part" / message_id):
                part = self._load(file, final)
                if part is not None:
                    self.put_part(message_id, file.stem, part)
        self.rebuild()
        self.finish_meta()
        notice = "messages were deleted (revert?); reloaded" if reloaded else None
        if notice:
            self.session.notices.append(notice)
        return Update(
            first_changed=self.take_first_changed(),
            reloaded=reloaded,
            notice=notice,
            new_skipped=len(self.session.skipped) - skipped_before,
        )

    def _messages_deleted(self, directory: Path) -> bool:
        """A message file read before is gone (opencode deletes messages on revert)."""
        if not self._infos:
            return False
        try:
            present = {name[:-5] for name in os.listdir(directory) if name.endswith(".json")}
        except OSError:
            return False
        return any(message_id not in present for message_id in self._infos)

    def _read_session_info(self, sid: str, final: bool) -> None:
        for file in (self._root / "session").glob(f"*/{sid}.json"):
            if self._stamp(file) == self._seen.get(file):
                return
            info = self._load(file, final)
            if info is not None:
                self.set_meta(_meta(info))
            return

    @staticmethod
    def _stamp(file: Path) -> Stamp | None:
        try:
            st = os.stat(file)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _changed(self, directory: Path) -> list[Path]:
        """JSON files in `directory` that are new or whose mtime/size changed, by id."""
        try:
            names = sorted(n for n in os.listdir(directory) if n.endswith(".json"))
        except OSError:
            return []
        out = []
        for name in names:
            file = directory / name
            stamp = self._stamp(file)
            if stamp is not None and self._seen.get(file) != stamp:
                out.append(file)
        return out

    def _load(self, file: Path, final: bool) -> dict[str, Any] | None:
        """Parse `file`; on failure keep it unseen so the next poll retries it."""
        stamp = self._stamp(file)
        value = _read_json(file)
        if value is not None and stamp is not None:
            self._seen[file] = stamp
            self._bad.pop(file, None)
            return value
        if stamp is None:
            return None
        settled = final or self._bad.get(file) == stamp
        self._bad[file] = stamp
        if settled and (file, stamp) not in self._reported:
            self._reported.add((file, stamp))
            rel = file.relative_to(self._root) if file.is_relative_to(self._root) else file
            self.skip(None, f"{rel}: unreadable JSON (half-written or corrupt)")
        return None
