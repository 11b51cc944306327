"""The full pass reads a tool result's metadata in the same pass as the record.

Claude Code writes each tool output twice: in the content block and again in
`toolUseResult`, next to a few metadata fields (`interrupted`, `durationMs`,
`totalDurationMs`). `decode_for_parts` reads those fields while decoding the
record; a record that pass refuses is read in two steps as before (record, then
the metadata alone), so an odd metadata field never costs the rest of the record.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.readers.claude_parts import parts_from_records
from pivotal.readers.claude_records import _decode_in_two_steps, decode_for_parts


def _result_line(tool_use_result: object, content: object = "out", spaced: bool = False) -> bytes:
    """A tool-result record shaped like Claude Code's (compact JSON, keys in its order)."""
    record = {
        "parentUuid": "6c4c78d5-cfb9-4f96-b2c8-e24a82b7f557",
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/app",
        "sessionId": "1179fc94-3897-46e6-9dea-506726807c48",
        "version": "1.0.51",
        "type": "user",
        "message": {
            "role": "user",
            "content": [{"tool_use_id": "toolu_01", "type": "tool_result", "content": content}],
        },
        "toolUseResult": tool_use_result,
        "uuid": "5b0eb1f0-3223-4c29-bca9-b68d11da6a1d",
        "timestamp": "2025-06-01T19:00:31.385Z",
    }
    separators = (", ", ": ") if spaced else (",", ":")
    return json.dumps(record, separators=separators, ensure_ascii=False).encode()


BASH = {"stdout": "x" * 5000, "stderr": "", "interrupted": False, "isImage": False}


def test_bash_and_task_metadata():
    assert decode_for_parts(_result_line(BASH))["toolUseResult"] == {"interrupted": False}
    stopped = {**BASH, "interrupted": True}
    assert decode_for_parts(_result_line(stopped))["toolUseResult"] == {"interrupted": True}
    task = {
        "content": [{"type": "text", "text": "done", "durationMs": 7}],
        "totalDurationMs": 91234,
        "totalTokens": 5120,
    }
    # a nested durationMs is not the call's: only the top-level fields count
    assert decode_for_parts(_result_line(task))["toolUseResult"] == {"totalDurationMs": 91234.0}


def test_a_copy_that_is_not_an_object_has_no_metadata():
    for copy in ("Error: permission denied", ["a", {"interrupted": True}], 3, 2.5, True, None):
        rec = decode_for_parts(_result_line(copy))
        assert rec["toolUseResult"] == {}
        assert rec["message"]["content"][0]["content"] == "out"


def test_an_odd_metadata_field_drops_the_metadata_not_the_record():
    for copy in ({"interrupted": "yes", "durationMs": 5}, {"interrupted": True, "durationMs": "x"}):
        rec = decode_for_parts(_result_line(copy))
        assert rec["toolUseResult"] == {}
        assert rec["message"]["content"][0]["content"] == "out"
    parts = parts_from_records(
        [
            {
                "type": "assistant",
                "message": {
                    "content": [{"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {}}]
                },
            },
            decode_for_parts(_result_line({"interrupted": True, "durationMs": "x"})),
        ]
    )
    assert parts[0].tool is not None and parts[0].tool.status == "completed"


def test_a_line_msgspec_refuses_still_falls_back_to_the_lenient_decoder():
    # a Latin-1 byte inside the output: invalid UTF-8, which the lenient decoder replaces
    line = _result_line(BASH, "café").replace("é".encode(), b"\xe9")
    rec = decode_for_parts(line)
    assert rec["message"]["content"][0]["content"] == "caf\ufffd"
    assert rec == _decode_in_two_steps(line)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
META_KEYS = st.sampled_from(["interrupted", "durationMs", "totalDurationMs", "stdout", "isImage"])


@settings(max_examples=300, deadline=None)
@given(
    copy=JSON | st.dictionaries(META_KEYS, JSON, max_size=4),
    content=JSON,
    spaced=st.booleans(),
)
def test_one_pass_reads_what_two_steps_read(copy: object, content: object, spaced: bool):
    line = _result_line(copy, content, spaced)
    assert decode_for_parts(line) == _decode_in_two_steps(line)
