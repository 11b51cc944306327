"""What a model's tokens cost, from LiteLLM's published price table kept as data.

`prices.json` beside this module is a filtered copy of LiteLLM's
`model_prices_and_context_window_backup.json` (MIT, `LICENSE.litellm`; how to
refresh it: `PRICES.md`). It is read once, on first use, never from the network.

A model is found by its name as the agent recorded it: the name itself, then
with a provider's prefix (`gemini-2.5-pro` is LiteLLM's `gemini/gemini-2.5-pro`),
then the part after the last `/` the same way (`google/gemini-2.5-pro`,
`anthropic/claude-sonnet-4-5`), and a Claude model LiteLLM lists only through
Bedrock under its Bedrock name. A name found nowhere has no price: pivotal
never guesses one from a similar name.

Prices are per token and per request: LiteLLM's `*_above_200k_tokens` fields
and `tiered_pricing` ranges apply when that request's prompt (input, cache
reads and cache writes) is above the threshold, which is why a cost is worked
out per turn (one turn is one model response) and then summed.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import msgspec

from pivotal.model import Usage

PRICES_FILE = Path(__file__).with_name("prices.json")
_ABOVE = re.compile(r"^(.*)_above_(\d+)(k?)_tokens$")
_FIELDS = {
    "input_cost_per_token": "input",
    "output_cost_per_token": "output",
    "cache_read_input_token_cost": "cache_read",
    "cache_creation_input_token_cost": "cache_write",
    "output_cost_per_reasoning_token": "reasoning",
}


class Rates(msgspec.Struct, frozen=True):
    """Dollars per token; None where the table gives no price for that kind of token."""

    input: float | None = None
    output: float | None = None
    cache_read: float | None = None
    cache_write: float | None = None
    reasoning: float | None = None
    """Reasoning tokens when the table prices them apart (else at the output rate)."""


class Price(msgspec.Struct, frozen=True):
    """One model's rates: `tiers` is (prompt tokens above which it applies, rates), ascending."""

    model: str
    """The table's name for it (what the person can look up)."""
    tiers: tuple[tuple[int, Rates], ...]

    def rates(self, prompt: int) -> Rates:
        chosen = self.tiers[0][1]
        for above, rates in self.tiers[1:]:
            if prompt > above:
                chosen = rates
        return chosen

    def cost(self, usage: Usage) -> float | None:
        """Dollars for one response's `usage`; None when a kind of token it used has no price.

        `usage.output` counts every generated token, reasoning included (the model's
        convention); reasoning is priced apart only when the table says so.
        """
        prompt = usage.input + usage.cache_read + usage.cache_write
        rates = self.rates(prompt)
        total = 0.0
        for tokens, rate in (
            (usage.input, rates.input),
            (usage.cache_read, rates.cache_read),
            (usage.cache_write, rates.cache_write),
        ):
            if tokens:
                if rate is None:
                    return None
                total += tokens * rate
        if usage.output:
            if rates.output is None:
                return None
            reasoning = min(usage.reasoning, usage.output) if rates.reasoning is not None else 0
            total += (usage.output - reasoning) * rates.output
            total += reasoning * (rates.reasoning or 0.0)
        return total


class PriceList:
    """The table, and the names it was asked for (found or not) remembered."""

    def __init__(self, data: dict) -> None:
        models = data.get("models")
        self.models: dict[str, dict] = models if isinstance(models, dict) else {}
        self.providers: tuple[str, ...] = tuple(data.get("providers") or ())
        self.version = str(data.get("litellm_version") or "?")
        self.taken = str(data.get("taken") or "?")
        self._found: dict[str, Price | None] = {}

    @classmethod
    def load(cls, path: Path = PRICES_FILE) -> PriceList:
        return cls(msgspec.json.decode(path.read_bytes()))

    def find(self, model: str | None) -> Price | None:
        """The price of `model` as an agent recorded it, or None (no price)."""
        if not model:
            return None
        if model in self._found:
            return self._found[model]
        price = None
        for name in self._names(model):
            entry = self.models.get(name)
            if entry is not None:
                price = _price(name, entry)
                if price is not None:
                    break
        self._found[model] = price
        return price

    def _names(self, model: str) -> list[str]:
        """Where `model` may be in the table, in the order it is looked for."""
        lowered = model.strip().lower()
        bare = lowered.rsplit("/", 1)[-1]
        names = []
        for name in dict.fromkeys((model.strip(), lowered, bare)):
            names.append(name)
            names.extend(f"{provider}/{name}" for provider in self.providers)
        if bare.startswith("claude-"):
            names.extend(f"anthropic.{bare}{tail}" for tail in ("-v1:0", "-v2:0", "-v1", ""))
        return names


def _price(name: str, entry: dict) -> Price | None:
    base: dict[str, float] = {}
    above: dict[int, dict[str, float]] = {}
    for key, value in entry.items():
        if not isinstance(value, int | float) or isinstance(value, bool):
            continue
        field = _FIELDS.get(key)
        if field is not None:
            base[field] = float(value)
            continue
        match = _ABOVE.match(key)
        if match and match.group(1) in _FIELDS:
            threshold = int(match.group(2)) * (1000 if match.group(3) else 1)
            above.setdefault(threshold, {})[_FIELDS[match.group(1)]] = float(value)
    tiers: list[tuple[int, Rates]] = []
    if "input" in base:
        tiers.append((0, Rates(**base)))
        # a field the higher tier leaves out keeps its base price (as LiteLLM reads them)
        tiers += [(limit, Rates(**{**base, **above[limit]})) for limit in sorted(above)]
    else:
        for tier in entry.get("tiered_pricing") or ():
            span = tier.get("range") if isinstance(tier, dict) else None
            rates = {
                _FIELDS[k]: float(v)
                for k, v in tier.items()
                if k in _FIELDS and isinstance(v, int | float)
            }
            if isinstance(span, list) and span and "input" in rates:
                tiers.append((int(span[0]), Rates(**rates)))
        tiers.sort(key=lambda tier: tier[0])
        # a range [N, M] holds prompts above N up to M (LiteLLM's reading); the first is the base
        tiers = [(start if n else 0, rates) for n, (start, rates) in enumerate(tiers)]
    return Price(name, tuple(tiers)) if tiers else None


@cache
def price_list() -> PriceList:
    """The table shipped with pivotal, read once."""
    return PriceList.load()
