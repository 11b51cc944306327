"""Export fixtures: the bundled demo, and the demo with hostile text and secrets injected.

The hostile copy keeps the demo's structure (so it has the same pivots) and
puts escape sequences, HTML, Markdown links to remote URLs and real-shaped
secrets where agents put them: in the first prompt and in tool output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pivotal
from pivotal.export import ExportInput, build_input
from pivotal.readers import find_sessions, read_session

DEMO = Path(pivotal.__file__).resolve().parent / "_demo" / "demo.jsonl"

OPENAI = "sk-proj-4fQ9xZ2mW7vB1nK8pL3sT6yH0cR5dJ9eA2gU7iO4wX1zV8bN3mQ6kP0t_Y5rE2uI9oL4a"
GITHUB = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
EMAIL = "mara.lind@ledgerly.io"
PEM_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
PEM = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----"
HOSTILE = (
    "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m \x9b2J <script>alert(1)</script>"
    ' <img src="https://evil.example/x.png"> [click](https://evil.example/)'
    " ![i](http://evil.example/i.png) ```` </pre></details> # not a heading"
)
SECRETS = (
    f"\nexport OPENAI_API_KEY={OPENAI}\ngit config user.email {EMAIL}\n"
    f"token {GITHUB} in /home/mara/src/app\n{PEM}\n"
)
SECRET_VALUES = [OPENAI, GITHUB, EMAIL, PEM_BODY, "/home/mara"]


def _hostile_copy(target: Path) -> Path:
    out = []
    prompt_done = tool_done = False
    for line in DEMO.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "assistant":
            for block in record["message"]["content"]:
                if block.get("type") == "text":  # every agent text: excerpts are near pivots
                    block["text"] = HOSTILE + SECRETS + "\n" + block["text"]
        message = record.get("message") if record.get("type") == "user" else None
        if message is not None:
            content = message["content"]
            if isinstance(content, str) and not prompt_done and len(content) > 5:
                message["content"] = content + " " + HOSTILE + SECRETS
                prompt_done = True
            elif isinstance(content, list) and not tool_done:
                for block in content:
                    if block.get("type") == "tool_result" and isinstance(block["content"], str):
                        block["content"] += "\n" + HOSTILE + SECRETS
                        tool_done = True
        out.append(json.dumps(record, ensure_ascii=False))
    assert prompt_done and tool_done
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
    return target


def _input(path: Path) -> ExportInput:
    """With the bar at 0.4: the exports are tested on how they show pivots, so the demo's
    labelled moments are pivots here whatever the fitted bar at normal (the hostile text put
    in front of every agent message lowers their confidence)."""
    ref = find_sessions([path]).refs[0]
    return build_input(ref, read_session(ref), with_notes=False, sensitivity="0.6")


@pytest.fixture(scope="session")
def demo_input() -> ExportInput:
    data = _input(DEMO)
    assert len(data.pivots) >= 2
    return data


@pytest.fixture(scope="session")
def hostile_input(tmp_path_factory) -> ExportInput:
    path = _hostile_copy(tmp_path_factory.mktemp("hostile") / "hostile.jsonl")
    data = _input(path)
    assert len(data.pivots) >= 2
    return data
