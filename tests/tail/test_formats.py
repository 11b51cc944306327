"""Following real formats: what the agents actually wrote, appended in pieces while tailing.

The oracle is the batch reader on the same bytes: after every step the live
session must equal a fresh `read_session` of the file (same turns, no
duplicates from repeated ids, rewinds applied), and the source bytes must be
exactly what the writer wrote.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from pivotal.live.tail import follow
from pivotal.model import Session
from pivotal.readers import find_sessions, open_reader, read_session

from .helpers import Collector, Writer, wait_until
from .real import CLAUDE_SHORT, REAL

GEMINI = next((REAL / "gemini-short").rglob("session-*.jsonl"))
CLAUDE_AUTO = next((REAL / "claude-autocompact").rglob("*.jsonl"))
OPENCODE = REAL / "opencode-short/.local/share/opencode/opencode.db"


@pytest.fixture(params=["inotify", "watchfiles", "polling"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


def snapshot(session: Session) -> list[tuple[object, ...]]:
    return [
        (
            str(t.role),
            int(t.flags),
            t.message_id,
            t.text,
            [(c.name, c.output, c.exit_code, c.is_error) for c in t.tool_calls],
        )
        for t in session.turns
    ]


def batch(path: Path) -> list[tuple[object, ...]]:
    return snapshot(read_session(find_sessions([path]).refs[0]))


async def stream_file(
    source: Path, path: Path, backend: str, *, head: int = 1
) -> tuple[Writer, object, Collector]:
    """Copy `source` into `path` line by line (some lines in two writes) while following it."""
    lines = source.read_bytes().splitlines(keepends=True)
    writer = Writer(path)
    writer.append(b"".join(lines[:head]))
    reader = open_reader(find_sessions([path]).refs[0])
    stop = asyncio.Event()
    tail = Collector(follow(reader, stop=stop, backend=backend), stop)
    await tail.wait_for(lambda u: True)
    for i, line in enumerate(lines[head:]):
        if i % 3 == 0:
            writer.append(line[: len(line) // 2])
            await wait_until(lambda: reader.progress[0] == len(writer.expected))
            writer.append(line[len(line) // 2 :])
        else:
            writer.append(line)
        if i % 2 == 0:
            await wait_until(lambda: reader.progress[0] == len(writer.expected))
    await wait_until(lambda: reader.progress[0] == len(writer.expected))
    return writer, reader, tail


async def test_gemini_repeated_ids_and_rewind(tmp_path: Path, backend: str) -> None:
    path = tmp_path / GEMINI.name
    writer, reader, tail = await stream_file(GEMINI, path, backend)
    live = snapshot(reader.session)
    assert live == batch(path)
    ids = [t.message_id for t in reader.session.turns if t.message_id]
    assert len(ids) == len(set(ids))  # each message written twice is one turn

    # rewind to a reply in the middle: it and everything after it leave the main line
    target = next(t for t in reader.session.turns if t.text == "Now a file that does not exist.")
    cut = target.index
    assert 0 < cut < len(live) - 1
    mark = tail.mark()
    writer.append(json.dumps({"$rewindTo": target.message_id}).encode() + b"\n")
    update = await tail.wait_for(lambda u: u.first_changed is not None, since=mark)
    await wait_until(lambda: len(reader.session.turns) == cut)
    assert snapshot(reader.session) == batch(path) == live[:cut]
    assert update.first_changed is not None and update.first_changed <= cut
    await tail.close()
    writer.assert_untouched()


async def test_claude_code_duplicates_and_a_rewind_branch(tmp_path: Path, backend: str) -> None:
    path = tmp_path / CLAUDE_AUTO.name
    writer, reader, tail = await stream_file(CLAUDE_AUTO, path, backend, head=3)
    live = snapshot(reader.session)
    assert live == batch(path)

    # the person rewinds to the first assistant reply and says something else:
    # Claude Code appends a user record whose parent is that earlier record
    records = [json.loads(line) for line in CLAUDE_SHORT.read_bytes().splitlines()]
    rewind_to = next(
        json.loads(line)
        for line in path.read_bytes().splitlines()
        if json.loads(line).get("type") == "assistant"
    )
    prompt = dict(next(r for r in records if r.get("type") == "user"))
    prompt.update(
        uuid="0b0b0b0b-1111-4222-8333-444444444444",
        parentUuid=rewind_to["uuid"],
        sessionId=rewind_to["sessionId"],
        timestamp="2026-11-30T05:00:00.000Z",
        message={"role": "user", "content": "Actually, do something else."},
    )
    before = len(reader.session.turns)
    mark = tail.mark()
    writer.append(json.dumps(prompt).encode() + b"\n")
    update = await tail.wait_for(lambda u: u.first_changed is not None, since=mark)
    assert update.first_changed is not None and update.first_changed < before
    await wait_until(lambda: reader.session.turns[-1].text == "Actually, do something else.")
    assert snapshot(reader.session) == batch(path)
    assert len(reader.session.turns) < before
    await tail.close()
    writer.assert_untouched()


async def test_opencode_part_updated_in_place(tmp_path: Path, backend: str) -> None:
    db = tmp_path / "opencode.db"
    shutil.copyfile(OPENCODE, db)
    conn = sqlite3.connect(db, isolation_level=None)  # the agent's side: WAL, like opencode
    conn.execute("PRAGMA journal_mode=WAL")
    try:
        ref = find_sessions([db]).refs[0]
        reader = open_reader(ref)
        stop = asyncio.Event()
        tail = Collector(follow(reader, stop=stop, backend=backend), stop)
        await tail.wait_for(lambda u: True)
        turns = len(reader.session.turns)
        assert snapshot(reader.session) == snapshot(read_session(ref))

        part_id, data, updated = conn.execute(
            'SELECT id, data, time_updated FROM part WHERE data LIKE \'%"type":"text"%\''
            " AND data LIKE '%Let me plan%'"
        ).fetchone()
        mark = tail.mark()
        streamed = json.loads(data)
        streamed["text"] = "Let me plan this and look around. (streamed more text)"
        conn.execute(
            "UPDATE part SET data = ?, time_updated = ? WHERE id = ?",
            (json.dumps(streamed), updated + 60_000, part_id),
        )
        update = await tail.wait_for(lambda u: u.first_changed is not None, since=mark)
        await wait_until(
            lambda: any("(streamed more text)" in t.text for t in reader.session.turns)
        )
        assert len(reader.session.turns) == turns  # updated, not duplicated
        changed = next(t for t in reader.session.turns if "(streamed more text)" in t.text)
        assert update.first_changed <= changed.index
        assert snapshot(reader.session) == snapshot(read_session(ref))
        await tail.close()
    finally:
        conn.close()
