"""Gemini CLI sub-agents: the chats a session's agent calls wrote, and which call wrote each.

Gemini CLI records a sub-agent's conversation as `chats/<parent session id>/<id>.jsonl`
(`chatRecordingService.ts`: the folder is the main session's full id, the file the agent
run's own id; its header says `kind: "subagent"`). Agents are tools named after them
(`codebase_investigator`, …), and neither side names the other: the call's record has
no run id and the sub-agent's file no call. So each sub-agent is tied here to the agent
call it ran during: the latest such call made before it started (calls made together,
in the order made, to sub-agents in the order they started). Agents cannot call agents:
there is one level. A chat tied to no call (its call never written: the session stopped
first; more chats than calls) is nothing the session names, so it is not its child: it
stays a session of its own in listings (`subagent_refs`), counted and searched there.

Listing the folder is one `scandir` per read that changed something (none when the
session ran no agent: the folder does not exist); each file's header is read once.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from pivotal.model import Role, SessionRef, Turn
from pivotal.readers.base import first_json_line, parse_timestamp

HEAD = 8192
"""Bytes of a sub-agent's file read for its header."""
SLACK = 5.0
"""Seconds a sub-agent may seem to start before its call (clocks, rounding)."""


def folder_of(path: Path, session_id: str | None) -> Path | None:
    """Where the sub-agents of the main session `path` (id `session_id`) are kept."""
    if session_id is None or path.parent.name != "chats" or not _safe(session_id):
        return None
    return path.parent / session_id


def parent_of(path: Path, header: object) -> str | None:
    """The session that ran the sub-agent whose file is `path` (its folder's name), when
    its header says it is one."""
    if not isinstance(header, dict) or header.get("kind") != "subagent":
        return None
    if path.parent.parent.name != "chats":
        return None
    return path.parent.name


class Children:
    """The sub-agent files of one session, listed again when asked (headers read once)."""

    def __init__(self) -> None:
        self._started: dict[str, tuple[tuple[int, int], float | None, str | None]] = {}
        self.refs: list[SessionRef] = []

    def list(self, fmt: str, folder: Path, turns: Sequence[Turn], agents: set[str]) -> bool:
        """List `folder` and tie each file to an agent call of `turns` (`agents`: the calls
        that ran one); the files tied are the children. Whether `refs` changed."""
        found = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name.endswith((".jsonl", ".json")) and entry.is_file():
                        found.append(self._header(entry))
        except OSError:
            found = []
        found.sort(key=lambda item: (item[1] is None, item[1] or 0.0, item[0].name))
        calls = [
            (turn.timestamp, call.call_id, call.name)
            for turn in turns
            if turn.role is Role.ASSISTANT
            for call in turn.tool_calls
            if call.call_id in agents
        ]
        refs = []
        taken: set[str] = set()
        for path, started, sid in found:
            call = _call_for(started, calls, taken)
            if call is None:
                continue  # no call of the session's ran it: a session of its own
            refs.append(
                SessionRef(
                    format=fmt,
                    path=path,
                    session_id=sid or path.stem,
                    title=call[2],
                    started=started,
                    parent_call=call[1],
                    parent=folder.name,
                )
            )
        if refs == self.refs:
            return False
        self.refs = refs
        return True

    def _header(self, entry: os.DirEntry[str]) -> tuple[Path, float | None, str | None]:
        path = Path(entry.path)
        try:
            st = entry.stat()
        except OSError:
            return path, None, None
        stamp = (st.st_size, st.st_mtime_ns)
        known = self._started.get(entry.name)
        if known is not None and (known[1] is not None or known[0] == stamp):
            return path, known[1], known[2]
        try:
            with open(path, "rb") as handle:
                head = handle.read(HEAD)
        except OSError:
            head = b""
        first = first_json_line(head)
        started = sid = None
        if isinstance(first, dict):
            started = parse_timestamp(first.get("startTime"))
            sid = first.get("sessionId") if isinstance(first.get("sessionId"), str) else None
        self._started[entry.name] = (stamp, started, sid)
        return path, started, sid


def _call_for(
    started: float | None,
    calls: list[tuple[float | None, str, str]],
    taken: set[str],
) -> tuple[float | None, str, str] | None:
    """The agent call a sub-agent that started at `started` ran from (see the docstring)."""
    if started is None:
        return None
    best = None
    for call in calls:
        when = call[0]
        if call[1] in taken or when is None or when > started + SLACK:
            continue
        if best is None or when > best[0]:  # the latest before it; the first of a turn's
            best = call
    if best is not None:
        taken.add(best[1])
    return best


def _safe(name: str) -> bool:
    """A session id Gemini CLI uses as a folder name as it is (its own ids always are)."""
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\0")
