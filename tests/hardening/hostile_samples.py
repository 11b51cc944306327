"""A real scenario with pivots, poisoned with hostile text, written in every agent format.

The seed dead-end essay scenario (tools/samplegen) with escape sequences, C1
controls, bidi and zero-width characters and Rich-markup look-alikes injected into
the agent's text, reasoning, tool commands and output, long prompts, summaries and
the cwd. Go-on messages stay as typed, so the pivots are still there to explain.
"""

from __future__ import annotations

import copy
import re
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_sessions"

PAYLOAD = (
    "\x1b]0;pwned-title\x07\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[H"
    "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\\x1bP1$r0m\x1b\\"
    "\x9b31m\x9d0;c1-title\x9c\u202eevil\u202c\u2066x\u2069zero\u200bwidth\ufeff"
    "[bold red]markup[/] [link=https://evil.example]l[/link]\x00\x08\x07\r"
    "\x1b[31mred\x1b[0m"
)
# What must never appear in output bytes: ESC not starting SGR, BEL, NUL, BS, CR, C1, bidi.
FORBIDDEN = re.compile(
    "\x1b(?!\\[[0-9;:]*m)|[\x00\x07\x08\r\x80-\x9f\u202a-\u202e\u2066-\u2069\u200b\ufeff]"
)
FORMATS = ["claude", "codex", "gemini", "opencode", "aider", "generic"]


def poison(text: str) -> str:
    return f"{PAYLOAD} {text} {PAYLOAD}" if text else text


def poisoned(value: object, spare: frozenset[str]) -> object:
    """`value` with every string poisoned, except under dict keys in `spare`."""
    if isinstance(value, str):
        return poison(value)
    if isinstance(value, dict):
        return {k: v if k in spare else poisoned(v, spare) for k, v in value.items()}
    if isinstance(value, list):
        return [poisoned(item, spare) for item in value]
    return value


def hostile_scenario(spare: frozenset[str] = frozenset()):  # type: ignore[no-untyped-def]
    """The seed dead-end scenario with hostile text wherever the agent or a tool writes.

    Tool-input keys in `spare` keep their values (to isolate one known bug).
    """
    from samplegen.dsl import A, Compact, H
    from samplegen.scenarios.seed_dead_end import SCENARIOS

    scenario = copy.deepcopy(SCENARIOS[0])
    scenario.cwd = f"{scenario.cwd}/\x1b]0;cwd-title\x07\u202eevil\x9b2J"
    for step in scenario.steps:
        if isinstance(step, A):
            step.text, step.reasoning = poison(step.text), poison(step.reasoning)
            for tool in step.tools:
                tool.input = poisoned(tool.input, spare)
                tool.output = poison(tool.output)
        elif isinstance(step, H) and len(step.text) > 40:
            step.text = poison(step.text)  # prompts only: go-ons stay as typed
        elif isinstance(step, Compact):
            step.summary = poison(step.summary)
    return scenario


@cache
def written(fmt: str, root: str, spare: frozenset[str] = frozenset()) -> Path:
    if str(REPO / "tools") not in sys.path:
        sys.path.insert(0, str(REPO / "tools"))
    try:
        from samplegen.writers import writer
    except ImportError as exc:  # pragma: no cover - the sample kit is part of the repo
        pytest.fail(f"sample writers unavailable: {exc}")
    out = Path(root) / "-".join([fmt, *sorted(spare)])
    out.mkdir(parents=True)
    mod = writer(fmt)
    path = out / ("hostile" if fmt == "opencode" else f"hostile.{mod.EXT}")
    if fmt == "opencode":
        path.mkdir()
        path = path / "opencode.db"
    mod.write(hostile_scenario(spare), path)
    return path


def assert_inert(output: str) -> None:
    """Fail, showing where, if `output` holds anything but printable text and SGR."""
    match = FORBIDDEN.search(output)
    if match is not None:
        start = match.start()
        context = output[max(0, start - 80) : start + 40]
        pytest.fail(f"raw {match.group()!r} at {start}: {context!r}")
