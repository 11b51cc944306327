#!/usr/bin/env python3
"""Export memory on a big session: peak RSS of `pivotal export --to json|html|md|cast`.

An export is written as it is rendered, turn by turn, so its memory should be the
session's index (what `pivotal scan` of the same file needs) plus a constant, not
the size of the output. Each command runs in its own child process writing to
/dev/null; peak RSS is that child's own `ru_maxrss` (`os.wait4`). The scan on one
core (`PIVOTAL_ONE_CORE=1`) is the yardstick: it holds the same index.

    python bench/bench_export.py [FILE] [--formats json,html,md,cast] [--redact]

FILE defaults to /tmp/big/s1000.jsonl (1 GB), made by
`python3 ../shared/tools/gen_session.py /tmp/big/s1000.jsonl --target-mb 1000 --seed 1`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path("/tmp/big/s1000.jsonl")


def measure(command: list[str], env: dict[str, str]) -> tuple[float, int, int, str]:
    """Run `command`; (wall seconds, peak RSS in MiB, exit code, last line of stderr)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err, open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, stdout=null, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    return wall, usage.ru_maxrss // 1024, os.waitstatus_to_exitcode(status), (lines or [""])[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--formats", default="json,html,md,cast")
    parser.add_argument("--redact", action="store_true", help="also with --redact")
    args = parser.parse_args()
    if not args.file.exists():
        sys.exit(f"{args.file}: missing (see this script's docstring for how to make it)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    pivotal = [sys.executable, "-m", "pivotal"]
    size_mb = args.file.stat().st_size / 1e6
    print(f"session: {args.file} ({size_mb:,.0f} MB)")
    wall, rss, code, _ = measure(
        [*pivotal, "scan", "--json", str(args.file)], {**env, "PIVOTAL_ONE_CORE": "1"}
    )
    print(
        f"{'scan --json (one core: the index)':<34} {wall:6.1f} s"
        f"  peak RSS {rss:6,} MiB  exit {code}"
    )
    runs = [(fmt, ()) for fmt in args.formats.split(",")]
    if args.redact:
        runs += [(fmt, ("--redact",)) for fmt in args.formats.split(",")]
    for fmt, extra in runs:
        command = [*pivotal, "export", str(args.file), "--to", fmt, "--no-notes", *extra]
        wall, used, code, last = measure([*command, "-o", os.devnull], env)
        label = f"export --to {fmt} {' '.join(extra)}".strip()
        note = "" if code == 0 else f"  ({last})"
        print(
            f"{label:<34} {wall:6.1f} s  peak RSS {used:6,} MiB  exit {code}"
            f"  = index + {used - rss:,} MiB{note}"
        )


if __name__ == "__main__":
    main()
