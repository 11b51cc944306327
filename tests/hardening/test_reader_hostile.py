"""Hand-made hostile inputs for every line-based reader: the ugly parts agents really write.

The BOM, lone-surrogate, deep-nesting and gemini wrong-type-id cases began as strict
xfails (reader bugs found here) and pass since the fixes in base.decode_json / gemini.
"""

from __future__ import annotations

import json
import time

import pytest

from pivotal.readers import find_sessions

from .fuzz_support import (
    IDS,
    JSON_FORMATS,
    JSON_IDS,
    LINE_FORMATS,
    LineFormat,
    encode,
    json_paths,
    mutate,
    read,
    session_file,
    signature,
    skipped_lines,
)

PROMPT = {
    "claude_code": b"Inspect this directory, try a few commands, and write notes.txt",
    "codex": b"Inspect this directory, try a few commands, and write notes.txt",
    "gemini": b"Inspect this directory, try a few commands, and write notes.txt",
    "generic": b"Inspect this directory, try a few commands, and write notes.txt",
    "aider": b"Create notes.txt with two lines",
}


def data_of(fmt: LineFormat, fixture: str | None = None) -> bytes:
    return b"\n".join(fmt.lines(fixture)) + b"\n"


def read_data(fmt: LineFormat, data: bytes) -> tuple:
    spec = fmt.spec()
    with session_file(data, fmt) as path:
        return read(spec, path)


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_crlf_file_reads_like_lf(fmt: LineFormat) -> None:
    data = data_of(fmt)
    lf = signature(read_data(fmt, data))
    assert signature(read_data(fmt, data.replace(b"\n", b"\r\n"))) == lf
    assert lf[0][2], "the fixture must give turns"


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_bom_before_first_record_is_tolerated(fmt: LineFormat) -> None:
    data = data_of(fmt)
    assert signature(read_data(fmt, b"\xef\xbb\xbf" + data)) == signature(read_data(fmt, data))


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_nul_escapes_are_read_as_text(fmt: LineFormat) -> None:
    data = data_of(fmt)
    clean = read_data(fmt, data)
    sessions = read_data(fmt, data.replace(PROMPT[fmt.id], b"Inspect\\u0000 \\u001b]0;x\\u0007"))
    assert [len(s.turns) for s in sessions] == [len(s.turns) for s in clean]
    assert not skipped_lines(sessions)
    texts = [p.text for s in sessions for t in s.turns for p in t.parts]
    assert any("Inspect\x00 \x1b]0;x\x07" in text for text in texts)


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_invalid_utf8_inside_strings_is_tolerated(fmt: LineFormat) -> None:
    data = data_of(fmt)
    clean = read_data(fmt, data)
    sessions = read_data(fmt, data.replace(PROMPT[fmt.id], b"Inspect \xff\xfe\xc3 this"))
    assert [len(s.turns) for s in sessions] == [len(s.turns) for s in clean]
    assert not skipped_lines(sessions)


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_lone_surrogate_escape_keeps_the_record(fmt: LineFormat) -> None:
    data = data_of(fmt)
    clean = read_data(fmt, data)
    sessions = read_data(fmt, data.replace(PROMPT[fmt.id], b"Inspect \\ud83d"))
    assert [len(s.turns) for s in sessions] == [len(s.turns) for s in clean]
    assert not skipped_lines(sessions)


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_raw_nul_record_is_recovered_and_the_rest_read(fmt: LineFormat) -> None:
    """A raw control byte is invalid JSON, but inside a string it was meant as text: keep it."""
    lines = fmt.lines()
    clean_sessions = read_data(fmt, b"\n".join(lines) + b"\n")
    broken = [
        line.replace(b"Inspect", b"I\x00") if PROMPT[fmt.id] in line else line for line in lines
    ]
    sessions = read_data(fmt, b"\n".join(broken) + b"\n")
    assert [len(s.turns) for s in sessions] == [len(s.turns) for s in clean_sessions]
    assert not skipped_lines(sessions)
    texts = [p.text for s in sessions for t in s.turns for p in t.parts]
    assert any("I\x00 this directory" in text for text in texts)


