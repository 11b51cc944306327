"""Short constructors for held-out scenarios, so each module reads like the session it describes.

Helpers only (the leading underscore keeps make.py from treating this as a scenario module).
"""

from __future__ import annotations

from samplegen.dsl import A, T

Todo = tuple[str, str]


def sh(cmd: str, out: str = "", code: int | None = None, ms: int | None = None) -> T:
    """A shell command; a non-zero `code` marks it failed, as the agent saw it."""
    return T("Bash", {"command": cmd}, out, error=bool(code), exit_code=code, duration_ms=ms)


def hang(cmd: str, out: str = "", ms: int = 600_000) -> T:
    """A command cut off by the tool's timeout: failed, with no exit code."""
    return T("Bash", {"command": cmd}, out, error=True, exit_code=None, duration_ms=ms)


def rd(path: str, out: str) -> T:
    return T("Read", {"file_path": path}, out)


def ed(path: str, old: str, new: str) -> T:
    return T("Edit", {"file_path": path, "old_string": old, "new_string": new})


def wr(path: str, content: str) -> T:
    return T("Write", {"file_path": path, "content": content})


def gr(pattern: str, path: str, out: str) -> T:
    return T("Grep", {"pattern": pattern, "path": path}, out)


def todo(*items: Todo) -> T:
    """A task-list update: (content, status) pairs, status pending / in_progress / completed."""
    return T(
        "TodoWrite",
        {"todos": [{"content": c, "status": s, "activeForm": c} for c, s in items]},
        "Todos have been modified successfully.",
    )


def a(text: str = "", *tools: T, think: str = "") -> A:
    """One model response."""
    return A(text=text, reasoning=think, tools=list(tools))
