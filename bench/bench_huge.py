#!/usr/bin/env python3
"""How pivotal copes with a 1 GB Claude Code session: wall time and peak RSS vs file size.

Builds the session with `../shared/tools/gen_session.py` in a temp dir (or uses
`--file`), then runs `pivotal scan FILE` in a child process. Until the CLI has a
`scan` command it falls back to `read_session` + the pivot detector in a child.
Peak RSS is the child's own `ru_maxrss` from `os.wait4`, so the generator's memory
never counts.

    python bench/bench_huge.py [--size-mb 1000] [--keep] [--file F] [--runs 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GEN = Path(__file__).resolve().parents[2] / "shared" / "tools" / "gen_session.py"

# Fallback when `pivotal scan` is not there yet: read, then detect if a detector exists.
FALLBACK = """
import importlib, sys
from pathlib import Path
from pivotal.readers import find_sessions, read_session
found = find_sessions([Path(sys.argv[1])])
if not found.refs:
    sys.exit("no session: " + "; ".join(found.problems))
session = read_session(found.refs[0])
detect = None
for module, name in (("pivotal.detect", "detect_pivots"), ("pivotal.detector", "detect_pivots")):
    try:
        detect = getattr(importlib.import_module(module), name)
        break
    except (ImportError, AttributeError):
        continue
pivots = detect(session) if detect else None
print(f"turns={len(session.turns)} skipped={len(session.skipped)} "
      f"pivots={'n/a' if pivots is None else len(pivots)}")
"""


def has_scan() -> bool:
    """True once the CLI has a `scan` command."""
    probe = [sys.executable, "-m", "pivotal", "scan", "--help"]
    result = subprocess.run(probe, capture_output=True, text=True, timeout=60)
    return result.returncode == 0


def measure(command: list[str]) -> tuple[float, int, int, str]:
    """Run `command`; return (wall seconds, peak RSS in KiB, exit code, last output line)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        tail = out.read()[-2000:].decode("utf-8", "replace").strip().splitlines()
    return wall, usage.ru_maxrss, child.returncode, tail[-1] if tail else ""


def generate(path: Path, size_mb: float, seed: int) -> None:
    start = time.perf_counter()
    command = [sys.executable, str(GEN), str(path), "--target-mb", str(size_mb)]
    result = subprocess.run(command + ["--seed", str(seed)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"gen_session.py failed: {result.stderr.strip()}")
    print(f"generated {path} in {time.perf_counter() - start:.1f}s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=1000.0, help="MB (10**6 bytes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", type=Path, help="use this session instead of generating one")
    parser.add_argument("--keep", action="store_true", help="keep the generated file")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="pivotal-bench-"))
    try:
        path = args.file or workdir / "huge.jsonl"
        if args.file is None:
            generate(path, args.size_mb, args.seed)
        size = path.stat().st_size
        if has_scan():
            label, command = "pivotal scan", [sys.executable, "-m", "pivotal", "scan", str(path)]
        else:
            label = "read_session + detect (no `pivotal scan` yet)"
            command = [sys.executable, "-c", FALLBACK, str(path)]
        subprocess.run(["cat", str(path)], stdout=subprocess.DEVNULL, check=False)  # warm cache
        print(f"file: {size / 1e6:,.1f} MB   command: {label}")
        for run in range(1, args.runs + 1):
            wall, rss_kib, code, last = measure(command)
            rss_mb = rss_kib * 1024 / 1e6
            print(
                f"run {run}: exit {code}  wall {wall:.2f}s  {size / 1e6 / wall:,.0f} MB/s  "
                f"peak RSS {rss_mb:,.0f} MB ({rss_mb / (size / 1e6):.2f}x file)  | {last[:120]}"
            )
    finally:
        if args.keep and args.file is None:
            print(f"kept {workdir / 'huge.jsonl'}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
