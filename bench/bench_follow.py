#!/usr/bin/env python3
"""Live follow latency and idle CPU while a second process appends Claude Code records.

    python bench/bench_follow.py [--rate 100] [--lines 1500] [--idle 3] [--step-ms 5]
                                 [--backend auto|inotify|watchfiles|polling]
                                 [--mode core|scan|all]

A writer *process* appends real-format Claude Code lines (records copied
from what Claude Code 2.1.197 wrote, see tests/tail/claude_lines.py; each
pivot scene is failed attempts, a bare "ok", recovery, a new prompt) at a
steady rate, one `write()` per line, noting `time.monotonic()` just before
each write. `time.monotonic()` is CLOCK_MONOTONIC, shared by all processes
on Linux, so the two processes' times compare directly.

- core: `tail.follow()` with the real Claude Code reader. Latency of a line =
  end of the `reader.poll()` that parsed it - its write time.
- scan: `follow_scan.scan_follow()` (headless, real detector). Latency of a
  printed pivot = time the line was written to stdout - write time of the
  *first* line read by the poll that printed it (an upper bound).
- tui: the replayer itself (`ReplayerApp(ref, follow=True)` under Pilot,
  headless, 160x48, auto-pause off so the view stays pinned to the newest
  turn). Latency of a line = the moment the app has refreshed the screen
  after showing the update that contained it (`LiveFollow.shown_hook`, run
  by `call_after_refresh`) - its write time.
- idle CPU: process CPU time (all threads: event loop + watcher) over
  `--idle` seconds after the writer stopped, while still following.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from bisect import bisect_left, bisect_right
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # for tests.tail.claude_lines (the real-format record builder)


# --------------------------------------------------------------------------- writer process


def lines_for(count: int) -> list[bytes]:
    from tests.tail.claude_lines import ClaudeStream

    stream = ClaudeStream()
    out: list[bytes] = []
    scene = 0
    while len(out) < count:
        scene += 1
        for rec in stream.pivot_scene(scene):
            out.extend(rec.splitlines(keepends=True))
    return out[:count]


def writer_main(path: Path, rate: float, count: int, log: Path) -> None:
    """Append `count` lines at `rate` lines/s; log (end offset, write time) per line."""
    lines = lines_for(count)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    offset = os.fstat(fd).st_size
    interval = 1.0 / rate
    records: list[tuple[int, float]] = []
    start = time.monotonic() + 0.2
    for i, line in enumerate(lines):
        delay = start + i * interval - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        t = time.monotonic()
        os.write(fd, line)
        offset += len(line)
        records.append((offset, t))
    os.close(fd)
    log.write_text(json.dumps(records))


# --------------------------------------------------------------------------- follower side


@dataclass
class Probe:
    """What the follower saw: (offset before, offset after, time) per poll, and print times."""

    polls: list[tuple[int, int, float]] = field(default_factory=list)
    prints: list[tuple[int, float]] = field(default_factory=list)
    """(offset before the poll that printed, time written to stdout)."""


Follower = Callable[[Path, asyncio.Event, Probe, argparse.Namespace], Awaitable[None]]


def timed_reader(path: Path, probe: Probe):
    from pivotal.readers import find_sessions, open_reader

    reader = open_reader(find_sessions([path]).refs[0])
    poll = reader.poll

    def timed_poll(*args, **kwargs):
        before = reader.progress[0]
        update = poll(*args, **kwargs)
        probe.polls.append((before, reader.progress[0], time.monotonic()))
        return update

    reader.poll = timed_poll  # type: ignore[method-assign]
    return reader


async def follow_core(path: Path, stop: asyncio.Event, probe: Probe, args) -> None:
    from pivotal.live.tail import follow

    reader = timed_reader(path, probe)
    async for _update in follow(reader, stop=stop, backend=args.backend, step_ms=args.step_ms):
        pass


class _Stamped:
    """stdout stand-in: notes when each line was written (and which poll caused it)."""

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        self.lines.append(text)
        before = self.probe.polls[-1][0] if self.probe.polls else 0
        self.probe.prints.append((before, time.monotonic()))
        return len(text)

    def flush(self) -> None:
        pass


async def follow_scan(path: Path, stop: asyncio.Event, probe: Probe, args) -> None:
    from pivotal.readers import find_sessions
    from pivotal.scan.follow import scan_follow

    ref = find_sessions([path]).refs[0]
    out = _Stamped(probe)
    await scan_follow(
        ref,
        as_json=True,
        out=out,  # type: ignore[arg-type]
        err=open(os.devnull, "w"),  # noqa: SIM115 - lives as long as the run
        stop=stop,
        open_ref=lambda r: timed_reader(r.path, probe),
        backend=args.backend,
        step_ms=args.step_ms,
    )


async def follow_tui(path: Path, stop: asyncio.Event, probe: Probe, args) -> None:
    from pivotal.readers import find_sessions
    from pivotal.tui.app import ReplayerApp

    def shown(done: int, _turns: int) -> None:
        probe.polls.append((done, done, time.monotonic()))

    app = ReplayerApp(find_sessions([path]).refs[0], follow=True, autopause=False)
    async with app.run_test(size=(160, 48)):
        screen = app.replay
        assert screen is not None
        screen.live.shown_hook = shown
        await stop.wait()


FOLLOWERS: dict[str, Follower] = {"core": follow_core, "scan": follow_scan, "tui": follow_tui}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def run_mode(mode: str, args, workdir: Path) -> dict[str, object]:
    from tests.tail.claude_lines import ClaudeStream

    path = workdir / f"{mode}-5e55104c.jsonl"
    path.write_bytes(ClaudeStream("f0110000-0000-4000-8000-000000000000").human("Start here."))
    log = workdir / f"{mode}.log.json"
    stop = asyncio.Event()
    probe = Probe()
    task = asyncio.create_task(FOLLOWERS[mode](path, stop, probe, args))
    await asyncio.sleep(0.3)  # let the initial read and the watch start
    writer = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--writer",
        str(path),
        "--rate",
        str(args.rate),
        "--lines",
        str(args.lines),
        "--log",
        str(log),
    )
    await writer.wait()
    size = path.stat().st_size
    while not probe.polls or probe.polls[-1][1] < size:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.5)
    cpu0, wall0 = time.process_time(), time.monotonic()
    await asyncio.sleep(args.idle)
    idle_cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0)
    stop.set()
    await asyncio.wait_for(task, 5)

    written = json.loads(log.read_text())
    ends = [end for end, _t in written]
    polls_after = [after for _b, after, _t in probe.polls]
    parsed: list[float] = []
    for end, t_write in written:
        i = bisect_left(polls_after, end)
        parsed.append((probe.polls[i][2] - t_write) * 1000)
    result: dict[str, object] = {
        "mode": mode,
        "lines": len(written),
        ("on_screen_ms" if mode == "tui" else "parsed_ms"): summary(parsed),
        "idle_cpu_pct": round(idle_cpu * 100, 2),
    }
    if mode == "scan":
        printed: list[float] = []
        for before, t_print in probe.prints:
            first_line = bisect_right(ends, before)  # first line not yet read before that poll
            printed.append((t_print - written[first_line][1]) * 1000)
        result["printed_ms"] = summary(printed)
    return result


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 2),
        "p99": round(pct(values, 0.99), 2),
        "max": round(max(values), 2),
    }


async def main(args) -> None:
    modes = ["core", "scan"] if args.mode == "all" else [args.mode]
    with tempfile.TemporaryDirectory(prefix="pivotal-follow-") as tmp:
        for mode in modes:
            result = await run_mode(mode, args, Path(tmp))
            result["backend"] = args.backend
            result["step_ms"] = args.step_ms
            print(json.dumps(result), flush=True)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=100.0, help="lines per second")
    parser.add_argument("--lines", type=int, default=1500)
    parser.add_argument("--idle", type=float, default=3.0, help="idle seconds for CPU")
    parser.add_argument("--step-ms", type=int, default=5)
    parser.add_argument(
        "--backend", choices=["auto", "inotify", "watchfiles", "polling"], default="auto"
    )
    parser.add_argument("--mode", choices=["core", "scan", "all", "tui"], default="all")
    parser.add_argument("--writer", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--log", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    ARGS = parse_args()
    if ARGS.writer:
        writer_main(ARGS.writer, ARGS.rate, ARGS.lines, ARGS.log)
    else:
        asyncio.run(main(ARGS))
