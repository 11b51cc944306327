"""`pivotal export` of a Claude Code 1.0.x session whose sub-agents are written into its own
file: the turns are the session's own, the spend keeps each sub-agent apart (the audit's
repro: 178 turns and every dollar counted as the session's own)."""

from __future__ import annotations

import json

from cli_helpers import invoke
from readers import claude_sidechain_home as home


def test_markdown_counts_the_sessions_own_turns_and_names_its_subagents(tmp_path) -> None:
    result = invoke("export", home.home(tmp_path), "--to", "md")
    assert result.exit_code == 0, result.output
    rows = {line.split("|")[1].strip(): line for line in result.stdout.splitlines() if "|" in line}
    assert "| 10 (3 from the person) |" in rows["Turns"]
    assert "4 sub-agents" in rows["Tokens and cost"]


def test_json_spend_lists_each_subagent_with_the_call_that_ran_it(tmp_path) -> None:
    result = invoke("export", home.home(tmp_path), "--to", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["turns"] == 10
    spend = doc["spend"]
    assert spend["own"]["tokens"] == sum(sum(row) for row in home.OWN.values())
    subs = spend["subagents"]
    assert [s["call_id"] for s in subs] == [home.CALLS[a] for a in home.ORDER]
    assert [s["title"] for s in subs] == [home.DESCRIPTIONS[a] for a in home.ORDER]
    assert [s["tokens"] for s in subs] == [sum(map(sum, home.SUBS[a])) for a in home.ORDER]
    assert all(s["key"].startswith("sidechain:") and s["error"] is None for s in subs)
    assert spend["total"]["tokens"] == spend["own"]["tokens"] + sum(s["tokens"] for s in subs)
