"""What the before- and after-rules found, for the archetype, the vetoes and the state.

Plain slotted classes rather than dataclasses: building a dataclass costs a
fraction of a millisecond at import, and the detector is imported by every
`pivotal` command.
"""

from __future__ import annotations


def _repr(obj: object) -> str:
    fields = ", ".join(f"{k}={getattr(obj, k)!r}" for k in obj.__slots__)  # type: ignore[attr-defined]
    return f"{type(obj).__name__}({fields})"


class BeforeFacts:
    __slots__ = (
        "failures",
        "failures_total",
        "successes",
        "inconclusive",
        "milestone",
        "mixed",
        "proposal",
        "proposal_by_agent",
        "open_question",
        "mid_task",
        "research_turns",
        "failure_turns",
        "milestone_turns",
        "contradicted",
        "check_failed",
        "next_step",
        "answered",
    )

    def __init__(self) -> None:
        self.failures = 0
        """Failed attempts since the last success."""
        self.failures_total = 0
        self.successes = 0
        self.inconclusive = False
        self.milestone = 0
        """0 none, 1 weak, 2 strong."""
        self.mixed = False
        self.proposal = False
        self.proposal_by_agent = False
        self.open_question = False
        self.mid_task = False
        self.research_turns: list[int] = []
        self.failure_turns: list[int] = []
        self.milestone_turns: list[int] = []
        self.contradicted: list[int] = []
        """Turns claiming a success while the latest check still failed (progress, not success)."""
        self.check_failed = False
        """The latest check (test, run, launch ...) before the silence failed."""
        self.next_step = False
        """The agent's last words name its own next step (an offer, a recommendation)."""
        self.answered = False
        """The agent answered the person's "why?" in words (and then changed things)."""

    __repr__ = _repr


class AfterFacts:
    __slots__ = (
        "dump",
        "agent_dump",
        "actions",
        "executing",
        "todo",
        "clarification",
        "action_turns",
        "shift",
        "routine",
        "new_tasks",
        "next_phase",
        "resumed",
        "changed",
    )

    def __init__(self) -> None:
        self.dump = False
        self.agent_dump = False
        """The agent itself re-oriented with a summary (not just the compaction summary)."""
        self.actions = 0
        self.executing = 0
        self.todo = 0
        """Calls to the agent's own to-do list after the silence: not in `actions` (the
        run's `calls` counts them), so the words say them apart (`summary.calls_words`)."""
        self.clarification = False
        self.action_turns: list[int] = []
        self.shift = False
        self.routine = False
        """The calls after the silence repeat the steps from before it."""
        self.new_tasks = False
        """The agent put new items on its task list after the silence."""
        self.next_phase = False
        """The agent's first words after the silence announce a new piece of work."""
        self.changed = False
        """After answering a "why?", the agent changed the work unasked."""
        self.resumed = ""
        """"error" or "interrupt": the go-on resumed work an API error or the person cut off."""

    __repr__ = _repr
