# ruff: noqa: E501  (scenario data: verbatim tool output lines are long on purpose)
"""Helpers that write long, realistic stretches of agent work in the neutral DSL.

Everything is driven by a seeded `random.Random`, so scenarios stay deterministic.
Tool names are the writers' neutral spelling (Bash, Read, Edit, Write, Grep, TodoWrite).
"""

from __future__ import annotations

import random

from samplegen.dsl import A, T


class Kit:
    """Neutral tool calls rooted at one working directory."""

    def __init__(self, cwd: str, seed: str) -> None:
        self.cwd = cwd
        self.rng = random.Random(seed)

    def p(self, path: str) -> str:
        return path if path.startswith("/") else f"{self.cwd}/{path}"

    def sh(
        self, cmd: str, out: str = "", code: int = 0, ms: int | None = None, desc: str = ""
    ) -> T:
        inp = {"command": cmd, "description": desc or cmd.split("\n")[0][:60]}
        return T("Bash", inp, output=out, error=code != 0, exit_code=code, duration_ms=ms)

    def timeout(self, cmd: str, out: str, ms: int) -> T:
        """A command killed by the tool's time limit: an error without an exit code."""
        inp = {"command": cmd, "description": cmd[:60], "timeout": ms}
        return T("Bash", inp, output=out, error=True, exit_code=None, duration_ms=ms)

    def read(self, path: str, out: str) -> T:
        return T("Read", {"file_path": self.p(path)}, output=out)

    def edit(self, path: str, old: str, new: str) -> T:
        p = self.p(path)
        return T(
            "Edit",
            {"file_path": p, "old_string": old, "new_string": new},
            output=f"The file {p} has been updated successfully.",
        )

    def write(self, path: str, content: str) -> T:
        p = self.p(path)
        return T(
            "Write",
            {"file_path": p, "content": content},
            output=f"File created successfully at: {p}",
        )

    def grep(self, pattern: str, path: str, out: str) -> T:
        return T("Grep", {"pattern": pattern, "path": self.p(path)}, output=out)

    def todo(self, items: list[tuple[str, str]]) -> T:
        todos = [{"content": c, "status": s, "activeForm": c} for c, s in items]
        return T("TodoWrite", {"todos": todos}, output="Todos have been modified successfully.")


def nvidia_smi(rng: random.Random, used_gb: float = 88.0, util: int = 0) -> str:
    rows = []
    for i in range(8):
        mem = int((used_gb + rng.uniform(-1.5, 1.5)) * 1024)
        rows.append(
            f"{i}, NVIDIA RTX PRO 6000 Blackwell Server Edition, {mem} MiB, 97887 MiB, {util + rng.randint(0, 4)} %"
        )
    return "index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%]\n" + "\n".join(
        rows
    )


def poll_log(n: int, url: str = "http://127.0.0.1:30000/health") -> str:
    lines = [
        f"[poll {i:>2}/{n}] GET {url} -> connection refused, sleeping 20s" for i in range(1, n + 1)
    ]
    return (
        "\n".join(lines)
        + f"\nTIMEOUT: server not ready after {n} attempts ({n * 20 // 60}m{n * 20 % 60:02d}s)"
    )


def traceback(where: str, exc: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.12/site-packages/sglang/launch_server.py", line 14, in <module>\n'
        "    launch_server(server_args)\n"
        f'  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/{where}", line 311, in __init__\n'
        "    self.init_cuda_graphs()\n"
        '  File "/opt/venv/lib/python3.12/site-packages/torch/cuda/graphs.py", line 186, in __exit__\n'
        "    self.cuda_graph.capture_end()\n"
        f"{exc}"
    )


def bench_table(rows: list[tuple[int, float, float, int, float]]) -> str:
    head = "| Concurrency | Total tok/s | Output tok/s | Peak Output | TPOT (ms) |\n|---|---|---|---|---|"
    body = "\n".join(f"| {c} | {t:.2f} | {o:.2f} | {p} | {tp:.2f} |" for c, t, o, p, tp in rows)
    return head + "\n" + body


