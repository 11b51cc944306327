"""A small, capped snapshot of a turn's content for the rules to read.

`Turn.parts` may cost I/O and JSON decoding, and tool outputs may be
megabytes. A `TurnView` decodes a turn once, keeps at most a head and a tail
of every long string, and is cached by the tracker, so overlapping windows of
neighbouring silences never decode the same turn twice.
"""

from __future__ import annotations

from typing import Any

from pivotal.model import PartKind, Role, Turn, TurnFlag

HEAD = 2500
TAIL = 2500
"""A tool output keeps its first and last 2.5 KB: commands, errors and verdicts live there,
and no rule ever runs a pattern over the megabytes in between."""
TEXT_HEAD = 6000
TEXT_TAIL = 2000
"""A message keeps its first 6 KB (a status summary's sections) and last 2 KB (its ask)."""


def cap(text: str, head: int = HEAD, tail: int = TAIL) -> str:
    """Keep the head and the tail of a long string (errors and verdicts live at the end)."""
    if len(text) <= head + tail:
        return text
    return text[:head] + "\n…\n" + text[-tail:]


def as_dict(value: Any) -> Any:
    """Tool input as decoded data: some formats store the arguments as a JSON string."""
    if isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            import json  # only formats that store arguments as a string need it (not a scan's)

            try:
                return json.loads(stripped)
            except ValueError:
                return value
    return value


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


def make_view(turn: Turn) -> TurnView:
    """Decode `turn` once; never raises on odd content."""
    texts: list[str] = []
    reasoning: list[str] = []
    tools: list[ToolView] = []
    attachments = 0
    ends_with_tool = False
    try:
        parts = turn.parts
    except Exception:  # a lazy loader failing must not stop detection
        parts = []
    for part in parts:
        if part.tool is not None:
            # aider's per-reply log is not a call the model made
            ends_with_tool = part.tool.name != "aider" or "\nRunning " in (part.tool.output or "")
        elif part.kind is PartKind.TEXT and part.text.strip():
            ends_with_tool = False
        if part.kind is PartKind.TEXT and part.text:
            texts.append(part.text)
        elif part.kind is PartKind.REASONING and part.text:
            reasoning.append(part.text)
        elif part.kind is PartKind.ATTACHMENT:
            attachments += 1
        if part.tool is not None:
            call = part.tool
            try:
                key = call.key_argument()
            except Exception:
                key = ""
            tools.append(
                ToolView(
                    name=str(call.name or ""),
                    input=as_dict(call.input),
                    key=cap(str(key), 400, 100),
                    output=cap(call.output or ""),
                    has_result=call.has_result,
                    failed=call.failed,
                    exit_code=call.exit_code,
                    status=call.status,
                )
            )
    text = "\n\n".join(texts)
    if not text and not parts and turn.preview:
        text = turn.preview
    return TurnView(
        index=turn.index,
        role=turn.role,
        flags=turn.flags,
        text=cap(text, TEXT_HEAD, TEXT_TAIL),
        reasoning=cap("\n\n".join(reasoning), 3000, 1000),
        tools=tools,
        attachments=attachments,
        full_len=len(text),
        ends_with_tool=ends_with_tool,
    )
