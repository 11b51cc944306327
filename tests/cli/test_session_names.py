"""One name for a session: what `pivotal sessions` prints is accepted everywhere (issue 17.4).

A session inside a container (an opencode or Kilo database, an aider history of
several blocks) is listed as `CONTAINER#KEY`; every command that takes a session
accepts that string, and `--key KEY` with the container's path. The homes are the
real clients' own files (tests/fixtures/realclients: one home folder each).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_helpers import fake_replayer, invoke
from pivotal.cli.exitcodes import ExitCode

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
AIDER = Path(__file__).resolve().parents[1] / "fixtures" / "aider" / "history.md"
HOMES = sorted(p.name for p in REAL.iterdir() if p.is_dir())


def listed_labels(home: Path) -> list[str]:
    """The PATH column of `pivotal sessions --root HOME`, exactly as printed."""
    result = invoke("sessions", "--root", home)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    column = lines[0].index("PATH")
    return [line[column:] for line in lines[1:]]


def listed_json(home: Path) -> list[dict]:
    result = invoke("sessions", "--root", home, "--json")
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("home", HOMES)
def test_every_listed_name_is_accepted_by_every_command(home: str, monkeypatch) -> None:
    labels = listed_labels(REAL / home)
    assert labels, f"{home}: nothing listed"
    for label in labels:
        scan = invoke("scan", label)
        assert scan.exit_code == 0, scan.output
        assert scan.stdout.startswith(f"{label}  ("), scan.stdout[:200]
        exported = invoke("export", label, "--to", "json", "--no-notes")
        assert exported.exit_code == 0, exported.output
        data = json.loads(exported.stdout)
        assert (f"{data['path']}#{data['key']}" if data["key"] else data["path"]) == label
        notes = invoke("notes", label)
        assert notes.exit_code == 0, notes.output
        seen = fake_replayer(monkeypatch)
        replay = invoke("replay", label)
        assert replay.exit_code == 0, replay.output
        assert seen["ref"].label == label  # type: ignore[union-attr]
        stats = invoke("stats", label, "--json")
        assert stats.exit_code == 0, stats.output


@pytest.mark.parametrize("home", HOMES)
def test_the_json_listing_path_and_key_work_with_key(home: str, monkeypatch) -> None:
    for row in listed_json(REAL / home):
        if row["key"] is None:
            continue
        label = f"{row['path']}#{row['key']}"
        scan = invoke("scan", row["path"], "--key", row["key"])
        assert scan.exit_code == 0 and scan.stdout.startswith(f"{label}  ("), scan.output
        exported = invoke("export", row["path"], "--key", row["key"], "--no-notes")
        assert exported.exit_code == 0, exported.output
        seen = fake_replayer(monkeypatch)
        assert invoke("replay", row["path"], "--key", row["key"]).exit_code == 0
        assert seen["ref"].label == label  # type: ignore[union-attr]


def test_a_container_of_several_sessions_takes_each_name(tmp_path) -> None:
    history = tmp_path / ".aider.chat.history.md"
    shutil.copy(AIDER, history)
    scan_all = invoke("scan", history)
    headers = [line.split("  (")[0] for line in scan_all.stdout.splitlines() if "  (aider" in line]
    assert headers == [f"{history}#1", f"{history}#2", f"{history}#3"]
    for label in headers:
        one = invoke("scan", label)
        assert one.exit_code == 0
        assert [line for line in one.stdout.splitlines() if "  (aider" in line][0].startswith(
            label + "  ("
        )
        assert invoke("export", label, "--no-notes").exit_code == 0
    refused = invoke("export", history, "--no-notes")
    assert (
        refused.exit_code == ExitCode.USAGE and "pick one with --key or PATH#KEY" in refused.stderr
    )


def test_a_wrong_key_is_one_line_and_exit_3(tmp_path) -> None:
    history = tmp_path / ".aider.chat.history.md"
    shutil.copy(AIDER, history)
    for args in (
        ("scan", f"{history}#9"),
        ("scan", history, "--key", "9"),
        ("export", f"{history}#9"),
    ):
        result = invoke(*args)
        assert result.exit_code == ExitCode.NO_SESSIONS
        assert result.stderr == f"pivotal: {history}: no session with key '9'\n"


def test_a_file_whose_name_holds_a_hash_is_itself(tmp_path) -> None:
    odd = tmp_path / "notes#1.md"
    shutil.copy(AIDER, odd)
    result = invoke("scan", odd)
    assert result.exit_code == 0 and f"{odd}#1  (aider" in result.stdout


def test_scan_follow_on_a_container_says_which_session_it_follows(tmp_path, monkeypatch):
    from pivotal.scan import follow as follow_module

    history = tmp_path / ".aider.chat.history.md"
    shutil.copy(AIDER, history)
    followed: list[str] = []

    async def fake_follow(ref, **kwargs):  # type: ignore[no-untyped-def]
        followed.append(ref.label)
        return 0

    monkeypatch.setattr(follow_module, "scan_follow", fake_follow)
    result = invoke("scan", "--follow", history)
    assert result.exit_code == 0
    assert len(followed) == 1
    line = result.stderr.strip()
    assert line.startswith(f"pivotal: {history} holds 3 sessions; following the most recently")
    assert followed[0] in line and "PATH#KEY or --key" in line
    followed.clear()
    picked = invoke("scan", "--follow", f"{history}#2")
    assert picked.exit_code == 0 and followed == [f"{history}#2"]
    assert picked.stderr == (
        f"pivotal: watching {history}#2: each pivot is printed once it is confirmed"
        " (Ctrl+C stops)\n"
    )
