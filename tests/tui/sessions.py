"""Hand-built sessions and pivots for the replayer tests (no reader, no detector).

Shaped like what readers produce for a Claude Code session: human prompts, an
empty message, assistant turns with reasoning and paired tool calls (one failing
with an exit code), injected text, a compaction boundary with its summary and
nudge, and hostile text (escape sequences, markup-like brackets).
"""

from __future__ import annotations

from pathlib import Path

from pivotal.model import (
    Part,
    PartKind,
    Pivot,
    PivotKind,
    Role,
    Session,
    Signal,
    Silence,
    SourceRef,
    StateChange,
    ToolCall,
    Turn,
    TurnFlag,
)

T0 = 1_764_460_800.0  # 2025-11-30 00:00:00 UTC


def human(text: str) -> Turn:
    return Turn(
        0, Role.USER, TurnFlag.HUMAN, preview=text[:200], _parts=[Part(PartKind.TEXT, text)]
    )


def agent(text: str, *tools: ToolCall, thinking: str = "") -> Turn:
    parts = [Part(PartKind.REASONING, thinking)] if thinking else []
    parts.append(Part(PartKind.TEXT, text))
    parts += [Part(PartKind.TOOL, tool=t) for t in tools]
    return Turn(0, Role.ASSISTANT, model="claude-opus-4", preview=text[:200], _parts=parts)


def injected(text: str, flags: TurnFlag = TurnFlag.SYNTHETIC) -> Turn:
    return Turn(0, Role.USER, flags, preview=text[:200], _parts=[Part(PartKind.TEXT, text)])


def bash(command: str, output: str, code: int = 0, ms: float = 1200) -> ToolCall:
    return ToolCall(
        f"call-{abs(hash(command)) % 10_000}",
        "Bash",
        {"command": command, "description": "run it"},
        output=output,
        is_error=code != 0,
        exit_code=code,
        duration_ms=ms,
        status="completed",
    )


def demo_turns() -> list[Turn]:
    """28 turns: a dead end, an empty message (pivot 1), a compaction (pivot 2)."""
    turns = [
        human("Get the server to start with the new config."),
        agent(
            "I'll start the server.",
            bash("make serve", "Error: bind failed", 3),
            thinking="The port may be taken.",
        ),
        agent("The port is taken. Trying another.", bash("make serve PORT=9000", "crash\n" * 5, 1)),
        agent("Still failing. Let me look at the logs.", bash("tail log", "OOM killed", 137)),
        agent("I am not sure how to proceed; options are **A** or **B**."),
        human(""),
        agent(
            "## Status\n\n- server crashes with OOM\n- plan: shrink the batch\n\nDoing it now.",
            bash("make serve BATCH=8", "listening on :9000", 0, 800),
        ),
        agent("It works: `listening on :9000`."),
    ]
    for n in range(8):
        turns.append(human(f"Step {n}: benchmark run {n} please"))
        turns.append(agent(f"Benchmark {n}: **{100 + n * 7} tok/s**.", bash(f"bench {n}", "ok")))
    turns += [
        Turn(0, Role.SYSTEM, TurnFlag.COMPACTION_BOUNDARY, preview="Conversation compacted"),
        injected(
            "This session is being continued from a previous conversation. Summary:\n"
            "1. server works\n2. bench numbers\n3. next: speed\n4. more",
            TurnFlag.SYNTHETIC | TurnFlag.COMPACTION_SUMMARY,
        ),
        injected("Continue from where you left off.", TurnFlag.SYNTHETIC | TurnFlag.META),
        agent(
            "Continuing: making it fast. \x1b]0;pwned\x07[bold red]not markup[/] \x1b[31mred\x1b[0m"
        ),
    ]
    for index, turn in enumerate(turns):
        turn.index = index
        turn.timestamp = T0 + index * 30
        turn.source = SourceRef(line=index + 1, record_id=f"u{index}")
        turn.message_id = f"m{index}"
    return turns


def demo_pivots() -> list[Pivot]:
    return [
        Pivot(
            turn=5,
            kind=PivotKind.DELEGATION_AFTER_DEAD_END,
            silence=Silence.EMPTY,
            confidence=0.86,
            cluster=[5],
            signals=[
                Signal(
                    "failed_attempts",
                    [1, 2, 3],
                    "3 failed commands in a row",
                    0.4,
                    "before",
                    ["bind failed", "crash", "OOM killed"],
                ),
                Signal(
                    "status_summary",
                    [6],
                    "agent writes a status summary",
                    0.2,
                    "after",
                    ["## Status"],
                ),
            ],
            delegation=[Signal("no_next_step", [4], "agent asked how to proceed", 0.2)],
            state=StateChange(
                phase_before="debugging",
                phase_after="fixing",
                initiative_before="person",
                initiative_after="agent",
                attempts_failed=3,
                attempts_succeeded=1,
            ),
            reason="three failed attempts, then the agent took over after an empty message",
        ),
        Pivot(
            turn=24,
            kind=PivotKind.CONTINUE_AFTER_MILESTONE,
            silence=Silence.COMPACTION,
            confidence=0.61,
            cluster=[24, 25, 26],
            signals=[Signal("milestone", [22], "benchmark numbers reported", 0.3)],
            reason="benchmarks done; after the compaction the agent moves on to speed",
        ),
    ]


def demo_session() -> Session:
    return Session(
        format="claude_code", path=Path("/tmp/demo.jsonl"), title="demo", turns=demo_turns()
    )
