"""`pivotal export` through the real CLI group: formats, -o, --redact, notes, errors."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog.notes import NoteStore
from pivotal.cli.exitcodes import ExitCode
from pivotal.readers import find_sessions, read_session

from .conftest import DEMO, OPENAI, _hostile_copy

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "pivotal-data"
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(where))
    return where


def run(*args: str) -> tuple[int, str, str]:
    result = invoke(*args)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("fmt", ["md", "html", "json", "cast"])
def test_every_format_to_stdout(fmt):
    code, out, _ = run("export", str(DEMO), "--to", fmt)
    assert code == ExitCode.OK
    first = out.splitlines()[0]
    if fmt == "md":
        assert first.startswith("# Pivotal report")
    elif fmt == "html":
        assert first == "<!DOCTYPE html>"
    elif fmt == "json":
        assert json.loads(out)["format"] == "claude-code"
    else:
        assert json.loads(first)["version"] == 2  # asciinema 2.x plays only v2


def test_output_file_and_format_from_suffix(tmp_path):
    target = tmp_path / "out" / "report.html"
    target.parent.mkdir()
    code, out, err = run("export", str(DEMO), "-o", str(target))
    assert code == ExitCode.OK and out == ""
    assert "wrote" in err and re.search(r"\(html, \d+ pivots?\)", err)
    assert target.read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in target.parent.iterdir()) == ["report.html"]  # no temp left
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0600


def test_a_suffix_that_names_no_format_is_refused_unless_to_says_one(tmp_path):
    """`-o report.pdf` was written as Markdown and said `wrote report.pdf (md, …)`."""
    target = tmp_path / "report.pdf"
    code, out, err = run("export", str(DEMO), "-o", str(target))
    assert (code, out) == (ExitCode.USAGE, "")
    assert err.splitlines() == [
        f"pivotal: {target}: .pdf names no export format (md, html, json, cast); "
        "say which with --to"
    ]
    assert not target.exists()
    code, _, err = run("export", str(DEMO), "--to", "html", "-o", str(target))
    assert code == ExitCode.OK and "(html," in err  # the user said the format: their name
    assert target.read_text().startswith("<!DOCTYPE html>")


def test_the_suffixes_people_use_name_the_format(tmp_path):
    """Any case, `.htm` and `.markdown` too; a name with no suffix (a device, a FIFO, a
    plain `report`) stays Markdown."""
    for name, fmt in [
        ("r.HTM", "html"),
        ("r.markdown", "md"),
        ("report", "md"),
        ("r.Json", "json"),
    ]:
        code, _, err = run("export", str(DEMO), "-o", str(tmp_path / name))
        assert code == ExitCode.OK and f"({fmt}," in err, (name, err)


def test_redact_flag(tmp_path):
    hostile = _hostile_copy(tmp_path / "h.jsonl")
    _, plain, _ = run("export", str(hostile), "--to", "json")
    assert OPENAI in plain
    code, out, _ = run("export", str(hostile), "--to", "json", "--redact")
    assert code == ExitCode.OK and OPENAI not in out and "REDACTED:openai-key" in out


def test_marks_and_notes_are_exported(tmp_path):
    session = read_session(find_sessions([DEMO]).refs[0])
    with NoteStore() as store:
        store.set_note(session, session.turns[30], "gave up on speculative decoding here")
    _, out, _ = run("export", str(DEMO), "--to", "json")
    assert json.loads(out)["marks"][0]["turn"] == 30
    _, md, _ = run("export", str(DEMO), "--to", "md")
    assert "gave up on speculative decoding here" in md
    _, md, _ = run("export", str(DEMO), "--to", "md", "--no-notes")
    assert "gave up on speculative decoding here" not in md


def test_never_overwrites_the_session(tmp_path):
    copy = tmp_path / "s.jsonl"
    shutil.copy(DEMO, copy)
    before = copy.read_bytes()
    code, _, err = run("export", str(copy), "--to", "md", "-o", str(copy))
    assert code == ExitCode.USAGE and "refusing" in err
    assert copy.read_bytes() == before


def test_errors_are_one_line_with_documented_codes(tmp_path):
    code, _, err = run("export", str(tmp_path / "missing.jsonl"))
    assert code == ExitCode.NOT_FOUND and "no such file" in err
    code, _, err = run("export", str(DEMO), "--to", "pdf")
    assert code == ExitCode.USAGE
    code, _, err = run("export", str(REAL))
    assert code == ExitCode.USAGE and "pick one with --key" in err


def test_key_picks_one_session_of_a_database():
    db = REAL / "opencode-short"
    code, out, _ = run("export", str(db), "--to", "json", "--key", "ses_dd56d6bd6ffeh6ChL7dECWk7KX")
    assert code == ExitCode.OK
    assert json.loads(out)["session_id"] == "ses_dd56d6bd6ffeh6ChL7dECWk7KX"


def test_export_does_not_create_a_notes_store(data_dir):
    code, _, _ = run("export", str(DEMO), "--to", "md")
    assert code == ExitCode.OK
    assert not data_dir.exists()


def test_a_corrupt_store_is_reported_and_the_export_still_made(data_dir):
    data_dir.mkdir()
    (data_dir / "notes.sqlite3").write_bytes(b"not a database" * 50)
    code, out, err = run("export", str(DEMO), "--to", "md")
    assert code == ExitCode.OK and out.startswith("# Pivotal report")
    assert "is damaged" in err and "the file is left as it is" in err
    # a read-only command never moves, repairs or adds to the store
    assert [p.name for p in data_dir.iterdir()] == ["notes.sqlite3"]
    assert (data_dir / "notes.sqlite3").read_bytes() == b"not a database" * 50


def test_a_history_of_many_runs_names_some_keys_and_where_to_see_them_all(tmp_path):
    samples = Path(__file__).resolve().parents[2] / "sample_sessions" / "aider"
    one = (samples / "demo.aider.chat.history.md").read_text()
    history = tmp_path / ".aider.chat.history.md"
    history.write_text(one * 12)
    runs = len(find_sessions([history]).refs)
    assert runs > 10
    code, _, err = run("export", str(history))
    assert code == ExitCode.USAGE and f"holds {runs} sessions" in err
    assert "(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … " in err
    assert f"{runs - 10} more: `pivotal sessions {history}`" in err
    assert len(err.strip().splitlines()) == 1
