"""Codex sub-agents: the threads a session's spawn calls started, and where their rollouts are.

A Codex sub-agent (multi-agent `spawn_agent`) is a thread of its own, written to a rollout
of its own whose `session_meta.source` is `{"subagent": {"thread_spawn":
{"parent_thread_id", "depth", "agent_nickname"?, "agent_role"?, "agent_path"?}}}` (newer
builds also put `parent_thread_id` at the top of the meta). The other kinds of sub-agent
source (`"review"`, `"compact"`, `"memory_consolidation"`, `{"other": …}`) name no parent:
those rollouts stay sessions of their own.

The parent names its children, whichever way they were started:
* multi-agent v1: the spawn call's output `{"agent_id": "<thread id>", "nickname": …}`;
* v2: the output names the task (`{"task_name": <its path under the root agent>,
  "nickname"?}`) and a `sub_agent_activity` event gives its thread (`agent_thread_id`,
  `agent_path`);
* the `<subagent_notification>` a finished child puts into its parent
  (`{"agent_path" | "agent_id": <thread id or path>, "status": …}`).

A rollout is named `rollout-<local time>-<thread id>.jsonl` and kept under
`sessions/YYYY/MM/DD/` by the (local) day it began, or flat in `archived_sessions/`. A
child's file is found by its name in the folders of the days around its spawn (the lines'
times are UTC: the day before and after too), the parent's own folder and the archive: a
few directory listings for a session that ran sub-agents, none for one that did not, and
no other rollout is opened.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import msgspec

from pivotal.readers.subagent_refs import rollout_thread

_THREAD = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
SPAWN_TOOL = "spawn_agent"
NOTIFICATION = "<subagent_notification>"
_NOTIFICATION_END = "</subagent_notification>"
_SUBAGENT_KEYS = ("subagent", "sub_agent")
"""How the meta's source names a sub-agent (`SessionSource::SubAgent`, serialised
lower-cased; snake case kept for builds that wrote it so)."""


def parent_thread(meta: dict) -> str | None:
    """The thread that spawned the rollout whose `session_meta` payload is `meta` (None:
    not a spawned sub-agent, or it does not say). Only a `thread_spawn`: other sub-agent
    kinds (`{"other": …}` may carry a `parent_thread_id` too) are started by no call of the
    parent's, which could not name them, so they stay sessions of their own."""
    source = meta.get("source")
    if not isinstance(source, dict):
        return None
    kind = next((source[k] for k in _SUBAGENT_KEYS if k in source), None)
    spawn = kind.get("thread_spawn") if isinstance(kind, dict) else None
    if not isinstance(spawn, dict):
        return None
    parent = spawn.get("parent_thread_id")
    if not isinstance(parent, str) or not _THREAD.fullmatch(parent):
        parent = meta.get("parent_thread_id")
    return parent if isinstance(parent, str) and _THREAD.fullmatch(parent) else None


def is_spawn(name: str) -> bool:
    """A call that starts a sub-agent thread (`spawn_agent`, maybe under a namespace)."""
    return name.rsplit(".", 1)[-1] == SPAWN_TOOL


def spawn_output(text: str) -> tuple[str | None, str | None, str | None]:
    """(thread id, nickname, task path) a spawn call's output names (v1 names the thread,
    v2 the task); Nones for an output that is no spawn result (a refusal, an error)."""
    value = _json_object(text)
    if value is None:
        return None, None, None
    thread = value.get("agent_id")
    nickname = value.get("nickname")
    task = value.get("task_name")
    return (
        thread if isinstance(thread, str) and _THREAD.fullmatch(thread) else None,
        nickname if isinstance(nickname, str) and nickname.strip() else None,
        task if isinstance(task, str) and task else None,
    )


def notified(text: str) -> str | None:
    """The child a `<subagent_notification>` is about: its thread id, or its task path."""
    body = text.strip()
    if not body.startswith(NOTIFICATION):
        return None
    body = body[len(NOTIFICATION) :].split(_NOTIFICATION_END, 1)[0]
    value = _json_object(body)
    if value is None:
        return None
    for key in ("agent_id", "agent_path"):
        found = value.get(key)
        if isinstance(found, str) and found:
            return found
    return None


def is_thread(value: str) -> bool:
    return _THREAD.fullmatch(value) is not None


def title_of(nickname: str | None, role: str | None, task: str | None) -> str | None:
    """What a child is called: its nickname (v1) or its task (v2), with its role."""
    name = nickname or (task.rstrip("/").rsplit("/", 1)[-1] if task else None)
    if role and name:
        return f"{name} ({role})"
    return name or role


def find_rollouts(parent: Path, wanted: dict[str, float | None]) -> dict[str, Path]:
    """The rollout of each thread in `wanted` (id -> when it was spawned, a UTC time),
    looked for by name where Codex keeps it (see the module's docstring)."""
    want = {thread.lower(): thread for thread in wanted}
    found: dict[str, Path] = {}
    for folder in _folders(parent, wanted.values()):
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    thread = rollout_thread(entry.name)
                    if thread is not None and thread in want and want[thread] not in found:
                        if entry.is_file():
                            found[want[thread]] = Path(entry.path)
        except OSError:
            continue  # no such day (or no archive)
        if len(found) == len(want):
            break
    return found


def _folders(parent: Path, times: Iterable[float | None]) -> list[Path]:
    """The parent's folder, the day folders around each spawn, and the archive."""
    folders = [parent.parent]
    day, home = _codex_home(parent)
    if home is None:
        return folders
    days = {day} if day is not None else set()
    for when in times:
        if when is None:
            continue
        try:
            moment = datetime.fromtimestamp(when, UTC)
        except (OverflowError, OSError, ValueError):
            continue
        days.update((moment + timedelta(days=shift)).date() for shift in (-1, 0, 1))
    for when_day in sorted(days):
        folder = home / "sessions" / when_day.strftime("%Y/%m/%d")
        if folder not in folders:
            folders.append(folder)
    folders.append(home / "archived_sessions")
    return folders


def _codex_home(path: Path) -> tuple[date | None, Path | None]:
    """(the day folder's date, CODEX_HOME) of a rollout kept where Codex keeps them."""
    folder = path.parent
    if folder.name == "archived_sessions":
        return None, folder.parent
    parts = folder.parts[-3:]
    if len(parts) == 3 and all(p.isdigit() for p in parts) and folder.parents[2].name == "sessions":
        try:
            day = datetime(int(parts[0]), int(parts[1]), int(parts[2]), tzinfo=UTC).date()
        except ValueError:
            return None, None
        return day, folder.parents[3]
    return None, None


def _json_object(text: str) -> dict | None:
    text = text.strip()
    if not text.startswith("{"):
        return None
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None
    return value if isinstance(value, dict) else None
