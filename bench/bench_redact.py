#!/usr/bin/env python3
"""What `--redact` costs: `pivotal export` of one session with and without it, interleaved.

Each format is exported to /dev/null by a child process, `--redact` and plain in
turn, `--rounds` times, so both see the same load on a shared machine; the figures
are the medians of wall time, of the child's CPU time (user + system) and of its
peak RSS (all from `os.wait4`), and `--redact` as a multiple of the plain export
(the target: 3x at most, on any input). The load average is printed before and
after: on a busy machine wall time says more about the others.

    python bench/bench_redact.py [FILE] [--cases token,aider,file] [--formats json,html,md,cast]
                                 [--rounds 3] [--against OTHER/src]

`--against` also times `--redact` of another checkout (its `src` folder, e.g. the
main branch's) in the same rounds, so a change is measured against what it changes
under the same load.

The cases:
- `token`: a Claude Code session whose one tool output is 20 MB of base64 in one
  line (a screenshot `base64`-ed without wrapping), made in a temporary folder;
- `aider`: an aider history with one 40 MB line of base64 in a reply;
- `file`: FILE, by default /tmp/big/s100.jsonl (100 MB of an ordinary session), made by
  `python3 ../shared/tools/gen_session.py /tmp/big/s100.jsonl --target-mb 100 --seed 1`.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path("/tmp/big/s100.jsonl")
TOKEN_MB = 20
AIDER_MB = 40


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit code) of one child writing to
    /dev/null."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen(command, stdout=null, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss // 1024, os.waitstatus_to_exitcode(status)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def write_blob(out, megabytes: int, seed: int) -> None:  # type: ignore[no-untyped-def]
    """`megabytes` MB of base64 (of random bytes: every short word turns up in it),
    written a MB at a time: a child's peak RSS counts its parent's size when it was
    started (Linux keeps the high-water mark across exec), so this process stays small."""
    rng = random.Random(seed)
    for _ in range(megabytes):
        out.write(base64.b64encode(rng.randbytes(750_000)).decode())


def token_session(folder: Path) -> Path:
    """A Claude Code session: `base64 shot.png`, and its 20 MB of output in one line."""

    def record(n: int, kind: str, message: dict) -> str:
        return json.dumps(
            {
                "parentUuid": f"u{n - 1}" if n else None,
                "isSidechain": False,
                "userType": "external",
                "cwd": "/home/mara/app",
                "sessionId": "5b1f0c2e-4b7a-4d1e-9a55-3c1d2e4f5a6b",
                "version": "2.1.197",
                "type": kind,
                "message": message,
                "uuid": f"u{n}",
                "timestamp": f"2026-11-30T10:00:{n:02d}.000Z",
            }
        )

    def assistant(n: int, content: list[dict]) -> str:
        message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "content": content}
        return record(n, "assistant", message | {"model": "claude-opus-4-8"})

    use = {"type": "tool_use", "id": "toolu_1", "name": "Bash"}
    use["input"] = {"command": "base64 -w0 shot.png"}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "@BLOB@"}
    before, after = record(2, "user", {"role": "user", "content": [result]}).split("@BLOB@")
    first = record(0, "user", {"role": "user", "content": "Show me the screenshot's bytes"})
    last = assistant(3, [{"type": "text", "text": "That is a PNG of 15 MB."}])
    path = folder / "token.jsonl"
    with path.open("w", encoding="utf-8") as out:
        out.write(f"{first}\n{assistant(1, [use])}\n{before}")
        write_blob(out, TOKEN_MB, 1)
        out.write(f"{after}\n{last}\n")
    return path


def aider_history(folder: Path) -> Path:
    """An aider chat history whose one reply is a 40 MB line (as `bench_aider.py` makes
    them, of base64 here: the hardest line for the keyword test)."""
    head = (
        "# aider chat started at 2026-03-02 10:00:00\n\n> Aider v0.86.2  \n"
        "> Main model: anthropic/claude-sonnet-4 with diff edit format  \n\n#### go on  \n\n"
    )
    tail = "\n\n> Tokens: 12k sent, 3.4k received. Cost: $0.05 message, $0.05 session.  \n"
    path = folder / "aider" / ".aider.chat.history.md"
    path.parent.mkdir()
    with path.open("w", encoding="utf-8") as out:
        out.write(head)
        write_blob(out, AIDER_MB, 2)
        out.write(tail)
    return path


def bench(
    name: str, path: Path, formats: list[str], rounds: int, against: Path | None = None
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    other = {**env, "PYTHONPATH": str(against)} if against is not None else None
    size_mb = path.stat().st_size / 1e6
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(
        f"{name}: {path} ({size_mb:,.0f} MB), {rounds} rounds, load {load()}"
        f" (a peak RSS is at least this bench's own {own} MB)"
    )
    for fmt in formats:
        command = [sys.executable, "-m", "pivotal", "export", str(path), "--to", fmt]
        command += ["--no-notes", "-o", os.devnull]
        plain: list[tuple[float, float, int, int]] = []
        redacted: list[tuple[float, float, int, int]] = []
        before: list[tuple[float, float, int, int]] = []
        for _ in range(rounds):
            plain.append(run(command, env))
            redacted.append(run([*command, "--redact"], env))
            if other is not None:
                before.append(run([*command, "--redact"], other))
        codes = {code for *_, code in plain + redacted + before}
        walls = [statistics.median(r[0] for r in runs) for runs in (plain, redacted)]
        cpus = [statistics.median(r[1] for r in runs) for runs in (plain, redacted)]
        rss = [statistics.median(r[2] for r in runs) for runs in (plain, redacted)]
        print(
            f"  --to {fmt:<4}  plain {walls[0]:6.2f} s (CPU {cpus[0]:6.2f}, {rss[0]:5.0f} MB)"
            f"  --redact {walls[1]:6.2f} s (CPU {cpus[1]:6.2f}, {rss[1]:5.0f} MB)"
            f"  = {walls[1] / walls[0]:4.1f}x wall, {cpus[1] / cpus[0]:4.2f}x CPU"
            f"  exit {','.join(map(str, sorted(codes)))}"
        )
        print(f"           CPU of each run: plain {_listed(plain)}, --redact {_listed(redacted)}")
        if before:
            cpu = statistics.median(r[1] for r in before)
            print(
                f"           --against: --redact CPU {cpu:6.2f} = {cpu / cpus[0]:4.2f}x"
                f" ({_listed(before)})"
            )


def _listed(runs: list[tuple[float, float, int, int]]) -> str:
    return " ".join(f"{r[1]:.2f}" for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--cases", default="token,aider,file")
    parser.add_argument("--formats", default="json,html,md,cast")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, default=None, metavar="OTHER/src")
    args = parser.parse_args()
    formats = args.formats.split(",")
    cases = args.cases.split(",")
    with tempfile.TemporaryDirectory(prefix="bench-redact-") as temp:
        folder = Path(temp)
        if "token" in cases:
            token = token_session(folder)
            bench(f"one {TOKEN_MB} MB token", token, formats, args.rounds, args.against)
        if "aider" in cases:
            aider = aider_history(folder)
            bench(f"one {AIDER_MB} MB aider line", aider, formats, args.rounds, args.against)
    if "file" in cases:
        if args.file.exists():
            bench("a whole session", args.file, formats, args.rounds, args.against)
        else:
            print(f"{args.file}: missing (see this script's docstring for how to make it)")
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
