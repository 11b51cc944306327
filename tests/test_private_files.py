"""Every file pivotal keeps that holds session text is for this user alone: 0600 in 0700.

The search index, the session index (a title is often the first prompt), the notes
store, a damaged store's kept copy and screenshots are each made here by the code
that makes them for real (the commands, the replayer's keys), on a fresh home under
the usual umask 022, where a plain `open` or `mkdir` would give 0644 and 0755. A
folder of pivotal's own left open by an older version is tightened; one the person
named with a `PIVOTAL_*_DIR` variable is theirs and keeps its mode.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog.notes import NoteStore
from pivotal.tui.app import ReplayerApp
from tui.sessions import demo_pivots, demo_session

REAL = Path(__file__).resolve().parent / "fixtures" / "realclients"
KIMI = REAL / "kimi-short"  # its title is the first prompt
DEMO = Path(__file__).resolve().parents[1] / "sample_sessions" / "claude" / "demo.jsonl"
VARIABLES = (
    "PIVOTAL_CACHE_DIR",
    "PIVOTAL_DATA_DIR",
    "PIVOTAL_SCREENSHOT_DIR",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
    "PIVOTAL_NO_SEARCH_INDEX",
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh home folder, no pivotal variable set, umask 022 (what most systems use)."""
    old = os.umask(0o022)
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for variable in VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    try:
        yield folder
    finally:
        os.umask(old)


def mode(path: Path) -> str:
    return oct(stat.S_IMODE(path.stat().st_mode))


def modes(folder: Path) -> dict[str, str]:
    """The folder's own mode and each file's in it, by name."""
    found = {".": mode(folder)}
    found.update({p.name: mode(p) for p in folder.iterdir()})
    return found


def private(found: dict[str, str]) -> dict[str, str]:
    return {name: "0o700" if name == "." else "0o600" for name in found}


def cache_of(home: Path) -> Path:
    return home / ".cache" / "pivotal"


def data_of(home: Path) -> Path:
    return home / ".local" / "share" / "pivotal"


def run_the_commands() -> None:
    """scan first, in a process of its own (a new process compiles the detector's patterns
    and keeps them in the cache folder, making it), then the listing (sessions.sqlite3) and
    a search (search.sqlite3), as a person would."""
    scan = [sys.executable, "-m", "pivotal", "scan", str(DEMO)]
    assert subprocess.run(scan, capture_output=True, check=False).returncode == 0
    listed = invoke("sessions", "--root", KIMI)
    assert listed.exit_code == 0, listed.output
    assert "kimi" in listed.stdout.lower()
    assert invoke("search", "qwen", DEMO).exit_code == 0


def test_the_indexes_on_a_fresh_home_are_private(home: Path) -> None:
    run_the_commands()
    found = modes(cache_of(home))
    assert {"sessions.sqlite3", "search.sqlite3"} <= found.keys(), found
    assert found == private(found)


def test_folders_of_its_own_left_open_are_tightened(home: Path) -> None:
    """An older pivotal made these folders 0755 and the stores 0644."""
    for folder in (cache_of(home), data_of(home)):
        folder.mkdir(parents=True)
        folder.chmod(0o755)
    for old in (cache_of(home) / "sessions.sqlite3", data_of(home) / "notes.sqlite3"):
        sqlite3.connect(old).close()
        old.chmod(0o644)
    run_the_commands()
    NoteStore().close()  # the replayer opens it so
    for folder in (cache_of(home), data_of(home)):
        found = modes(folder)
        assert found == private(found), folder


async def test_marks_and_screenshots_made_in_the_replayer_are_private(home: Path) -> None:
    app = ReplayerApp(session=demo_session(), pivots=demo_pivots(), at=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("m")  # the notes store
        await pilot.press("S")  # a screenshot
        await pilot.pause()
    data = data_of(home)
    found = modes(data)
    assert "notes.sqlite3" in found and "screenshots" in found, found
    shots = modes(data / "screenshots")
    assert len(shots) == 2, shots  # the folder and one SVG
    assert {**found, "screenshots": "0o600"} == private(found)
    assert shots == private(shots)


def test_the_copy_of_a_damaged_notes_store_is_private(home: Path) -> None:
    data = data_of(home)
    data.mkdir(parents=True)
    store = data / "notes.sqlite3"
    store.write_bytes(b"this is not sqlite at all\x00" * 200)
    store.chmod(0o644)
    with NoteStore() as rebuilt:
        assert rebuilt.notice and "the damaged file is kept as" in rebuilt.notice
    (kept,) = data.glob("notes.sqlite3.damaged-*")
    assert mode(kept) == mode(store) == "0o600"


def test_a_folder_the_person_named_keeps_its_mode_its_files_do_not(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PIVOTAL_CACHE_DIR may be shared on purpose (or be /tmp): pivotal does not change
    it, but what it writes there is still private."""
    shared = home / "shared"
    shared.mkdir(mode=0o755)
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(shared))
    run_the_commands()
    found = modes(shared)
    assert found == {**private(found), ".": "0o755"}


def test_a_folder_the_person_named_is_made_private_when_pivotal_makes_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`scan` makes the cache folder first, for its compiled patterns (no session text):
    it is made 0700 then too, since the indexes of session text join it."""
    named = home / "cache-of-my-choice"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(named))
    run_the_commands()
    found = modes(named)
    assert f"regex-{sys.implementation.cache_tag}.json" in found, found  # scan made it
    assert found == private(found)
