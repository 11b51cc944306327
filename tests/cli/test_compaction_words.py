"""Who compacted, said truly on every surface: a `/compact` the person ran is theirs, an
automatic compaction the tool's, and neither is a "go-on" (it is no message at all).

A newcomer audit found a session where the person ran /compact told "The tool compacted the
context (not you)" by the panel and `scan --explain`, and "the agent worked 3 min on its own
after your go-on" where there was no go-on. The sessions here are Claude Code files in the
shape it writes (`compact_boundary` with `compactMetadata.trigger`, the /compact command's
records after it); every surface reads them through the reader, at every bar (sensitivity 1)
so that the compaction is judged whatever the fitted weights.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Silence
from pivotal.readers import find_sessions, read_session
from pivotal.tui.pivot_story import pivot_text
from readers import claude_builders as cb

MINE = "You compacted the context"
TOOLS = "The tool compacted the context (not you)"


def _session(trigger: str) -> list[dict]:
    """A milestone, a compaction (the person's /compact, or the tool's own), then the agent
    takes up the next phase on its own for a few minutes until the person speaks again."""
    records = [
        cb.user("u1", None, 0, "Write the CSV importer for the ledger and test it."),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "pytest -q tests/test_import.py"),
        cb.tool_result("r1", "a1", 9, "call_1", "12 passed in 0.41s"),
        cb.said("a2", "r1", 12, "msg_2", "The importer is done: all 12 tests pass."),
        cb.compact_boundary("b1", "a2", 60, trigger),
        cb.compact_summary("s1", "b1", 60, "Summary: the importer is done.\n\nNext steps: none."),
    ]
    last = "s1"
    if trigger == "manual":
        records += cb.compact_command("c1", "s1", 61)
        last = "c1"
    records += [
        cb.said("a3", last, 70, "msg_3", "Next phase: the exporter. I'll start with JSON."),
        cb.tool_use("a4", "a3", 80, "msg_4", "call_2", "touch ledger/export_json.py"),
        cb.tool_result("r2", "a4", 90, "call_2", ""),
        cb.tool_use("a5", "r2", 150, "msg_5", "call_3", "git commit -am 'exporter skeleton'"),
        cb.tool_result("r3", "a5", 200, "call_3", "[main 1a2b3c4] exporter skeleton"),
        cb.tool_use("a6", "r3", 250, "msg_6", "call_4", "pytest -q"),
        cb.tool_result("r4", "a6", 260, "call_4", "14 passed in 0.52s"),
        cb.said("a7", "r4", 270, "msg_7", "The JSON exporter skeleton is committed."),
        cb.user("u2", "a7", 400, "Good. Now write the docs for the importer."),
    ]
    return records


def _file(tmp_path: Path, trigger: str) -> Path:
    return cb.home(tmp_path / trigger, _session(trigger))


def _pivot(path: Path):
    session = read_session(find_sessions([path]).refs[0])
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    compactions = [p for p in pivots if p.silence is Silence.COMPACTION]
    assert len(compactions) == 1, [(p.turn, p.silence) for p in pivots]
    return session, compactions[0]


def _no_go_on(words: str) -> None:
    assert "go-on" not in words, [line for line in words.splitlines() if "go-on" in line]


def test_explain_says_the_person_ran_compact_and_names_no_go_on(tmp_path: Path) -> None:
    result = invoke("scan", "--explain", "--sensitivity", "1", _file(tmp_path, "manual"))
    assert result.exit_code == 0, result.output
    assert MINE in result.stdout
    assert "not you" not in result.stdout
    _no_go_on(result.stdout)
    assert "after the compaction" in result.stdout  # the time and the calls it was followed by


def test_explain_says_an_automatic_compaction_was_the_tools(tmp_path: Path) -> None:
    result = invoke("scan", "--explain", "--sensitivity", "1", _file(tmp_path, "auto"))
    assert result.exit_code == 0, result.output
    assert TOOLS in result.stdout
    assert MINE not in result.stdout
    _no_go_on(result.stdout)


@pytest.mark.parametrize(("trigger", "who"), [("manual", MINE), ("auto", TOOLS)])
def test_the_json_summary_and_reason_follow_the_trigger(
    tmp_path: Path, trigger: str, who: str
) -> None:
    result = invoke("scan", "--json", "--sensitivity", "1", _file(tmp_path, trigger))
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    (pivot,) = [p for p in record["pivots"] if p["silence"] == "compaction"]
    assert pivot["summary"].startswith(who + " after the agent")
    reason = pivot["reason"]
    if trigger == "manual":
        assert reason.startswith("Compaction the person asked for")
    else:
        assert reason.startswith("Automatic compaction (the tool's, not the person's)")
    details = " ".join(s["detail"] for s in pivot["signals"])
    _no_go_on(details)


def test_the_panel_says_the_person_ran_compact(tmp_path: Path) -> None:
    _, pivot = _pivot(_file(tmp_path, "manual"))
    text = pivot_text(pivot, 1, 1).plain
    assert MINE in text
    assert "not you" not in text and "not necessarily the person" not in text
    assert "silence: a compaction you asked for" in text
    _no_go_on(text)


def test_the_panel_says_an_automatic_compaction_was_the_tools(tmp_path: Path) -> None:
    _, pivot = _pivot(_file(tmp_path, "auto"))
    text = pivot_text(pivot, 1, 1).plain
    assert TOOLS in text
    assert "silence: a compaction the tool made on its own (not you)" in text
    _no_go_on(text)


def test_the_export_names_the_persons_compaction(tmp_path: Path) -> None:
    result = invoke("export", _file(tmp_path, "manual"), "--to", "md", "--sensitivity", "1")
    assert result.exit_code == 0, result.output
    assert "Compaction the person asked for" in result.stdout
    assert "not necessarily the person" not in result.stdout
