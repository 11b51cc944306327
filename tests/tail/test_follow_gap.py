"""A line written after the initial read but before the watch is in place is not missed.

The live replayer shows the initial read at once and the agent keeps writing:
the write can land in the gap before `follow()` starts watching. Without
`since` the watch took the file as it found it and waited for the next write.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pivotal.live.newest import follow_newest
from pivotal.live.tail import follow

from .chat_reader import chat_reader, record
from .claude_lines import ClaudeStream
from .helpers import TIMEOUT, Writer


@pytest.mark.parametrize("backend", ["inotify", "watchfiles", "polling"])
async def test_write_between_initial_read_and_watch(tmp_path: Path, backend: str) -> None:
    path = tmp_path / "s.jsonl"
    writer = Writer(path)
    writer.append(record("user", "fix the build"))
    reader = chat_reader(path)
    stop = asyncio.Event()
    stream = follow(reader, stop=stop, backend=backend)
    first = await anext(stream)  # the generator is paused here: no watch exists yet
    assert first.first_changed == 0
    writer.append(record("assistant", "looking"))  # lands in the gap
    update = await asyncio.wait_for(anext(stream), TIMEOUT)
    assert update.first_changed == 1
    assert [turn.text for turn in reader.session.turns] == ["fix the build", "looking"]
    stop.set()
    await stream.aclose()
    writer.assert_untouched()


@pytest.mark.parametrize("backend", ["inotify", "watchfiles", "polling"])
async def test_newest_write_between_initial_read_and_watch(tmp_path: Path, backend: str) -> None:
    stream = ClaudeStream()
    writer = Writer(tmp_path / "5e55104c-0000-4000-8000-00000000b0b0.jsonl")
    writer.append(stream.human("fix the build"))
    stop = asyncio.Event()
    # a long rescan interval: only the gap fix, not the periodic tick, can see the write
    followed = follow_newest(tmp_path, stop=stop, backend=backend, rescan_interval=30.0)
    first = await asyncio.wait_for(anext(followed), TIMEOUT)
    assert first.switched and len(first.reader.session.turns) == 1
    writer.append(stream.say("looking"))  # lands before the watch exists
    update = await asyncio.wait_for(anext(followed), TIMEOUT)
    assert update.update.first_changed == 1
    assert len(update.reader.session.turns) == 2
    stop.set()
    await followed.aclose()
    writer.assert_untouched()
