"""Homes for the search tests: Claude Code sessions written the way Claude Code writes them.

`claude_session(turns)` makes the JSON lines of one session from a short script:
("you", text), ("agent", text), ("bash", command, output) and ("image", base64). Each
record has the fields Claude Code 2.1 writes (uuid chain, cwd, sessionId, version,
tool results as user records with `toolUseResult`), so the real reader reads them.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[1] / "sample_sessions"
PROJECT = ".claude/projects/-home-dev-src-{name}"
START = 1_793_000_000.0  # 2026-10-26 UTC


def _stamp(seconds: float) -> str:
    import time

    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return f"{whole}.{int(seconds * 1000) % 1000:03d}Z"


def claude_session(
    turns: list[tuple[str, ...]], *, sid: str = "s-1", cwd: str = "/home/dev/src/w", start=START
) -> bytes:
    """The JSON lines of a Claude Code session playing `turns` one minute apart."""
    records: list[dict] = []
    parent = None
    for n, turn in enumerate(turns):
        kind = turn[0]
        when = _stamp(start + 60 * n)
        base = {
            "parentUuid": parent,
            "isSidechain": False,
            "timestamp": when,
            "cwd": cwd,
            "sessionId": sid,
            "version": "2.1.197",
            "gitBranch": "main",
        }
        uuid = f"{sid}-r{n}"
        if kind == "you":
            records.append(
                {
                    **base,
                    "type": "user",
                    "message": {"role": "user", "content": turn[1]},
                    "uuid": uuid,
                    "userType": "external",
                }
            )
        elif kind == "image":
            content = [
                {"type": "text", "text": turn[1]},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": turn[2]},
                },
            ]
            records.append(
                {
                    **base,
                    "type": "user",
                    "message": {"role": "user", "content": content},
                    "uuid": uuid,
                    "userType": "external",
                }
            )
        elif kind == "agent":
            records.append(
                {
                    **base,
                    "type": "assistant",
                    "uuid": uuid,
                    "message": {
                        "id": f"msg_{sid}_{n}",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-opus-4-8",
                        "content": [{"type": "text", "text": turn[1]}],
                        "stop_reason": "end_turn",
                        "usage": {"input_tokens": 10, "output_tokens": 10},
                    },
                }
            )
        elif kind == "bash":
            tool = f"toolu_{sid}_{n}"
            records.append(
                {
                    **base,
                    "type": "assistant",
                    "uuid": uuid,
                    "message": {
                        "id": f"msg_{sid}_{n}",
                        "type": "message",
                        "role": "assistant",
                        "model": "claude-opus-4-8",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": tool,
                                "name": "Bash",
                                "input": {"command": turn[1], "description": "Run it"},
                            }
                        ],
                        "stop_reason": "tool_use",
                        "usage": {"input_tokens": 10, "output_tokens": 10},
                    },
                }
            )
            parent = uuid
            uuid = f"{uuid}-result"
            records.append(
                {
                    **base,
                    "parentUuid": parent,
                    "timestamp": _stamp(start + 60 * n + 5),
                    "type": "user",
                    "uuid": uuid,
                    "message": {
                        "role": "user",
                        "content": [
                            {
                                "tool_use_id": tool,
                                "type": "tool_result",
                                "content": turn[2],
                                "is_error": False,
                            }
                        ],
                    },
                    "toolUseResult": {"stdout": turn[2], "stderr": "", "interrupted": False},
                }
            )
        else:
            raise ValueError(kind)
        parent = uuid
    return b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)


def write_claude(home: Path, name: str, turns: list[tuple[str, ...]], **kw) -> Path:
    """Write a session under `home` where Claude Code keeps a project's sessions."""
    folder = home / PROJECT.format(name=name)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    path.write_bytes(claude_session(turns, sid=name, cwd=f"/home/dev/src/{name}", **kw))
    stamp = kw.get("start", START) + 3600
    os.utime(path, (stamp, stamp))
    return path


def copy_codex_sample(home: Path, name: str = "seed_dead_end") -> Path:
    folder = home / ".codex/sessions/2026/11/02"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"rollout-2026-11-02T08-40-00-{name}.jsonl"
    shutil.copy(SAMPLES / "codex" / f"{name}.jsonl", target)
    return target


def tree_state(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under `root` with its size, mtime and mode: what must not change."""
    state = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        state[str(path)] = (st.st_size, st.st_mtime_ns, st.st_mode)
    return state
