"""JSON export: the scan schema, extended with the transcript, marks and resume command."""

from __future__ import annotations

import json

from pivotal.export import render
from pivotal.export.jsonout import turn_json
from pivotal.readers import find_sessions, read_session
from pivotal.scan.report import session_json
from pivotal.text.safe import clean

from .conftest import DEMO, SECRET_VALUES


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_extends_the_scan_schema_without_changing_it(demo_input):
    out = json.loads(render("json", demo_input))
    scan = json.loads(
        json.dumps(session_json(demo_input.ref, demo_input.session, demo_input.pivots))
    )
    for key, value in scan.items():
        if key != "pivots":
            assert out[key] == value, key
    assert len(out["pivots"]) == len(scan["pivots"])
    for ours, theirs in zip(out["pivots"], scan["pivots"], strict=True):
        assert {k: v for k, v in ours.items() if k != "after"} == theirs
        assert set(ours["after"]) == {"agent_turns", "minutes", "ended_by"}
        assert ours["after"]["agent_turns"] > 0
    assert out["schema"] == "pivotal.export/1"
    assert out["turns"] == len(demo_input.session.turns)
    assert len(out["transcript"]) == out["turns"]
    assert out["resume"]["argv"][:2] == ["claude", "--resume"]


def test_transcript_keeps_parts_and_tool_calls(demo_input):
    out = json.loads(render("json", demo_input))
    for turn, data in zip(demo_input.session.turns, out["transcript"], strict=True):
        assert data["index"] == turn.index and data["role"] == turn.role.value
        assert data["source"]["line"] == turn.source.line
        assert data["source"]["record_id"] == turn.source.record_id
        assert [p["kind"] for p in data["parts"]] == [p.kind.value for p in turn.parts]
        tools = [p["tool"] for p in data["parts"] if "tool" in p]
        assert [t["name"] for t in tools] == [c.name for c in turn.tool_calls]
        assert [t["output"] for t in tools] == [
            clean(c.output) if c.output is not None else None for c in turn.tool_calls
        ]
        assert [t["failed"] for t in tools] == [c.failed for c in turn.tool_calls]
    anchor = out["transcript"][demo_input.pivots[0].turn]
    assert "human" in anchor["flags"] and anchor["who"] == "person"


def test_no_string_carries_control_codes(hostile_input):
    out = json.loads(render("json", hostile_input))
    strings = list(_strings(out))
    assert any("pwned" in s for s in strings)
    for s in strings:
        assert not any(0x80 <= ord(c) <= 0x9F or (ord(c) < 0x20 and c not in "\n\t") for c in s)


def test_redacted_json_has_no_secrets(hostile_input):
    plain = render("json", hostile_input)
    assert any(secret.replace("\n", "\\n") in plain for secret in SECRET_VALUES)
    out = render("json", hostile_input, redact=True)
    for secret in SECRET_VALUES:
        assert secret not in out
    assert json.loads(out)["transcript"]


def test_preview_is_filled_for_turns_not_decoded_yet_and_numbers_say_which_is_which():
    # a fresh read: Claude Code's assistant turns are decoded only when asked for
    session = read_session(find_sessions([DEMO]).refs[0])
    lazy = [t for t in session.turns if t.role.value == "assistant" and not t.preview]
    assert lazy, "the demo must have assistant turns whose preview waits for decoding"
    for turn in session.turns:
        data = turn_json(turn)
        text = " ".join(p["text"] for p in data["parts"] if p["kind"] == "text").strip()
        if text:
            assert data["preview"], data["index"]
        assert data["number"] == data["index"] + 1
