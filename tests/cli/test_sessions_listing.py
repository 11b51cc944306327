"""`pivotal sessions` and `stats`: exit codes, unreadable stores, sizes, labels (issue 17.5)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.cli.exitcodes import ExitCode

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"


@pytest.fixture()
def opencode_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    shutil.copytree(REAL / "opencode-short", home)
    return home


def test_a_root_that_does_not_exist_is_exit_4(tmp_path: Path) -> None:
    result = invoke("sessions", "--root", tmp_path / "nope")
    assert result.exit_code == ExitCode.NOT_FOUND
    assert result.stderr == f"pivotal: {tmp_path / 'nope'}: no such file or directory\n"
    assert result.stdout == ""


def test_nothing_found_is_exit_3_without_a_misleading_hint(tmp_path: Path) -> None:
    result = invoke("sessions", "--root", tmp_path)
    assert result.exit_code == ExitCode.NO_SESSIONS
    assert result.stderr == f"pivotal: no agent sessions found (looked in {tmp_path})\n"


def test_one_missing_root_of_two_still_lists_the_other(tmp_path: Path, opencode_home) -> None:
    result = invoke("sessions", "--root", tmp_path / "nope", "--root", opencode_home)
    assert result.exit_code == ExitCode.NOT_FOUND
    assert "opencode.db#ses_" in result.stdout


def _corrupt(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + b"\x10\x00\x01\x01" + b"\xde\xad" * 2000)


def test_a_corrupt_store_is_reported_as_such_and_the_rest_listed(opencode_home: Path) -> None:
    broken = opencode_home / ".local" / "share" / "opencode" / "opencode-old.db"
    _corrupt(broken)
    result = invoke("sessions", "--root", opencode_home)
    assert result.exit_code == ExitCode.UNREADABLE
    assert "opencode.db#ses_" in result.stdout
    assert result.stderr.splitlines() == [
        f"pivotal: {broken}: an SQLite database that holds no kilo or opencode sessions, or is"
        " corrupt"
    ]


def test_a_home_whose_only_store_is_corrupt_is_not_nothing_found(opencode_home: Path) -> None:
    _corrupt(opencode_home / ".local" / "share" / "opencode" / "opencode.db")
    for wal in (opencode_home / ".local" / "share" / "opencode").glob("opencode.db-*"):
        wal.unlink()
    result = invoke("sessions", "--root", opencode_home)
    assert result.exit_code == ExitCode.UNREADABLE
    assert "corrupt" in result.stderr and "no agent sessions found" not in result.stderr


def test_a_session_inside_a_database_has_no_size_of_its_own(opencode_home: Path) -> None:
    result = invoke("sessions", "--root", opencode_home)
    header, row = result.stdout.splitlines()
    size = header.index("SIZE")
    assert row[size:].split("  ")[0].strip() == "-"
    (line,) = invoke("sessions", "--root", opencode_home, "--json").stdout.splitlines()
    assert json.loads(line)["size"] is None


def test_an_aider_block_keeps_its_own_size(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(REAL / "aider-short", home)
    (line,) = invoke("sessions", "--root", home, "--json").stdout.splitlines()
    row = json.loads(line)
    assert row["key"] == "1" and 0 < row["size"] <= (home / ".aider.chat.history.md").stat().st_size


@pytest.mark.parametrize("command", ["sessions", "search"])
def test_a_limit_below_one_is_a_usage_error(opencode_home: Path, command: str) -> None:
    """`--limit 0` printed nothing and said nothing: it read as "no sessions" (or no match)."""
    query = ["the"] if command == "search" else []
    for limit in ("0", "-1"):
        result = invoke(command, *query, "--root", opencode_home, "--limit", limit)
        assert (result.exit_code, result.stdout) == (ExitCode.USAGE, ""), result.output
        (line,) = result.stderr.splitlines()
        assert f"argument --limit: must be at least 1: '{limit}'" in line, line
    result = invoke(command, *query, "--root", opencode_home, "--limit", "1")
    assert result.exit_code == 0 and len(result.stdout.splitlines()) in (1, 2)  # (a header)


def test_stats_rows_can_be_told_apart_and_its_bars_say_what_they_count() -> None:
    result = invoke("stats", SAMPLES / "claude", SAMPLES / "codex")
    assert result.exit_code == 0, result.output
    rows = [line.split("  ")[0] for line in result.stdout.splitlines()[1:] if ".jsonl" in line]
    assert len(rows) == len(set(rows)) > 10
    assert "claude/demo.jsonl" in rows and "codex/demo.jsonl" in rows
    assert "(pivots by 0-" in result.stdout and "turns a bar)" in result.stdout


def test_a_session_with_no_known_folder_shows_no_project(tmp_path: Path) -> None:
    """Gemini CLI's older chats sit under a hash of the project's folder and do not name it:
    the PROJECT column showed the title, cut from the left as a path is (`…d fix the OCR
    error`), where the picker shows none."""
    title = "Deploy the cloud functions and fix the OCR function error"
    chat = {
        "sessionId": "5d0c1e2a-7b3f-4c9d-8e6a-1f2b3c4d5e6f",
        "projectHash": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "startTime": "2025-10-02T09:00:00.000Z",
        "lastUpdated": "2025-10-02T09:03:00.000Z",
        "messages": [
            {"id": "u1", "timestamp": "2025-10-02T09:00:01.000Z", "type": "user",
             "content": title},
            {"id": "g1", "timestamp": "2025-10-02T09:00:09.000Z", "type": "gemini",
             "content": "I'll start with the OCR function's logs.", "model": "gemini-2.5-pro"},
        ],
    }  # fmt: skip
    chats = tmp_path / ".gemini" / "tmp" / chat["projectHash"] / "chats"
    chats.mkdir(parents=True)
    (chats / "session-2025-10-02T09-00-5d0c1e2a.json").write_text(json.dumps(chat))
    result = invoke("sessions", "--root", tmp_path)
    assert result.exit_code == 0, result.output
    head, row = result.stdout.splitlines()
    project = row[head.index("PROJECT") : head.index("STARTED")].strip()
    assert project == "-", row
    listed = json.loads(invoke("sessions", "--root", tmp_path, "--json").stdout)
    assert listed["cwd"] is None and listed["title"] == title  # the title is still listed
