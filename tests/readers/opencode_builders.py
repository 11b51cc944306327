"""Build opencode stores for tests, shaped exactly like what opencode 1.18 writes.

The SQLite schema is copied from a real opencode database (`sqlite_master`),
and the record shapes are copied from its rows; legacy JSON files are written
pretty-printed with 2-space indent like opencode's `Storage.write`.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

REAL = Path(__file__).parent.parent / "fixtures" / "realclients"
REAL_SHORT = REAL / "opencode-short/.local/share/opencode/opencode.db"
REAL_AUTOCOMPACT = REAL / "opencode-autocompact/.local/share/opencode/opencode.db"
T0 = 1796010578986  # ms, like the real rows


def real_schema() -> list[str]:
    """Every CREATE statement of the real database (tables first, then indexes)."""
    conn = sqlite3.connect(f"file:{REAL_SHORT}?immutable=1", uri=True)
    try:
        rows = conn.execute(
            "SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL"
            " ORDER BY type = 'index', rowid"
        ).fetchall()
    finally:
        conn.close()
    return [sql for _, sql in rows]


def create_db(path: Path) -> sqlite3.Connection:
    """A read-write connection (WAL, like opencode) to a fresh database with the real schema."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=5000")
    for sql in real_schema():
        conn.execute(sql)
    return conn


def add_session(
    conn: sqlite3.Connection,
    sid: str,
    *,
    title: str = "New session",
    parent: str | None = None,
    created: int = T0,
    updated: int | None = None,
    directory: str = "/home/dev/work/proj",
) -> None:
    conn.execute(
        "INSERT INTO session (id, project_id, parent_id, slug, directory, path, title, version,"
        " time_created, time_updated) VALUES (?, 'global', ?, 'calm-squid', ?, 'tmp/work/proj',"
        " ?, '1.18.33', ?, ?)",
        (sid, parent, directory, title, created, updated or created),
    )


def put_message(
    conn: sqlite3.Connection, mid: str, sid: str, data: dict[str, Any], updated: int
) -> None:
    """Upsert a message row the way opencode does (data has no id/sessionID)."""
    created = data.get("time", {}).get("created", updated)
    conn.execute(
        "INSERT INTO message (id, session_id, time_created, time_updated, data)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET"
        " time_updated = excluded.time_updated, data = excluded.data",
        (mid, sid, created, updated, json.dumps(data)),
    )


def put_part(
    conn: sqlite3.Connection, pid: str, mid: str, sid: str, data: dict[str, Any], updated: int
) -> None:
    conn.execute(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET"
        " time_updated = excluded.time_updated, data = excluded.data",
        (pid, mid, sid, updated, updated, json.dumps(data)),
    )


def user_info(created: int) -> dict[str, Any]:
    return {
        "role": "user",
        "time": {"created": created},
        "agent": "build",
        "model": {"providerID": "mock", "modelID": "mock-model"},
        "summary": {"diffs": []},
    }


def assistant_info(
    created: int, parent: str, *, completed: int | None = None, **extra: Any
) -> dict[str, Any]:
    info: dict[str, Any] = {
        "parentID": parent,
        "role": "assistant",
        "mode": "build",
        "agent": "build",
        "path": {"cwd": "/home/dev/work/proj", "root": "/"},
        "cost": 0,
        "tokens": {
            "total": 1050,
            "input": 1000,
            "output": 50,
            "reasoning": 0,
            "cache": {"write": 0, "read": 0},
        },
        "modelID": "mock-model",
        "providerID": "mock",
        "time": {"created": created},
    }
    if completed is not None:
        info["time"]["completed"] = completed
        info["finish"] = "stop"
    info.update(extra)
    return info


def text_part(text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "text", "text": text, **extra}


def bash_part(call_id: str, command: str, status: str, *, output: str = "", exit_code: int = 0):
    """A bash tool part in one of its states (shapes from the real database)."""
    state: dict[str, Any] = {"status": status, "input": {"command": command}}
    if status == "running":
        state.update(title=command, metadata={"output": ""}, time={"start": T0})
    elif status == "completed":
        state.update(
            output=output,
            title=command,
            metadata={"output": output, "exit": exit_code, "truncated": False},
            time={"start": T0, "end": T0 + 250},
        )
    return {"type": "tool", "tool": "bash", "callID": call_id, "state": state}


def write_json(path: Path, value: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2))
