"""A Codex shell call's command reads as a person types it, wherever it is shown.

Codex records `{"command": ["bash", "-lc", "npm test -- …"], "workdir": …}`. The search
snippets printed `shell: command: ['bash', '-lc', 'npm test -- «X»']` (the daily-use
audit), the replayer's expanded call `command: ["bash", "-lc", …]`, its header and the
exports' call lines `bash -lc npm test -- --grep login flow` (the quotes that made the
script one word gone). Now each shows the script a shell wrapper was given
(`npm test -- --grep 'login flow'`, as Codex's own terminal does), any other list of words
joined with shell quoting (`rg -n 'TODO list' src`).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.model import SessionRef, ToolCall
from pivotal.readers import read_session
from pivotal.text.shell import command_line, input_lines, shown_argument, shown_input
from readers.codex_builders import Rollout

SCRIPT = "npm test -- --grep 'login flow'"
WORDS = ["rg", "-n", "TODO list", "src"]
TYPED = "rg -n 'TODO list' src"
LISTED = ("['bash'", '["bash"', "'-lc'", '"-lc"', "['rg'", '["rg"', "bash -lc npm")


@pytest.mark.parametrize(
    ("words", "typed"),
    [
        (["bash", "-lc", SCRIPT], SCRIPT),
        (["/bin/bash", "-lc", "ls -la && echo hi > seed.txt"], "ls -la && echo hi > seed.txt"),
        (["zsh", "-c", "make"], "make"),
        (["pwsh.exe", "-NoProfile", "-Command", "Get-ChildItem"], "Get-ChildItem"),
        (WORDS, TYPED),
        (["bash", "-lc"], "bash -lc"),  # no script: the words as they are
        (["bash", "script.sh", "-c", "x"], "bash script.sh -c x"),  # a script file, not -c
        (["apply_patch", "*** Begin Patch\n*** End Patch"], None),
    ],
)
def test_a_list_of_words_reads_as_typed(words: list[str], typed: str | None) -> None:
    line = command_line(words)
    assert line == (typed if typed is not None else shlex.join(words))
    assert shlex.split(line) == words or typed == words[-1]  # quoting keeps the words


def test_inputs_other_than_a_command_are_left_as_they_are() -> None:
    paths = {"paths": ["a b", "c"], "command": "make test"}
    assert shown_input(paths) == paths and input_lines(paths) == (
        'paths: ["a b", "c"]\ncommand: make test'  # as JSON, as the transcript shows it
    )
    assert shown_input(["bash", "-lc", "x"]) == ["bash", "-lc", "x"]  # not a call's dict
    listing = ToolCall("c1", "todo", {"commands": ["npm test", "ls"]})
    assert shown_argument(listing) == "npm test ls"  # a list of commands, not one's words


def _codex_session(tmp_path: Path) -> Path:
    """A Codex rollout whose agent ran a shell script and a plain list of words."""
    rollout = Rollout(session_id="019a0000-1111-7222-8333-444455556666")
    rollout.meta()
    rollout.environment()
    rollout.both("Run the login tests and find the open TODOs.")
    for n, words in enumerate((["bash", "-lc", SCRIPT], WORDS)):
        arguments = {"command": words, "workdir": "/home/dev/printer-kit", "timeout_ms": 120000}
        rollout.add(
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "arguments": json.dumps(arguments),
                "call_id": f"call_{n}",
            },
            gap=2.0,
        )
        output = json.dumps({"output": "ok\n", "metadata": {"exit_code": 0}})
        rollout.add(
            "response_item",
            {"type": "function_call_output", "call_id": f"call_{n}", "output": output},
        )
    rollout.add("event_msg", {"type": "agent_message", "message": "Both ran."}, gap=1.0)
    rollout.message("assistant", [{"type": "output_text", "text": "Both ran."}])
    return rollout.write(tmp_path / "home")


def _calls(path: Path) -> list[ToolCall]:
    session = read_session(SessionRef(format="codex", path=path))
    return [call for turn in session.turns for call in turn.tool_calls]


def _listed(text: str) -> list[str]:
    return [mark for mark in LISTED if mark in text]


def test_search_snippets_show_the_command_as_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    path = _codex_session(tmp_path)
    home = tmp_path / "home"
    found = invoke("search", "login flow", "--root", home)
    assert found.exit_code == 0, found.output
    [row] = found.stdout.splitlines()[1:]
    assert "shell: command: npm test -- --grep '«login» «flow»'" in row, row
    assert not _listed(row), row
    hits = invoke("search", "TODO list", "--json", path)
    [hit] = [json.loads(line) for line in hits.stdout.splitlines()]
    assert hit["snippet"].startswith(f"shell: command: {TYPED} workdir:"), hit["snippet"]


def test_the_replayer_and_the_exports_show_the_command_as_typed(tmp_path: Path) -> None:
    from pivotal.export.common import tool_input_text, tool_line
    from pivotal.tui.clip import command_of
    from pivotal.tui.find import input_text
    from pivotal.tui.render import Palette, format_input, tool_header

    shell, words = _calls(_codex_session(tmp_path))
    assert "bash -lc npm test" in shell.key_argument()  # the detector's words are unchanged
    palette = Palette()
    for call, typed in ((shell, SCRIPT), (words, TYPED)):
        header = tool_header(call, False, palette).plain
        shown = format_input(call.input)
        assert header.endswith(f"shell  {typed}") and not _listed(header), header
        assert shown.startswith(f"command: {typed}\nworkdir: ") and not _listed(shown), shown
        assert input_text(call.input).startswith(f"command: {typed}\n")  # what `/` finds
        assert command_of(call) == typed  # what `y` copies
        assert tool_line(call).startswith(f"shell: {typed}  (")
        exported = json.loads(tool_input_text(call, 4000))
        assert exported["command"] == typed and exported["timeout_ms"] == 120000


def test_the_html_export_lists_the_command_as_typed(tmp_path: Path) -> None:
    """(The Markdown report shows the turns around each pivot only: `tool_line` above.)"""
    result = invoke("export", _codex_session(tmp_path), "--to", "html")
    assert result.exit_code == 0, result.output
    text = result.stdout.replace("&#x27;", "'").replace("&#39;", "'").replace("&quot;", '"')
    assert f"shell: {SCRIPT}" in text and f"shell: {TYPED}" in text
    assert not _listed(text), _listed(text)


def test_structured_input_shows_its_characters_as_written() -> None:
    """A to-do list written in Chinese reads in Chinese, not as \\u escapes."""
    from pivotal.tui.render import format_input

    shown = format_input({"todos": [{"content": "修复登录页", "status": "pending"}]})
    assert "修复登录页" in shown and "\\u" not in shown
