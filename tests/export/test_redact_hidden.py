"""What a format never shows is not redacted: ids of messages, records and tool calls.

HTML, Markdown and asciicast show no message id, no record id (Claude Code's `uuid`)
and no tool call id; only the JSON export gives them. So the other formats leave
them as they are (`export._hidden`): redacting one costs as much as any short text
(thousands of them in a long session) and shows nothing. What makes that safe is
checked here: a session whose ids hold an e-mail address and a GitHub token shows
neither, nor any id, in the plain export of those formats, and the redacted JSON
export masks both.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pivotal import export
from pivotal.readers import find_sessions, read_session

from .planted import claude_record, decoded

GITHUB = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
EMAIL = "mara@ledgerly.example"
IDS = {
    "uuid": f"uuid-{GITHUB}",
    "message": f"msg_{EMAIL}",
    "tool": f"toolu_{GITHUB}",
}


def _session(tmp_path: Path) -> Path:
    use = {"type": "tool_use", "id": IDS["tool"], "name": "Bash", "input": {"command": "ls"}}
    result = {"type": "tool_result", "tool_use_id": IDS["tool"], "content": "a.txt"}
    said = {"type": "text", "text": "Let me look."}
    reply = {"id": IDS["message"], "type": "message", "role": "assistant", "model": "m"}
    lines = [
        claude_record(
            0, "user", {"role": "user", "content": "What is here?"}, uuid=IDS["uuid"], chained=False
        ),
        claude_record(1, "assistant", reply | {"content": [said, use]}, chained=False),
        claude_record(2, "user", {"role": "user", "content": [result]}, chained=False),
        claude_record(3, "user", {"role": "user", "content": "ok"}, chained=False),
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _data(path: Path) -> export.ExportInput:
    ref = find_sessions([path]).refs[0]
    # every silence a pivot, so the Markdown shows the excerpt around it
    return export.build_input(ref, read_session(ref), with_notes=False, sensitivity="1.0")


@pytest.mark.parametrize("fmt", ["html", "md", "cast"])
def test_a_format_that_shows_no_id_leaves_them_unredacted_and_uncounted(tmp_path, fmt) -> None:
    data = _data(_session(tmp_path))
    turns = data.session.turns
    assert turns[0].source.record_id == IDS["uuid"]  # the reader keeps each id (so this
    assert any(t.message_id == IDS["message"] for t in turns)  # checks what it says)
    assert any(c.call_id == IDS["tool"] for t in turns for c in t.tool_calls)
    assert export._hidden(fmt) == {"message_id", "record_id", "call_id"}
    plain = decoded(fmt, export.render(fmt, _data(_session(tmp_path))))
    counts: Counter[str] = Counter()
    redacted = decoded(fmt, export.render(fmt, data, redact=True, counts=counts))
    for shown in (plain, redacted):
        for text in (*IDS.values(), GITHUB, EMAIL, GITHUB[:12], EMAIL.split("@")[1]):
            assert text not in shown, (fmt, text)
    assert "Let me look." in plain and "Let me look." in redacted
    # nothing the reader sees was masked, so nothing is counted
    assert not counts, counts


def test_the_json_export_shows_the_ids_and_masks_them(tmp_path) -> None:
    data = _data(_session(tmp_path))
    assert export._hidden("json") == frozenset()
    plain = export.render("json", _data(_session(tmp_path)))
    assert all(json.dumps(i)[1:-1] in plain for i in IDS.values())
    counts: Counter[str] = Counter()
    redacted = export.render("json", data, redact=True, counts=counts)
    assert GITHUB not in redacted and EMAIL not in redacted
    assert counts["github-pat"] >= 2 and counts["email"] >= 1