def bench_output(rng: random.Random, tok_s: float, conc: int = 1) -> str:
    ttft = rng.uniform(180, 420)
    return (
        "============ Serving Benchmark Result ============\n"
        f"Backend:                                 sglang\n"
        f"Max request concurrency:                 {conc}\n"
        f"Successful requests:                     {20 * conc}\n"
        f"Benchmark duration (s):                  {rng.uniform(80, 140):.2f}\n"
        f"Output token throughput (tok/s):         {tok_s:.2f}\n"
        f"Mean TTFT (ms):                          {ttft:.2f}\n"
        f"Mean TPOT (ms):                          {1000 / tok_s:.2f}\n"
        f"P99 TPOT (ms):                           {1000 / tok_s * rng.uniform(1.2, 1.6):.2f}\n"
        "=================================================="
    )


def pytest_out(rng: random.Random, passed: int, failed: list[str]) -> tuple[str, int]:
    lines = [
        "============================= test session starts ==============================",
        "platform linux -- Python 3.12.7, pytest-8.3.4, pluggy-1.5.0",
        f"collected {passed + len(failed)} items",
        "",
    ]
    for name in failed:
        lines += [f"FAILED {name} - AssertionError: assert 0.912 == 1.0"]
    secs = rng.uniform(2, 40)
    summary = (
        f"{len(failed)} failed, {passed} passed in {secs:.2f}s"
        if failed
        else f"{passed} passed in {secs:.2f}s"
    )
    lines.append(f"========================= {summary} =========================")
    return "\n".join(lines), 1 if failed else 0


def routine(k: Kit, topic: str, files: list[str], n: int) -> list[A]:
    """n assistant steps of ordinary, unchanged work: read, grep, small edits, quick checks."""
    out: list[A] = []
    rng = k.rng
    for i in range(n):
        f = files[i % len(files)]
        choice = i % 6
        if choice == 0:
            body = "\n".join(
                f"{topic}_{rng.randint(1, 99)} = load_config(path)"
                if j % 5 == 0
                else f"    # {topic} line {j}"
                for j in range(12)
            )
            out.append(A(text=f"Reading `{f}` for the {topic} settings.", tools=[k.read(f, body)]))
        elif choice == 1:
            hits = "\n".join(
                f"{f}:{rng.randint(10, 400)}:    {topic}_{rng.randint(1, 9)}(args)"
                for _ in range(rng.randint(2, 6))
            )
            out.append(A(tools=[k.grep(f"{topic}_", ".", hits)]))
        elif choice == 2:
            out.append(
                A(
                    text=f"Updating the {topic} default in `{f}`.",
                    tools=[
                        k.edit(
                            f,
                            f"{topic}_timeout = 30",
                            f"{topic}_timeout = {rng.choice([45, 60, 90])}",
                        )
                    ],
                )
            )
        elif choice == 3:
            out.append(
                A(
                    tools=[
                        k.sh(
                            f"python -c 'import {topic}; print({topic}.__version__)'",
                            f"{rng.randint(0, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
                        )
                    ]
                )
            )
        elif choice == 4:
            text, code = pytest_out(rng, rng.randint(20, 60), [])
            out.append(
                A(
                    text=f"Quick check that the {topic} tests still pass.",
                    tools=[k.sh(f"python -m pytest -q tests/test_{topic}.py", text, code)],
                )
            )
        else:
            st = "\n".join(f" M {x}" for x in files[: rng.randint(1, len(files))])
            out.append(A(tools=[k.sh("git status --short", st)]))
    return out


STATUS = """## Status summary

**Goal**: {goal}

**Discoveries**
{discoveries}

**Accomplished**
{accomplished}

**Current state**
{state}

**Next steps**
{next}
"""


def bullets(items: list[str]) -> str:
    return "\n".join(f"- {x}" for x in items)


def status(
    goal: str, discoveries: list[str], accomplished: list[str], state: list[str], nxt: list[str]
) -> str:
    return STATUS.format(
        goal=goal,
        discoveries=bullets(discoveries),
        accomplished=bullets(accomplished),
        state=bullets(state),
        next="\n".join(f"{i + 1}. {x}" for i, x in enumerate(nxt)),
    )
