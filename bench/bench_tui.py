#!/usr/bin/env python3
"""Replayer benchmark: first screen, every key's time and peak RSS, 100 KB vs 100 MB.

Usage: python bench/bench_tui.py [--dir DIR] [--keys 400] [--tmux]

Generates two synthetic Claude Code sessions with ../shared/tools/gen_session.py
(or $PIVOTAL_GEN), then runs the real app headless (Textual Pilot, 160x48) once per
file, each in its own process so peak RSS is per file, and prints the figures next
to the targets:

  first screen (100 MB) <= 1.5 x first screen (100 KB)
  every key (keytimes.py): median <= 16 ms, slowest <= 33 ms of UI-thread time from
  the key event to its frame; help and palette open <= 50 ms; a search miss <= 150 ms
  peak RSS (100 MB) <= peak RSS (100 KB) + 60 MB + 0.5 x file size

"First screen" is the time from creating the app to the first refresh after the first
slice of turns reached the screen, stamped by the app itself (reading goes on in a
worker); bench_first_screen.py times it through a real terminal. `--keys` is the
number of presses on the 100 MB session, spread over every key; `--tmux` also
times a few keys through a real terminal. The load average is printed before and
after: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # keytimes, beside this file
from keytimes import fresh_data_dir, load, report_tmux, tmux_keys  # noqa: E402

GEN = os.environ.get(
    "PIVOTAL_GEN", str(Path(__file__).resolve().parents[2] / "shared" / "tools" / "gen_session.py")
)
SIZE = (160, 48)


def generate(path: Path, megabytes: float) -> None:
    if not path.exists():
        cmd = [sys.executable, GEN, str(path), "--target-mb", str(megabytes)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


async def measure(path: Path, presses: int) -> dict[str, object]:
    from keytimes import SIZE, time_keys

    from pivotal.readers import find_sessions
    from pivotal.tui.app import ReplayerApp

    started = time.perf_counter()
    ref = find_sessions([path]).refs[0]
    app = ReplayerApp(ref)
    async with app.run_test(size=SIZE) as pilot:
        while app.first_paint_at is None:
            await asyncio.sleep(0.001)
        first_screen = app.first_paint_at - started
        screen = app.replay
        while not screen.analysed:
            await asyncio.sleep(0.01)
        read_all = time.perf_counter() - started
        await app.workers.wait_for_complete()
        await pilot.pause()
        keys = await time_keys(app, pilot, rounds=max(presses // 40, 3))
        turns = len(screen.playback.turns)
        renders = screen.transcript.renders
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "first_screen_s": first_screen,
        "read_all_s": read_all,
        "keys": keys,
        "turns": turns,
        "renders": renders,
        "rss_mb": rss,
        "size_mb": path.stat().st_size / 1e6,
    }


def run_one(path: Path, presses: int) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--one", str(path), "--keys", str(presses)],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(small: dict, big: dict) -> int:
    from keytimes import report as report_keys

    for name, row in (("100 KB", small), ("100 MB", big)):
        print(
            f"{name}: {row['size_mb']:.1f} MB, {row['turns']} turns | first screen "
            f"{row['first_screen_s'] * 1000:.0f} ms | all read + pivots "
            f"{row['read_all_s']:.2f} s | turns rendered {row['renders']} | "
            f"peak RSS {row['rss_mb']:.0f} MB"
        )
    failed = report_keys(big["keys"], f"100 MB ({big['turns']} turns)")
    checks = [
        (
            "first screen 100 MB <= 1.5 x 100 KB",
            big["first_screen_s"],
            1.5 * small["first_screen_s"],
            "s",
        ),
        (
            "peak RSS <= 100 KB run + 60 MB + 0.5 x size",
            big["rss_mb"],
            small["rss_mb"] + 60 + 0.5 * big["size_mb"],
            "MB",
        ),
    ]
    for label, value, limit, unit in checks:
        ok = value <= limit
        failed += not ok
        print(
            f"  {'PASS' if ok else 'FAIL'}  {label}: {value:.3g} {unit} (limit {limit:.3g} {unit})"
        )
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pivotal-bench"))
    parser.add_argument("--keys", type=int, default=400)
    parser.add_argument("--one", type=Path)
    parser.add_argument("--tmux", action="store_true", help="also time a few keys in tmux")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asyncio.run(measure(args.one, args.keys))))
        return 0
    args.dir.mkdir(parents=True, exist_ok=True)
    small, big = args.dir / "s100k.jsonl", args.dir / "s100m.jsonl"
    generate(small, 0.1)
    generate(big, 100)
    with fresh_data_dir():
        print(f"load average before: {load()}")
        code = report(run_one(small, 120), run_one(big, args.keys))
        if args.tmux and shutil.which("tmux"):
            pivotal = str(Path(sys.executable).parent / "pivotal")
            keys = ["l", "]", "G", "g", "e", "5", "Tab"]
            report_tmux(tmux_keys(pivotal, big, keys), "100 MB")
        print(f"load average after: {load()}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
