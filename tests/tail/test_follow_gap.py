"""A line written after the initial read but before the watch is in place is not missed.

The live replayer shows the initial read at once and the agent keeps writing:
the write can land in the gap before `follow()` starts watching. Without
`since` the watch took the file as it found it and waited for the next write.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pivotal.tail import follow

from .chat_reader import chat_reader, record
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
