"""Where each agent keeps its sessions, and a quick listing of them.

Listing must stay quick with hundreds of sessions, so it never parses a whole
session file: it stats files, reads a few KB of their head for the working
directory and start time, and asks databases for their session rows. Each
agent's location honours its own environment variable (CLAUDE_CONFIG_DIR,
CODEX_HOME, XDG_DATA_HOME, GEMINI_CLI_HOME); `roots` replaces the home
directory (useful for copies of other machines' homes and for tests).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from pivotal.model import SessionRef
from pivotal.readers import sniff_path
from pivotal.readers.base import parse_timestamp

HEAD = 16 * 1024
_TIMESTAMP = re.compile(rb'"(?:timestamp|startTime)":"([0-9T:.\-+Z]{10,40})"')
_CWD = re.compile(rb'"cwd":"((?:[^"\\]|\\.){1,1000})"')


def agent_locations(home: Path | None = None) -> list[tuple[str, Path]]:
    """(agent, folder) pairs to search. With `home`, environment overrides are ignored."""
    env = {} if home is not None else os.environ
    home = home if home is not None else Path.home()
    claude = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home / ".claude"
    codex = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    data = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home / ".local" / "share"
    gemini = Path(env["GEMINI_CLI_HOME"]) if env.get("GEMINI_CLI_HOME") else home
    return [
        ("claude-code", claude / "projects"),
        ("codex", codex / "sessions"),
        ("codex", codex / "archived_sessions"),
        ("opencode", data / "opencode"),
        ("gemini", gemini / ".gemini" / "tmp"),
        ("aider", home),
    ]


def _candidate_files(agent: str, folder: Path) -> Iterator[Path]:
    if not folder.is_dir():
        return
    if agent == "claude-code":
        yield from folder.glob("*/*.jsonl")
    elif agent == "codex":
        yield from folder.rglob("rollout-*.jsonl")
    elif agent == "opencode":
        yield from sorted(folder.glob("opencode*.db"))
        if (folder / "storage").is_dir():
            yield folder / "storage"
    elif agent == "gemini":
        yield from folder.glob("*/chats/*.jsonl")
        yield from folder.glob("*/chats/session-*.json")
    elif agent == "aider":
        history = folder / ".aider.chat.history.md"
        if history.is_file():
            yield history


def discover_sessions(roots: Iterable[Path] | None = None) -> list[SessionRef]:
    """Every session in the agents' default locations, newest change first."""
    homes: list[Path | None] = list(roots) if roots else [None]
    refs: list[SessionRef] = []
    seen: set[str] = set()
    for home in homes:
        for agent, folder in agent_locations(home):
            for path in _candidate_files(agent, folder):
                key = os.path.realpath(path)
                if key in seen:
                    continue
                seen.add(key)
                refs.extend(_refs_for(path))
    refs.sort(key=lambda r: r.updated or 0.0, reverse=True)
    return refs


def _refs_for(path: Path) -> list[SessionRef]:
    try:
        spec = sniff_path(path)
    except OSError:
        return []
    if spec is None:
        return []
    try:
        refs = spec.refs(path)
    except (OSError, ValueError):
        return []
    return [with_quick_metadata(ref) for ref in refs]


def with_quick_metadata(ref: SessionRef) -> SessionRef:
    """Fill size, last change, start time and cwd from a stat and a few KB of the file."""
    path = ref.path
    try:
        st = path.stat()
    except OSError:
        return ref
    if path.is_dir():
        return replace(ref, updated=ref.updated or st.st_mtime)
    updates: dict[str, object] = {}
    if ref.size is None:
        updates["size"] = st.st_size
    if ref.updated is None:
        updates["updated"] = st.st_mtime
    if (ref.started is None or ref.cwd is None) and ref.key is None:
        try:
            with open(path, "rb") as handle:
                head = handle.read(HEAD)
        except OSError:
            head = b""
        stamp = _TIMESTAMP.search(head)
        if ref.started is None and stamp:
            updates["started"] = parse_timestamp(stamp.group(1).decode("ascii", "replace"))
        cwd = _CWD.search(head)
        if ref.cwd is None and cwd:
            updates["cwd"] = cwd.group(1).decode("utf-8", "replace").replace("\\\\", "\\")
    return replace(ref, **updates) if updates else ref  # type: ignore[arg-type]


def newest_session(roots: Iterable[Path] | None = None) -> SessionRef | None:
    refs = discover_sessions(roots)
    return refs[0] if refs else None
