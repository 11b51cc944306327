"""Fuzzing the Qwen reader with mutated records of the real files (see fuzzing.py)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from hardening.fuzz_support import (
    LineFormat,
    encode,
    garbage_line,
    read,
    session_file,
    signature,
    skipped_lines,
)
from pivotal.readers.qwen import SPEC

from .fuzzing import FUZZ_SETTINGS, mutated, read_everything
from .realhome import REAL

FMT = LineFormat("pivotal.readers.qwen", (), ".jsonl")
FILES = [next((REAL / name).rglob("*.jsonl")) for name in ("qwen-short", "qwen-autocompact")]
LINES = [line for path in FILES for line in path.read_bytes().splitlines()[:40]]
RECORDS = [json.loads(line) for line in LINES]


@FUZZ_SETTINGS
@given(st.data())
def test_records_with_wrong_types_in_any_field(data) -> None:
    records = mutated(data, RECORDS)
    with session_file(b"\n".join(encode(r) for r in records) + b"\n", FMT) as path:
        read_everything(path, SPEC)
        read(SPEC, path)  # read even when the mutation made the file unrecognisable


@FUZZ_SETTINGS
@given(st.lists(st.tuples(st.integers(1, len(LINES)), garbage_line(LINES)), max_size=5))
def test_garbage_lines_are_reported_and_cost_nothing(inserts) -> None:
    with session_file(b"\n".join(LINES) + b"\n", FMT) as path:
        clean = signature(read(SPEC, path), lines=False)
    lines = list(LINES)
    for position, garbage in sorted(inserts, key=lambda item: -item[0]):
        lines.insert(position, garbage)
    bad = {n for n, line in enumerate(lines, 1) if line not in LINES}
    with session_file(b"\n".join(lines) + b"\n", FMT) as path:
        sessions = read(SPEC, path)
    assert signature(sessions, lines=False)[0][2] == clean[0][2]
    assert bad <= skipped_lines(sessions)


@FUZZ_SETTINGS
@given(st.binary(max_size=2048))
def test_random_bytes(data: bytes) -> None:
    with session_file(data, FMT) as path:
        read_everything(path, SPEC)
        read(SPEC, path)
