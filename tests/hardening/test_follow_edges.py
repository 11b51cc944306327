"""Following a session at its edges (issue 18: 20): a last record with no newline, a rewrite.

The sessions are the real Codex and Claude Code files of tests/hardening/fixtures,
written the way an agent writes them; each follow ends where a batch read of
the same bytes ends (same turns, same text), which is what the reader must
show. Waits are for conditions (tail.helpers), never for fixed times.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from pivotal.live.tail import follow
from pivotal.readers import find_sessions, open_reader, read_session
from tail.helpers import Collector, Writer, wait_until

from .fuzz_support import FIXTURES

SESSIONS = ["codex-short.jsonl", "claude-short.jsonl"]


def lines_of(name: str) -> list[bytes]:
    return [line + b"\n" for line in (FIXTURES / name).read_bytes().splitlines()]


def batch_texts(path: Path) -> list[str]:
    [ref] = find_sessions([path]).refs
    return [t.text for t in read_session(ref).turns]


def start(path: Path, backend: str):  # type: ignore[no-untyped-def]
    [ref] = find_sessions([path]).refs
    reader = open_reader(ref)
    stop = asyncio.Event()
    stream = follow(reader, stop=stop, backend=backend, poll_interval=0.01)
    return reader, Collector(stream, stop)


def texts(reader) -> list[str]:  # type: ignore[no-untyped-def]
    return [t.text for t in reader.session.turns]


@pytest.fixture(params=["inotify", "polling"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


def last_turn_line(tmp_path: Path, lines: list[bytes]) -> int:
    """How many lines it takes for the batch read to have its last turn (that line ends them)."""
    probe = tmp_path / "probe" / "s.jsonl"
    probe.parent.mkdir(exist_ok=True)
    probe.write_bytes(b"".join(lines))
    full = len(batch_texts(probe))
    k = len(lines)
    while k > 1:
        probe.write_bytes(b"".join(lines[: k - 1]))
        if len(batch_texts(probe)) < full:
            return k
        k -= 1
    return k


@pytest.mark.parametrize("name", SESSIONS)
async def test_a_whole_last_record_without_newline_is_shown_while_following(
    tmp_path: Path, backend: str, name: str
) -> None:
    every = lines_of(name)
    lines = every[: last_turn_line(tmp_path, every)]  # its last line makes the last turn
    path = tmp_path / name
    writer = Writer(path)
    writer.append(b"".join(lines[:-1]) + lines[-1].rstrip(b"\n"))  # the agent stopped there
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)
    whole = tmp_path / "whole" / name
    whole.parent.mkdir()
    whole.write_bytes(b"".join(lines))
    expected = batch_texts(whole)
    assert texts(reader) == expected  # the last record is there, not held back
    assert reader.session.skipped == []

    writer.append(b"\n")  # its newline arrives: nothing read twice
    more = every[len(lines) :] or lines[2:3]  # and the records after it
    writer.append(b"".join(more))
    whole.write_bytes(b"".join(lines + more))
    await wait_until(lambda: len(texts(reader)) == len(batch_texts(whole)))
    assert texts(reader) == batch_texts(whole)
    assert reader.session.skipped == []
    await tail.close()
    writer.assert_untouched()


async def test_a_last_line_that_grows_after_it_was_read_is_read_again(
    tmp_path: Path, backend: str
) -> None:
    lines = lines_of("codex-short.jsonl")
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(b"".join(lines[:-1]) + lines[-1].rstrip(b"\n"))
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)
    mark = tail.mark()
    writer.append(b' {"not": "json any more"}\n')  # the line turned out to be longer
    update = await tail.wait_for(lambda u: u.reloaded, since=mark)
    assert "last line" in (update.notice or "")
    await wait_until(lambda: len(reader.session.skipped) == 1)
    assert reader.session.skipped[0].line == len(lines)
    assert texts(reader) == batch_texts(path)
    await tail.close()


async def test_an_in_place_rewrite_of_the_same_size_is_noticed(
    tmp_path: Path, backend: str
) -> None:
    lines = lines_of("claude-short.jsonl")
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines))
    before = batch_texts(path)
    reader, tail = start(path, backend)
    await tail.wait_for(lambda u: True)
    assert texts(reader) == before
    human = next(t for t in before if t.startswith("Inspect this directory"))
    data = path.read_bytes()
    changed = data.replace(human.encode(), human.upper().encode())
    assert changed != data and len(changed) == len(data)
    mark = tail.mark()
    st = path.stat()
    with open(path, "r+b") as handle:  # rewritten in place: same inode, same size
        handle.write(changed)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    update = await tail.wait_for(lambda u: u.reloaded, since=mark)
    assert "rewritten in place" in (update.notice or "")
    await wait_until(lambda: human.upper() in texts(reader))
    assert texts(reader) == batch_texts(path)
    await tail.close()


def test_a_batch_read_of_an_unterminated_last_record_is_unchanged(tmp_path: Path) -> None:
    """Reading early while following must not change what a batch read gives."""
    every = lines_of("codex-short.jsonl")
    lines = every[: last_turn_line(tmp_path, every)]
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines).rstrip(b"\n"))
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(lines))
    assert batch_texts(cut) == batch_texts(whole)
    [ref] = find_sessions([cut]).refs
    reader = open_reader(ref)
    reader.poll()  # while following: read early
    reader.poll(final=True)  # then the end: not read a second time
    assert [t.text for t in reader.session.turns] == batch_texts(whole)
    assert reader.session.skipped == []
