"""`pivotal scan` / `sessions`: output contract, exit codes, bad input without tracebacks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pivotal
from cli_helpers import invoke
from pivotal.cli.exitcodes import ExitCode

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UGLY = FIXTURES / "claude" / "ugly.jsonl"
REAL = FIXTURES / "realclients"


def run(*args: str) -> tuple[int, str, str]:
    result = invoke(*args)
    return result.exit_code, result.stdout, result.stderr


def test_scan_json_is_one_object_per_session_with_the_documented_keys():
    code, out, _ = run("scan", "--json", str(UGLY), str(REAL / "claude-short"))
    assert code == ExitCode.OK
    lines = out.strip().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert set(first) >= {"path", "format", "session_id", "turns", "skipped", "pivots"}
    assert first["format"] == "claude-code"
    assert first["turns"] == 15
    assert first["skipped"] == [
        {"line": 14, "reason": first["skipped"][0]["reason"]},
        {"line": 32, "reason": "incomplete last line (still being written?)"},
    ]


def test_scan_text_reports_skipped_lines_by_number():
    code, out, _ = run("scan", str(UGLY))
    assert code == ExitCode.OK
    # two reasons, each with its line: the truncated record is not still being written
    assert (
        "skipped 2 unreadable records: line 14 (truncated JSON); "
        "line 32 (incomplete last line (still being written?))"
    ) in out


def test_missing_path(tmp_path):
    code, out, err = run("scan", str(tmp_path / "nope.jsonl"))
    assert code == ExitCode.NOT_FOUND
    assert out == ""
    assert "no such file or directory" in err and "Traceback" not in err


def test_unknown_format_names_the_formats_tried(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("just some notes\nnothing else\n")
    code, _, err = run("scan", str(path))
    assert code == ExitCode.NO_SESSIONS
    assert "unknown format" in err
    for name in ("claude-code", "codex", "gemini", "opencode", "aider", "generic"):
        assert name in err


def test_empty_file_and_empty_directory(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    folder = tmp_path / "nothing"
    folder.mkdir()
    (folder / "readme.md").write_text("# not a session\n")
    code, _, err = run("scan", str(empty), str(folder))
    assert code == ExitCode.NO_SESSIONS
    assert f"{empty}: empty file" in err
    assert f"{folder}: no sessions found" in err


def test_permission_denied_is_one_line(tmp_path, monkeypatch):
    path = tmp_path / "s.jsonl"
    shutil.copy(UGLY, path)
    real_access = os.access
    monkeypatch.setattr(
        os, "access", lambda p, mode: False if Path(p) == path else real_access(p, mode)
    )
    code, _, err = run("scan", str(path))
    assert code == ExitCode.UNREADABLE
    assert err.strip() == f"pivotal: {path}: permission denied"


def test_good_and_bad_paths_together_print_the_good_and_fail(tmp_path):
    code, out, err = run("scan", "--json", str(UGLY), str(tmp_path / "missing"))
    assert code == ExitCode.NOT_FOUND
    assert json.loads(out)["turns"] == 15
    assert "missing: no such file" in err


def test_invalid_utf8_and_binary_garbage_do_not_crash(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(UGLY.read_bytes().replace(b"Fix the flaky", b"Fix \xff\xfe\x00 flaky"))
    code, out, _ = run("scan", "--json", str(path))
    assert code == ExitCode.OK
    assert json.loads(out)["turns"] == 15


def test_hostile_text_never_reaches_the_terminal_raw(tmp_path):
    path = tmp_path / "s.jsonl"
    hostile = "\\u001b]0;pwned\\u0007\\u001b]52;c;ZXZpbA==\\u0007[bold red]x[/]\\u009b31m"
    path.write_bytes(UGLY.read_bytes().replace(b"Fix the flaky test", hostile.encode()))
    for args in (["scan", "--explain", str(path)], ["scan", "--json", str(path)]):
        code, out, err = run(*args)
        assert code == ExitCode.OK
        assert "\x1b" not in out + err and "\x07" not in out + err and "\x9b" not in out + err


def test_sessions_lists_every_agent_under_a_root():
    roots = [REAL / name for name in ("claude-short", "opencode-short")]
    code, out, _ = run("sessions", "--json", *[a for r in roots for a in ("--root", str(r))])
    assert code == ExitCode.OK
    agents = sorted(json.loads(line)["agent"] for line in out.splitlines())
    assert agents == ["claude-code", "opencode"]


def test_scan_does_not_import_the_ui():
    code = (
        "import sys, io, pathlib\n"
        "from pivotal.cli.scan_batch import run_scan\n"
        f"run_scan([pathlib.Path({str(UGLY)!r})], as_json=True, out=io.StringIO())\n"
        "bad = [m for m in ('textual', 'rich') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["scan", "--help"]])
def test_help_and_version(args):
    code, out, _ = run(*args)
    assert code == 0 and out


def test_symlink_loop_and_broken_link(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    code, _, err = run("scan", str(tmp_path / "a"))
    assert code == ExitCode.UNREADABLE and "symbolic link loop" in err
    code, _, err = run("scan", str(tmp_path / "dangling"))
    assert code == ExitCode.NOT_FOUND and "broken symbolic link" in err


def test_a_folder_with_a_symlink_loop_inside_is_still_scanned(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "loop").symlink_to(folder)
    shutil.copy(UGLY, folder / "s.jsonl")
    code, out, _ = run("scan", "--json", str(folder))
    assert code == ExitCode.OK and json.loads(out)["turns"] == 15


def test_corrupt_sqlite_database(tmp_path):
    path = tmp_path / "opencode.db"
    real = next(REAL.glob("opencode-short/**/opencode.db"))
    path.write_bytes(real.read_bytes()[:100] + b"\x00" * 4000)
    code, _, err = run("scan", str(path))
    assert code == ExitCode.UNREADABLE
    assert "holds no kilo or opencode sessions, or is corrupt" in err


def test_an_index_database_of_another_agent_names_the_stores_pivotal_reads(tmp_path):
    # a healthy SQLite file that is no session store (Cline keeps one beside its session files)
    import sqlite3

    path = tmp_path / "data" / "db" / "sessions.db"
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE tasks (id TEXT PRIMARY KEY, updated INTEGER)")
        conn.execute("INSERT INTO tasks VALUES ('t1', 1)")
    conn.close()
    code, out, err = run("scan", str(path))
    assert code == ExitCode.UNREADABLE and out == ""
    assert err == (
        f"pivotal: {path}: an SQLite database that holds no kilo or opencode sessions, or is"
        " corrupt\n"
    )


SEED = Path(__file__).resolve().parents[2] / "sample_sessions" / "claude" / "seed_dead_end.jsonl"


def test_each_pivot_leads_with_a_plain_summary_in_json_table_and_explain():
    code, out, _ = run("scan", "--json", str(SEED))
    assert code == ExitCode.OK
    pivot = json.loads(out)["pivots"][0]
    assert pivot["summary"].startswith("You said '.' after ")
    code, table, _ = run("scan", str(SEED))
    assert "WHAT HAPPENED" in table and pivot["summary"][:40] in table
    code, explained, _ = run("scan", "--explain", str(SEED))
    lines = explained.splitlines()
    head = next(i for i, line in enumerate(lines) if line.strip().startswith("Pivot at turn"))
    assert lines[head + 1].strip() == pivot["summary"]


def test_explain_names_the_gate_that_turned_each_other_silence_down():
    code, explained, _ = run("scan", "--explain", str(SEED))
    assert code == ExitCode.OK
    section = explained.split("Silences that are no pivot (gate: why):")[1]
    rows = [line.strip() for line in section.splitlines() if line.strip().startswith("#")]
    assert rows, "the seed has non-pivot silences (an 'ok' mid-profiling, a compaction...)"
    assert all(" — " in row and ":" in row.split(" — ")[1] for row in rows)
    assert any("confidence" in row for row in rows)


def test_scan_json_pivots_carry_the_index_and_the_number_text_output_shows():
    demo = Path(pivotal.__file__).resolve().parent / "_demo" / "demo.jsonl"
    code, out, _ = run("scan", "--json", str(demo))
    assert code == ExitCode.OK
    pivots = json.loads(out)["pivots"]
    assert pivots, "the demo session has pivots"
    _, text, _ = run("scan", str(demo))
    for pivot in pivots:
        assert pivot["number"] == pivot["turn"] + 1
        assert f"#{pivot['number']}" in text  # the text table names the 1-based number


DEMO = Path(pivotal.__file__).parent / "_demo" / "demo.jsonl"


def test_explain_says_a_streak_without_a_turn_in_words():
    """The hands-off streak of the demo's second pivot starts further back than the turns
    read: `--explain` says so in words, not "turns -:" like a placeholder left in."""
    code, out, _ = run("scan", "--explain", str(DEMO))
    assert code == ExitCode.OK
    assert "turns -" not in out and "turns :" not in out
    assert (
        "hands-off streak [before]: 27 agent steps since the person last gave direction, "
        "more than 20 turns back"
    ) in out
    assert "hands-off streak [before] turns #1: 14 agent steps" in out
