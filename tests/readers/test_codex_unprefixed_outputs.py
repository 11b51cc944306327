"""Codex tool outputs that do not open with `Exit code: N`: how each is read as failed or not.

A call failed when the file says so: its `success: false`, an exit code other than 0 (from
the wrapper around the output, or the `exec_command_end` event), a failed status, or Codex's
own words that the call never ran. An output that says none of these has no exit code and
did not fail. Shapes from real rollouts (text written for the tests):

* 0.115 on, `exec_command` and `write_stdin` outputs open with `Command: <the command>` (a
  heredoc runs it over several lines) before `Chunk ID` / `Wall time` / `Process exited with
  code N` / `Output:`; without the event, that line is the only exit code there is;
* Codex refusing or failing to run a call, with no exit code: "failed in sandbox …"
  (0.3x-0.4x), "exec_command failed: …", "write_stdin failed: …", "`cmd` rejected: …",
  "aborted by user" under a `Wall time` line;
* other tools' plain results ("Plan updated", a sub-agent wait that timed out).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.model import SessionRef
from pivotal.readers.codex import SPEC
from pivotal.readers.codex_records import unwrap

from .codex_builders import Rollout

HEREDOC = (
    "Command: /bin/zsh -lc \"python3 - <<'PY'\nfrom pathlib import Path\n"
    "print(len(Path('ledger/import.py').read_text()))\nPY\"\n"
    "Chunk ID: 0bdc5d\nWall time: 0.1832 seconds\nProcess exited with code 1\n"
    "Original token count: 31\nOutput:\nTraceback (most recent call last):\n"
    "FileNotFoundError: [Errno 2] No such file or directory: 'ledger/import.py'\n"
)
RUNNING = (
    "Command: /bin/bash -lc 'python3 -m unittest discover -s test -v'\nChunk ID: d25277\n"
    "Wall time: 1.0012 seconds\nProcess running with session ID 61841\n"
    "Original token count: 9\nOutput:\ntest_dates (test_import.DatesTest) ... ok\n"
)
PASSED = (
    "Command: /bin/zsh -lc 'git status --short'\nChunk ID: 8c925c\nWall time: 0.0000 seconds\n"
    "Process exited with code 0\nOriginal token count: 0\nOutput:\n"
)


@pytest.mark.parametrize(
    ("text", "output", "exit_code", "duration"),
    [
        (
            HEREDOC,
            "Traceback (most recent call last):\n"
            "FileNotFoundError: [Errno 2] No such file or directory: 'ledger/import.py'\n",
            1,
            183.2,
        ),
        (RUNNING, "test_dates (test_import.DatesTest) ... ok\n", None, 1001.2),
        (PASSED, "", 0, 0.0),
    ],
    ids=["heredoc-exit-1", "still-running", "exit-0-no-output"],
)
def test_a_wrapper_headed_by_its_command_is_unwrapped(
    text: str, output: str, exit_code: int | None, duration: float
) -> None:
    found = unwrap(text)
    assert found is not None
    assert (found.output, found.exit_code, found.duration_ms) == (output, exit_code, duration)


@pytest.mark.parametrize(
    "text",
    ["Command: make test\nmake: *** No rule to make target 'test'.  Stop.\n", "Command: ls"],
)
def test_a_command_line_without_a_wrapper_after_it_is_kept_whole(text: str) -> None:
    assert unwrap(text) is None


REFUSALS = [
    "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code:"
    " 1, stdout: , stderr: bash: cannot create temp file for here document: Operation not"
    " permitted\n",
    "failed in sandbox None with execution error: command timed out",
    'exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied { output: '
    'ExecToolCallOutput { exit_code: 128, stdout: StreamOutput { text: \\"\\", '
    'truncated_after_lines: None } } }))" }',
    "exec_command failed for `/bin/zsh -lc 'rm -rf build'`: CreateProcess { message: "
    '"Rejected(\\"approval required by policy, but AskForApproval is set to Never\\")" }',
    "write_stdin failed: stdin is closed for this session; rerun exec_command with tty=true to"
    " keep stdin open",
    "Wall time: 11.7 seconds\naborted by user",  # the person's interrupt, under a time line
    '`"C:\\\\Windows\\\\System32\\\\WindowsPowerShell\\\\v1.0\\\\powershell.exe" -Command'
    " 'Remove-Item -Recurse -Force build\n Write-Output done'` rejected: blocked by policy",
]
NOT_FAILED = [
    ("update_plan", "Plan updated"),
    ("wait_agent", '{"status":{},"timed_out":true}'),
    ("exec_command", PASSED),
    ("exec_command", RUNNING),
    ("shell_command", "`rm -rf build` is what the README says to run; it is not rejected: ok\n"),
]


def _rollout(outputs: list[tuple[str, str]]) -> Rollout:
    """One turn of a 0.118 rollout: each call and its output, no `exec_command_end` events."""
    rollout = Rollout(session_id="019d5247-8044-7113-a227-a181e2c40e45")
    rollout.meta("0.118.0")
    rollout.environment()
    rollout.both("Run the ledger importer's tests and clean the build folder")
    for n, (name, output) in enumerate(outputs):
        arguments = {"cmd": "make test", "workdir": "/home/dev/ledger", "yield_time_ms": 1000}
        rollout.add(
            "response_item",
            {
                "type": "function_call",
                "name": name,
                "arguments": json.dumps(arguments),
                "call_id": f"call_{n}",
            },
        )
        rollout.add(
            "response_item",
            {"type": "function_call_output", "call_id": f"call_{n}", "output": output},
        )
    rollout.reply("Done.")
    return rollout


def _calls(tmp_path: Path, outputs: list[tuple[str, str]]):
    path = _rollout(outputs).write(tmp_path)
    reader = SPEC.open(SessionRef(format="codex", path=path))
    reader.poll(final=True)
    assert reader.session.skipped == []
    return [c for t in reader.session.turns for c in t.tool_calls]


def test_a_command_headed_wrapper_gives_the_exit_code_and_only_the_output(
    tmp_path: Path,
) -> None:
    (call,) = _calls(tmp_path, [("exec_command", HEREDOC)])
    assert (call.exit_code, call.failed, call.status) == (1, True, "error")
    assert call.output.startswith("Traceback") and "Chunk ID" not in call.output


@pytest.mark.parametrize("text", REFUSALS)
def test_codex_saying_a_call_failed_or_never_ran_is_a_failure(tmp_path: Path, text: str) -> None:
    (call,) = _calls(tmp_path, [("exec_command", text)])
    assert call.exit_code is None  # none is stated: none is made up
    assert call.failed and call.status == "error"
    assert call.output == text


def test_an_output_that_says_no_failure_did_not_fail(tmp_path: Path) -> None:
    calls = _calls(tmp_path, NOT_FAILED)
    assert [(c.name, c.exit_code, c.failed) for c in calls] == [
        ("update_plan", None, False),
        ("wait_agent", None, False),
        ("exec_command", 0, False),
        ("exec_command", None, False),
        ("shell_command", None, False),
    ]
