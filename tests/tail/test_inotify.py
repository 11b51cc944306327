"""The inotify backend alone: events arrive, new sub-directories are watched, deletion is seen."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from pivotal.live.inotify import Inotify, available
from pivotal.live.tail import changes
from pivotal.live.target import WatchTarget

from .helpers import TIMEOUT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")


async def next_events(watch: Inotify, wanted: str) -> set[str]:
    seen: set[str] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while wanted not in seen:
        assert loop.time() < deadline, f"{wanted} not reported; saw {seen}"
        seen |= await watch.events(0.5) or set()
    return seen


def test_available_on_linux() -> None:
    assert available()


async def test_a_write_is_reported_with_its_path(tmp_path: Path) -> None:
    watch = Inotify(tmp_path)
    try:
        assert await watch.events(0.01) is None  # nothing happened
        target = tmp_path / "s.jsonl"
        target.write_bytes(b"{}\n")
        await next_events(watch, str(target))
        with open(target, "ab") as handle:
            handle.write(b"{}\n")
        await next_events(watch, str(target))
    finally:
        watch.close()


async def test_recursive_watch_follows_new_sub_directories(tmp_path: Path) -> None:
    watch = Inotify(tmp_path, recursive=True)
    try:
        day = tmp_path / "2026" / "11" / "30"
        day.mkdir(parents=True)  # created faster than watches can be added
        rollout = day / "rollout.jsonl"
        rollout.write_bytes(b"{}\n")
        await next_events(watch, str(rollout))
        with open(rollout, "ab") as handle:
            handle.write(b"{}\n")
        await next_events(watch, str(rollout))
    finally:
        watch.close()


async def test_deleting_the_directory_ends_the_watch(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    watch = Inotify(folder)
    try:
        os.rmdir(folder)
        await next_events(watch, str(folder))
        await asyncio.sleep(0)
        assert not watch.watching
    finally:
        watch.close()


async def test_watching_a_missing_directory_raises(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        Inotify(tmp_path / "nope")


async def test_changes_stream_filters_to_the_session_and_stops(tmp_path: Path) -> None:
    target = WatchTarget(tmp_path, frozenset({"s.jsonl"}), False)
    stop = asyncio.Event()
    got: list[set[str]] = []

    async def run() -> None:
        async for batch in changes(target, stop=stop, backend="inotify"):
            got.append(batch)

    task = asyncio.create_task(run())
    await asyncio.sleep(0.05)
    (tmp_path / "other.jsonl").write_bytes(b"x\n")
    (tmp_path / "s.jsonl").write_bytes(b"y\n")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not got:
        assert loop.time() < deadline
        await asyncio.sleep(0.005)
    assert got[0] == {str(tmp_path / "s.jsonl")}
    stop.set()
    await asyncio.wait_for(task, TIMEOUT)  # ends promptly: stop wakes the waiting watch
