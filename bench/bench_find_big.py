#!/usr/bin/env python3
"""A search that finds nothing, in the replayer, over a big session (issue 35 item 9).

Usage: python bench/bench_find_big.py [--mb 1000] [--dir DIR] [--file F] [--runs 2]

Opens the real app headless (Textual Pilot, 160x48) on a generated Claude Code
session (../shared/tools/gen_session.py or $PIVOTAL_GEN, seed 1), waits until every
turn is read and judged, then types `/` and a text no turn holds and times Enter
to the frame whose status line says "not found" (as `keytimes.py` times a miss
over 100 MB). Three needles: lower case (so case is ignored: the file is read
lower-cased), another lower-case one (nothing built for the first search is built
again), and one with a capital (case matters). The first search of a session also
builds what the search keeps of the in-memory turns. Target: <= 1 s per miss.
Each run is a fresh process; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GEN = os.environ.get("PIVOTAL_GEN", str(REPO.parent / "shared" / "tools" / "gen_session.py"))
NEEDLES = ("zq-no-such-text-qz", "nosuchwordanywhere", "Zeta-Absent 42")
TARGET_S = 1.0


async def misses(path: Path) -> dict[str, object]:
    from pivotal.readers import find_sessions
    from pivotal.tui.app import ReplayerApp

    ref = find_sessions([path]).refs[0]
    app = ReplayerApp(ref)
    started = time.perf_counter()
    found: dict[str, object] = {}
    async with app.run_test(size=(160, 48)) as pilot:
        screen = app.replay
        while not screen.analysed:
            await asyncio.sleep(0.05)
        found["read_s"] = time.perf_counter() - started
        found["turns"] = len(screen.playback.turns)
        await app.workers.wait_for_complete()
        await pilot.pause()
        for needle in NEEDLES:
            await pilot.press("slash", *needle)
            await pilot.pause()
            began = time.perf_counter()
            press = asyncio.create_task(pilot.press("enter"))
            while "not found" not in screen.status:
                await asyncio.sleep(0.005)
            found[needle] = time.perf_counter() - began
            await press
            await pilot.press("escape")
            await pilot.pause()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=1000.0)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pivotal-bench"))
    parser.add_argument("--file", type=Path, help="use this session instead of generating one")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:  # a run in its own process: print its figures as JSON
        print(json.dumps(asyncio.run(misses(args.one))))
        return 0
    path = args.file
    if path is None:
        args.dir.mkdir(parents=True, exist_ok=True)
        path = args.dir / f"first{args.mb:g}.jsonl"
        if not path.exists():
            command = [sys.executable, GEN, str(path), "--target-mb", str(args.mb), "--seed", "1"]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")
    worst = 0.0
    for run in range(1, args.runs + 1):
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(path)], capture_output=True, text=True
        )
        if out.returncode != 0:
            print(out.stderr[-2000:], file=sys.stderr)
            return 1
        found = json.loads(out.stdout.strip().splitlines()[-1])
        times = "  ".join(f"{needle!r} {found[needle]:.3f} s" for needle in NEEDLES)
        print(f"run {run}: {found['turns']:,} turns read and judged in {found['read_s']:.1f} s")
        print(f"  miss, Enter to 'not found': {times}")
        worst = max([worst, *(float(found[needle]) for needle in NEEDLES)])  # type: ignore[arg-type]
    verdict = "PASS" if worst <= TARGET_S else "FAIL"
    print(f"{verdict}  slowest miss {worst:.3f} s (target <= {TARGET_S:g} s)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
