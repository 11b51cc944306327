"""Tokens and dollars up to any turn, for the replayer's playhead ("$1.20 of $3.40").

One running sum per turn, kept as turns arrive: only the turns that changed are
priced again (a live session grows at its end; a slice read re-reports from
its first changed turn). Sub-agents add their tokens at the turn whose call ran
them (or, tied to no call, at the end). Pure: no Textual here.
"""

from __future__ import annotations

from collections.abc import Sequence

from pivotal.model import Turn
from pivotal.spend.prices import PriceList, price_list
from pivotal.spend.subagents import Subagent
from pivotal.spend.tally import Tally
from pivotal.spend.words import count, dollars


class Ledger:
    """Per turn: (tokens, billionths of a dollar, responses without a price) so far."""

    def __init__(self, prices: PriceList | None = None) -> None:
        self.prices = prices or price_list()
        self.model: str | None = None
        """The session's model: prices the turns that name none."""
        self._own: list[tuple[int, int, int, int]] = []
        """Per turn: its own (tokens, nanos, unpriced, responses)."""
        self._sums: list[tuple[int, int, int, int]] = []
        """Running sums of `_own` plus sub-agents, per turn."""
        self._subs: dict[int, Tally] = {}
        """Turn -> the sub-agents its calls ran, summed (-1: tied to no call)."""

    def update(self, turns: Sequence[Turn], first_changed: int | None = 0) -> None:
        """Turns from `first_changed` on are new or changed (None: none changed)."""
        if first_changed is None and len(turns) == len(self._own):
            return
        start = min(first_changed if first_changed is not None else len(self._own), len(turns))
        start = min(start, len(self._own))
        del self._own[start:]
        for index in range(start, len(turns)):
            turn = turns[index]
            usage = turn.usage
            if usage is None:
                self._own.append((0, 0, 0, 0))
                continue
            tally = Tally()
            tally.add_usage(usage, turn.model or self.model, self.prices)
            self._own.append((tally.tokens, tally.nanos, tally.unpriced, 1))
        self._resum(start)

    def set_subagents(self, subs: Sequence[Subagent]) -> None:
        self._subs = {}
        for sub in subs:
            if sub.error:
                continue
            at = sub.parent_turn if sub.parent_turn is not None else -1
            self._subs.setdefault(at, Tally()).add(sub.tally)
        self._resum(0)

    def _resum(self, start: int) -> None:
        del self._sums[start:]
        tokens, nanos, unpriced, responses = self._sums[-1] if self._sums else (0, 0, 0, 0)
        for index in range(start, len(self._own)):
            own = self._own[index]
            tokens, nanos = tokens + own[0], nanos + own[1]
            unpriced, responses = unpriced + own[2], responses + own[3]
            sub = self._subs.get(index)
            if sub is not None:
                tokens, nanos = tokens + sub.tokens, nanos + sub.nanos
                unpriced, responses = unpriced + sub.unpriced, responses + sub.responses
            self._sums.append((tokens, nanos, unpriced, responses))

    def at(self, turn: int) -> tuple[int, int, int, int]:
        """(tokens, nanos, unpriced, responses) up to and with `turn`."""
        if not self._sums or turn < 0:
            return (0, 0, 0, 0)
        return self._sums[min(turn, len(self._sums) - 1)]

    def total(self) -> tuple[int, int, int, int]:
        tokens, nanos, unpriced, responses = self.at(len(self._sums) - 1)
        loose = self._subs.get(-1)
        if loose is not None:
            tokens, nanos = tokens + loose.tokens, nanos + loose.nanos
            unpriced, responses = unpriced + loose.unpriced, responses + loose.responses
        return tokens, nanos, unpriced, responses

    def status(self, cursor: int) -> tuple[str, str]:
        """(full, short) for the status line: "$1.20 of ≈ $3.40 · 1.1 M of 2.3 M tokens";
        ("", "") when the session records no usage."""
        tokens, nanos, _, _ = self.at(cursor)
        all_tokens, all_nanos, unpriced, responses = self.total()
        if not responses or not all_tokens:
            return "", ""
        used = f"{count(tokens)} of {count(all_tokens)} tokens"
        if unpriced >= responses:
            return used + " · no price", f"{count(tokens)}/{count(all_tokens)} tok"
        sign = "≈" if unpriced == 0 else "≥"
        money = f"{dollars(nanos / 1e9)} of {sign} {dollars(all_nanos / 1e9)}"
        return f"{money} · {used}", f"{dollars(nanos / 1e9)}/{dollars(all_nanos / 1e9)}"
