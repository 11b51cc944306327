"""The newer agents' tool names get the same kinds as the older ones' (read, edit, plan, shell).

The detector tells a fix loop, an investigation and a launch apart by what the
calls do, so a tool it does not know is "other" and its evidence is lost.
"""

from __future__ import annotations

import pytest

from pivotal.detect.activity import command_of, tool_kind
from pivotal.detect.failures import tool_failed
from pivotal.detect.view import ToolView


def view(name: str, data: object, output: str = "", exit_code: int | None = None) -> ToolView:
    return ToolView(name, data, "", output, True, False, exit_code, None)


@pytest.mark.parametrize(
    ("name", "data", "kind"),
    [
        ("StrReplaceFile", {"path": "a.py", "old": "x", "new": "y"}, "edit"),  # Kimi
        ("WriteFile", {"path": "notes.txt", "content": "hi"}, "edit"),  # Kimi
        ("SetTodoList", {"todos": []}, "plan"),  # Kimi
        ("ReadFile", {"path": "a.py"}, "read"),  # Kimi
        ("editor", {"path": "notes.txt", "new_text": "hi"}, "edit"),  # Cline
        ("read_files", {"paths": ["a.py"]}, "read"),  # Cline
        ("Checklist", {"items": []}, "plan"),  # Cline
        ("search_replace", {"file_path": "a.py", "content": "x"}, "edit"),  # Vibe
        ("todo", {"action": "write"}, "plan"),  # Vibe
    ],
)
def test_each_agents_file_and_plan_tools_have_a_kind(name: str, data: object, kind: str) -> None:
    assert tool_kind(view(name, data)) == kind


def test_a_list_of_commands_is_read_as_shell_commands() -> None:
    call = view("run_commands", {"commands": ["pytest -q", "git status"]})
    assert command_of(call) == "pytest -q; git status"
    assert tool_kind(call) == "test"


def test_an_error_field_saying_none_is_no_failure() -> None:
    """Qwen's shell output always carries an `Error:` field; `(none)` means there was none."""
    output = "Command: make\nDirectory: (root)\nOutput: done\nError: (none)\nExit Code: (none)"
    assert not tool_failed(view("run_shell_command", {"command": "make"}, output))
    broken = output.replace("Error: (none)", "Error: make: *** [all] Error 2")
    assert tool_failed(view("run_shell_command", {"command": "make"}, broken))
