"""Reading many session files in worker processes, the ones a person is looking at first.

The first listing of a big home reads every session in full (its turn and pivot
counts), newest first: seconds of work behind the picker. A person who
scrolls or filters meanwhile looks at rows whose turn may be far down that
order, so `wanted` names the files on screen and they are read next. Files go
to the workers a few at a time (the same function in this process when there
are few, or when no pool can be started), and each result is handed back as
soon as it is known, with its position in `items`. An item is a file (or folder)
and its agent, and may carry more for `read` (what the listing pass wants of it).
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

Located = tuple[Path, str]
"""A session file (or folder) and the agent in whose folder it was found."""
Item = tuple[Any, ...]
"""`Located`, maybe with more arguments for `read` after the two."""
R = TypeVar("R")
Wanted = Callable[[], Iterable[Path]]

BATCH = 8
QUEUED = 3
"""Files go to a worker BATCH at a time, at most QUEUED batches a worker ahead: a wanted
file then waits behind at most 3 x 8 files a worker (~50 ms of sample sessions), and the
workers never wait for this process (2 % slower than handing out every file at once)."""


class ReadingOrder:
    """Positions of `items` not handed out yet: wanted ones first, then in order."""

    def __init__(self, items: Sequence[Item], wanted: Wanted | None, done: set[int]) -> None:
        self._next = deque(n for n in range(len(items)) if n not in done)
        self._position = {str(item[0]): n for n, item in enumerate(items)}
        self._taken = set(done)
        self._count = len(items)
        self._wanted = wanted

    def __len__(self) -> int:
        return self._count - len(self._taken)

    def take(self, count: int) -> list[int]:
        batch: list[int] = []
        for path in self._wanted() if self._wanted is not None else ():
            n = self._position.get(str(path))
            if n is not None and n not in self._taken:
                self._taken.add(n)
                batch.append(n)
                if len(batch) == count:
                    return batch
        while self._next and len(batch) < count:
            n = self._next.popleft()
            if n not in self._taken:
                self._taken.add(n)
                batch.append(n)
        return batch


def run_all(
    read: Callable[..., R],
    items: Sequence[Item],
    *,
    workers: int,
    pool_from: int,
    wanted: Wanted | None = None,
) -> Iterator[tuple[int, R]]:
    """(position, `read(*item)`) for every item, each as soon as it is known.

    A pool of `workers` processes is used for more than `pool_from` items; if it
    cannot be started, or breaks, what is left is read in this process.
    """
    done: set[int] = set()
    if len(items) > pool_from and workers > 1:
        try:
            yield from _pooled(read, items, ReadingOrder(items, wanted, done), workers, done)
            return
        except (OSError, RuntimeError, NotImplementedError, ImportError):
            pass  # no pool on this system (or it broke): finish in this process
    order = ReadingOrder(items, wanted, done)
    while len(order):
        for n in order.take(1):
            yield n, read(*items[n])


def _pooled(
    read: Callable[..., R],
    items: Sequence[Item],
    order: ReadingOrder,
    workers: int,
    done: set[int],
) -> Iterator[tuple[int, R]]:
    from concurrent.futures import FIRST_COMPLETED, wait

    pool = _executor()(max_workers=workers, initializer=_worker_init)
    try:
        busy: dict[Future[list[R]], list[int]] = {}
        while len(order) or busy:
            while len(order) and len(busy) < QUEUED * workers:
                batch = order.take(BATCH)
                busy[pool.submit(_read_batch, read, [items[n] for n in batch])] = batch
            finished, _ = wait(busy, return_when=FIRST_COMPLETED)
            for future in finished:
                batch = busy.pop(future)
                for n, result in zip(batch, future.result(), strict=True):
                    done.add(n)
                    yield n, result
    finally:
        # wait for the workers: a pool left running at interpreter exit writes
        # "Exception ignored … Bad file descriptor" to stderr
        pool.shutdown(wait=True, cancel_futures=True)


def _executor() -> type:
    """ProcessPoolExecutor, imported when a pool is started: `concurrent.futures` (with
    `logging`), its process module and multiprocessing cost ~15 ms that a warm listing or
    search, which reads no file, does not need. A test may set `workers.ProcessPoolExecutor`
    to another class."""
    found = globals().get("ProcessPoolExecutor")
    if found is None:
        from concurrent.futures import ProcessPoolExecutor as found
    return found  # type: ignore[no-any-return]


def __getattr__(name: str) -> object:
    if name == "ProcessPoolExecutor":
        return _executor()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _read_batch(read: Callable[..., R], batch: list[Item]) -> list[R]:
    return [read(*item) for item in batch]


def _worker_init() -> None:
    """Ctrl-C is the parent's to handle; workers just stop with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
