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


# Claude Code 1.0 wrote no boundary record: when the context filled it wrote the summary
# alone (a `user` record flagged `isCompactSummary`, its parent null). A daily user's audit
# found its panel citing that summary for ("the format records a context-compaction boundary
# here", untrue: there is none) and against ("the format marks a summary written at this
# point"), the same quote on both sides. The silence now says the context was compacted,
# quoting the summary once; the summary signal says what it measures (the compaction left a
# summary to carry on from), pointing at the turn without quoting it again.

V1_SUMMARY = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\nAnalysis:\nThe importer reads the CSV rows; the "
    "date column still fails to parse.\n\nPending Tasks:\n- Parse the ISO dates in "
    "ledger/import_csv.py\n\nCurrent Work:\nRunning the importer's tests after the fix."
)
SUMMARY_QUOTE = "“This session is being continued"
BOUNDARY_WORDS = "the format records a context-compaction boundary here"
COMPACTED_HERE = (
    "the context was compacted here: the format records its summary (no boundary record)"
)
LEFT_A_SUMMARY = "the compaction left a summary for the agent to carry on from"


def _session_v1() -> list[dict]:
    """The context filled while a test ran; the agent carried on from the summary alone."""
    summary = cb.user("s1", None, 300, V1_SUMMARY)
    summary["isCompactSummary"] = True
    records = [
        cb.user("u1", None, 0, "Make the CSV importer parse the date column."),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "pytest -q tests/test_import.py"),
        cb.tool_result("r1", "a1", 9, "call_1", "2 failed, 10 passed in 0.40s"),
        cb.said("a2", "r1", 20, "msg_2", "The dates are day-first; fixing the parser."),
        cb.tool_use("a3", "a2", 21, "msg_2", "call_2", "sed -n 1,60p ledger/import_csv.py"),
        cb.tool_result("r2", "a3", 22, "call_2", "def parse_row(row):\n    ..."),
        cb.tool_use("a4", "r2", 200, "msg_3", "call_3", "pytest -q tests/test_import.py"),
        summary,
        cb.said("a5", "s1", 310, "msg_4", "Fixing the date parsing in ledger/import_csv.py."),
        cb.tool_use("a6", "a5", 311, "msg_4", "call_4", "sed -n 60,90p ledger/import_csv.py"),
        cb.tool_result("r4", "a6", 312, "call_4", "def parse_date(text):\n    ..."),
        cb.tool_use("a7", "r4", 400, "msg_5", "call_5", "pytest -q tests/test_import.py"),
        cb.tool_result("r5", "a7", 420, "call_5", "12 passed in 0.41s"),
        cb.said("a8", "r5", 430, "msg_6", "The date column parses; all 12 tests pass."),
        cb.user("u2", "a8", 900, "Good. Now the exporter."),
    ]
    return [cb.in_v1(record, "1.0.44") for record in records]


def _sides(text: str) -> tuple[str, str]:
    """The panel's "What points to a pivot" and "What speaks against" sections."""
    start, against = text.index("What points to a pivot"), text.index("What speaks against")
    return text[start:against], text[against : text.index("\n\n", against)]


def test_the_panel_of_a_1_0_compaction_quotes_its_summary_once(tmp_path: Path) -> None:
    session, pivot = _pivot(cb.home(tmp_path, _session_v1()))
    at = [t.source.record_id for t in session.turns].index("s1")
    assert pivot.turn == at  # the summary is the silence: no boundary before it
    text = pivot_text(pivot, 1, 1).plain
    assert BOUNDARY_WORDS not in text  # there is no boundary record
    points, against = _sides(text)
    assert f"• {COMPACTED_HERE}\n  → turn #{at + 1}  {SUMMARY_QUOTE}" in points
    assert f"• {LEFT_A_SUMMARY}\n  → turn #{at + 1}\n" in against + "\n"
    assert text.count(SUMMARY_QUOTE) == 1


def test_explain_of_a_1_0_compaction_names_no_boundary(tmp_path: Path) -> None:
    result = invoke("scan", "--explain", "--sensitivity", "1", cb.home(tmp_path, _session_v1()))
    assert result.exit_code == 0, result.output
    assert BOUNDARY_WORDS not in result.stdout
    assert f"silence [silence] turns #5: {COMPACTED_HERE}" in result.stdout
    assert f"summary recorded [after] turns #5: {LEFT_A_SUMMARY}" in result.stdout


def test_a_boundary_record_is_still_named_and_the_summary_quoted_against(tmp_path: Path) -> None:
    """2.x: the boundary is the silence, the summary after it a turn of its own: each side
    quotes its own record."""
    session, pivot = _pivot(_file(tmp_path, "auto"))
    ids = [t.source.record_id for t in session.turns]
    boundary, summary = ids.index("b1"), ids.index("s1")
    points, against = _sides(pivot_text(pivot, 1, 1).plain)
    assert f"• {BOUNDARY_WORDS}\n  → turn #{boundary + 1}  “Conversation compacted" in points
    assert f"• {LEFT_A_SUMMARY}\n  → turn #{summary + 1}  {SUMMARY_QUOTE}" in against
