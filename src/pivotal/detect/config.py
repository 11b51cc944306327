"""Every threshold of the pivot detector, in one frozen place.

How much each signal counts is not set here: it is fitted to labelled sessions and read from
`weights.json` (`fitted`). This holds what the signals look at (window sizes, what counts as
a go-on or a context dump) and the bars a silence's confidence must clear: `min_confidence`
for a pivot, `possible_confidence` for a possible one. `for_sensitivity` moves the bar along
the fitted precision-recall curve, not what the signals mean.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from pivotal.detect.fitted import load

RUN_CAP = 200
"""Longest run of silent and harness turns read as one cluster (and looked back over to
tell a cluster's first silence from the rest)."""
EARLIER_TASK_TURNS = 60
"""How far before the before-window a task list is looked for (its items' earlier status)."""
LEVELS = ("low", "normal", "high")

_FITTED = load()


class PivotConfig(msgspec.Struct, frozen=True):
    """Thresholds (window sizes in turns) and the bars of the fitted confidence."""

    before_window: int = 20
    """Turns looked at before the silence (stops earlier at the previous human turn)."""
    after_window: int = 20
    """Turns looked at after the silence (stops earlier at the next human turn)."""
    hands_off_cap: int = 200
    """How far back the hands-off streak, and the person's earlier turns, are looked for
    (keeps the cost bounded)."""
    ack_max_words: int = 4
    """A go-on longer than this is direction, not silence."""
    approval_max_words: int = 8
    """... unless it only approves what is on the table ("OK, great. Now implement the
    plan."): then up to this many words (`acks.REFER_BACK`)."""
    min_confidence: float = _FITTED.levels["normal"]
    """A silence becomes a pivot at this confidence."""
    possible_confidence: float = _FITTED.possible
    """... and a possible pivot at this one (shown, never paused at)."""
    dump_min_chars: int = 300
    """A context dump is at least this long ..."""
    dump_min_sections: int = 3
    """... and has this many status sections (Goal, Discoveries, Next steps ...)."""
    hands_off_min: int = 6
    """Agent steps since the last direction before the streak counts as a signal."""
    topic_max_overlap: float = 0.25
    """Term overlap (Jaccard) below which the work is said to have shifted."""

    def reach(self) -> tuple[int, int]:
        """How many turns before and after a silence its judgement can read, at most.

        Back: the hands-off streak and the person's earlier turns, the run before a
        cluster's first silence, or the before-window plus the earlier task list, and one
        more (whether a turn is silent looks at the turn before it). Ahead: the longest
        cluster, the after-window and the turn that ends it. A caller that hands a session
        out in pieces (`scan_split`) gives each piece this much context;
        `tests/detect/test_reach.py` holds it.
        """
        back = max(self.hands_off_cap, RUN_CAP, self.before_window + EARLIER_TASK_TURNS) + 1
        ahead = RUN_CAP + self.after_window + 1
        return back, ahead

    @classmethod
    def for_sensitivity(cls, level: str | float) -> PivotConfig:
        """low / normal / high (or a sensitivity in [0, 1]): higher finds more, less surely.

        The named levels are points of the fitted precision-recall curve (`weights.json`);
        a number is a sensitivity: 1.0 keeps every silence that passes the hard rules, 0.0
        only certain pivots.
        """
        if isinstance(level, str):
            key = level.strip().lower()
            if key in LEVELS:
                bar = _FITTED.levels[key]
                return replace(
                    cls(), min_confidence=bar, possible_confidence=min(bar, _FITTED.possible)
                )
            try:
                level = float(key)
            except ValueError:
                raise ValueError(
                    f"unknown sensitivity {level!r}: use low, normal or high"
                ) from None
        value = float(level)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"sensitivity must be in [0, 1], got {value}")
        bar = round(1.0 - value, 4)
        return replace(cls(), min_confidence=bar, possible_confidence=min(bar, _FITTED.possible))
