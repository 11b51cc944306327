#!/usr/bin/env python3
"""Replayer on a session with 100,000 turns: first screen, every key's time, peak RSS.

Usage: python bench/bench_tui_big.py [--turns 100000] [--keys 400] [--picker 2000] [--dir DIR]

Writes (once) a Claude Code JSONL of `--turns` short turns with the real-format
record builder the live-follow tests use (records copied from what Claude Code
wrote): mostly a prompt and a short answer, and every tenth stretch a failing
dead end, a bare "ok" and the agent taking over (a silent pivot). Then runs the
real app headless (Textual Pilot, 160x48) and times every key as bench_tui.py
does (keytimes.py: UI-thread CPU and wall from the key event to its frame;
`--keys` presses spread over every key; help, palette, goto, a search miss),
against the targets: median <= 16 ms, slowest <= 33 ms, openers <= 50 ms.

"First screen" is app creation to the first refresh after the first slice of
turns is on screen (stamped by the app). Peak RSS is the process's maximum
resident set.

`--picker N` then times `pivotal` with no PATH over N sessions the session
index has never seen, in two homes (whole copies of the Claude Code samples,
and bench_sessions.py's mix of five agents' sessions of every length): the
quick listing, the first frame drawn with rows in it (from before the
listing), the first frame where every row on screen has its counts (they are
read newest first, as the rows are shown), and until every row has its counts
(read in the background), next to how long the full listing took before
anything could show (targets: rows within 200 ms, every count within 1.5 s for
2,000 sessions).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # for tests.tail.claude_lines (the real-format record builder)
sys.path.insert(0, str(REPO / "bench"))  # keytimes, beside this file
from keytimes import fresh_data_dir, load, time_keys  # noqa: E402
from keytimes import report as report_keys  # noqa: E402

SIZE = (160, 48)


def generate(path: Path, turns: int) -> None:
    """`turns` turns of Claude Code JSONL (one pivot scene per ~150 turns)."""
    from tests.tail.claude_lines import ClaudeStream

    stream = ClaudeStream("b16b16b1-0000-4000-8000-000000100000")
    written = 0
    block = 0
    tmp = path.with_suffix(".part")
    with tmp.open("wb") as out:
        while written < turns:
            block += 1
            if block % 10 == 0:
                records = stream.pivot_scene(block)
            else:
                records = []
                for n in range(15):
                    if n % 2 == 0:
                        records.append(stream.human(f"Step {block}.{n}: check item {n} please"))
                    else:
                        records.append(stream.say(f"Item {n} of block {block} checked: fine."))
            records = records[: turns - written]
            out.write(b"".join(records))
            written += len(records)
    tmp.replace(path)


async def wait_until(condition, timeout: float = 600.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the app never got there")
        await asyncio.sleep(0.002)


async def measure(path: Path, presses: int) -> dict[str, object]:
    from pivotal.readers import find_sessions
    from pivotal.tui.app import ReplayerApp

    started = time.perf_counter()
    ref = find_sessions([path]).refs[0]
    app = ReplayerApp(ref)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: app.first_paint_at is not None)
        first_screen = app.first_paint_at - started  # type: ignore[operator]
        screen = app.replay
        assert screen is not None
        await wait_until(lambda: screen.analysed)
        read_all = time.perf_counter() - started
        await app.workers.wait_for_complete()
        await pilot.pause()
        keys = await time_keys(app, pilot, rounds=max(presses // 40, 3))
        turns = len(screen.playback.turns)
        pivots = len(screen.playback.pivots)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "turns": turns,
        "pivots": pivots,
        "size_mb": path.stat().st_size / 1e6,
        "first_screen_ms": first_screen * 1000,
        "read_all_s": read_all,
        "keys": keys,
        "rss_mb": rss,
    }


async def measure_picker(count: int, folder: Path) -> None:
    """`pivotal` with no PATH over `count` sessions the index has never seen, on two homes.

    "copies": `count` whole copies of the Claude Code samples (dense in silences,
    384 MB for 2,000). "mixed": bench_sessions.py's home, Claude Code, Codex,
    Gemini, opencode and aider sessions of every length (the home the issue's
    "3.2 s for `pivotal sessions`" was measured on).
    """
    import shutil

    from bench_sessions import build_home

    copies = folder / f"home{count}"
    project = copies / ".claude" / "projects" / "-home-dev-work"
    if not project.exists():
        project.mkdir(parents=True)
        samples = sorted((REPO / "sample_sessions" / "claude").glob("*.jsonl"))
        for n in range(count):
            shutil.copy2(samples[n % len(samples)], project / f"s{n:05}.jsonl")
    for n in range(count):  # the newest last in the folder's order, as a busy home has them
        stamp = 1_790_000_000 + n * 60
        os.utime(project / f"s{n:05}.jsonl", (stamp, stamp))
    mixed = folder / f"mixed{count}"
    if not mixed.exists():
        build_home(mixed, count, seed=1)
    for label, home in (("copies", copies), ("mixed", mixed)):
        await time_picker(label, home)


async def time_picker(label: str, home: Path) -> None:
    import tempfile

    from pivotal.catalog.discovery import discover_details, discover_sessions
    from pivotal.tui.app import ReplayerApp
    from pivotal.tui.picker_fill import FillingPicker
    from pivotal.tui.session_list import SessionList

    with tempfile.TemporaryDirectory() as cache:
        os.environ["PIVOTAL_CACHE_DIR"] = cache  # every session is new to the index
        begin = time.perf_counter()
        discover_sessions([home])
        old = time.perf_counter() - begin
    with tempfile.TemporaryDirectory() as cache:
        os.environ["PIVOTAL_CACHE_DIR"] = cache
        begin = time.perf_counter()
        refs = discover_sessions([home], details=False)
        listed = time.perf_counter() - begin
        app = ReplayerApp(
            None, refs=refs, details=lambda wanted: discover_details([home], wanted=wanted)
        )
        first_rows: list[float] = []
        screenful: list[float] = []
        display = app._display

        def stamped(screen, renderable) -> None:  # type: ignore[no-untyped-def]
            display(screen, renderable)
            if renderable is not None and hasattr(renderable, "render_segments"):
                renderable.render_segments(app.console)  # what a terminal would be sent
            if not first_rows and isinstance(screen, FillingPicker):
                if screen.query_one(SessionList).rows_drawn:
                    first_rows.append(time.perf_counter() - begin)
            if first_rows and not screenful and isinstance(screen, FillingPicker):
                rows = screen.query_one(SessionList).scrollable_content_region.height
                on_screen = [screen.refs[n] for n in screen.shown[:rows]]
                if on_screen and all(ref.turns is not None for ref in on_screen):
                    screenful.append(time.perf_counter() - begin)  # drawn with its counts

        app._display = stamped  # the first frame with rows in it, as in keytimes.Probe
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(lambda: bool(first_rows))
            screen = app.screen
            await wait_until(lambda: screen.complete)  # type: ignore[attr-defined]
            filled = time.perf_counter() - begin
            assert screen.filled == len(refs)  # type: ignore[attr-defined]
            await pilot.pause()
    print(
        f"picker over {len(refs)} new sessions ({label}): quick listing {listed * 1000:.0f} ms, "
        f"first frame with rows {first_rows[0] * 1000:.0f} ms, the rows on screen with their "
        f"counts {screenful[0] if screenful else float('nan'):.2f} s, "
        f"every row's counts after {filled:.1f} s "
        f"(before: nothing shown for {old:.1f} s)"
    )


def report(row: dict[str, object]) -> int:
    """Print the figures; returns how many per-key checks failed."""
    print(
        f"{row['turns']} turns, {row['pivots']} pivots, {row['size_mb']:.0f} MB | "
        f"first screen {row['first_screen_ms']:.0f} ms | all read + pivots "
        f"{row['read_all_s']:.1f} s | peak RSS {row['rss_mb']:.0f} MB"
    )
    return report_keys(row["keys"], f"{row['turns']} turns")  # type: ignore[arg-type]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--keys", type=int, default=400)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pivotal-bench"))
    parser.add_argument("--picker", type=int, default=2000, help="new sessions for the picker")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / f"turns{args.turns}.jsonl"
    if not path.exists():
        begin = time.perf_counter()
        generate(path, args.turns)
        print(f"wrote {path} in {time.perf_counter() - begin:.1f} s", file=sys.stderr)
    with fresh_data_dir():
        print(f"load average before: {load()}")
        report(asyncio.run(measure(path, args.keys)))
        if args.picker:
            asyncio.run(measure_picker(args.picker, args.dir))
        print(f"load average after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
