"""The newer readers read a session full of raw colour escapes in bounded memory (issue 34).

Each reader gets the same kind of 5 MB session in its own layout (the generator
of `bench/bench_huge.py --readers`), its tool output coloured word by word. The
clients write those escapes as JSON escapes (`\\u001b`); here they are turned into
raw ESC bytes, what a damaged or hand-made file holds and JSON forbids, so every
record that holds one goes through the repair. Issue 34 measured a Continue
session of that kind at 35 times the file. The bound is the issue's: the peak of
what the read allocates is at most 5 times the session's bytes (the raw one's). The same session
with its escapes written as JSON escapes must read as the same turns (nothing lost).

About 5 MB (6.5 MB before the escapes are made raw), because a read of 4 MiB or more
runs with the cyclic collector paused, where a cycle left per bad line (Kimi, Qwen)
added up.
"""

from __future__ import annotations

import gc
import shutil
import sqlite3
import sys
import tracemalloc
from pathlib import Path

import pytest

from pivotal.readers import find_sessions, read_session

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import huge_homes  # noqa: E402

SIZE = 6_500_000
"""Bytes of the session with its escapes written as JSON escapes (six bytes each)."""


def raw_escapes(home: Path) -> None:
    """Every JSON-escaped ESC of the home's files written as the raw byte instead."""
    for path in sorted(p for p in home.rglob("*") if p.is_file()):
        if path.suffix == ".db":
            db = sqlite3.connect(path)
            for table in ("message", "part"):
                db.execute(f"UPDATE {table} SET data = replace(data, '\\u001b', char(27))")
            db.commit()
            db.execute("VACUUM")  # the file shrinks as the other formats' files do
            db.close()
        else:
            path.write_bytes(path.read_bytes().replace(b"\\u001b", b"\x1b"))


def shown(session) -> list[tuple]:
    """What a person sees of each turn: its role, texts and tool outputs."""
    return [
        (
            turn.role,
            tuple(part.text for part in turn.parts),
            tuple((call.output, call.exit_code, call.is_error) for call in turn.tool_calls),
        )
        for turn in session.turns
    ]


@pytest.mark.parametrize("fmt", huge_homes.FORMATS)
def test_raw_colour_escapes_cost_at_most_five_times_the_session(fmt: str, tmp_path: Path) -> None:
    escaped = huge_homes.make_home(tmp_path / "escaped", fmt, SIZE, "json")
    shutil.copytree(tmp_path / "escaped", tmp_path / "raw")
    raw = tmp_path / "raw" / escaped.relative_to(tmp_path / "escaped")
    raw_escapes(tmp_path / "raw")
    size = huge_homes.session_bytes(raw)
    assert size > 4 << 20

    expected = read_session(find_sessions([escaped]).refs[0])
    gc.collect()
    tracemalloc.start()
    try:
        session = read_session(find_sessions([raw]).refs[0])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert not session.skipped
    assert shown(session) == shown(expected)
    assert any("\x1b[" in (call.output or "") for t in session.turns for call in t.tool_calls)
    assert peak <= 5 * size, f"{fmt}: peak {peak / size:.1f} times the session"


LAZY = ("cline", "continue", "kimi", "vibe", "kilo", "kimi-code")
"""The readers whose batch read keeps an index and decodes each turn's parts on demand."""


@pytest.mark.parametrize("escapes", ["json", "raw"])
@pytest.mark.parametrize("fmt", LAZY)
def test_a_batch_read_keeps_an_index_not_the_session(
    fmt: str, escapes: str, tmp_path: Path
) -> None:
    """Cline and Continue keep a session as one JSON document. Read whole, it cost its
    bytes, a repaired copy and all its objects at once: 2 times the session with JSON
    escapes, 3.8 times with raw ones, and the turns kept all of it (1 GB: 3.6 GB, issue
    34). Read item by item into an index, the read peaks near one buffer and one item,
    and what stays is each turn's index fields and where its items are."""
    escaped = huge_homes.make_home(tmp_path / "escaped", fmt, SIZE, "json")
    path = escaped
    if escapes == "raw":
        shutil.copytree(tmp_path / "escaped", tmp_path / "raw")
        path = tmp_path / "raw" / escaped.relative_to(tmp_path / "escaped")
        raw_escapes(tmp_path / "raw")
    size = huge_homes.session_bytes(path)
    ref = find_sessions([path]).refs[0]
    expected = read_session(ref)  # (and every module the read needs is imported)
    shown_before = shown(expected)
    del expected
    gc.collect()
    tracemalloc.start()
    try:
        session = read_session(ref)
        _, peak = tracemalloc.get_traced_memory()
        gc.collect()
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert shown(session) == shown_before  # decoded again on demand: the same turns
    assert peak <= 1.5 * size, f"{fmt}: read peaked at {peak / size:.2f} times the session"
    assert kept <= 0.2 * size, f"{fmt}: kept {kept / size:.2f} times the session"
