#!/usr/bin/env python3
"""`pivotal sessions` over thousands of session files: cold, warm and without the index.

    python bench/bench_sessions.py [--files 2000] [--warm-runs 3] [--keep DIR]

Builds a temporary home holding `--files` session files where each agent
keeps them: Claude Code projects, Codex dated rollouts and Gemini chats are
copies of `sample_sessions/` cut at a random length (sessions of every size,
never byte-identical), opencode databases are the sample databases, aider is
one history of every aider sample, plus a few big sessions from
../shared/tools/gen_session.py (Claude Code, Codex, an opencode storage
tree). Then it times whole processes, `pivotal sessions --root HOME --json`:

- cold: empty session index (every file read, turns and pivots counted);
- warm: the same again (median of --warm-runs; only stats);
- no-cache: `--no-cache` (every file read, index untouched);
- quick: `discover_sessions(details=False)`, the listing without counts (the
  floor a warm listing is compared with).

It checks that cold, warm and no-cache print the same bytes, and prints wall
times and the cost per file. The runs use a copy of `src/pivotal` taken at the
start: in a shared checkout a commit to the readers or the detector mid-run
would (rightly) empty the index and change the counts.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample_sessions"
GEN = REPO.parent / "shared" / "tools" / "gen_session.py"  # shared/ sits beside the checkout
SCENARIOS = sorted(p.stem for p in (SAMPLES / "claude").glob("*.jsonl"))


def cut(data: bytes, rng: random.Random) -> bytes:
    """The first 30-100 % of a JSONL session's lines (whole lines)."""
    lines = data.splitlines(keepends=True)
    keep = max(3, int(len(lines) * rng.uniform(0.3, 1.0)))
    return b"".join(lines[:keep])


def build_home(home: Path, files: int, seed: int) -> dict[str, int]:
    """Write the session files; returns how many of each agent."""
    rng = random.Random(seed)
    counts = {"claude-code": 0, "codex": 0, "gemini": 0, "opencode": 0, "aider": 0, "generated": 0}
    data = home / ".local/share/opencode"
    data.mkdir(parents=True)
    for name in SCENARIOS:  # one database per sample: each is a whole opencode install
        shutil.copy2(SAMPLES / "opencode" / name / "opencode.db", data / f"opencode-{name}.db")
        counts["opencode"] += 1
    history = b"".join(
        (SAMPLES / "aider" / f"{name}.aider.chat.history.md").read_bytes() for name in SCENARIOS
    )
    (home / ".aider.chat.history.md").write_bytes(history)
    counts["aider"] += 1
    generated = generate(home, rng)
    counts["generated"] = generated
    left = files - counts["opencode"] - counts["aider"] - generated
    sources = {
        fmt: {name: (SAMPLES / fmt / f"{name}.jsonl").read_bytes() for name in SCENARIOS}
        for fmt in ("claude", "codex", "gemini")
    }
    for n in range(left):
        fmt = ("claude", "claude", "codex", "gemini")[n % 4]  # Claude Code users are the most
        body = cut(sources[fmt][rng.choice(SCENARIOS)], rng)
        sid = uuid.UUID(int=rng.getrandbits(128))
        project = f"proj{n % 37}"
        if fmt == "claude":
            path = home / ".claude/projects" / f"-home-dev-{project}" / f"{sid}.jsonl"
            counts["claude-code"] += 1
        elif fmt == "codex":
            day = 1 + n % 28
            path = (
                home
                / ".codex/sessions/2026/11"
                / f"{day:02d}"
                / f"rollout-2026-11-{day:02d}T09-00-00-{sid}.jsonl"
            )
            counts["codex"] += 1
        else:
            path = home / ".gemini/tmp" / project / "chats" / f"session-{sid}.jsonl"
            counts["gemini"] += 1
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        stamp = time.time() - rng.uniform(0, 90 * 86400)
        os.utime(path, (stamp, stamp))
    return counts


