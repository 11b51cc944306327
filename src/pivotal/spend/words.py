"""Tokens, dollars, time and runs in a few words, the same in the replayer, exports and CLI.

"1.2 M tokens" (`1.5 B` past a billion), "≈ $3.40" (every response priced), "≥ $3.40"
(some had no price: the sum is a floor), "no price" (none had one); "47 min", "9 d 20 h".
A table's cell says the same in fewer columns (`cost_cell`, `tokens_cell`).
"""

from __future__ import annotations

from pivotal.model import Pivot, Silence, Turn, Usage
from pivotal.spend.prices import price_list
from pivotal.spend.run import Run
from pivotal.spend.subagents import Subagent
from pivotal.spend.tally import Tally
from pivotal.text.plural import plural


def count(tokens: int) -> str:
    """1534567890 -> "1.5 B", 1234567 -> "1.2 M", 45200 -> "45 k", 950 -> "950" (a figure
    of four digits and a point at most: "1534.6 M" was a billion read as millions)."""
    if tokens >= 999_950_000:
        return f"{tokens / 1e9:.1f} B"
    if tokens >= 999_500:
        return f"{tokens / 1e6:.1f} M"
    if tokens >= 9_950:
        return f"{tokens / 1e3:.0f} k"
    if tokens >= 1_000:
        return f"{tokens / 1e3:.1f} k"
    return str(tokens)


NO_USAGE = "—"
"""A cost (or tokens) cell when the session records no token usage at all."""
NO_PRICE = "no price"
"""A cost when tokens are recorded but no response's model is in the price list."""


def cost_cell(tokens: int | None, cost: float | None, whole: bool | None = True) -> str:
    """What a session cost, in a table's cell: "$3.40", "≥$3.40" (part had no price),
    `NO_PRICE` (tokens, none priced: the token figure goes beside it where there is room,
    `tokens_cell`), `NO_USAGE` (no usage recorded). The picker, `stats` and exports say it
    the same way."""
    if not tokens:
        return NO_USAGE
    if cost is None:
        return NO_PRICE
    return ("" if whole else "≥") + dollars(cost)


def tokens_cell(tokens: int | None) -> str:
    """Tokens in a narrow cell: "45.5M", "9.4k", "1.5B"; `NO_USAGE` when none are recorded."""
    return count(tokens).replace(" ", "") if tokens else NO_USAGE


def dollars(value: float) -> str:
    if value >= 100:
        return f"${value:,.0f}"
    if value >= 0.005:
        return f"${value:.2f}"
    if value > 0:
        return "<$0.01"
    return "$0"


def cost(tally: Tally) -> str:
    """ "≈ $3.40", "≥ $3.40" (part unpriced), "no price", or "" when no usage was recorded."""
    if not tally.responses or not tally.tokens:
        return ""
    if tally.unpriced >= tally.responses:
        return "no price"
    sign = "≈" if tally.unpriced == 0 else "≥"
    if tally.cost < 0.005:
        return "< $0.01" if sign == "≈" else "≥ $0"
    return f"{sign} {dollars(tally.cost)}"


def spend(tally: Tally) -> str:
    """ "1.2 M tokens, ≈ $3.40" ("" when the format records no usage)."""
    if not tally.responses:
        return ""
    money = cost(tally)
    return f"{count(tally.tokens)} tokens" + (f", {money}" if money else "")


def duration(seconds: float | None) -> str:
    """ "40 s", "47 min", "3 h 12 min", from a day on "9 d 20 h" (to the nearest hour: the
    minutes of a run that lasted days say nothing)."""
    if seconds is None:
        return ""
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours >= 24:
        days, hours = divmod(round(seconds / 3600), 24)
        return f"{days} d {hours} h" if hours else f"{days} d"
    return f"{hours} h {minutes} min" if minutes else f"{hours} h"


