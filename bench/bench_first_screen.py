#!/usr/bin/env python3
"""The replayer's first screen in a real terminal: launch -> transcript drawn, by file size.

Usage: python bench/bench_first_screen.py [--runs 5] [--dir DIR] [--sizes 0.1,100,1000]
       [--file F ...]

Starts `pivotal FILE` in a detached tmux session (160x48) and polls
`tmux capture-pane` until the pane shows a turn header of the transcript
(`#1`, `#2`, ...) and the status line (`turn N/M`): what a person sees as
"it opened". The time is from the `tmux new-session` call to the first
capture that shows both, so it includes Python's start-up, the imports, the
first slice read and Textual's first frame (poll interval ~5 ms).

Sessions come from ../shared/tools/gen_session.py (or $PIVOTAL_GEN) with
seed 1; /tmp/big/s100.jsonl and /tmp/big/s1000.jsonl are used when present.
Runs are interleaved (size by size, run by run) so a noisy neighbour hits
every size alike; the load average is printed before and after. Target
(issue 18 item 19): <= 0.5 s at any size, and 1 GB <= 1.5 x the 100 KB figure.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GEN = os.environ.get("PIVOTAL_GEN", str(REPO.parent / "shared" / "tools" / "gen_session.py"))
KNOWN = {100.0: Path("/tmp/big/s100.jsonl"), 1000.0: Path("/tmp/big/s1000.jsonl")}
HEADER = re.compile(r"[▏┃] . (You|Agent|injected|system)\s+#\d+")
STATUS = re.compile(r"turn \d+/\d+")
TIMEOUT = 60.0


def session_for(megabytes: float, folder: Path) -> Path:
    known = KNOWN.get(megabytes)
    if known is not None and known.exists():
        return known
    path = folder / f"first{megabytes:g}.jsonl"
    if not path.exists():
        command = [sys.executable, GEN, str(path), "--target-mb", str(megabytes), "--seed", "1"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return path


def capture(name: str) -> str:
    out = subprocess.run(
        ["tmux", "capture-pane", "-pt", name], capture_output=True, text=True, check=False
    )
    return out.stdout


def first_screen(pivotal: str, path: Path, run: int) -> float:
    """Seconds from launching the replayer on `path` to the transcript on screen."""
    name = f"bench-first-{os.getpid()}-{run}-{time.monotonic_ns()}"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = f"{pivotal} {path}"
    begin = time.perf_counter()
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "160", "-y", "48", command],
        check=True,
        env=env,
    )
    try:
        while True:
            shown = capture(name)
            if HEADER.search(shown) and STATUS.search(shown):
                return time.perf_counter() - begin
            if time.perf_counter() - begin > TIMEOUT:
                raise TimeoutError(f"{path}: nothing drawn in {TIMEOUT:.0f} s:\n{shown}")
            time.sleep(0.005)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/pivotal-bench"))
    parser.add_argument("--sizes", default="0.1,100,1000", help="MB, comma-separated")
    parser.add_argument("--file", type=Path, action="append", default=[], help="also time F")
    parser.add_argument("--pivotal", default=str(Path(sys.executable).parent / "pivotal"))
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("tmux is not installed: this bench drives a real terminal", file=sys.stderr)
        return 2
    args.dir.mkdir(parents=True, exist_ok=True)
    files = [session_for(float(mb), args.dir) for mb in args.sizes.split(",") if mb]
    files += args.file
    for path in files:  # warm the page cache: the figures are warm-cache figures
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=False)
    # a session that outlives the measured ones: when the last session goes, the tmux
    # server exits, and a new-session racing its exit fails
    keeper = f"bench-first-keeper-{os.getpid()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", keeper, "sleep 3600"], check=True)
    print(f"load average before: {load()}")
    times: dict[Path, list[float]] = {path: [] for path in files}
    try:
        for run in range(args.runs):
            for path in files:
                times[path].append(first_screen(args.pivotal, path, run))
    finally:
        subprocess.run(["tmux", "kill-session", "-t", keeper], check=False)
    print(f"load average after:  {load()}")
    small = None
    for path in files:
        row = times[path]
        median = statistics.median(row)
        small = median if small is None else small
        print(
            f"{path.stat().st_size / 1e6:9.1f} MB  first screen median {median * 1000:5.0f} ms "
            f"[{min(row) * 1000:.0f}-{max(row) * 1000:.0f}] over {len(row)} runs  "
            f"({median / small:.2f} x the first file)  {path}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
