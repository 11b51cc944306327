"""A compaction as Claude Code 1.0 wrote it: a summary alone, with no boundary record.

Claude Code 1.0 (1.0.44 here) opened the file with `{"type":"summary"}` title lines, and
when the context filled it wrote only a `user` record holding the summary, `parentUuid`
null (a new chain), flagged `isCompactSummary` (older builds: the text alone says it); the
`system` `compact_boundary` record came in later versions. A /compact the person typed is
written right after the summary (`test_claude_not_the_person`); with no such command, the
context filled and Claude Code compacted on its own.

The person must see one compaction, the tool's own, never themselves speaking; the turns
before it stay in the conversation (a null parent is no rewind), and the detector reads it
as a compaction silence. Text written for the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Role, Session, Silence, TurnFlag
from pivotal.readers import find_sessions, open_reader, read_session
from surfaces import in_replayer, through_cli

from . import claude_builders as cb

VERSION = "1.0.44"
ASKED = "Port the importer to the new API and keep its tests green"
SUMMARY = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\nAnalysis:\nThe person asked for the importer to be "
    "ported to the new API. The parser and the CSV reader are ported; the date handling is "
    "not.\n\nPending Tasks:\n- Port the date handling in ledger/import_dates.py\n\n"
    "Optional Next Step:\nPort parse_date to the new API and run tests/test_import.py."
)
NEXT = "Now update the README"
_COMPACTED = TurnFlag.COMPACTION_BOUNDARY | TurnFlag.COMPACTION_SUMMARY


def _records(flagged: bool, command: bool = False) -> list[dict]:
    """Title lines, the work before, the summary (a new chain), the work after it."""
    summary = cb.user("s1", None, 600, SUMMARY)
    if flagged:
        summary["isCompactSummary"] = True
    records = [
        cb.user("u1", None, 0, ASKED),
        cb.said("a1", "u1", 4, "msg_1", "I'll start with the parser."),
        cb.tool_use("a2", "a1", 5, "msg_1", "call_1", "sed -n 1,80p ledger/parse.py"),
        cb.tool_result("r1", "a2", 6, "call_1", "def parse(line):\n    ..."),
        cb.tool_use("a3", "r1", 40, "msg_2", "call_2", "pytest -q tests/test_parse.py"),
        cb.tool_result("r2", "a3", 49, "call_2", "8 passed in 0.31s"),
        cb.tool_use("a4", "r2", 300, "msg_3", "call_3", "pytest -q tests/test_csv.py"),
        cb.tool_result("r3", "a4", 310, "call_3", "5 passed in 0.20s"),
        summary,
        cb.said("a5", "s1", 610, "msg_4", "Porting parse_date next."),
        cb.tool_use("a6", "a5", 611, "msg_4", "call_4", "sed -n 1,60p ledger/import_dates.py"),
        cb.tool_result("r4", "a6", 612, "call_4", "def parse_date(text):\n    ..."),
        cb.tool_use("a7", "r4", 700, "msg_5", "call_5", "pytest -q tests/test_import.py"),
        cb.tool_result("r5", "a7", 760, "call_5", "12 passed in 0.44s"),
        cb.said("a8", "r5", 770, "msg_6", "The importer is ported; its 12 tests pass."),
        cb.user("u2", "a8", 1200, NEXT),
    ]
    if command:  # what a /compact the person typed leaves right after the summary
        wrapper = (
            "<command-name>/compact</command-name>\n          <command-message>compact"
            "</command-message>\n          <command-args></command-args>"
        )
        stdout = (
            "<local-command-stdout>Compacted. ctrl+r to see full summary</local-command-stdout>"
        )
        records[9:9] = [
            cb.user("c1", "s1", 600, cb.LOCAL_CAVEAT, isMeta=True),
            cb.user("c2", "c1", 590, wrapper),
            cb.user("c3", "c2", 600, stdout),
        ]
        records[12]["parentUuid"] = "c3"
    titles = [
        {"type": "summary", "summary": "Importer ported to the new API", "leafUuid": "a8"},
        {"type": "summary", "summary": "Parser port and CSV reader tests", "leafUuid": "r3"},
    ]
    return titles + [cb.in_v1(r, VERSION) for r in records]


def _read(path: Path) -> Session:
    return read_session(find_sessions([path]).refs[0])


FLAGGED = pytest.mark.parametrize("flagged", [True, False], ids=["flagged", "text-only"])


@FLAGGED
def test_one_compaction_the_tools_own(tmp_path: Path, flagged: bool) -> None:
    session = _read(cb.home(tmp_path, _records(flagged)))
    compactions = [t for t in session.turns if t.flags & _COMPACTED]
    assert [t.source.record_id for t in compactions] == ["s1"]
    (summary,) = compactions
    assert summary.role is Role.USER and not summary.is_human
    assert summary.flags & TurnFlag.SYNTHETIC and summary.extra == {"trigger": "auto"}
    assert session.title == "Importer ported to the new API"


@FLAGGED
def test_the_turns_before_it_stay(tmp_path: Path, flagged: bool) -> None:
    """The summary starts a new chain (no parent): the work before it is still the
    conversation, not a branch the person left."""
    session = _read(cb.home(tmp_path, _records(flagged)))
    ids = [t.source.record_id for t in session.turns]
    assert ids == ["u1", "a1", "a3", "a4", "s1", "a5", "a7", "a8", "u2"]
    assert session.branches == [] and session.notices == [] and session.skipped == []
    assert [t.text for t in session.human_turns()] == [ASKED, NEXT]


@FLAGGED
async def test_the_detector_reads_a_compaction_silence(tmp_path: Path, flagged: bool) -> None:
    path = cb.home(tmp_path, _records(flagged))
    session = _read(path)
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    assert [(session.turns[p.turn].source.record_id, p.silence) for p in pivots] == [
        ("s1", Silence.COMPACTION)
    ]
    assert pivots[0].summary.startswith("The tool compacted the context (not you)")
    assert "auto compaction" in [s.name for s in pivots[0].signals]
    cli = through_cli(path)
    assert cli.person == [ASKED, NEXT]
    assert [t["who"] for t in cli.export["transcript"]].count("compaction summary") == 1
    shown = await in_replayer(path)
    at = [t.source.record_id for t in session.turns].index("s1")
    assert at not in shown.human
    assert "○ compaction summary" in shown.turns[at]


def test_a_compact_command_after_it_makes_it_the_persons(tmp_path: Path) -> None:
    session = _read(cb.home(tmp_path, _records(flagged=True, command=True)))
    (summary,) = [t for t in session.turns if t.flags & _COMPACTED]
    assert summary.extra == {"trigger": "manual"}
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    assert [p.summary.split(" in ")[0] for p in pivots] == ["You compacted the context"]


def test_a_command_read_after_its_summary_makes_it_the_persons(tmp_path: Path) -> None:
    """Followed live: the summary is read (the tool's, as far as the file says yet), then
    the command arrives and makes it the person's."""
    records = _records(flagged=True, command=True)
    path = cb.home(tmp_path, records[:11])  # up to the summary
    reader = open_reader(find_sessions([path]).refs[0])
    reader.poll()
    (summary,) = [t for t in reader.session.turns if t.flags & _COMPACTED]
    assert summary.extra == {"trigger": "auto"}
    cb.write(path, records)
    reader.poll(final=True)
    (summary,) = [t for t in reader.session.turns if t.flags & _COMPACTED]
    assert summary.extra == {"trigger": "manual"}
