"""Reading and following a session leave its files exactly as they were.

Each input is copied into a fresh folder; after find/read/follow every file
there must have the same bytes, size, mode and mtime, and no file may have
appeared (no lock files, no SQLite sidecars created by us). A spy on
`open`/`os.open` also fails the test if anything under the folder is opened
for writing at all, even without writing.
"""

from __future__ import annotations

import asyncio
import builtins
import hashlib
import io
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pivotal.readers import find_sessions, open_reader

from .fuzz_support import FIXTURES, materialize

REALCLIENTS = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
OPENCODE_DB = ".local/share/opencode/opencode.db"
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def line_inputs() -> list[str]:
    return sorted(p.name for p in FIXTURES.iterdir() if p.is_file())


def state(folder: Path) -> dict[str, tuple]:
    """Every file under `folder` with what a write would change.

    A SQLite `-shm` (WAL index) is only checked for existence: every WAL reader,
    opencode's own included, marks its read position there by design.
    """
    result: dict[str, tuple] = {}
    for path in sorted(folder.rglob("*")):
        if path.name.endswith("-shm"):
            result[str(path.relative_to(folder))] = ("exists",)
        elif path.is_file():
            st = path.stat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            result[str(path.relative_to(folder))] = (digest, st.st_size, st.st_mode, st.st_mtime_ns)
    return result


class WriteSpy:
    """Opens for writing seen since `start()`."""

    def __init__(self) -> None:
        self.opened: list[str] = []
        self.recording = False

    def start(self) -> None:
        self.recording = True

    def under(self, folder: Path) -> list[str]:
        root = os.path.realpath(folder)
        return [p for p in self.opened if os.path.realpath(p).startswith(root)]


@pytest.fixture
def write_spy(monkeypatch: pytest.MonkeyPatch) -> WriteSpy:
    """Record every open of a path for writing once `start()` is called."""
    spy = WriteSpy()
    real_os_open, real_open = os.open, builtins.open

    def spy_os_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if spy.recording and flags & _WRITE_FLAGS:
            spy.opened.append(os.fsdecode(path))
        return real_os_open(path, flags, *args, **kwargs)

    def spy_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        writing = any(c in mode for c in "wax+")
        if spy.recording and writing and isinstance(file, str | bytes | os.PathLike):
            spy.opened.append(os.fsdecode(file))
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy_os_open)
    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    return spy


def read_everything(folder: Path) -> int:
    """find_sessions + a full read (content decoded) of every session found; returns turns."""
    found = find_sessions([folder])
    assert found.refs, found.problems
    turns = 0
    for ref in found.refs:
        reader = open_reader(ref)
        try:
            reader.poll(final=True)
            materialize(reader)
        finally:
            reader.close()
        turns += len(reader.session.turns)
    return turns


async def follow_everything(folder: Path, force_polling: bool) -> None:
    """Follow every session found for a short while (initial read plus a few checks)."""
    from pivotal.live.tail import follow

    for ref in find_sessions([folder]).refs:
        reader = open_reader(ref)
        stop = asyncio.Event()
        stream = follow(reader, stop=stop, force_polling=force_polling, poll_interval=0.01)
        try:
            await anext(stream)
            asyncio.get_running_loop().call_later(0.3, stop.set)
            async for _update in stream:
                pass
            materialize(reader)
        finally:
            await stream.aclose()
            reader.close()


def copy_opencode(name: str, folder: Path, live: list[sqlite3.Connection] | None) -> None:
    """Copy an opencode database; with `live`, keep it open in WAL mode as a running opencode."""
    source = REALCLIENTS / name / OPENCODE_DB
    if not source.exists():
        pytest.skip(f"{source} not available on this machine")
    target = folder / OPENCODE_DB
    target.parent.mkdir(parents=True)
    shutil.copy2(source, target)
    if live is not None:
        conn = sqlite3.connect(target)
        assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
        conn.execute("SELECT count(*) FROM session").fetchone()
        live.append(conn)
        assert Path(f"{target}-wal").exists() and Path(f"{target}-shm").exists()


@pytest.fixture
def live() -> Iterator[list[sqlite3.Connection]]:
    """Connections standing in for a running opencode; closed after the test."""
    conns: list[sqlite3.Connection] = []
    yield conns
    for conn in conns:
        conn.close()


def prepared(tmp_path: Path, kind: str, live: list[sqlite3.Connection]) -> Path:
    """A folder holding one input, copied with its mtime."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    if kind.startswith("opencode:"):
        _, name, mode = kind.split(":")
        copy_opencode(name, folder, live if mode == "live" else None)
    else:
        target = folder / (".aider.chat.history.md" if "aider" in kind else kind)
        shutil.copy2(FIXTURES / kind, target)
    return folder


INPUTS = line_inputs() + [
    "opencode:opencode-short:db-only",
    "opencode:opencode-short:live",
    "opencode:opencode-autocompact:db-only",
]


@pytest.mark.parametrize("kind", INPUTS)
def test_reading_changes_nothing(
    tmp_path: Path, kind: str, write_spy: WriteSpy, live: list[sqlite3.Connection]
) -> None:
    folder = prepared(tmp_path, kind, live)
    before = state(folder)
    write_spy.start()
    assert read_everything(folder) > 0
    assert state(folder) == before
    assert write_spy.under(folder) == []


@pytest.mark.parametrize("force_polling", [True, False], ids=["polling", "notify"])
@pytest.mark.parametrize("kind", INPUTS)
async def test_following_changes_nothing(
    tmp_path: Path,
    kind: str,
    force_polling: bool,
    write_spy: WriteSpy,
    live: list[sqlite3.Connection],
) -> None:
    folder = prepared(tmp_path, kind, live)
    before = state(folder)
    write_spy.start()
    await follow_everything(folder, force_polling)
    assert state(folder) == before
    assert write_spy.under(folder) == []
