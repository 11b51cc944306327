"""A neutral way to write a scenario once and emit it in every agent's format.

A scenario is a list of steps. Writers (one per format) turn the steps into
files shaped exactly like what that agent writes, and record where each
expected pivot's anchor landed (line number and/or message id) beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class T:
    """A tool call with its result."""

    name: str
    input: dict[str, Any]
    output: str = ""
    error: bool = False
    exit_code: int | None = None
    duration_ms: int | None = None


@dataclass
class H:
    """A human message. `expect=(kind, silence)` marks an expected pivot anchored here."""

    text: str
    expect: tuple[str, str] | None = None


@dataclass
class A:
    """One assistant message / model response: optional reasoning, text and tool calls."""

    text: str = ""
    reasoning: str = ""
    tools: list[T] = field(default_factory=list)


@dataclass
class Nudge:
    """A synthetic continuation injected by the harness (never typed by the person)."""

    text: str = (
        "Continue if you have next steps, or stop and ask for clarification"
        " if you are unsure how to proceed."
    )


@dataclass
class Meta:
    """Injected user-side text: a command wrapper, a system reminder, hook output."""

    text: str


@dataclass
class Compact:
    """A context-compaction boundary followed by its summary.

    `expect=(kind, "compaction")` marks an expected pivot anchored at the boundary.
    """

    summary: str
    auto: bool = True
    expect: tuple[str, str] | None = None


@dataclass
class Interrupt:
    """The person interrupted the running turn."""


Step = H | A | Nudge | Meta | Compact | Interrupt


@dataclass
class Scenario:
    name: str
    title: str
    cwd: str
    steps: list[Step]
    model: str = "claude-opus-4-8"
    start: str = "2026-11-02T09:00:00Z"
    seconds_per_step: int = 40
    notes: str = ""
