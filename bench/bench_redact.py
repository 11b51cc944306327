#!/usr/bin/env python3
"""What `--redact` costs: `pivotal export` of one session with and without it, interleaved.

Each format is exported to /dev/null by a child process, `--redact` and plain in
turn, `--rounds` times, so both see the same load on a shared machine; the figures
are the medians of wall time and of the child's CPU time (user + system, from
`os.wait4`), and `--redact` as a multiple of the plain export. The load average is
printed before and after: on a busy machine wall time says more about the others.

    python bench/bench_redact.py [FILE] [--formats json,html,md,cast] [--rounds 3]

FILE defaults to /tmp/big/s100.jsonl (100 MB), made by
`python3 ../shared/tools/gen_session.py /tmp/big/s100.jsonl --target-mb 100 --seed 1`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT = Path("/tmp/big/s100.jsonl")


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, exit code) of one child writing to /dev/null."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, stdout=null, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--formats", default="json,html,md,cast")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not args.file.exists():
        sys.exit(f"{args.file}: missing (see this script's docstring for how to make it)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    size_mb = args.file.stat().st_size / 1e6
    print(f"session: {args.file} ({size_mb:,.0f} MB), {args.rounds} rounds, load {load()}")
    for fmt in args.formats.split(","):
        command = [sys.executable, "-m", "pivotal", "export", str(args.file), "--to", fmt]
        command += ["--no-notes", "-o", os.devnull]
        plain: list[tuple[float, float, int]] = []
        redacted: list[tuple[float, float, int]] = []
        for _ in range(args.rounds):
            plain.append(run(command, env))
            redacted.append(run([*command, "--redact"], env))
        codes = {code for _, _, code in plain + redacted}
        walls = [statistics.median(w for w, _, _ in runs) for runs in (plain, redacted)]
        cpus = [statistics.median(c for _, c, _ in runs) for runs in (plain, redacted)]
        print(
            f"export --to {fmt:<4}  plain {walls[0]:5.2f} s (CPU {cpus[0]:5.2f})"
            f"  --redact {walls[1]:5.2f} s (CPU {cpus[1]:5.2f})"
            f"  = {walls[1] / walls[0]:4.1f}x wall, {cpus[1] / cpus[0]:4.1f}x CPU"
            f"  exit {','.join(map(str, sorted(codes)))}"
        )
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
