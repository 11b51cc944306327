"""What the agent did on its own after a pivot, until the person typed again.

A pivot's run is every turn from the pivot's anchor to the next message the
person typed, the next pivot (a compaction in the middle of the work hands over
again) or the end of the session: whole, not the detector's capped window, and
never two runs over the same turn. Measured there: wall time (on a clock that never
runs backwards, `detect.clock`: from the latest time among the anchor and the turns just
before it to the latest time in the run), the agent's turns, its tool calls and how many
failed, the files its edit tools changed, and the tokens and dollars of its
responses, the sub-agents its calls ran included once (a sub-agent tied to no
call counts in the run it started during). A sub-agent's turns and calls are
counted apart (`sub_turns`, `sub_calls`; sidechain turns written into the
session too), its tokens and dollars both in the run's total and in `sub_tally`.

"Files" are the distinct paths the edit tools named (Edit, Write, apply_patch
… and aider's "Applied edit to"); files a shell command changed are not
counted, as no command says reliably what it wrote.

A run is a sum over its turns, so two stretches measured apart add up
(`measure`, `join`): a scan that reads a big file on two cores measures each
half where it was read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import msgspec
from msgspec import field

from pivotal.detect.activity import EDIT_TOOLS
from pivotal.detect.clock import latest, started_at
from pivotal.model import Pivot, Role, ToolCall, Turn, TurnFlag
from pivotal.spend.prices import PriceList, price_list
from pivotal.spend.subagents import Subagent
from pivotal.spend.tally import Tally

HUMAN = int(TurnFlag.HUMAN)
SIDECHAIN = int(TurnFlag.SIDECHAIN)
PATH_KEYS = ("file_path", "filePath", "path", "filename", "file", "target_file", "notebook_path")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.MULTILINE)
_AIDER_EDIT = re.compile(r"^Applied edit to (\S+)", re.MULTILINE)


class Run(msgspec.Struct):
    """One pivot's autonomous run (or a stretch of one, before `join`)."""

    start: int
    """The pivot's anchor turn."""
    end: int
    """The turn after the run: the person's next message, or the number of turns."""
    ended_by: str = "end"
    """"person" when the person typed again, "pivot" at the next pivot (a compaction),
    "end" when the session (so far) ends."""
    first: float | None = None
    """When it started: the latest time among the anchor and the turns just before it
    (`detect.clock.started_at`; else its first turn's time)."""
    last: float | None = None
    """The latest time among its turns (a turn stamped before the one ahead of it is no
    end)."""
    agent_turns: int = 0
    calls: int = 0
    failed: int = 0
    paths: set[str] = field(default_factory=set)
    tally: Tally = field(default_factory=Tally)
    """Tokens and dollars of the run, its sub-agents included."""
    subagents: int = 0
    """Sub-agents the run started."""
    sub_turns: int = 0
    sub_calls: int = 0
    sub_seconds: float = 0.0
    sub_tally: Tally = field(default_factory=Tally)
    """The sub-agents' part of `tally` (sidechain turns in the session included)."""

    @property
    def seconds(self) -> float | None:
        if self.first is None or self.last is None:
            return None
        return max(0.0, self.last - self.first)

    @property
    def files(self) -> int:
        return len(self.paths)

    @property
    def ok(self) -> int:
        return self.calls - self.failed

    @property
    def mostly_subagents(self) -> bool:
        """Most of the run's tokens were the sub-agents' (handing work on is delegation too)."""
        return self.sub_tally.tokens * 2 > self.tally.tokens > 0

    def as_json(self, names: Callable[[str], str] = str) -> dict:
        """The `run` object of `scan --json` (documented in docs/json.md); `names` cleans
        model names."""
        seconds = self.seconds
        return {
            "first_turn": self.start,
            "end_turn": self.end,
            "ended_by": self.ended_by,
            "seconds": None if seconds is None else round(seconds, 1),
            "agent_turns": self.agent_turns,
            "calls": self.calls,
            "failed": self.failed,
            "ok": self.ok,
            "files": self.files,
            **self.tally.as_json(names),
            "subagents": {
                "count": self.subagents,
                "turns": self.sub_turns,
                "calls": self.sub_calls,
                "seconds": round(self.sub_seconds, 1),
                "mostly": self.mostly_subagents,
                **self.sub_tally.as_json(names),
            },
        }


def run_end(turns: Sequence[Turn], pivot: Pivot, stop: int | None = None) -> int:
    """The person's next message after the pivot's silent stretch (or `stop`, len(turns))."""
    last = max([pivot.turn, *pivot.cluster])
    stop = len(turns) if stop is None else min(stop, len(turns))  # the next may be unread yet
    user = Role.USER
    for index in range(last + 1, stop):
        turn = turns[index]
        if turn.role is user and int(turn.flags) & HUMAN:
            return index
    return stop