def generate(home: Path, rng: random.Random) -> int:
    """A few big sessions from the shared generator (2 Claude Code, 1 Codex, 1 opencode tree)."""
    if not GEN.exists():
        return 0
    jobs = [
        ("claude", home / ".claude/projects/-home-dev-big" / "big-1.jsonl", "5"),
        ("claude", home / ".claude/projects/-home-dev-big" / "big-2.jsonl", "20"),
        ("codex", home / ".codex/sessions/2026/10/01/rollout-2026-10-01T09-00-00-big.jsonl", "5"),
        ("opencode", home / ".local/share/opencode", "2"),
    ]
    for fmt, out, megabytes in jobs:
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                str(GEN),
                str(out),
                "--format",
                fmt,
                "--target-mb",
                megabytes,
                "--seed",
                str(rng.randrange(1000)),
            ],
            check=True,
            capture_output=True,
        )
    return len(jobs)


def run(args: list[str], env: dict[str, str]) -> tuple[float, bytes, bytes]:
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return wall, done.stdout, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--warm-runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="build the home here and leave it")
    options = parser.parse_args()

    work = options.keep or Path(tempfile.mkdtemp(prefix="bench-sessions-"))
    home, cache = work / "home", work / "cache"
    try:
        if home.exists():
            shutil.rmtree(home)
        shutil.rmtree(cache, ignore_errors=True)
        counts = build_home(home, options.files, options.seed)
        files = sum(counts.values())  # session files (an opencode storage tree counts once)
        on_disk = [p.stat().st_size for p in home.rglob("*") if p.is_file()]
        code = work / "src"
        shutil.rmtree(code, ignore_errors=True)
        shutil.copytree(REPO / "src" / "pivotal", code / "pivotal")
        env = dict(os.environ, PIVOTAL_CACHE_DIR=str(cache), PYTHONPATH=str(code))
        listing = [sys.executable, "-m", "pivotal", "sessions", "--root", str(home), "--json"]

        cold, cold_out, cold_err = run(listing, env)
        warm_runs = [run(listing, env) for _ in range(options.warm_runs)]
        warm = statistics.median(w for w, _, _ in warm_runs)
        nocache, nocache_out, _ = run([*listing, "--no-cache"], env)
        quick_code = (
            "import sys; from pathlib import Path;"
            " from pivotal.catalog.discovery import discover_sessions;"
            f" print(len(discover_sessions([Path({str(home)!r})], details=False)))"
        )
        quick, quick_out, _ = run([sys.executable, "-c", quick_code], env)
        startup, _, _ = run([sys.executable, "-m", "pivotal", "--version"], env)

        same = all(out == cold_out for _, out, _ in warm_runs) and nocache_out == cold_out
        sessions = len(cold_out.splitlines())
        index_kb = sum(p.stat().st_size for p in cache.iterdir()) / 1024
        print(
            f"home: {files} session files ({len(on_disk)} files on disk,"
            f" {sum(on_disk) / 1e6:.0f} MB) -> {sessions} sessions; {counts}"
        )
        print(f"cpus: {os.cpu_count()}; python {sys.version.split()[0]}; index {index_kb:.0f} KB")
        print(f"{'run':<34}{'wall s':>9}{'ms/file':>10}")
        rows = [
            ("cold (empty index)", cold),
            (f"warm (median of {options.warm_runs})", warm),
            ("--no-cache", nocache),
            ("quick listing, no counts", quick),
            ("python + pivotal start-up", startup),
        ]
        for label, wall in rows:
            print(f"{label:<34}{wall:>9.2f}{1000 * wall / files:>10.2f}")
        print(f"warm runs: {', '.join(f'{w:.2f}' for w, _, _ in warm_runs)} s")
        print(f"cold / warm: {cold / warm:.0f}x; outputs identical: {same}")
        print(f"quick listing found {quick_out.decode().strip()} sessions")
        if cold_err:
            print(f"stderr (cold): {cold_err.decode().strip()[:300]}")
        if not same:
            sys.exit("cold, warm and --no-cache listings differ")
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
