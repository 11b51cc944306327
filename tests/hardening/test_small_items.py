"""The smaller items of issue 18 (20): cwd escapes, `sessions --limit`, the skipped-records line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.model import Session, Skipped
from pivotal.scan.report import skipped_line

from .fuzz_support import FIXTURES

CLAUDE = FIXTURES / "claude-short.jsonl"
ODD_CWD = 'C:\\Users\\dev\\"quoted" été\tx'


def home_with_sessions(tmp_path: Path, count: int, cwd: str | None = None) -> Path:
    home = tmp_path / "home"
    project = home / ".claude" / "projects" / "-proj"
    project.mkdir(parents=True)
    for n in range(count):
        lines = []
        for line in CLAUDE.read_text().splitlines():
            record = json.loads(line)
            if cwd is not None and "cwd" in record:
                record["cwd"] = cwd
            lines.append(json.dumps(record, ensure_ascii=False))  # as JSON.stringify writes
        (project / f"s{n}.jsonl").write_text("\n".join(lines) + "\n")
    return home


def test_a_claude_cwd_is_shown_without_its_json_escapes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = home_with_sessions(tmp_path, 1, cwd=ODD_CWD)
    raw = (home / ".claude" / "projects" / "-proj" / "s0.jsonl").read_text()
    assert '\\\\Users\\\\dev\\\\\\"quoted\\" été\\tx' in raw  # escaped in the file
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    for quick in (["--no-cache"], []):
        listed = invoke("sessions", "--root", home, "--json", *quick)
        assert listed.exit_code == 0, listed.output
        [row] = [json.loads(line) for line in listed.stdout.splitlines()]
        assert row["cwd"] == ODD_CWD
    table = invoke("sessions", "--root", home)
    assert 'C:\\Users\\dev\\"quoted" été' in table.stdout


def test_sessions_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = home_with_sessions(tmp_path, 3)
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    every = invoke("sessions", "--root", home, "--json")
    assert len(every.stdout.splitlines()) == 3
    two = invoke("sessions", "--root", home, "--json", "--limit", "2")
    assert two.stdout.splitlines() == every.stdout.splitlines()[:2]
    for below_one in ("0", "-1"):  # refused: an empty listing would read as "none found"
        refused = invoke("sessions", "--root", home, "--limit", below_one)
        assert refused.exit_code == 2 and refused.stdout == ""
        assert "must be at least 1" in refused.stderr


@pytest.mark.parametrize(
    ("skipped", "expected"),
    [
        ([Skipped(None, "bad row")], "  skipped 1 unreadable record (bad row)"),
        ([Skipped(3, "x")], "  skipped 1 unreadable record at line 3 (x)"),
        ([Skipped(3, "x"), Skipped(9, "x")], "  skipped 2 unreadable records at lines 3, 9 (x)"),
        (
            [Skipped(3, "x"), Skipped(9, "y")],
            "  skipped 2 unreadable records: line 3 (x); line 9 (y)",
        ),
        (
            [Skipped(3, "x"), Skipped(None, "x")],
            "  skipped 2 unreadable records at line 3 and 1 without a line number (x)",
        ),
        (
            [Skipped(3, "x"), Skipped(None, "y")],
            "  skipped 2 unreadable records: line 3 (x); 1 record (y)",
        ),
        (
            [Skipped(n, "x") for n in range(1, 13)],
            "  skipped 12 unreadable records at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
            " and 2 more lines (x)",
        ),
    ],
)
def test_the_skipped_records_line_says_what_it_means(skipped: list[Skipped], expected: str) -> None:
    session = Session("codex", Path("s.jsonl"), skipped=skipped)
    assert skipped_line(session) == expected


TRUNCATED = "malformed JSON: Input data was truncated"


def test_each_reason_a_record_was_skipped_for_is_said_with_its_lines() -> None:
    """Line 11 cut short and line 31 binary garbage were reported as "at lines 11, 31
    (malformed JSON: Input data was truncated)": the first reason for both. Each reason is
    said with its own lines; where in the line the decoder stopped does not split them."""
    skipped = [
        Skipped(11, TRUNCATED),
        Skipped(31, "malformed JSON: JSON is malformed: invalid character (byte 0)"),
        Skipped(40, "malformed JSON: JSON is malformed: invalid character (byte 17)"),
    ]
    line = skipped_line(Session("claude-code", Path("mid.jsonl"), skipped=skipped))
    assert line == (
        "  skipped 3 unreadable records: line 11 (truncated JSON); "
        "lines 31, 40 (malformed JSON: invalid character)"
    )


def test_thousands_of_bad_lines_make_one_short_line() -> None:
    skipped = [
        Skipped(n, TRUNCATED if n % 2 else f"malformed JSON: bad byte (byte {n})")
        for n in range(1, 5_001)
    ]
    skipped += [Skipped(None, f"reason {n}") for n in range(40)]
    line = skipped_line(Session("claude-code", Path("big.jsonl"), skipped=skipped)) or ""
    assert len(line) < 400, line
    assert line == (
        "  skipped 5040 unreadable records: lines 1, 3, 5, 7, 9 and 2495 more lines "
        "(truncated JSON); lines 2, 4, 6, 8, 10 and 2495 more lines (malformed JSON: bad "
        "byte); 1 record (reason 0); 39 more records for 39 other reasons"
    )