def usage_line(usage: Usage, price: float | None) -> str:
    """A turn header's tokens, dollars first (a narrow header keeps them):
    "$0.02 · in 1.2 k · out 340 · cache 45 k read, 2 k write"."""
    parts = []
    if price is not None:
        parts.append(dollars(price))
    elif usage.total:
        parts.append("no price")
    parts += [f"in {count(usage.input)}", f"out {count(usage.output)}"]
    cache = []
    if usage.cache_read:
        cache.append(f"{count(usage.cache_read)} read")
    if usage.cache_write:
        cache.append(f"{count(usage.cache_write)} write")
    if cache:
        parts.append("cache " + ", ".join(cache))
    return " · ".join(parts)


def turn_usage(turn: Turn, model: str | None = None) -> str:
    """`usage_line` of a turn, priced at its model (`model`, the session's, when it names none)."""
    usage = turn.usage
    if usage is None:
        return ""
    price = price_list().find(turn.model or model)
    cost = price.cost(usage) if price is not None else None
    return usage_line(usage, cost)


def subagent_note(sub: Subagent) -> str:
    """ "sub-agent: 3 agent turns · 2 calls · 10 s · 5.4 k tokens, ≈ $0.01" (its own
    included). The agent's turns: its transcript also holds the prompt it was given."""
    if sub.error:
        return "sub-agent: could not be read"
    parts = [f"{sub.agent_turns} agent turn{'s' * (sub.agent_turns != 1)}"]
    parts.append(f"{sub.calls} call{'s' * (sub.calls != 1)}")
    if sub.failed:
        parts.append(f"{sub.failed} failed")
    if sub.seconds is not None:
        parts.append(duration(sub.seconds))
    money = spend(sub.tally)
    if money:
        parts.append(money)
    return "sub-agent: " + " · ".join(parts)


def handover(pivot: Pivot, anchor: Turn | None) -> str:
    """How the person handed over: "you said 'ok'", "your empty message", "the compaction"."""
    if pivot.silence is Silence.COMPACTION:
        return "the context was compacted"
    text = " ".join((anchor.preview if anchor is not None else "").split())
    if pivot.silence is Silence.EMPTY or not text:
        return "your empty message"
    if len(text) > 30:
        text = text[:29] + "…"
    return f"you said '{text}'"


def run_sentence(run: Run, pivot: Pivot, anchor: Turn | None) -> str:
    """ "after you said 'ok' the agent worked 47 min on its own: 96 calls, 3 failed, 12 files,
    1.2 M tokens, ≈ $3.40" (and, when they ran, what its sub-agents did)."""
    worked = duration(run.seconds)
    head = f"after {handover(pivot, anchor)} the agent worked"
    head += f" {worked} on its own" if worked else " on its own"
    if run.ended_by == "end":
        head += " (to the end of the session)"
    figures = [f"{run.agent_turns} turn{'s' * (run.agent_turns != 1)}"]
    figures.append(f"{run.calls} call{'s' * (run.calls != 1)}")
    if run.failed:
        figures.append(f"{run.failed} failed")
    if run.files:
        figures.append(f"{run.files} file{'s' * (run.files != 1)}")
    money = spend(run.tally)
    if money:
        figures.append(money)
    sentence = f"{head}: {', '.join(figures)}"
    if run.subagents:
        subs = f"{run.subagents} sub-agent{'s' * (run.subagents != 1)}"
        detail = [plural(run.sub_turns, "turn"), plural(run.sub_calls, "call")]
        if run.sub_seconds:
            detail.append(duration(run.sub_seconds))
        sub_money = spend(run.sub_tally)
        if sub_money:
            detail.append(sub_money)
        sentence += f"; {subs} ran ({', '.join(detail)})"
    if run.mostly_subagents:
        share = round(100 * run.sub_tally.tokens / run.tally.tokens)
        sentence += f" — mostly sub-agents ({share}% of the tokens): it handed the work on"
    return sentence
