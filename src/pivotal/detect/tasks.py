"""Task-list items and their status, from the agents' todo tools.

TodoWrite / todowrite / write_todos send the whole list each time
(`todos: [{content, status}]`), Codex's update_plan sends `plan: [{step,
status}]`, Claude Code's TaskCreate / TaskUpdate send one item at a time.
The state panel shows items whose status changed around a silence.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pivotal.detect.activity import PLAN_TOOLS
from pivotal.detect.view import TurnView
from pivotal.model import TaskChange

_LIST_KEYS = ("todos", "plan", "tasks", "items")
_NAME_KEYS = ("content", "step", "subject", "title", "description", "text", "task", "activeForm")


def _item_name(item: dict[str, Any]) -> str:
    for key in _NAME_KEYS:
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())[:80]
    return ""


def _updates(data: Any) -> list[tuple[str, str | None, str]]:
    """(key, display name, status) for every item a todo call mentions."""
    out: list[tuple[str, str | None, str]] = []
    if not isinstance(data, dict):
        return out
    for key in _LIST_KEYS:
        items = data.get(key)
        if isinstance(items, list):
            for item in items:
                if isinstance(item, dict):
                    name = _item_name(item)
                    status = str(item.get("status") or "")
                    if name:
                        out.append((name.lower(), name, status))
            return out
    task_id = data.get("taskId", data.get("task_id", data.get("id")))
    name = _item_name(data)
    status = data.get("status")
    if task_id is not None or name:
        key = f"#{task_id}" if task_id is not None else name.lower()
        out.append((key, name or None, str(status or "pending")))
    return out


class TaskTracker:
    """Last known status per item; records each change with the turn that made it."""

    def __init__(self) -> None:
        self.status: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.changes: list[TaskChange] = []

    def feed(self, views: Iterable[TurnView], record: bool = True) -> None:
        for view in views:
            for tool in view.tools:
                name = tool.name.lower().rsplit(".", 1)[-1]
                if name not in PLAN_TOOLS:
                    continue
                for key, display, status in _updates(tool.input):
                    if display:
                        self.names[key] = display
                    before = self.status.get(key)
                    if before == status:
                        continue
                    self.status[key] = status
                    if record and (before is not None or status not in ("", "pending")):
                        self.changes.append(
                            TaskChange(self.names.get(key, key), before, status or None, view.index)
                        )


def task_items(view: TurnView) -> list[tuple[str, str | None, str]]:
    """(key, display name, status) for every item the todo calls of `view` mention."""
    out: list[tuple[str, str | None, str]] = []
    for tool in view.tools:
        if tool.name.lower().rsplit(".", 1)[-1] in PLAN_TOOLS:
            out.extend(_updates(tool.input))
    return out
