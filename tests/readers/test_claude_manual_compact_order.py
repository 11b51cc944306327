"""A manual `/compact` is one compaction the person asked for, whichever order its records are in.

Claude Code 2.1 writes the `compact_boundary` (trigger `manual`, with a `preservedSegment`)
and the `isCompactSummary` record first, then the `/compact` command's records (the caveat,
the `<command-name>` record stamped when it was typed, its `<local-command-stdout>`). The
command can also come first, before the boundary. Either way the reader makes one manual
compaction of it, the command is the harness's (not the person speaking, not a second
compaction) and shown before the boundary it caused, and no turn is lost. Text written for
the test, in the shape and key order Claude Code writes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.detect import PivotConfig, detect_pivots
from pivotal.detect.silence import classify_turn
from pivotal.model import Pivot, Role, Session, SessionRef, Silence, TurnFlag
from pivotal.readers import read_session

from . import claude_builders as cb

ASKED = "Write the CSV importer for the ledger and test it."
NEXT = "Good. Now write the docs for the importer."


def _boundary(logical_parent: str, second: int) -> dict:
    """A manual `compact_boundary` as 2.1 writes it: token counts, its duration and the
    segment kept from before (the last reply) next to the summary."""
    record = cb.compact_boundary("b1", logical_parent, second, "manual")
    record["compactMetadata"] = {
        "trigger": "manual",
        "preTokens": 152340,
        "durationMs": 41200,
        "preservedSegment": {"headUuid": "a2", "anchorUuid": "s1", "tailUuid": "a2"},
        "postTokens": 6120,
    }
    return record


def _session(order: str) -> list[dict]:
    """The importer is done; the person runs /compact; the agent takes up the next phase."""
    records = [
        cb.user("u1", None, 0, ASKED),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "pytest -q tests/test_import.py"),
        cb.tool_result("r1", "a1", 9, "call_1", "12 passed in 0.41s"),
        cb.said("a2", "r1", 12, "msg_2", "The importer is done: all 12 tests pass."),
    ]
    summary = cb.compact_summary("s1", "b1", 60, "Summary: the importer is done and tested.")
    if order == "boundary first":  # what 2.1 writes: the command's records after the summary
        records += [_boundary("a2", 60), summary, *cb.compact_command("c1", "s1", 61)]
        last = "c1"
    else:  # the command and its output, then the compaction it caused
        records += [*cb.compact_command("c1", "a2", 55), _boundary("c1", 60), summary]
        last = "s1"
    return records + [
        cb.said("a3", last, 70, "msg_3", "Next phase: the exporter. I'll start with JSON."),
        cb.tool_use("a4", "a3", 80, "msg_4", "call_2", "touch ledger/export_json.py"),
        cb.tool_result("r2", "a4", 90, "call_2", ""),
        cb.tool_use("a5", "r2", 150, "msg_5", "call_3", "git commit -am 'exporter skeleton'"),
        cb.tool_result("r3", "a5", 200, "call_3", "[main 1a2b3c4] exporter skeleton"),
        cb.tool_use("a6", "r3", 250, "msg_6", "call_4", "pytest -q"),
        cb.tool_result("r4", "a6", 260, "call_4", "14 passed in 0.52s"),
        cb.said("a7", "r4", 270, "msg_7", "The JSON exporter skeleton is committed."),
        cb.user("u2", "a7", 400, NEXT),
    ]


ORDERS = ["boundary first", "command first"]
TURNS = {  # every record that is a turn of its own (tool results join their call's turn)
    "u1", "a1", "a2", "b1", "s1", "c1-caveat", "c1-command", "c1",
    "a3", "a4", "a5", "a6", "a7", "u2",
}  # fmt: skip


def _read(tmp_path: Path, order: str) -> tuple[Path, Session]:
    path = cb.write(tmp_path / f"{order.replace(' ', '-')}.jsonl", _session(order))
    return path, read_session(SessionRef("claude-code", path))


@pytest.mark.parametrize("order", ORDERS)
def test_a_manual_compact_is_one_compaction_the_person_asked_for(tmp_path: Path, order) -> None:
    _, session = _read(tmp_path, order)
    assert session.skipped == []
    (boundary,) = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert boundary.extra == {"trigger": "manual", "pre_tokens": 152340, "post_tokens": 6120}
    assert boundary.text == "Conversation compacted (manual)"
    (summary,) = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_SUMMARY]
    assert summary.index == boundary.index + 1
    (command,) = [t for t in session.turns if t.text == "/compact"]
    assert command.is_synthetic and not command.is_human
    assert command.index < boundary.index  # shown before the compaction it caused
    assert classify_turn(command, PivotConfig()) is None
    # nothing lost, nothing made twice
    assert [t.text for t in session.turns if t.is_human] == [ASKED, NEXT]
    assert sorted(t.source.record_id for t in session.turns) == sorted(TURNS)
    assert [t.index for t in session.turns] == list(range(len(TURNS)))
    (stdout,) = [t for t in session.turns if t.text == "Compacted (ctrl+o to see full summary)"]
    assert stdout.is_synthetic and not stdout.is_human


def _compactions(session: Session) -> list[Pivot]:
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    harness = {
        t.index
        for t in session.turns
        if t.role is Role.USER and t.is_synthetic and not t.flags & TurnFlag.COMPACTION_SUMMARY
    }
    assert not harness & {p.turn for p in pivots}  # the command's records are no silence
    return [p for p in pivots if p.silence is Silence.COMPACTION]


def test_the_detector_reads_both_orders_alike(tmp_path: Path) -> None:
    """One compaction, the person's, followed by the agent's work up to their next message:
    the command, wherever it is written, neither ends that run nor starts another."""
    found = {}
    for order in ORDERS:
        _, session = _read(tmp_path, order)
        (pivot,) = _compactions(session)
        boundary = session.turns[pivot.turn]
        assert boundary.flags & TurnFlag.COMPACTION_BOUNDARY
        assert pivot.summary.startswith("You compacted the context after the agent")
        found[order] = (pivot.summary, pivot.reason, [s.name for s in pivot.signals])
    assert found["boundary first"] == found["command first"]
    assert "manual compaction" in found["command first"][2]
    assert "(3 calls" in found["command first"][0]  # the agent's run after it, all of it


@pytest.mark.parametrize("order", ORDERS)
def test_scan_names_the_persons_compaction(tmp_path: Path, order: str) -> None:
    path, _ = _read(tmp_path, order)
    result = invoke("scan", "--json", "--sensitivity", "1", path)
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert record["turns"] == len(TURNS)
    found = [p for p in record["pivots"] + record["possible"] if p["silence"] == "compaction"]
    (pivot,) = found
    assert pivot["reason"].startswith("Compaction the person asked for")
