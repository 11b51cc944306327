"""Where each agent keeps its sessions: the folders to search and the files in them.

Each agent's location honours its own environment variable (CLAUDE_CONFIG_DIR,
CODEX_HOME, XDG_DATA_HOME for opencode and Kilo, GEMINI_CLI_HOME, QWEN_RUNTIME_DIR then
QWEN_HOME, CONTINUE_GLOBAL_DIR, KIMI_SHARE_DIR and KIMI_CODE_HOME, VIBE_HOME,
CLINE_SESSION_DATA_DIR / CLINE_DATA_DIR / CLINE_DIR); a given home ignores them (for
copies of other machines' homes and for tests). Nothing here opens a file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path


def agent_locations(home: Path | None = None) -> list[tuple[str, Path]]:
    """(agent, folder) pairs to search. With `home`, environment overrides are ignored."""
    env = {} if home is not None else os.environ
    home = home if home is not None else Path.home()
    claude = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else home / ".claude"
    codex = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    data = Path(env["XDG_DATA_HOME"]) if env.get("XDG_DATA_HOME") else home / ".local" / "share"
    gemini = Path(env["GEMINI_CLI_HOME"]) if env.get("GEMINI_CLI_HOME") else home
    qwen = first_set(env, "QWEN_RUNTIME_DIR", "QWEN_HOME") or home / ".qwen"
    continue_dir = first_set(env, "CONTINUE_GLOBAL_DIR") or home / ".continue"
    kimi = first_set(env, "KIMI_SHARE_DIR") or home / ".kimi"
    kimi_code = first_set(env, "KIMI_CODE_HOME") or home / ".kimi-code"
    vibe = first_set(env, "VIBE_HOME") or home / ".vibe"
    cline_dir = first_set(env, "CLINE_DIR") or home / ".cline"
    cline_data = first_set(env, "CLINE_DATA_DIR") or cline_dir / "data"
    cline = first_set(env, "CLINE_SESSION_DATA_DIR") or cline_data / "sessions"
    return [
        ("claude-code", claude / "projects"),
        ("codex", codex / "sessions"),
        ("codex", codex / "archived_sessions"),
        ("opencode", data / "opencode"),
        ("kilo", data / "kilo"),
        ("gemini", gemini / ".gemini" / "tmp"),
        ("qwen", qwen / "projects"),
        ("qwen", qwen / "tmp"),  # before 0.5: whole-file chats, as Gemini CLI kept them
        ("continue", continue_dir / "sessions"),
        ("kimi", kimi / "sessions"),
        ("kimi", kimi_code / "sessions"),
        ("vibe", vibe / "logs" / "session" / "unified"),
        ("vibe", vibe / "logs" / "session"),  # before Vibe 3: session_<time>_<id>/
        ("cline", cline),
        ("aider", home),
    ]


def first_set(env: Mapping[str, str], *names: str) -> Path | None:
    """The folder named by the first of `names` that is set (and not empty)."""
    for name in names:
        if env.get(name):
            return Path(env[name])
    return None


def candidate_files(agent: str, folder: Path) -> Iterator[Path]:
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
    elif agent == "kilo":
        yield from sorted(folder.glob("kilo*.db"))
    elif agent == "qwen":
        yield from folder.glob("*/chats/*.jsonl")
        yield from folder.glob("*/chats/session-*.json")
    elif agent == "continue":
        yield from (p for p in sorted(folder.glob("*.json")) if p.name != "sessions.json")
    elif agent == "cline":
        yield from (
            p for p in sorted(folder.glob("*")) if (p / f"{p.name}.messages.json").is_file()
        )
    elif agent == "kimi":
        yield from (
            p
            for p in sorted(folder.glob("*/*"))
            if (p / "wire.jsonl").is_file()
            or (p / "context.jsonl").is_file()
            or (p / "agents" / "main" / "wire.jsonl").is_file()  # Kimi Code
        )
    elif agent == "vibe":
        yield from (
            p
            for p in sorted(folder.glob("*"))
            if (p / "CURRENT").is_file()
            or ((p / "messages.jsonl").is_file() and (p / "meta.json").is_file())
        )
    elif agent == "gemini":
        for chats in sorted(folder.glob("*/chats")):
            yield from gemini_chats(chats)
    elif agent == "aider":
        history = folder / ".aider.chat.history.md"
        if history.is_file():
            yield history


def gemini_chats(chats: Path) -> Iterator[Path]:
    """A Gemini CLI project's chats: its sessions, and the sub-agents' own chats
    (`<parent session id>/<id>.jsonl`). The listing leaves a sub-agent to its session when
    that session is listed and reaches it (`readers.subagent_refs`); any other (its
    session's file deleted, or tied to none of its calls) is a session of its own."""
    try:
        with os.scandir(chats) as entries:
            listed = [(entry.name, entry.is_dir()) for entry in entries]
    except OSError:
        return
    for name in sorted(name for name, folder in listed if not folder):
        if name.endswith(".jsonl") or (name.startswith("session-") and name.endswith(".json")):
            yield chats / name
    for name in sorted(name for name, folder in listed if folder):
        try:
            inside = sorted(os.listdir(chats / name))
        except OSError:
            continue
        yield from (chats / name / f for f in inside if f.endswith((".jsonl", ".json")))
