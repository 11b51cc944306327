"""Shared helpers for the held-out scenarios: tool calls spelled the way each agent spells them.

The held-out set is written once per module in one agent's own dialect (tool names and argument
shapes as that client sends them), so a module meant for Codex uses exec_command / update_plan and
one meant for opencode uses bash / todowrite. This file holds no scenarios of its own.
"""

from __future__ import annotations

from typing import Any

from sample_sessions._gen.dsl import A, Compact, H, Interrupt, Meta, Nudge, Scenario, Step, T

__all__ = ["A", "Compact", "H", "Interrupt", "Kit", "Meta", "Nudge", "Scenario", "Step", "T"]

# make.py writes every module in this folder; this one is a helper, so it contributes nothing.
SCENARIOS: list[Scenario] = []
FORMATS: list[str] = []

_TODO_TOOL = {
    "claude": "TodoWrite",
    "codex": "update_plan",
    "opencode": "todowrite",
    "gemini": "write_todos",
    "generic": "todo_write",
}


class Kit:
    """Builds tool calls in one agent's dialect so scenarios read like that agent's transcripts."""

    def __init__(self, dialect: str, cwd: str) -> None:
        self.dialect = dialect
        self.cwd = cwd

    def _abs(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.cwd}/{path}"

    def sh(
        self, cmd: str, out: str = "", code: int = 0, ms: int | None = None, desc: str = ""
    ) -> T:
        """A shell command with its combined output; non-zero exit codes are errors."""
        d = self.dialect
        inp: dict[str, Any]
        if d == "codex":
            name, inp = "exec_command", {"cmd": cmd}
        elif d == "gemini":
            name, inp = "run_shell_command", {"command": cmd, "description": desc or cmd[:60]}
        elif d == "opencode":
            name, inp = "bash", {"command": cmd, "description": desc or cmd[:60]}
        elif d == "claude":
            name, inp = "Bash", {"command": cmd, "description": desc or cmd[:60]}
        else:
            name, inp = "shell", {"command": cmd}
        return T(name, inp, output=out, error=code != 0, exit_code=code, duration_ms=ms)

    def read(self, path: str, out: str) -> T:
        """Read a file (Codex has no read tool: it cats through exec_command)."""
        p = self._abs(path)
        d = self.dialect
        if d == "codex":
            return self.sh(f"sed -n '1,200p' {path}", out)
        if d == "opencode":
            return T("read", {"filePath": p}, output=out)
        if d == "gemini":
            return T("read_file", {"file_path": p}, output=out)
        if d == "claude":
            return T("Read", {"file_path": p}, output=out)
        return T("read_file", {"path": p}, output=out)

    def edit(self, path: str, old: str, new: str, out: str = "", error: bool = False) -> T:
        """Replace one snippet in a file (Codex: an apply_patch heredoc through exec_command)."""
        p = self._abs(path)
        d = self.dialect
        if d == "codex":
            minus = "\n".join("-" + ln for ln in old.splitlines())
            plus = "\n".join("+" + ln for ln in new.splitlines())
            patch = (
                f"apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: {path}\n@@\n"
                f"{minus}\n{plus}\n*** End Patch\nPATCH"
            )
            msg = out or f"Success. Updated the following files:\nM {path}\n"
            return T(
                "exec_command", {"cmd": patch}, output=msg, error=error, exit_code=1 if error else 0
            )
        if d == "opencode":
            inp = {"filePath": p, "oldString": old, "newString": new}
            return T("edit", inp, output=out or "Edit applied successfully.", error=error)
        if d == "gemini":
            inp = {
                "file_path": p,
                "instruction": f"update {path}",
                "old_string": old,
                "new_string": new,
            }
            return T(
                "replace",
                inp,
                output=out or f"Successfully modified file: {p} (1 replacements).",
                error=error,
            )
        if d == "claude":
            inp = {"file_path": p, "old_string": old, "new_string": new}
            msg = out or f"The file {p} has been updated successfully."
            return T("Edit", inp, output=msg, error=error)
        return T("edit_file", {"path": p, "old": old, "new": new}, output=out or "ok", error=error)

    def write(self, path: str, content: str) -> T:
        """Create or overwrite a file."""
        p = self._abs(path)
        d = self.dialect
        if d == "codex":
            body = "\n".join("+" + ln for ln in content.splitlines())
            patch = f"apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: {path}\n{body}\n*** End Patch\nPATCH"
            return T(
                "exec_command",
                {"cmd": patch},
                output=f"Success. Updated the following files:\nA {path}\n",
                exit_code=0,
            )
        if d == "opencode":
            return T(
                "write", {"filePath": p, "content": content}, output="Wrote file successfully."
            )
        if d == "gemini":
            return T(
                "write_file",
                {"file_path": p, "content": content},
                output=f"Successfully created and wrote to new file: {p}.",
            )
        if d == "claude":
            return T(
                "Write",
                {"file_path": p, "content": content},
                output=f"File created successfully at: {p}",
            )
        return T("write_file", {"path": p, "content": content}, output="ok")

    def grep(self, pattern: str, path: str, out: str) -> T:
        """Search the tree (Codex and the generic dialect shell out to rg)."""
        d = self.dialect
        if d == "opencode":
            return T("grep", {"pattern": pattern, "path": self._abs(path)}, output=out)
        if d == "gemini":
            return T(
                "search_file_content", {"pattern": pattern, "dir_path": self._abs(path)}, output=out
            )
        if d == "claude":
            inp = {"pattern": pattern, "path": self._abs(path), "output_mode": "content"}
            return T("Grep", inp, output=out)
        return self.sh(f"rg -n '{pattern}' {path}", out)

    def todo(self, items: list[tuple[str, str]], note: str = "") -> T:
        """The agent's task list: (text, status) with status pending / in_progress / completed."""
        d = self.dialect
        name = _TODO_TOOL.get(d, "todo_write")
        if d == "codex":
            plan = [{"step": t, "status": s} for t, s in items]
            inp: dict[str, Any] = {"plan": plan}
            if note:
                inp["explanation"] = note
            return T(name, inp, output="Plan updated")
        if d == "gemini":
            todos = [{"description": t, "status": s} for t, s in items]
            lines = "\n".join(f"{i + 1}. [{s}] {t}" for i, (t, s) in enumerate(items))
            return T(name, {"todos": todos}, output=f"Successfully updated the todo list.\n{lines}")
        if d == "opencode":
            todos = [
                {
                    "content": t,
                    "status": s,
                    "priority": "high" if i < 2 else "medium",
                    "id": str(i + 1),
                }
                for i, (t, s) in enumerate(items)
            ]
            left = sum(1 for _, s in items if s != "completed")
            return T(name, {"todos": todos}, output=f"{left} todos")
        if d == "claude":
            todos = [{"content": t, "status": s, "activeForm": _active(t)} for t, s in items]
            msg = (
                "Todos have been modified successfully. Ensure that you continue to use the todo "
                "list to track your progress. Please proceed with the current tasks if applicable"
            )
            return T(name, {"todos": todos}, output=msg)
        return T(name, {"items": [{"text": t, "status": s} for t, s in items]}, output="ok")


def _active(text: str) -> str:
    """Claude's activeForm: the imperative turned into a present participle, roughly."""
    first, _, rest = text.partition(" ")
    if first.endswith("e") and not first.endswith("ee"):
        first = first[:-1]
    return f"{first}ing {rest}".strip()
