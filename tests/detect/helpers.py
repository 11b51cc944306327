"""Tiny builders for literal Turn lists (no files, no readers)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from pivotal.detect import PivotConfig, PivotTracker
from pivotal.detect.fitted import load
from pivotal.detect.weigh import feature_key
from pivotal.model import Part, PartKind, Pivot, Role, ToolCall, Turn, TurnFlag


class B:
    """Builds a conversation turn by turn; `.turns` is the result."""

    def __init__(self) -> None:
        self.turns: list[Turn] = []

    def _add(self, role: Role, parts: list[Part], flags: TurnFlag = TurnFlag.NONE) -> int:
        text = "\n\n".join(p.text for p in parts if p.kind is PartKind.TEXT)
        turn = Turn(
            index=len(self.turns),
            role=role,
            flags=flags,
            timestamp=1_700_000_000.0 + 40 * len(self.turns),
            message_id=f"m{len(self.turns)}",
            preview=text[:200],
        )
        turn.parts = parts
        self.turns.append(turn)
        return turn.index

    def human(self, text: str) -> int:
        return self._add(Role.USER, [Part(PartKind.TEXT, text)], TurnFlag.HUMAN)

    def agent(self, text: str = "", *tools: ToolCall, reasoning: str = "") -> int:
        parts = []
        if reasoning:
            parts.append(Part(PartKind.REASONING, reasoning))
        if text:
            parts.append(Part(PartKind.TEXT, text))
        parts.extend(Part(PartKind.TOOL, tool=t) for t in tools)
        return self._add(Role.ASSISTANT, parts)

    def nudge(
        self,
        text: str = "Continue if you have next steps, or stop and ask for clarification "
        "if you are unsure how to proceed.",
    ) -> int:
        return self._add(Role.USER, [Part(PartKind.TEXT, text)], TurnFlag.SYNTHETIC)

    def meta(self, text: str) -> int:
        return self._add(Role.USER, [Part(PartKind.TEXT, text)], TurnFlag.SYNTHETIC | TurnFlag.META)

    def boundary(self, trigger: str | None = None) -> int:
        """A compaction boundary; `trigger` ("auto", "manual") as a reader records it."""
        index = self._add(
            Role.SYSTEM,
            [Part(PartKind.TEXT, "Conversation compacted")],
            TurnFlag.COMPACTION_BOUNDARY,
        )
        if trigger is not None:
            self.turns[index].extra = {"trigger": trigger}
        return index

    def summary(self, text: str, role: Role = Role.USER) -> int:
        flags = TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
        return self._add(role, [Part(PartKind.TEXT, text)], flags)

    def unsent(self) -> int:
        """aider's bare Enter: logged as `#### <blank>`, never sent to the model."""
        return self._add(Role.USER, [Part(PartKind.TEXT, "")], TurnFlag.HUMAN | TurnFlag.UNSENT)

    def api_error(self, text: str = "API Error: Connection error.", flagged: bool = False) -> int:
        """The harness's error where the agent's reply should be (flagged or as plain text,
        as clients differ)."""
        flags = TurnFlag.ERROR | TurnFlag.SYNTHETIC if flagged else TurnFlag.NONE
        return self._add(Role.ASSISTANT, [Part(PartKind.TEXT, text)], flags)

    def interrupt(self) -> int:
        return self._add(
            Role.USER,
            [Part(PartKind.TEXT, "[Request interrupted by user]")],
            TurnFlag.INTERRUPTED | TurnFlag.SYNTHETIC,
        )


_ids = iter(range(10**9))


def tool(
    name: str,
    inp: Any,
    output: str = "",
    *,
    error: bool = False,
    exit_code: int | None = None,
    status: str | None = None,
    pending: bool = False,
) -> ToolCall:
    return ToolCall(
        call_id=f"c{next(_ids)}",
        name=name,
        input=inp,
        output=None if pending else output,
        is_error=error,
        exit_code=exit_code,
        status=status,
    )


def bash(command: str, output: str = "", exit_code: int | None = 0, **kw: Any) -> ToolCall:
    return tool("Bash", {"command": command}, output, exit_code=exit_code, **kw)


def read(path: str, output: str = "...") -> ToolCall:
    return tool("Read", {"file_path": path}, output)


def edit(path: str) -> ToolCall:
    return tool("Edit", {"file_path": path, "old_string": "a", "new_string": "b"}, "ok")


DUMP = """## Goal
Deploy and optimize the model on 8 GPUs; get the verify step from 30 ms to 12 ms.

## Discoveries
- 122 all-reduces per forward pass at ~200 us each dominate the cycle.
- NCCL_ALGO=Tree crashes during CUDA graph capture.

## Accomplished
- Baseline 82 tok/s, EAGLE-3 at 60 tok/s.
- Fewer-channel experiment launched; the server did not answer within 8 minutes.

## Current state
The server launch with FlashInfer fusion is pending and may have crashed.

## Relevant files
- eagle-fast-verify.md
- sitecustomize.py

## Next steps
1. Check the server log for the crash.
2. Re-run the fewer-channel experiment alone.
"""


# -- judging one silence -------------------------------------------------------------------

EVERY = PivotConfig.for_sensitivity(1.0)
"""Every bar at 0: each silence that passes the hard gates of PIVOTS.md comes back as a pivot,
so a test can read what was measured, the kind and the state whatever the fitted weights."""


def judge_one(turns: list[Turn], anchor: int | None = None) -> Pivot:
    """The silence at `anchor` (or the only silence) judged with every bar at 0. Its
    `signals` are all the measured ones, each weighed with the shipped weights (zero weights
    kept), so a test sees what the detector measured, not only what the fit kept."""
    tracker = PivotTracker(EVERY)
    tracker.update(turns, 0)
    judged = [
        (pos, j)
        for pos, j in tracker.judgements()
        if pos == anchor or (anchor is None and j.pivot is not None)
    ]
    assert len(judged) == 1, [pos for pos, _ in tracker.judgements()]
    pos, judgement = judged[0]
    assert judgement.pivot is not None, judgement.rejection
    assert judgement.measured is not None
    weights = load().weights
    measured = [
        replace(
            s, weight=round(weights.get(feature_key(s, judgement.pivot.silence), 0.0) * s.value, 3)
        )
        for s in judgement.measured
    ]
    return replace(judgement.pivot, signals=measured)


def rejected_one(turns: list[Turn], anchor: int | None = None) -> str:
    """The hard gate that turned the silence at `anchor` (or the only one) down."""
    tracker = PivotTracker(EVERY)
    tracker.update(turns, 0)
    rejections = [r for r in tracker.rejections() if anchor is None or r.turn == anchor]
    assert len(rejections) == 1, [(r.turn, r.gate) for r in tracker.rejections()]
    return rejections[0].gate


def confidence(turns: list[Turn], anchor: int | None = None) -> float:
    """The silence's confidence (the sum of its weighed signals), whatever the bar."""
    return judge_one(turns, anchor).confidence


def certain(turns: list[Turn], anchor: int) -> bool:
    """Whether the silence at `anchor` is a pivot (not a possible one) at the shipped bar."""
    return any(p.turn == anchor for p in PivotTracker(PivotConfig()).update(turns, 0))