def numeric_keys_record(keys: int) -> bytes:
    """Claude Code's known corrupt record: a string spread into an object of its characters."""
    text = json.dumps({"type": "user", "message": {"content": "x" * (keys // 2)}})
    return encode({str(i): text[i % len(text)] for i in range(keys)})


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
@pytest.mark.parametrize("keys", [50, 300_000])
@pytest.mark.parametrize("where", ["last, no newline", "last", "middle"])
def test_numeric_keys_corrupt_record_costs_nothing(fmt: LineFormat, keys: int, where: str) -> None:
    lines = fmt.lines()
    bad = numeric_keys_record(keys)
    if where == "middle":
        data = b"\n".join([*lines[:5], bad, *lines[5:]]) + b"\n"
    else:
        data = b"\n".join([*lines, bad]) + (b"" if "no newline" in where else b"\n")
    expected = signature(read_data(fmt, data_of(fmt)), lines=False)
    assert signature(read_data(fmt, data), lines=False)[0][:4] == expected[0][:4]


def nested(depth: int) -> list[bytes]:
    return [b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth]


def with_nested_values(fmt: LineFormat, depth: int, max_path: int) -> bytes:
    """Every record again with each value (up to `max_path` deep) replaced by deep nesting."""
    out = list(fmt.lines())
    for line in fmt.lines():
        record = json.loads(line)
        for path in json_paths(record):
            if not 0 < len(path) <= max_path:
                continue
            for deep in nested(depth):
                variant = mutate(json.loads(line), path, "@@DEEP@@", delete=False)
                out.append(encode(variant).replace(b'"@@DEEP@@"', deep))
    return b"\n".join(out) + b"\n"


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_nested_values_anywhere_do_not_raise(fmt: LineFormat) -> None:
    data = with_nested_values(fmt, depth=50, max_path=4)
    first = signature(read_data(fmt, data))
    assert signature(read_data(fmt, data)) == first


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_wrong_type_message_id_does_not_raise(fmt: LineFormat) -> None:
    """Every `id` field turned into a list (gemini once raised TypeError on this)."""
    lines = fmt.lines()
    out = []
    for line in lines:
        record = json.loads(line)
        for path in json_paths(record):
            if path and path[-1] == "id":
                record = mutate(record, path, [1], delete=False)
        out.append(encode(record))
    read_data(fmt, b"\n".join(out) + b"\n")


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_very_deep_nesting_is_skipped_not_raised(fmt: LineFormat) -> None:
    lines = fmt.lines()
    data = b"\n".join([*lines[:3], *nested(20_000), *lines[3:]]) + b"\n"
    sessions = read_data(fmt, data)
    assert {4, 5} <= skipped_lines(sessions)


def test_finding_a_deeply_nested_file_does_not_raise() -> None:
    fmt = JSON_FORMATS[0]
    with session_file(nested(20_000)[0] + b"\n", fmt) as path:
        found = find_sessions([path])
    assert found.problems and not found.refs


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=IDS)
def test_single_50mb_line(fmt: LineFormat) -> None:
    """A 50 MB prompt is read as one turn with a short preview; a 50 MB junk line is skipped."""
    data = data_of(fmt)
    clean = read_data(fmt, data)
    huge = b"word " * 10_000_000
    start = time.perf_counter()
    sessions = read_data(fmt, data.replace(PROMPT[fmt.id], huge))
    assert time.perf_counter() - start < 60
    assert [len(s.turns) for s in sessions] == [len(s.turns) for s in clean]
    assert all(len(t.preview) <= 1000 for s in sessions for t in s.turns)
    assert any(len(p.text) >= 50_000_000 for s in sessions for t in s.turns for p in t.parts)
    if fmt.json_lines:
        lines = fmt.lines()
        junk = b'{"type":"user","message":{"content":"' + huge
        sessions = read_data(fmt, b"\n".join([*lines[:3], junk, *lines[3:]]) + b"\n")
        assert signature(sessions, lines=False)[0][2] == signature(clean, lines=False)[0][2]
        assert 4 in skipped_lines(sessions)