def measure(
    turns: Sequence[Turn],
    start: int,
    stop: int,
    *,
    model: str | None = None,
    prices: PriceList | None = None,
) -> Run:
    """The figures of `turns[start:stop]` (no sub-agents yet: `add_subagents`)."""
    prices = prices or price_list()
    run = Run(start=start, end=stop)
    user, assistant = Role.USER, Role.ASSISTANT
    for index in range(start, stop):
        turn = turns[index]
        when = turn.timestamp
        if when is not None:
            if run.first is None:
                run.first = when
            if run.last is None or when > run.last:
                run.last = when
        side = int(turn.flags) & SIDECHAIN  # a sub-agent's turn written into the session
        if turn.usage is not None:
            run.tally.add_usage(turn.usage, turn.model or model, prices)
            if side:
                run.sub_tally.add_usage(turn.usage, turn.model or model, prices)
        if turn.role is not assistant:
            continue
        calls = turn.tool_calls
        if side:
            run.sub_turns += 1
            run.sub_calls += len(calls)
            continue
        run.agent_turns += 1
        for call in calls:
            run.calls += 1
            run.failed += call.failed
            run.paths.update(edited_paths(call))
    if stop < len(turns):
        following = turns[stop]
        human = following.role is user and int(following.flags) & HUMAN
        run.ended_by = "person" if human else "pivot"
    return run


def join(head: Run, tail: Run) -> Run:
    """`head` then `tail` (which starts where `head` ends) as one run."""
    run = Run(
        start=head.start,
        end=tail.end,
        ended_by=tail.ended_by,
        first=head.first if head.first is not None else tail.first,
        last=latest((head.last, tail.last)),
        agent_turns=head.agent_turns + tail.agent_turns,
        calls=head.calls + tail.calls,
        failed=head.failed + tail.failed,
        paths=head.paths | tail.paths,
        subagents=head.subagents + tail.subagents,
        sub_turns=head.sub_turns + tail.sub_turns,
        sub_calls=head.sub_calls + tail.sub_calls,
        sub_seconds=head.sub_seconds + tail.sub_seconds,
    )
    for tally in (head.tally, tail.tally):
        run.tally.add(tally)
    for tally in (head.sub_tally, tail.sub_tally):
        run.sub_tally.add(tally)
    return run


def add_subagents(run: Run, subagents: Sequence[Subagent]) -> None:
    """Add the sub-agents `run` started: tied to one of its calls, or started while it ran."""
    for sub in subagents:
        if _in_run(sub, run):
            run.subagents += 1
            run.sub_turns += sub.agent_turns
            run.sub_calls += sub.calls
            run.sub_seconds += sub.seconds or 0.0
            run.tally.add(sub.tally)
            run.sub_tally.add(sub.tally)


def pivot_run(
    turns: Sequence[Turn],
    pivot: Pivot,
    *,
    model: str | None = None,
    subagents: Sequence[Subagent] = (),
    prices: PriceList | None = None,
    stop: int | None = None,
) -> Run:
    """Measure `pivot`'s run, up to `stop` at most (the next pivot's anchor); `model` prices
    turns that name none (the session's model)."""
    start = max(0, min(pivot.turn, len(turns)))
    run = measure(turns, start, run_end(turns, pivot, stop), model=model, prices=prices)
    if start < len(turns) and turns[start].timestamp is not None:
        run.first = started_at(turns, start)
    add_subagents(run, subagents)
    return run


def pivot_runs(
    turns: Sequence[Turn],
    pivots: Sequence[Pivot],
    *,
    model: str | None = None,
    subagents: Sequence[Subagent] = (),
    prices: PriceList | None = None,
) -> dict[int, Run]:
    """Every pivot's run by its anchor, each ending at the next pivot at the latest. A
    possible pivot (`Pivot.possible`) has no run and ends none: nothing was handed over."""
    pivots = [p for p in pivots if not p.possible]
    anchors = sorted({p.turn for p in pivots})
    following: dict[int, int | None] = dict(zip(anchors, anchors[1:], strict=False))
    return {
        pivot.turn: pivot_run(
            turns,
            pivot,
            model=model,
            subagents=subagents,
            prices=prices,
            stop=following.get(pivot.turn),
        )
        for pivot in pivots
    }


def next_anchor(pivots: Sequence[Pivot], turn: int) -> int | None:
    """The anchor of the first pivot after `turn` (where its run stops at the latest)."""
    later = [p.turn for p in pivots if p.turn > turn and not p.possible]
    return min(later) if later else None


def _in_run(sub: Subagent, run: Run) -> bool:
    if sub.error:
        return False
    if sub.parent_turn is not None:
        return run.start <= sub.parent_turn < run.end
    # tied to no call: the run it started during (runs never overlap, so at most one)
    if sub.started is None or run.first is None:
        return False
    until = run.last if run.ended_by != "end" and run.last is not None else float("inf")
    return run.first <= sub.started <= until


def edited_paths(call: ToolCall) -> list[str]:
    """The files an edit call changed, as it named them."""
    name = call.name.lower().rsplit(".", 1)[-1].rsplit("__", 1)[-1]
    if name == "aider":
        return _AIDER_EDIT.findall(call.output or "")
    if name not in EDIT_TOOLS:
        return []
    value = call.input
    if isinstance(value, dict):
        for key in PATH_KEYS:
            item = value.get(key)
            if isinstance(item, str) and item:
                return [item]
        value = value.get("input") or value.get("patch") or value.get("patchText") or ""
    if isinstance(value, str):
        return _PATCH_FILE.findall(value)
    return []
