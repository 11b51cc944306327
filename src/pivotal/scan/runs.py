"""Pivots' runs when a big file is read on two cores (`scan.split`): each half measures its own.

A run is a sum over its turns (`pivotal.spend.run`), so the child measures the
runs of its own pivots to their end, and the stretch from the turn the parent
stops at (the end of the overlap) to its first message from the person: a
parent's run that crosses the seam is the parent's part joined to that one.
The child also sends its calls that ran a sub-agent, so the parent, which
reads the sub-agents once, ties them to calls on either side of the seam.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from pivotal.detect.clock import started_at
from pivotal.model import Pivot, Session, ToolCall, Turn
from pivotal.spend.run import Run, add_subagents, join, measure, next_anchor, pivot_runs, run_end
from pivotal.spend.subagents import call_sites, read_children, tie

OUTPUT_KEPT = 2_000
"""Characters of a sub-agent call's result sent across (its head and tail each): enough
for the "agentId: …" line that ties a sub-agent to it, not a whole report."""


class ChildRuns(msgspec.Struct, array_like=True):
    """What the child measured, in its own turn numbers."""

    runs: list[Run]
    """One per pivot it reports, in order (sub-agents not added yet)."""
    head: Run
    """From the end of the overlap to its first message from the person or its first pivot
    (or its end)."""
    calls: list[tuple[int, ToolCall]]
    """Its calls that ran a sub-agent, from the end of the overlap on."""


def child_runs(
    turns: Sequence[Turn],
    pivots: Sequence[Pivot],
    overlap: int,
    model: str | None,
    children: bool = True,
) -> ChildRuns:
    """`children`: the session has sub-agents (else no call is decoded to look for theirs).
    Possible pivots have no run."""
    pivots = [p for p in pivots if not p.possible]
    measured = pivot_runs(turns, pivots, model=model)
    runs = [measured[pivot.turn] for pivot in pivots]
    start = min(overlap, len(turns))
    stop = next_anchor(pivots, start - 1) or len(turns)
    stop = next((i for i in range(start, stop) if turns[i].is_human), stop)
    head = measure(turns, start, stop, model=model)
    calls = [(i, _trimmed(call)) for i, call in call_sites(turns, start)] if children else []
    return ChildRuns(runs, head, calls)


def _trimmed(call: ToolCall) -> ToolCall:
    output = call.output
    if output is not None and len(output) > 2 * OUTPUT_KEPT:
        output = output[:OUTPUT_KEPT] + "\n…\n" + output[-OUTPUT_KEPT:]
    return msgspec.structs.replace(call, output=output)


def joined_runs(
    session: Session,
    own: Sequence[Turn],
    mine: Sequence[Pivot],
    theirs: Sequence[Pivot],
    child: ChildRuns,
    shift: int,
    boundary: int,
) -> dict[int, Run]:
    """Every pivot's run, by its anchor: the parent's measured on `own` up to `boundary`
    (joined to the child's head past it), the child's shifted to whole-file turn numbers;
    each ends at the next pivot at the latest, as `pivot_runs` ends them."""
    model = session.model
    mine = [p for p in mine if not p.possible]  # possible pivots have no run
    theirs = [p for p in theirs if not p.possible]
    runs: dict[int, Run] = {}
    head = _shifted(child.head, shift)
    every = [*mine, *theirs]
    for pivot in mine:
        following = next_anchor(every, pivot.turn)
        stop = boundary if following is None else min(following, boundary)
        end = run_end(own, pivot, stop=stop)
        run = measure(own, pivot.turn, end, model=model)
        if end >= boundary:  # no message from the person, no pivot before the overlap ended
            run = join(run, head)
        if own[pivot.turn].timestamp is not None:
            run.first = started_at(own, pivot.turn)
        runs[pivot.turn] = run
    for pivot, run in zip(theirs, child.runs, strict=False):
        runs[pivot.turn] = _shifted(run, shift)
    subs = read_children(session.children)
    if subs:
        sites = call_sites(own, 0, boundary) + [(i + shift, call) for i, call in child.calls]
        tie(sites, subs)
        for run in runs.values():
            add_subagents(run, subs)
    return runs


def _shifted(run: Run, shift: int) -> Run:
    return msgspec.structs.replace(run, start=run.start + shift, end=run.end + shift)
