"""A session's spend: its own responses and its sub-agents', each once, and its pivots' runs.

`session_spend` is what the replayer's status line and the picker show; `run_of`
is what `scan --json` and the exports print per pivot. The sub-agents of the
session last asked about are kept, so a session's pivots do not read them again
one by one (a scan prints one session at a time).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec import field

from pivotal.model import Pivot, Session, SessionRef
from pivotal.spend.prices import PriceList, price_list
from pivotal.spend.run import Run, pivot_run, pivot_runs
from pivotal.spend.subagents import Subagent, read_subagents
from pivotal.spend.tally import Tally, tally_turns


class SessionSpend(msgspec.Struct):
    own: Tally
    """The session's own responses (abandoned branches included: they were paid for)."""
    subagents: list[Subagent] = field(default_factory=list)

    @property
    def total(self) -> Tally:
        total = Tally()
        total.add(self.own)
        total.add(self.total_of_subagents)
        return total

    @property
    def total_of_subagents(self) -> Tally:
        total = Tally()
        for sub in self.subagents:
            total.add(sub.tally)
        return total


def own_tally(session: Session, prices: PriceList | None = None) -> Tally:
    prices = prices or price_list()
    tally = tally_turns(session.turns, session.model, prices)
    for branch in session.branches:
        tally.add(tally_turns(branch, session.model, prices))
    return tally


def session_spend(
    session: Session, prices: PriceList | None = None, *, subagents: bool = True
) -> SessionSpend:
    """`subagents=False`: the session's own responses only (nothing else is read)."""
    prices = prices or price_list()
    subs = subagents_of(session, prices) if subagents else []
    return SessionSpend(own_tally(session, prices), subs)


_last: list[tuple[Session, list[SessionRef], list[Subagent]]] = []
"""(session, the children it had, its sub-agents read) for the session last asked about."""


def subagents_of(session: Session, prices: PriceList | None = None) -> list[Subagent]:
    """The session's sub-agents, read once (again when a live session lists more, or one
    of them changed: a sidechain grew, or the result naming its call was written)."""
    for known, children, subs in _last:
        if known is session and children == session.children:
            return subs
    subs = read_subagents(session, prices)
    _last[:] = [(session, list(session.children), subs)]
    return subs


_runs: list[tuple[Session, int, dict[int, Run]]] = []
"""(session, its turn count, its pivots' runs) for the session last measured."""


def measure_runs(session: Session, pivots: Sequence[Pivot]) -> dict[int, Run]:
    """Every pivot's run, each ending at the next pivot at the latest; kept for `run_of`."""
    measured = getattr(session.turns, "runs", False)
    if measured is not False:  # a scan split in two measured them where it read them
        return measured or {}
    runs = pivot_runs(session.turns, pivots, model=session.model, subagents=subagents_of(session))
    _runs[:] = [(session, len(session.turns), runs)]
    return runs


def run_of(session: Session, pivot: Pivot) -> Run | None:
    """`pivot`'s run: as `measure_runs` found it for the session's pivots, or on its own
    (to the person's next message: the other pivots are not known here).

    None when the turns it needs are not at hand (a split scan that measured none).
    """
    measured = getattr(session.turns, "runs", False)
    if measured is not False:  # only what the two halves of a split scan measured
        return (measured or {}).get(pivot.turn)
    for known, count, runs in _runs:
        if known is session and count == len(session.turns) and pivot.turn in runs:
            return runs[pivot.turn]
    return pivot_run(session.turns, pivot, model=session.model, subagents=subagents_of(session))
