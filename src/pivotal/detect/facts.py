"""What the before- and after-rules found, for the archetype, the vetoes and the state."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class BeforeFacts:
    failures: int = 0
    """Failed attempts since the last success."""
    failures_total: int = 0
    successes: int = 0
    inconclusive: bool = False
    milestone: int = 0
    """0 none, 1 weak, 2 strong."""
    mixed: bool = False
    proposal: bool = False
    proposal_by_agent: bool = False
    open_question: bool = False
    mid_task: bool = False
    research_turns: list[int] = field(default_factory=list)
    failure_turns: list[int] = field(default_factory=list)
    milestone_turns: list[int] = field(default_factory=list)
    contradicted: list[int] = field(default_factory=list)
    """Turns claiming a success while the latest check still failed (progress, not success)."""


@dataclass(slots=True)
class AfterFacts:
    dump: bool = False
    agent_dump: bool = False
    """The agent itself re-oriented with a summary (not only the format's compaction summary)."""
    actions: int = 0
    executing: int = 0
    clarification: bool = False
    action_turns: list[int] = field(default_factory=list)
    shift: bool = False
    routine: bool = False
    """The calls after the silence repeat the steps from before it."""
    new_tasks: bool = False
    """The agent put new items on its task list after the silence."""
