"""What every writer shares: a timeline, seeded ids, token usage and anchors.

The timeline is computed once per scenario (not per format), so the same
conversation carries the same timestamps in every agent's file. Nothing here
reads the wall clock or global randomness: output is a pure function of the
scenario, which is what lets `make.py` regenerate byte-identical files.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from samplegen.dsl import A, Compact, H, Interrupt, Meta, Nudge, Scenario, Step, T

# Silence of the step as a person would see it; formats may re-label (e.g. Claude "." -> ack).
EMPTY = "empty"
ACK = "ack"
COMPACTION = "compaction"


def is_blank(text: str) -> bool:
    """An empty human message: nothing but whitespace."""
    return text.strip() == ""


def iso(dt: datetime) -> str:
    """ISO-8601 with milliseconds and a Z, as Claude Code, Codex and Gemini write it."""
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def epoch_ms(dt: datetime) -> int:
    return int(dt.timestamp() * 1000)


def parse_start(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@dataclass
class Timed:
    """A step with its start time and, for assistant steps, how long the response took."""

    index: int
    step: Step
    at: datetime
    tool_times: list[tuple[datetime, datetime]]
    """For an A step: (start, end) of each tool call, in order."""
    end: datetime


def timeline(scenario: Scenario) -> list[Timed]:
    """Deterministic timestamps: long gaps before silences, short ones inside agent work."""
    rng = random.Random(f"timeline:{scenario.name}")
    now = parse_start(scenario.start)
    out: list[Timed] = []
    prev: Step | None = None
    for i, step in enumerate(scenario.steps):
        base = scenario.seconds_per_step
        if isinstance(step, H):
            if prev is None:
                gap = 0.0
            elif is_blank(step.text) or step.expect is not None:
                gap = rng.uniform(18 * 60, 47 * 60)  # the person read, thought, walked away
            else:
                gap = rng.uniform(45, 6 * 60)
        elif isinstance(step, A):
            gap = rng.uniform(3, 9) if isinstance(prev, H) else rng.uniform(0.4, 0.5) * base
        elif isinstance(step, Compact):
            gap = rng.uniform(2, 6)
        else:
            gap = rng.uniform(0.05, 1.5)
        now = now + timedelta(seconds=gap, microseconds=rng.randrange(0, 999) * 1000)
        tool_times: list[tuple[datetime, datetime]] = []
        end = now
        if isinstance(step, A):
            cursor = now + timedelta(seconds=rng.uniform(2, 0.6 * base))
            for tool in step.tools:
                dur = tool.duration_ms if tool.duration_ms is not None else rng.randint(40, 9000)
                start = cursor + timedelta(milliseconds=rng.randint(5, 60))
                stop = start + timedelta(milliseconds=dur)
                tool_times.append((start, stop))
                cursor = stop
            end = cursor + timedelta(milliseconds=rng.randint(20, 400))
        elif isinstance(step, Compact):
            end = now + timedelta(seconds=rng.uniform(20, 75))
        out.append(Timed(i, step, now, tool_times, end))
        now = end
        prev = step
    return out


class Ids:
    """Seeded id source: one stream per (scenario, format)."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def uuid4(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def hex(self, n: int) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))

    def alnum(self, n: int) -> str:
        chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        return "".join(self.rng.choice(chars) for _ in range(n))

    def base62(self, n: int) -> str:
        return self.alnum(n)


class Usage:
    """A growing context window: each response reads the whole conversation so far."""

    def __init__(self, seed: str, start: int = 14_000) -> None:
        self.rng = random.Random(seed)
        self.context = start

    def next(self, text_len: int, tools: int) -> dict[str, int]:
        out = self.rng.randint(40, 220) + text_len // 4 + 60 * tools
        fresh = self.rng.randint(120, 1300)
        self.context += fresh + out
        cached = max(0, self.context - fresh - self.rng.randint(0, 400))
        return {"input": fresh, "cached": cached, "output": out, "total": self.context}

    def compacted(self, keep: int = 9_000) -> int:
        before = self.context
        self.context = keep + self.rng.randint(0, 2500)
        return before


def anchor(line: int | None, message_id: str | None, expect: tuple[str, str], silence: str):
    """One expected pivot as the writer placed it."""
    kind, _ = expect
    return {"line": line, "message_id": message_id, "kind": kind, "silence": silence}


def tool_text(tool: T) -> str:
    """The tool's output as plain text (what the command printed)."""
    return tool.output


def todo_items(tool: T) -> list[dict[str, Any]]:
    """The neutral todo list of a TodoWrite step: [{content, status, activeForm?}]."""
    return list(tool.input.get("todos", []))


def shell_command(tool: T) -> str:
    """A shell command line that does what a neutral tool call does (for shell-only agents)."""
    name, inp = tool.name, tool.input
    if name == "Bash":
        return str(inp.get("command", ""))
    if name == "Read":
        path = inp.get("file_path", "")
        if "offset" in inp:
            start = int(inp["offset"])
            return f"sed -n '{start},{start + int(inp.get('limit', 80))}p' {path}"
        return f"cat {path}"
    if name == "Grep":
        return f"rg -n {quote(str(inp.get('pattern', '')))} {inp.get('path', '.')}"
    return ""


def quote(text: str) -> str:
    """Single-quote a shell word."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


def rel(path: str, cwd: str) -> str:
    return path[len(cwd) + 1 :] if path.startswith(cwd + "/") else path


def step_kinds() -> tuple[type, ...]:
    return (H, A, Nudge, Meta, Compact, Interrupt)
