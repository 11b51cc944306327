"""Decoding a turn once into its `TurnView`: text, reasoning and calls, each capped.

Where the rules' view of a turn comes from `Turn.parts` (a lazy loader that
fails must not stop detection), and how much of each string the rules may
see: the head and tail, where commands, errors, verdicts and asks live.
"""

from __future__ import annotations

from typing import Any

from pivotal.detect.view import ToolView, TurnView
from pivotal.model import PartKind, Turn

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
                    inner_calls=call.inner_calls or 0,
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
