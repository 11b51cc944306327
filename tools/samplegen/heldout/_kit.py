"""Shared helpers for the held-out scenarios: tool calls in the writers' neutral vocabulary.

The writers take Claude Code's tool names (Bash, Read, Edit, Write, Grep, TodoWrite) as the neutral
spelling and translate them per format (exec_command / update_plan for Codex, bash / todowrite for
opencode, …), so scenarios are written once here. This file holds no scenarios of its own.
"""

from __future__ import annotations

from samplegen.dsl import A, Compact, H, Interrupt, Meta, Nudge, Scenario, Step, T

__all__ = ["A", "Compact", "H", "Interrupt", "Kit", "Meta", "Nudge", "Scenario", "Step", "T"]

# make.py writes every module in this folder; this one is a helper, so it contributes nothing.
SCENARIOS: list[Scenario] = []
FORMATS: list[str] = []


class Kit:
    """Builds neutral tool calls rooted at one working directory, so scenarios stay short."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd

    def _abs(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.cwd}/{path}"

    def sh(
        self, cmd: str, out: str = "", code: int = 0, ms: int | None = None, desc: str = ""
    ) -> T:
        """A shell command with its combined output; a non-zero exit code is an error."""
        inp = {"command": cmd, "description": desc or cmd.split("\n")[0][:60]}
        return T("Bash", inp, output=out, error=code != 0, exit_code=code, duration_ms=ms)

    def read(self, path: str, out: str) -> T:
        """Read a file."""
        return T("Read", {"file_path": self._abs(path)}, output=out)

    def edit(self, path: str, old: str, new: str, out: str = "", error: bool = False) -> T:
        """Replace one snippet in a file."""
        p = self._abs(path)
        msg = out or f"The file {p} has been updated successfully."
        return T(
            "Edit", {"file_path": p, "old_string": old, "new_string": new}, output=msg, error=error
        )

    def write(self, path: str, content: str) -> T:
        """Create or overwrite a file."""
        p = self._abs(path)
        return T(
            "Write",
            {"file_path": p, "content": content},
            output=f"File created successfully at: {p}",
        )

    def grep(self, pattern: str, path: str, out: str) -> T:
        """Search the tree."""
        inp = {"pattern": pattern, "path": self._abs(path), "output_mode": "content"}
        return T("Grep", inp, output=out)

    def todo(self, items: list[tuple[str, str]]) -> T:
        """The agent's task list: (text, status) with status pending / in_progress / completed."""
        todos = [{"content": t, "status": s, "activeForm": _active(t)} for t, s in items]
        msg = (
            "Todos have been modified successfully. Ensure that you continue to use the todo list "
            "to track your progress. Please proceed with the current tasks if applicable"
        )
        return T("TodoWrite", {"todos": todos}, output=msg)


def _active(text: str) -> str:
    """Claude's activeForm: the imperative turned into a present participle, roughly."""
    first, _, rest = text.partition(" ")
    if first.endswith("e") and not first.endswith("ee"):
        first = first[:-1]
    return f"{first}ing {rest}".strip()
