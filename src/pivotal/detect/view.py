"""A small, capped snapshot of a turn's content for the rules to read: what it holds.

`Turn.parts` may cost I/O and JSON decoding, and tool outputs may be
megabytes. A `TurnView` is a turn decoded once (`pivotal.detect.decode`),
keeping at most a head and a tail of every long string, and is cached by the
tracker, so overlapping windows of neighbouring silences never decode the same
turn twice. Every rule reads these classes; the tracker builds them.
"""

from __future__ import annotations

from typing import Any

from pivotal.model import Role, TurnFlag


class ToolView:
    """One call with a capped head and tail of its output."""

    __slots__ = (
        "name",
        "input",
        "key",
        "output",
        "has_result",
        "failed",
        "exit_code",
        "status",
        "kind_cache",
        "memo",
        "inner_calls",
    )

    def __init__(
        self,
        name: str,
        input: Any,
        key: str,
        output: str,
        has_result: bool,
        failed: bool,
        exit_code: int | None,
        status: str | None,
        inner_calls: int = 0,
    ) -> None:
        self.name = name
        self.input = input
        self.key = key
        self.output = output
        self.has_result = has_result
        self.failed = failed
        self.exit_code = exit_code
        self.status = status
        self.kind_cache = ""
        """`activity.tool_kind`, once computed (views are cached, calls are asked often)."""
        self.memo: dict[str, Any] = {}
        """Other per-call results the rules compute once (whether it failed ...)."""
        self.inner_calls = inner_calls
        """The calls of the sub-agent it ran (`ToolCall.inner_calls`; 0 when none or unknown)."""


class TurnView:
    """A turn decoded once: capped text, reasoning and calls."""

    __slots__ = (
        "index",
        "role",
        "flags",
        "text",
        "reasoning",
        "tools",
        "attachments",
        "full_len",
        "ends_with_tool",
        "memo",
    )

    def __init__(
        self,
        index: int,
        role: Role,
        flags: TurnFlag,
        text: str,
        reasoning: str = "",
        tools: list[ToolView] | None = None,
        attachments: int = 0,
        full_len: int = 0,
        ends_with_tool: bool = False,
    ) -> None:
        self.index = index
        """`Turn.index` (what the output points at)."""
        self.role = role
        self.flags = flags
        self.text = text
        self.reasoning = reasoning
        self.tools = tools if tools is not None else []
        self.attachments = attachments
        self.full_len = full_len
        """Length of the uncapped text (a context dump is judged by it)."""
        self.ends_with_tool = ends_with_tool
        """The turn's last part (reasoning aside) is a tool call: the agent was still working."""
        self.memo: dict[str, Any] = {}
        """Per-turn results the rules compute once (its prose, its verdict ...): windows of
        neighbouring silences overlap, and views are cached."""

    @property
    def is_assistant(self) -> bool:
        return self.role is Role.ASSISTANT
