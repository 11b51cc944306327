"""Where a Kimi Code session lives, and what its `state.json` says.

A session is a folder `<session id>/` holding `state.json` and `agents/<agent>/wire.jsonl`;
a path given by the person may be that folder, its `state.json`, an agent's folder or its
journal. Only a journal that opens with the wire protocol's metadata line makes it a Kimi
Code session (the older kimi-cli keeps a `wire.jsonl` too). The reader is `kimi_code.py`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pivotal.model import SessionRef
from pivotal.readers.base import decode_json, parse_timestamp

FORMAT = "kimi"
WIRE = "wire.jsonl"
MAIN_WIRE = Path("agents") / "main" / WIRE
STATE = "state.json"
_HEAD = re.compile(rb'\A\s*\{\s*"type"\s*:\s*"metadata"\s*,\s*"protocol_version"\s*:')


def session_folder(path: Path) -> Path | None:
    """The session folder `path` is or lies in: the folder itself, its `state.json`, an
    agent's folder or its `wire.jsonl` (`agents/<agent>/wire.jsonl`)."""
    found = _locate(path)
    return found[0] if found is not None else None


def _locate(path: Path) -> tuple[Path, Path] | None:
    """(session folder, the folder a ref names) for `path`: the session folder itself for
    the main agent, a sub-agent's own folder when that was named. None when `path` is not
    part of a Kimi Code session whose journal opens with the metadata line."""
    is_dir = path.is_dir()
    if not is_dir and path.name not in (WIRE, STATE):
        return None
    folder = path if is_dir else path.parent
    if path.name != STATE and folder.parent.name == "agents":
        session = folder.parent.parent
        named = session if folder.name == "main" else folder
    elif path.name == STATE or (folder / MAIN_WIRE).is_file():
        session = named = folder
    else:
        return None
    wire = wire_of(named)
    return (session, named) if wire is not None and _opens_journal(wire) else None


def wire_of(path: Path) -> Path | None:
    """The journal a ref's path names: a session folder's main agent, or one agent's folder."""
    if (path / MAIN_WIRE).is_file():
        return path / MAIN_WIRE
    if path.parent.name == "agents" and (path / WIRE).is_file():
        return path / WIRE
    return None


def _opens_journal(wire: Path) -> bool:
    try:
        with open(wire, "rb") as handle:
            return _HEAD.match(handle.readline(4096)) is not None
    except OSError:
        return False


def refs(path: Path) -> list[SessionRef]:
    found = _locate(path)
    if found is None:
        return []
    session, named = found
    wire = wire_of(named)
    state = read_state(session)
    try:
        st = os.stat(wire) if wire is not None else None
    except OSError:
        st = None
    return [
        SessionRef(
            format=FORMAT,
            path=named,
            session_id=session.name if named == session else f"{session.name}/{named.name}",
            title=state_title(state),
            cwd=state_cwd(state),
            started=state_time(state.get("createdAt")),
            updated=st.st_mtime if st is not None else state_time(state.get("updatedAt")),
            size=st.st_size if st is not None else None,
        )
    ]


def read_state(session: Path) -> dict[str, Any]:
    try:
        with open(session / STATE, "rb") as handle:
            state = decode_json(handle.read())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def state_title(state: dict[str, Any]) -> str | None:
    title = state.get("title")
    return title if isinstance(title, str) and title else None


def state_cwd(state: dict[str, Any]) -> str | None:
    for key in ("cwd", "workDir"):
        if isinstance(state.get(key), str) and state[key]:
            return state[key]
    return None


def state_time(value: object) -> float | None:
    return parse_timestamp(value) if isinstance(value, int | float | str) else None
