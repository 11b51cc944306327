"""Drive `follow()` from a test: collect its updates, wait for conditions, write like an agent.

Waits are for conditions with a generous timeout, never for fixed durations,
so the tests do not depend on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")
TIMEOUT = 5.0


async def wait_until(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    """Wait until `condition()` holds; fail the test after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)


class Collector(Generic[T]):
    """Runs an async iterator in a task and keeps everything it yields."""

    def __init__(self, stream: AsyncIterator[T], stop: asyncio.Event) -> None:
        self.items: list[T] = []
        self.stop = stop
        self._stream = stream
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        async for item in self._stream:
            self.items.append(item)

    def mark(self) -> int:
        """Where the items yielded from now on start (for `wait_for(..., since=)`)."""
        return len(self.items)

    async def wait_for(self, predicate: Callable[[T], bool], since: int = 0) -> T:
        """The first item from `since` on matching `predicate`, waiting for it if needed."""
        found: list[T] = []

        def check() -> bool:
            if self.task.done() and self.task.exception():
                raise self.task.exception()  # type: ignore[misc]
            found[:] = [item for item in self.items[since:] if predicate(item)]
            return bool(found)

        await wait_until(check)
        return found[0]

    async def close(self) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, TIMEOUT)


class Writer:
    """Appends to a session file the way an agent does, and remembers every byte."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.expected = path.read_bytes() if path.exists() else b""

    def append(self, data: bytes) -> None:
        with open(self.path, "ab") as handle:
            handle.write(data)
            handle.flush()
        self.expected += data

    def truncate(self) -> None:
        with open(self.path, "r+b") as handle:
            handle.truncate(0)
        self.expected = b""

    def replace(self, data: bytes) -> None:
        """Write a new file and rename it over the old one (a new inode)."""
        temp = self.path.with_name(self.path.name + ".tmp")
        temp.write_bytes(data)
        os.replace(temp, self.path)
        self.expected = data

    def delete(self) -> None:
        self.path.unlink()
        self.expected = b""

    def assert_untouched(self) -> None:
        """Following must never change the source: it holds exactly what was written."""
        assert self.path.read_bytes() == self.expected
