"""Every threshold and weight of the pivot detector, in one frozen place.

Confidence is the sum of the weights of the signals that fired (clamped to
[0, 1]), so changing a weight here changes exactly one line of `--explain`.
`for_sensitivity` trades recall for precision by moving the bar a silence
must clear, not by changing what the signals mean.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

_LEVELS = {"low": (0.75, True), "normal": (0.5, True), "high": (0.4, False)}

RUN_CAP = 200
"""Longest run of silent and harness turns read as one cluster (and looked back over to
tell a cluster's first silence from the rest)."""
EARLIER_TASK_TURNS = 60
"""How far before the before-window a task list is looked for (its items' earlier status)."""


class PivotConfig(msgspec.Struct, frozen=True):
    """Thresholds (window sizes in turns) and signal weights."""

    before_window: int = 20
    """Turns looked at before the silence (stops earlier at the previous human turn)."""
    after_window: int = 20
    """Turns looked at after the silence (stops earlier at the next human turn)."""
    hands_off_cap: int = 200
    """How far back the hands-off streak is counted (keeps the cost bounded)."""
    ack_max_words: int = 4
    """A go-on longer than this is direction, not silence."""
    approval_max_words: int = 8
    """... unless it only approves what is on the table ("OK, great. Now implement the
    plan."): then up to this many words (`acks.REFER_BACK`)."""
    min_confidence: float = 0.5
    """A silence becomes a pivot at this confidence."""
    strict: bool = True
    """Apply the routine vetoes (a go-on mid-task, a compaction the agent ignores ...)."""
    dump_min_chars: int = 300
    """A context dump is at least this long ..."""
    dump_min_sections: int = 3
    """... and has this many status sections (Goal, Discoveries, Next steps ...)."""
    hands_off_min: int = 6
    """Agent steps since the last direction before the streak counts as a signal."""
    topic_max_overlap: float = 0.25
    """Term overlap (Jaccard) below which the work is said to have shifted."""

    # weights: what each signal adds to the confidence
    w_empty: float = 0.3
    w_ack: float = 0.15
    w_compaction: float = 0.15
    w_failure_each: float = 0.1
    w_failure_max: float = 0.3
    w_inconclusive: float = 0.1
    w_milestone: float = 0.3
    w_milestone_weak: float = 0.15
    w_proposal: float = 0.35
    w_open_question: float = 0.1
    w_hands_off: float = 0.05
    w_context_dump: float = 0.2
    w_context_dump_marked: float = 0.1
    w_autonomous: float = 0.15
    w_topic_shift: float = 0.1
    w_phase_change: float = 0.05
    w_new_tasks: float = 0.15
    w_clarification: float = -0.45
    w_mid_task: float = -0.3
    w_same_steps: float = -0.1
    w_next_step: float = -0.2
    w_resumed: float = -0.3
    w_answer_then_act: float = 0.2

    def reach(self) -> tuple[int, int]:
        """How many turns before and after a silence its judgement can read, at most.

        Back: the hands-off streak, the run before a cluster's first silence, or the
        before-window plus the earlier task list, and one more (whether a turn is silent
        looks at the turn before it). Ahead: the longest cluster, the after-window and the
        turn that ends it. A caller that hands a session out in pieces (`scan_split`)
        gives each piece this much context; `tests/detect/test_reach.py` holds it.
        """
        back = max(self.hands_off_cap, RUN_CAP, self.before_window + EARLIER_TASK_TURNS) + 1
        ahead = RUN_CAP + self.after_window + 1
        return back, ahead

    @classmethod
    def for_sensitivity(cls, level: str | float) -> PivotConfig:
        """low / normal / high (or a sensitivity in [0, 1]): higher finds more, less surely."""
        if isinstance(level, str):
            key = level.strip().lower()
            if key in _LEVELS:
                bar, strict = _LEVELS[key]
                return replace(cls(), min_confidence=bar, strict=strict)
            try:
                level = float(key)
            except ValueError:
                raise ValueError(
                    f"unknown sensitivity {level!r}: use low, normal or high"
                ) from None
        value = float(level)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"sensitivity must be in [0, 1], got {value}")
        # A number is a sensitivity: 1.0 keeps everything, 0.0 only certain pivots;
        # above 0.5 the routine vetoes are off too.
        return replace(cls(), min_confidence=round(1.0 - value, 4), strict=value <= 0.5)
