"""The Markdown, HTML and JSON exports say what each pivot's run did and what the session cost."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pivotal.export.common import ExportInput
from pivotal.export.html import render_html
from pivotal.export.jsonout import export_json
from pivotal.export.markdown import render_markdown
from pivotal.model import Pivot, PivotKind, Silence
from pivotal.readers import find_sessions, read_session

from .claude_home import OWN, SUBS, write_home


def _data(tmp_path: Path) -> ExportInput:
    path = write_home(tmp_path)
    [ref] = find_sessions([path]).refs
    session = read_session(ref)
    [ok] = [t for t in session.turns if t.is_human and t.preview == "ok"]
    pivot = Pivot(
        turn=ok.index, kind=PivotKind.IMPLICIT_APPROVAL, silence=Silence.ACK, confidence=0.8
    )
    return ExportInput(ref, session, [pivot])


SENTENCE = re.compile(
    r"after you said 'ok' the agent worked 2 min on its own: 3 turns, 4 calls, 1 file, "
    r"[\d.]+ k tokens, ≈ \$[\d.]+; 4 sub-agents ran \(6 turns, 0 calls, [^)]*\) — mostly "
    r"sub-agents \(\d+% of the tokens\)"
)


def test_markdown_says_what_the_agent_did_on_its_own_and_the_sessions_spend(tmp_path) -> None:
    text = render_markdown(_data(tmp_path))
    assert SENTENCE.search(text), text
    row = next(line for line in text.splitlines() if line.startswith("| Tokens and cost |"))
    own = sum(sum(r) for r in OWN.values())
    subs = sum(sum(r) for rows in SUBS.values() for r in rows)
    assert f"{(own + subs) / 1000:.0f} k tokens, ≈ $" in row and "4 sub-agents" in row
    # the turns around the pivot carry their own tokens and dollars
    assert re.search(
        r"\*\*Turn #\d+\*\* · agent · [^\n]* · \$0\.04 · in 1\.2 k · out 300 · cache 4\.0 k write",
        text,
    )


def test_html_says_it_in_the_pivot_panel_and_the_turn_headers(tmp_path) -> None:
    page = render_html(_data(tmp_path))
    [run] = re.findall(r'<p class="run">(.*?)</p>', page)
    assert SENTENCE.search(run.replace("&#x27;", "'").replace("&#39;", "'")), run
    assert "Tokens and cost</td><td>" in page
    assert page.count('<span class="usage">') == len(OWN)  # one per response, not per line


def test_json_export_has_the_run_and_the_spend_with_each_subagent(tmp_path) -> None:
    doc = json.loads(json.dumps(export_json(_data(tmp_path))))
    [pivot] = doc["pivots"]
    assert pivot["run"]["subagents"]["count"] == 4
    spend = doc["spend"]
    assert len(spend["subagents"]) == 4
    assert spend["total"]["tokens"] == spend["own"]["tokens"] + sum(
        s["tokens"] for s in spend["subagents"]
    )
    assert {s["call_id"] for s in spend["subagents"]} == {
        "toolu_01cart",
        "toolu_02callers",
        "toolu_03tests",
        None,
    }
