"""Codex "code mode" (2026): the model runs a script through a custom `exec` tool.

Its output is a list of `input_text` blocks: the first is the wrapper (`Script completed`
or `Script failed`, `Wall time 0.2 seconds`, `Output:`), the rest the script's output. The
call shows the script's output without the wrapper, the wall time as its duration, and
`Script failed` as an error; a script that completed says nothing of the exit codes of the
commands it ran, so none is made up. Output that only mentions those words is kept whole.
Text written for the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.readers import find_sessions, read_session

from .codex_builders import Rollout

UUID = "019f980c-0000-7000-8000-00000000c0de"
SCRIPT = 'const r = await tools.exec_command({"cmd":"rg -n TODO src"}); text(r.output);\n'


def _blocks(*texts: str) -> list[dict]:
    return [{"type": "input_text", "text": text} for text in texts]


CASES = {
    "completed": (
        _blocks("Script completed\nWall time 0.2 seconds\nOutput:\n", "src/a.py:3: TODO\n"),
        ("src/a.py:3: TODO\n", False, 200.0),
    ),
    "failed": (
        _blocks("Script failed\nWall time 0.0 seconds\nOutput:\n", "Script error:\nno cell 7"),
        ("Script error:\nno cell 7", True, 0.0),
    ),
    "running": (
        _blocks("Script running with cell ID 3\nWall time 10.0 seconds\nOutput:\n"),
        ("", False, 10000.0),
    ),
    # hard negatives: a tool's own words, no wrapper
    "mentions": (
        _blocks("Script completed? no: the build\nwas never started", "second block"),
        ("Script completed? no: the build\nwas never started\nsecond block", False, None),
    ),
    "plain-string": (
        "Script failed to parse, see log",
        ("Script failed to parse, see log", False, None),
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_code_mode_output_is_the_scripts_own(tmp_path: Path, case: str) -> None:
    output, (text, error, duration) = CASES[case]
    rollout = Rollout(session_id=UUID)
    rollout.meta(version="0.140.0")
    rollout.both("find the TODOs")
    call = {"type": "custom_tool_call", "status": "completed", "call_id": "call_x1"}
    rollout.add("response_item", {**call, "name": "exec", "input": SCRIPT})
    result = {"type": "custom_tool_call_output", "call_id": "call_x1", "output": output}
    rollout.add("response_item", result)
    rollout.reply("One TODO, in src/a.py.")
    session = read_session(find_sessions([rollout.write(tmp_path)]).refs[0])
    (made,) = [c for t in session.turns for c in t.tool_calls]
    assert (made.name, made.output, made.is_error, made.exit_code) == ("exec", text, error, None)
    assert made.duration_ms == duration
    assert json.dumps(made.input) == json.dumps(SCRIPT)
