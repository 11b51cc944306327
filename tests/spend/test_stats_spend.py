"""`pivotal stats`: the runs' spend by kind and by agent, and the share that followed a silence.

The sub-agents of `claude_home` are found twice when their folder is listed (as the
session's sub-agents and as sessions of their own): their tokens count once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog.stats import collect, stats_json
from pivotal.readers import find_sessions

from .claude_home import MODEL, OWN, SUB_MODEL, SUBS, write_home
from .shapes import RATES

OWN_TOKENS = sum(sum(row) for row in OWN.values())
SUB_TOKENS = sum(sum(row) for rows in SUBS.values() for row in rows)
RUN_TOKENS = sum(sum(OWN[m]) for m in ("msg_02", "msg_03", "msg_04")) + SUB_TOKENS


def _cost(rows, model: str) -> float:  # type: ignore[no-untyped-def]
    rates = RATES[model]
    return sum(
        f * rates["input_cost_per_token"]
        + o * rates["output_cost_per_token"]
        + r * rates["cache_read_input_token_cost"]
        + w * rates["cache_creation_input_token_cost"]
        for f, o, r, w in rows
    )


ALL_COST = _cost(OWN.values(), MODEL) + _cost(
    [r for rows in SUBS.values() for r in rows], SUB_MODEL
)


@pytest.mark.parametrize("listed", ["the session alone", "its folder, sub-agents listed too"])
def test_all_spend_counts_each_subagent_once_and_the_run_after_ok_is_most_of_it(
    tmp_path: Path, listed: str
) -> None:
    path = write_home(tmp_path)
    where = path if listed == "the session alone" else path.parent
    refs = find_sessions([where]).refs
    assert len(refs) == (1 if listed == "the session alone" else 5)
    # every silence the rules let through is a pivot: what is tested is how runs are counted
    spend = stats_json(collect(refs, sensitivity="1"))["totals"]["spend"]
    assert spend["all"]["tokens"] == OWN_TOKENS + SUB_TOKENS
    assert spend["all"]["cost_usd"] == pytest.approx(ALL_COST, abs=1e-6)
    approval = spend["runs_by_kind"]["implicit_approval"]
    assert (approval["count"], approval["tokens"]) == (1, RUN_TOKENS)
    assert spend["runs_by_agent"]["claude-code"]["tokens"] == RUN_TOKENS
    assert spend["share_of_tokens"] == pytest.approx(
        RUN_TOKENS / (OWN_TOKENS + SUB_TOKENS), abs=1e-4
    )
    assert 0 < spend["share_of_cost"] < 1


def test_the_stats_table_shows_the_spend(tmp_path: Path) -> None:
    path = write_home(tmp_path)
    result = invoke("stats", str(path), "--sensitivity", "1")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "COST" in text.splitlines()[0]
    assert "after a silence" in text and "runs by kind" in text and "runs by agent" in text
    assert f"{RUN_TOKENS / 1000:.0f} k tokens" in text
