"""Tokens and dollars summed over turns, each response counted once.

Readers put a response's usage on exactly one turn (Claude Code's lines of one
message, Gemini's rewritten records and Codex's repeated token counts are
merged there), so a sum over turns counts each once. A turn's cost is its
usage at its model's price (the session's model when the turn names none);
a turn whose model has no price adds its tokens but no dollars, and is
counted in `unpriced`, so a total never passes a partial sum off as whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import msgspec
from msgspec import field

from pivotal.model import Turn, Usage
from pivotal.spend.prices import PriceList, price_list


class Tally(msgspec.Struct):
    """What some responses used and cost."""

    input: int = 0
    """Prompt tokens read fresh (not from the cache)."""
    output: int = 0
    """Generated tokens, reasoning included."""
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int = 0
    nanos: int = 0
    """Billionths of a dollar of the priced responses: whole numbers, so sums taken in any
    order (two halves of a file, then joined) come out the same to the last digit."""
    responses: int = 0
    """Turns that recorded a usage."""
    unpriced: int = 0
    """Of those, the ones whose model has no price."""
    unpriced_models: set[str] = field(default_factory=set)

    @property
    def cost(self) -> float:
        """Dollars of the priced responses."""
        return self.nanos / 1e9

    @property
    def tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write

    @property
    def priced(self) -> bool:
        """Every response that used tokens has a price (and there was one)."""
        return self.responses > self.unpriced == 0

    def add_usage(self, usage: Usage, model: str | None, prices: PriceList) -> None:
        self.input += usage.input
        self.output += usage.output
        self.cache_read += usage.cache_read
        self.cache_write += usage.cache_write
        self.reasoning += usage.reasoning
        self.responses += 1
        price = prices.find(model)
        cost = price.cost(usage) if price is not None else None
        if cost is None:
            if usage.total:
                self.unpriced += 1
                self.unpriced_models.add(model or "a model the session does not name")
        else:
            self.nanos += round(cost * 1e9)

    def add(self, other: Tally) -> None:
        self.input += other.input
        self.output += other.output
        self.cache_read += other.cache_read
        self.cache_write += other.cache_write
        self.reasoning += other.reasoning
        self.nanos += other.nanos
        self.responses += other.responses
        self.unpriced += other.unpriced
        self.unpriced_models |= other.unpriced_models

    def as_json(self, names: Callable[[str], str] = str) -> dict:
        """The documented JSON shape (`scan --json`, `stats --json`, the exports).

        `names` cleans the model names (they come from the session file)."""
        return {
            "tokens": self.tokens,
            "input": self.input,
            "output": self.output,
            "cache_read": self.cache_read,
            "cache_write": self.cache_write,
            "reasoning": self.reasoning,
            "cost_usd": round(self.cost, 6) if self.responses > self.unpriced else None,
            "priced": self.priced,
            "unpriced_responses": self.unpriced,
            "unpriced_models": sorted(names(m) for m in self.unpriced_models),
        }


def tally_turns(
    turns: Iterable[Turn], model: str | None = None, prices: PriceList | None = None
) -> Tally:
    """The usage of `turns` summed; `model` prices turns that name no model of their own."""
    prices = prices or price_list()
    tally = Tally()
    for turn in turns:
        usage = turn.usage
        if usage is not None:
            tally.add_usage(usage, turn.model or model, prices)
    return tally


def turn_cost(
    turn: Turn, model: str | None = None, prices: PriceList | None = None
) -> float | None:
    """One turn's dollars, or None (no usage recorded, or no price for its model)."""
    if turn.usage is None:
        return None
    price = (prices or price_list()).find(turn.model or model)
    return price.cost(turn.usage) if price is not None else None
