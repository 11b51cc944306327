"""Kilo Code CLI 7.7.7: its kilo.db (opencode's schema) read through the opencode code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pivotal.catalog.resume import resume_command
from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from pivotal.readers.kilo import SPEC

from .realhome import REAL, copied_home, exported, flagged, listed, person_texts, scanned, tools

DB = ".local/share/kilo/kilo.db"
SHORT = REAL / "kilo-short" / DB
AUTOCOMPACT = REAL / "kilo-autocompact" / DB


def test_kilo_databases_are_kilo_and_opencode_ones_stay_opencode() -> None:
    assert sniff_path(SHORT).name == "kilo"
    assert sniff_path(REAL / "opencode-short/.local/share/opencode/opencode.db").name == "opencode"
    [ref] = SPEC.refs(SHORT)
    assert (ref.format, ref.key, ref.cwd) == (
        "kilo",
        "ses_dcf3ae7c7ffebx1MfO2YxGV50t",
        "/home/dev/work/kilo-short",
    )


def test_short_session_tools_exit_codes_and_failures() -> None:
    [ref] = find_sessions([SHORT]).refs
    session = read_session(ref)
    assert session.format == "kilo" and not session.skipped
    # `kilo run "text with spaces"` stores the argument with its quotes, like opencode
    assert [t.text for t in session.human_turns()] == [
        '"Inspect this directory, try a few commands, and write notes.txt"'
    ]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.exit_code, c.failed) for c in calls] == [
        ("todowrite", None, False),
        ("bash", 0, False),
        ("bash", 1, True),
        ("bash", 3, True),
        ("write", None, False),
        ("read", None, True),
        ("read", None, False),
        ("edit", None, False),
        ("nosuchtool", None, True),
        ("todowrite", None, False),
    ]
    assert all(c.has_result and c.output for c in calls)
    assert session.model == "mock-model"
    first = session.turns[1]
    assert (first.usage.input, first.usage.output) == (1000, 50)


def test_autocompact_compaction_summary_and_nudge() -> None:
    session = read_session(find_sessions([AUTOCOMPACT]).refs[0])
    kinds = [(t.role, t.flags) for t in session.turns]
    boundary = next(i for i, (_, f) in enumerate(kinds) if f & TurnFlag.COMPACTION_BOUNDARY)
    assert session.turns[boundary].role is Role.SYSTEM
    assert session.turns[boundary].extra == {"auto": True, "overflow": False}
    summary = session.turns[boundary + 1]
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
    assert summary.text.startswith("MOCK COMPACTION SUMMARY")
    nudge = session.turns[boundary + 2]
    assert nudge.role is Role.USER and nudge.is_synthetic and not nudge.is_human
    assert nudge.text.startswith("Continue if you have next steps")
    assert [t.text for t in session.human_turns()] == [
        '"Look around and create seed.txt"',
        '"continue with big outputs"',
        "ok",
    ]


# -- acceptance: the commands a person runs, HOME at a copy of the real home ---------


def test_sessions_scan_and_export_with_home_at_the_real_kilo_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "kilo-autocompact")
    [listing] = listed(monkeypatch, home)
    assert listing["agent"] == "kilo"
    assert listing["session_id"] == "ses_dcf38e7bdffemCDiWsLXt3sQQP"
    assert listing["cwd"] == "/home/dev/work/kilo-autocompact"
    assert (listing["turns"], listing["human_turns"]) == (13, 3)

    [scan] = scanned(home / DB)
    assert (scan["format"], scan["turns"], scan["skipped"]) == ("kilo", 13, [])

    doc = exported(home / DB)
    assert person_texts(doc) == [
        '"Look around and create seed.txt"',
        '"continue with big outputs"',
        "ok",
    ]
    calls = tools(doc)
    assert all(c["output"] is not None for c in calls)
    assert [c["failed"] for c in calls] == [False, True, False, False]
    assert [c["exit_code"] for c in calls] == [0, 1, 0, 0]
    [boundary] = flagged(doc, "compaction_boundary")
    [summary] = flagged(doc, "compaction_summary")
    assert summary["index"] == boundary["index"] + 1
    assert doc["resume"]["argv"] == ["kilo", "--session", "ses_dcf38e7bdffemCDiWsLXt3sQQP"]


def test_kilo_home_follows_xdg_data_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "kilo-short")
    data = tmp_path / "elsewhere"
    os.rename(home / ".local/share", data)
    assert listed(monkeypatch, home) == []
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    from cli_helpers import invoke

    result = invoke("sessions", "--json")
    assert '"agent":"kilo"' in result.stdout


def test_resume_command_names_the_session_and_its_directory() -> None:
    session = read_session(SessionRef(format="kilo", path=SHORT, key=SPEC.refs(SHORT)[0].key))
    command = resume_command(session)
    assert command.argv == ["kilo", "--session", "ses_dcf3ae7c7ffebx1MfO2YxGV50t"]
    assert command.cwd == "/home/dev/work/kilo-short"


@pytest.mark.parametrize("path", [SHORT, AUTOCOMPACT], ids=["short", "autocompact"])
def test_reading_creates_no_sidecar_files(tmp_path: Path, path: Path) -> None:
    copy = tmp_path / "kilo.db"
    copy.write_bytes(path.read_bytes())
    before = sorted(p.name for p in tmp_path.iterdir())
    read_session(SPEC.refs(copy)[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == before
