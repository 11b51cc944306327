#!/usr/bin/env python3
"""`pivotal search` over the 2,000-session bench home: the first index, its size, an
incremental update, query latency, and whole processes, beside floors measured in the run.

    python bench/bench_search.py [--files 2000] [--queries 40] [--processes 15] [--keep DIR]

The home is `bench_sessions.py`'s (Claude Code, Codex and Gemini copies of the samples
cut at random lengths, opencode databases, an aider history and a few big generated
sessions). The runs use a copy of `src/pivotal` taken at the start and write bytecode
(PYTHONDONTWRITEBYTECODE is unset for them: an installed pivotal has its .pyc files).

- first index: `pivotal search WORD --root HOME` with an empty cache folder (every file
  read in the workers, counted, its text indexed); wall time and the peak of the whole
  process tree's RSS (sampled from /proc), beside `grep -c` over the same files;
- the index's size (files on disk) beside the text it holds (UTF-8 bytes);
- one session grown by 100 turns, then `pivotal search` on the new text: whole process;
- query latency in one process (`search_query.search`, the index open), p50 and p95,
  for whole words and for substrings that are no word;
- whole `pivotal search` processes, warm (start-up included), p50 and p95;
- floors: `grep -c -r -F WORD HOME` (reading every file for a word) and `python -c pass`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from bench_sessions import build_home  # noqa: E402

WORDS = ["timeout", "benchmark", "README", "pytest", "vocabulary", "migration"]
SUBSTRINGS = ["imeou", "nchmar", "ADME.m", "ytes", "cabula", "igratio"]
TARGETS = {
    "first index": "≤ 30 s on 2 cores, peak RSS ≤ 300 MB",
    "size": "≤ 3 × the text held",
    "grown": "≤ 1 s",
    "word": "≤ 50 ms p95",
    "substring": "≤ 200 ms p95",
    "process": "≤ 250 ms",
}


def tree_rss(pid: int) -> int:
    """The resident memory (bytes) of a process and all its descendants, from /proc."""
    total = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as handle:
                for line in handle:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
                        break
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    stack.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue
    return total


def run(args: list[str], env: dict[str, str], sample: bool = False) -> tuple[float, int, bytes]:
    """(wall seconds, peak tree RSS when `sample`, stdout) of one process; exits on failure."""
    start = time.perf_counter()
    process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = [0]
    if sample:

        def watch() -> None:
            while process.poll() is None:
                peak[0] = max(peak[0], tree_rss(process.pid))
                time.sleep(0.05)

        threading.Thread(target=watch, daemon=True).start()
    out, err = process.communicate()
    wall = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({process.returncode}): {err.decode()[-2000:]}")
    return wall, peak[0], out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def grow(path: Path, turns: int) -> str:
    """Append `turns` Claude Code records (person and agent in turn) to `path`; returns a
    word only the new turns hold."""
    last = None
    session = "bench-grown"
    for line in path.read_bytes().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        last = record.get("uuid") or last
        session = record.get("sessionId") or session
    marker = "zyxwgrown"
    lines = []
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    for n in range(turns):
        uuid = f"grown-{n:04d}"
        base = {
            "parentUuid": last,
            "isSidechain": False,
            "uuid": uuid,
            "timestamp": stamp,
            "cwd": "/home/dev/proj-grown",
            "sessionId": session,
            "version": "2.1.197",
        }
        if n % 2 == 0:
            record = {
                **base,
                "type": "user",
                "userType": "external",
                "message": {"role": "user", "content": f"step {n}: check the {marker} figures"},
            }
        else:
            record = {
                **base,
                "type": "assistant",
                "message": {
                    "id": f"msg_grown_{n}",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-opus-4-8",
                    "content": [{"type": "text", "text": f"Step {n} done; the figures hold."}],
                    "stop_reason": "end_turn",
                    "usage": {"input_tokens": 10, "output_tokens": 10},
                },
            }
        lines.append(json.dumps(record))
        last = uuid
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    return marker


def in_process_latency(code: Path, cache: Path, queries: list[str], runs: int) -> list[float]:
    """Milliseconds per `search()` in a fresh process with the index open (each query `runs`
    times, after one look-up that warms SQLite's page cache)."""
    script = (
        "import json, sys, time\n"
        "from pivotal.catalog.search_index import open_search_index\n"
        "from pivotal.catalog.search_query import parse_query, search\n"
        "index = open_search_index()\n"
        "queries, runs = json.loads(sys.argv[1]), int(sys.argv[2])\n"
        "search(index, parse_query(queries[0]))\n"
        "times = []\n"
        "for _ in range(runs):\n"
        "    for q in queries:\n"
        "        start = time.perf_counter()\n"
        "        search(index, parse_query(q))\n"
        "        times.append((time.perf_counter() - start) * 1000)\n"
        "print(json.dumps(times))\n"
    )
    env = _env(code, cache)
    _, _, out = run([sys.executable, "-c", script, json.dumps(queries), str(runs)], env)
    return json.loads(out)


def _env(code: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ, PIVOTAL_CACHE_DIR=str(cache), PYTHONPATH=str(code))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def text_bytes(cache: Path, code: Path) -> tuple[int, int, int]:
    """(sessions, texts, UTF-8 bytes of text) the index holds."""
    script = (
        "from pivotal.catalog.search_index import open_search_index\n"
        "index = open_search_index()\n"
        "s = index.conn.execute('SELECT COUNT(*) FROM sessions').fetchone()[0]\n"
        "d, b = index.conn.execute("
        "'SELECT COUNT(*), SUM(LENGTH(CAST(body AS BLOB))) FROM text').fetchone()\n"
        "print(s, d, b)\n"
    )
    _, _, out = run([sys.executable, "-c", script], _env(code, cache))
    sessions, docs, size = (int(x) for x in out.split())
    return sessions, docs, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=40, help="runs of each in-process query")
    parser.add_argument("--processes", type=int, default=15, help="whole processes per query")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="build the home here and leave it")
    options = parser.parse_args()

    work = options.keep or Path(tempfile.mkdtemp(prefix="bench-search-"))
    home, cache = work / "home", work / "cache"
    try:
        if not home.exists():
            build_home(home, options.files, options.seed)
        shutil.rmtree(cache, ignore_errors=True)
        files = [p for p in home.rglob("*") if p.is_file()]
        code = work / "src"
        shutil.rmtree(code, ignore_errors=True)
        shutil.copytree(REPO / "src" / "pivotal", code / "pivotal")
        env = _env(code, cache)
        pivotal = [sys.executable, "-m", "pivotal"]
        word = WORDS[0]

        # floors
        grep = shutil.which("grep") or "grep"
        floor_grep = min(_grep(grep, word, home) for _ in range(3))
        floor_python = min(run([sys.executable, "-c", "pass"], env)[0] for _ in range(5))
        run([*pivotal, "--version"], env)  # bytecode written for the copy

        # the first index
        first, peak, _ = run([*pivotal, "search", word, "--root", str(home)], env, sample=True)
        sessions, docs, held = text_bytes(cache, code)
        on_disk = sum(p.stat().st_size for p in cache.glob("search.sqlite3*"))

        # warm processes
        def process_times(query: str) -> list[float]:
            return [
                run([*pivotal, "search", query, "--root", str(home)], env)[0]
                for _ in range(options.processes)
            ]

        warm_word = process_times(word)
        warm_sub = process_times(SUBSTRINGS[0])

        # in-process latency
        word_ms = in_process_latency(code, cache, WORDS, options.queries)
        sub_ms = in_process_latency(code, cache, SUBSTRINGS, options.queries)

        # one session grows by 100 turns
        target = max(
            (p for p in (home / ".claude/projects").rglob("*.jsonl") if "big" not in p.name),
            key=lambda p: p.stat().st_size,
        )
        marker = grow(target, 100)
        grown, _, out = run([*pivotal, "search", marker, "--root", str(home), "--json"], env)
        found = [json.loads(line) for line in out.splitlines()]
        grown_ok = bool(found) and all(Path(h["path"]) == target for h in found)
        after = statistics.median(process_times(marker)[:5])

        print(
            f"home: {len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.0f} MB"
            f" -> {sessions} sessions indexed, {docs:,} texts; cpus {os.cpu_count()},"
            f" python {sys.version.split()[0]}, SQLite {_sqlite_version()}"
        )
        print(
            f"floors: grep -c -r -F {word!r} over the home {floor_grep:.3f} s;"
            f" python -c pass {floor_python * 1000:.0f} ms"
        )
        print(f"{'measure':<44}{'figure':>14}{'ratio':>14}   target")
        rows = [
            (
                "first index (whole process)",
                f"{first:.2f} s",
                f"{first / floor_grep:.0f} × grep",
                TARGETS["first index"],
            ),
            ("peak RSS of the process tree", f"{peak / 2**20:.0f} MB", "", ""),
            (
                "index on disk / text held",
                f"{on_disk / 1e6:.1f} / {held / 1e6:.1f} MB",
                f"{on_disk / held:.2f} ×",
                TARGETS["size"],
            ),
            (
                "grown by 100 turns: search finds them",
                f"{grown:.3f} s",
                f"{grown / floor_grep:.1f} × grep",
                TARGETS["grown"],
            ),
            ("  (then warm, median of 5)", f"{after:.3f} s", "", ""),
            (
                "word, in process, p50 / p95",
                f"{_ms(word_ms)}",
                f"{p95(word_ms) / 1000 / floor_grep:.3f} × grep",
                TARGETS["word"],
            ),
            (
                "substring, in process, p50 / p95",
                f"{_ms(sub_ms)}",
                f"{p95(sub_ms) / 1000 / floor_grep:.3f} × grep",
                TARGETS["substring"],
            ),
            (
                "word, whole process, p50 / p95",
                _s(warm_word),
                f"{p95(warm_word) / floor_python:.1f} × python",
                TARGETS["process"],
            ),
            (
                "substring, whole process, p50 / p95",
                _s(warm_sub),
                f"{p95(warm_sub) / floor_python:.1f} × python",
                TARGETS["process"],
            ),
        ]
        for label, figure, ratio, goal in rows:
            print(f"{label:<44}{figure:>14}{ratio:>14}   {goal}")
        print(f"grown session found: {grown_ok} ({len(found)} hits in {target.name})")
        if not grown_ok:
            sys.exit("the grown session's new turns were not found")
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)


def _grep(grep: str, word: str, home: Path) -> float:
    start = time.perf_counter()
    subprocess.run([grep, "-c", "-r", "-F", word, str(home)], capture_output=True, check=False)
    return time.perf_counter() - start


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} / {p95(values):.1f} ms"


def _s(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} / {p95(values) * 1000:.0f} ms"


def _sqlite_version() -> str:
    import sqlite3

    return sqlite3.sqlite_version


if __name__ == "__main__":
    main()
