"""Files of the real clients' shapes with usage numbers of our own, to count by hand.

Each agent's home under tests/fixtures/realclients was written by the real CLI
against a scripted model that reported the same 1000/50 tokens for every
response. These helpers copy one and give its usage records new numbers, so a
test knows which responses must count (once) and what they add up to, and can
price them from the price list's own file.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pivotal.spend.prices import PRICES_FILE

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
RATES = json.loads(PRICES_FILE.read_text(encoding="utf-8"))["models"]


@dataclass(frozen=True)
class Numbers:
    """What the k-th response used (1-based), as a person would write it down."""

    fresh: int
    output: int
    """Generated tokens, reasoning included."""
    cache_read: int
    cache_write: int
    reasoning: int


def numbers(k: int, *, read: bool = True, write: bool = True, thinking: bool = True) -> Numbers:
    return Numbers(
        fresh=1000 * k + 11,
        output=100 * k + 3,
        cache_read=5000 * k if read else 0,
        cache_write=200 * k if write else 0,
        reasoning=30 * k if thinking else 0,
    )


def totals(counted: list[Numbers]) -> dict[str, int]:
    return {
        "input": sum(n.fresh for n in counted),
        "output": sum(n.output for n in counted),
        "cache_read": sum(n.cache_read for n in counted),
        "cache_write": sum(n.cache_write for n in counted),
        "reasoning": sum(n.reasoning for n in counted),
    }


def dollars(counted: list[Numbers], table_name: str) -> float:
    """The responses priced with the table's rates for `table_name` (flat-rate models)."""
    rates = RATES[table_name]
    thinking = rates.get("output_cost_per_reasoning_token", rates["output_cost_per_token"])
    total = 0.0
    for n in counted:
        total += n.fresh * rates["input_cost_per_token"]
        total += (n.output - n.reasoning) * rates["output_cost_per_token"]
        total += n.reasoning * thinking
        if n.cache_read:
            total += n.cache_read * rates["cache_read_input_token_cost"]
        if n.cache_write:
            total += n.cache_write * rates["cache_creation_input_token_cost"]
    return total


def home(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copytree(REAL / name, target)
    for path in target.rglob("*"):  # the fixtures are read-only: these copies are ours
        path.chmod(0o755 if path.is_dir() else 0o644)
    target.chmod(0o755)
    return target


def rewrite_jsonl(path: Path, change: Callable[[Any], Any], *, compact: bool) -> None:
    """Pass every JSON line through `change` (which may mutate it); other lines stay."""
    separators = (",", ":") if compact else (", ", ": ")
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        value = change(value)
        out.append(json.dumps(value, ensure_ascii=False, separators=separators))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def rewrite_json(path: Path, change: Callable[[Any], Any], **dump: Any) -> None:
    value = change(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(json.dumps(value, ensure_ascii=False, **dump), encoding="utf-8")
