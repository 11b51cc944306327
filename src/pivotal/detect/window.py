"""The turns around one silence: the before-window, the cluster, the after-window.

Built once per evaluation from cached `TurnView`s. Only turns inside these
windows are ever decoded, which keeps detection cheap on huge sessions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from pivotal.detect.config import PivotConfig
from pivotal.detect.silence import SilenceIndex
from pivotal.detect.view import TurnView
from pivotal.model import Role, Silence, Turn, TurnFlag

_HARNESS = int(TurnFlag.SYNTHETIC | TurnFlag.META)
_HUMAN = int(TurnFlag.HUMAN)
_SUMMARY = int(TurnFlag.COMPACTION_SUMMARY)


def _is_human(turn: Turn) -> bool:
    """`Turn.is_human` on plain ints (`IntFlag &` builds an enum member: 10x slower)."""
    return turn.role is Role.USER and bool(int(turn.flags) & _HUMAN)


class Window:
    """The turns around one silence (built by `build_window`)."""

    __slots__ = (
        "anchor",
        "silence",
        "cluster",
        "before",
        "direction",
        "after",
        "next_human",
        "complete",
        "hands_off",
        "work_before",
        "reach",
        "earlier",
        "agent_before",
        "agent_after",
    )

    def __init__(
        self,
        anchor: TurnView,
        silence: Silence,
        cluster: list[TurnView],
        before: list[TurnView],
        direction: TurnView | None,
        after: list[TurnView],
        next_human: int | None,
        complete: bool,
        hands_off: int,
        work_before: bool,
        reach: int,
        earlier: Callable[[int], Iterator[TurnView]] = lambda limit: iter(()),
    ) -> None:
        self.anchor = anchor
        self.silence = silence
        self.cluster = cluster
        self.before = before
        """Chronological; starts at the previous human turn when it is within reach."""
        self.direction = direction
        """The person's last real message (not silent) inside the before-window."""
        self.after = after
        """Chronological; stops before the next human turn."""
        self.next_human = next_human
        """Index of the next human turn, if one has arrived."""
        self.complete = complete
        """The after-window is full (next human turn or `after_window` turns seen)."""
        self.hands_off = hands_off
        """Agent turns since the person last gave direction (capped)."""
        self.work_before = work_before
        """Some agent work exists before the silence (not the session start)."""
        self.reach = reach
        """Position one past the last turn this evaluation read."""
        self.earlier = earlier
        """Up to `limit` agent turns before the before-window, newest first, each decoded only
        when the caller gets to it (callers stop at the first turn they need)."""
        self.agent_before = _agent(before)
        """The agent's messages in `before` (every rule asks; worked out once)."""
        self.agent_after = _agent(after)


def _agent(views: list[TurnView]) -> list[TurnView]:
    """The agent's own messages (not harness text written on its side)."""
    return [v for v in views if v.role is Role.ASSISTANT and not int(v.flags) & _HARNESS]


def build_window(
    turns: Sequence[Turn],
    anchor: int,
    silences: SilenceIndex,
    view: Callable[[int], TurnView],
    config: PivotConfig,
) -> Window:
    """Gather the windows around the silence at position `anchor`."""
    kind = silences.silence(turns, anchor)
    assert kind is not None
    cluster = silences.cluster(turns, anchor)
    # before: back to (and including) the previous human turn, at most N turns
    before_pos: list[int] = []
    direction: int | None = None
    j = anchor - 1
    while j >= 0 and len(before_pos) < config.before_window:
        before_pos.append(j)
        if _is_human(turns[j]) and silences.silence(turns, j) is None:
            direction = j
            break
        j -= 1
    before_pos.reverse()
    cluster_views = [view(p) for p in cluster]
    if kind is Silence.COMPACTION and before_pos:
        # Codex writes the model's summary reply as an ordinary assistant message just
        # before its `compacted` record: that reply is the compaction, not prior work.
        summaries = [v.text for v in cluster_views if int(v.flags) & _SUMMARY]
        last = view(before_pos[-1])
        probe = last.text.strip()[:120]
        if last.role is Role.ASSISTANT and len(probe) > 20 and any(probe in s for s in summaries):
            before_pos.pop()
    # hands-off streak and session start: cheap fields only
    hands_off = 0
    j = anchor - 1
    while j >= 0 and anchor - j <= config.hands_off_cap:
        turn = turns[j]
        if turn.role is Role.ASSISTANT:
            hands_off += 1
        elif _is_human(turn) and silences.silence(turns, j) is None:
            break
        j -= 1
    # after: from the end of the cluster to the next human turn
    after_pos: list[int] = []
    next_human: int | None = None
    j = cluster[-1] + 1
    while j < len(turns) and len(after_pos) < config.after_window:
        if _is_human(turns[j]):
            next_human = turns[j].index
            break
        after_pos.append(j)
        j += 1
    complete = next_human is not None or len(after_pos) >= config.after_window
    reach = j + 1 if next_human is not None else j
    first_before = before_pos[0] if before_pos else anchor

    def earlier(limit: int) -> Iterator[TurnView]:
        for pos in range(first_before - 1, max(-1, first_before - 1 - limit), -1):
            if turns[pos].role is Role.ASSISTANT:
                yield view(pos)

    return Window(
        anchor=view(anchor),
        silence=kind,
        cluster=cluster_views,
        before=[view(p) for p in before_pos],
        direction=view(direction) if direction is not None else None,
        after=[view(p) for p in after_pos],
        next_human=next_human,
        complete=complete,
        hands_off=hands_off,
        work_before=hands_off > 0,
        reach=reach,
        earlier=earlier,
    )
