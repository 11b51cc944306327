#!/usr/bin/env python3
"""The aider reader's worst cases: one huge reply, output run, input or line.

aider writes whole replies and command output without any boundary inside, so
one turn can be tens of thousands of lines, or one line of tens of MB. The
reader must be linear in them: doubling the lines should double the time.
Each case is built in a temp dir at N and 2N lines (or one line of M and 2M
MB) and read in a fresh child process (`read`: the reader alone; `scan`:
`pivotal scan --json`, reader + detector + report), so caches never carry over.

    python bench/bench_aider.py [--lines 50000] [--mb 50] [--src DIR] [--runs 1]

`--src` runs the children against another source tree (e.g. an older checkout's
`src`) to compare.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
HEAD = (
    "# aider chat started at 2026-03-02 10:00:00\n\n> Aider v0.86.2  \n"
    "> Main model: anthropic/claude-sonnet-4 with diff edit format  \n\n#### go on  \n\n"
)
TAIL = "\n\n> Tokens: 12k sent, 3.4k received. Cost: $0.05 message, $0.05 session.  \n"

READ = """
import sys, time
from pathlib import Path
from pivotal.readers.aider import SPEC
start = time.perf_counter()
for ref in SPEC.refs(Path(sys.argv[1])):
    reader = SPEC.open(ref)
    reader.poll(final=True)
    text = sum(len(t.text) for t in reader.session.turns)
print(f"{time.perf_counter() - start:.3f} turns={len(reader.session.turns)} chars={text}")
"""


def reply(n: int) -> str:
    body = "\n".join(f"line {i} of one long reply, with a few words on it" for i in range(n))
    return HEAD + "I'll walk through it:\n\n```text\n" + body + TAIL  # a fence left open


def output(n: int) -> str:
    body = "\n".join(f"> Added src/module_{i}.py to the chat  " for i in range(n))
    return HEAD + "Done.\n\n" + body + "\n"


def pasted(n: int) -> str:
    body = "\n".join(f"#### pasted log line {i}: ERROR something failed here  " for i in range(n))
    return HEAD.replace("#### go on  \n\n", "") + body + "\n\nLet me look.\n"


def message(n: int) -> str:
    body = "\n".join(f"    code line {i} of a failed SEARCH block" for i in range(n))
    lines = "> # 1 SEARCH/REPLACE block failed to match!\n\n" + body + "\nfix the block above.  "
    return HEAD + "Edit:\n\n" + TAIL.strip("\n") + "\n" + lines + "\n"


def one_line(mb: int, where: str) -> str:
    big = "x" * (mb << 20)
    if where == "reply":
        return HEAD + big + TAIL
    if where == "input":
        return HEAD.replace("#### go on  ", "#### " + big + "  ")
    return HEAD + "Done.\n\n> " + big + "  \n"


def child(args: list[str], src: Path | None) -> tuple[float, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=3600)
    wall = time.perf_counter() - start
    last = (done.stdout.strip().splitlines() or [done.stderr.strip()[-200:]])[-1]
    return wall, last


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=50_000)
    ap.add_argument("--mb", type=int, default=50)
    ap.add_argument("--src", type=Path, help="source tree the children import pivotal from")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    n, mb = args.lines, args.mb
    cases = [
        (f"reply of {n:,} lines", lambda k: reply(n * k)),
        (f"aider output of {n:,} lines", lambda k: output(n * k)),
        (f"pasted input of {n:,} lines", lambda k: pasted(n * k)),
        (f"aider message of {n:,} lines", lambda k: message(n * k)),
        (f"reply of one {mb} MB line", lambda k: one_line(mb * k, "reply")),
        (f"input of one {mb} MB line", lambda k: one_line(mb * k, "input")),
        (f"aider output of one {mb} MB line", lambda k: one_line(mb * k, "output")),
    ]
    print(f"python {sys.version.split()[0]}; src={args.src or 'installed'}; best of {args.runs}")
    print(f"{'case':34} {'MB':>6} {'read s':>8} {'x2 read':>8} {'scan s':>8} {'x2 scan':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in cases:
            row = []
            for k in (1, 2):
                path = Path(tmp) / f"k{k}.aider.chat.history.md"
                path.write_text(build(k))
                size = path.stat().st_size / 1e6
                reads = [child([sys.executable, "-c", READ, str(path)], args.src)]
                for _ in range(args.runs - 1):
                    reads.append(child([sys.executable, "-c", READ, str(path)], args.src))
                scan = [sys.executable, "-m", "pivotal", "scan", "--json", str(path)]
                scans = [child(scan, args.src) for _ in range(args.runs)]
                row.append((size, min(w for w, _ in reads), min(w for w, _ in scans)))
                path.unlink()
            (size, r1, s1), (_, r2, s2) = row
            print(f"{name:34} {size:6.1f} {r1:8.2f} {r2 / r1:7.1f}x {s1:8.2f} {s2 / s1:7.1f}x")
    print("x2: the time at twice the lines (or twice the MB) over the time at once; ~2 is linear")
    return 0


if __name__ == "__main__":
    sys.exit(main())
