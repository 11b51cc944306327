"""`export -o` never writes over, or into, the session being exported (issue 34: 1).

A session is not always one file: Kimi, Vibe and Cline keep a folder, a database
has its `-wal`, `-shm` and `-journal`, and some readers read a file beside the
session (Kimi's `kimi.json`, Gemini's `.project_root`, Continue's `sessions.json`,
Claude Code's `subagents/`). Every one of them is refused with exit 2 and one
line, by whatever path `-o` reaches it (as given, a symbolic link, a hard link,
`..`, `/proc/self/fd/N`), and nothing in the home changes: no byte, no new file.
Each home is a copy of what the real client wrote (`tests/fixtures/realclients`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.cli.exitcodes import ExitCode
from readers.opencode_builders import T0, text_part, user_info, write_json

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"


@dataclass(frozen=True)
class Home:
    """A copy of a client's home: the session to export and the files that are part of it."""

    root: Path
    session: Path
    parts: tuple[Path, ...]
    """Files that exist and belong to the session."""
    missing: tuple[Path, ...] = ()
    """Files that belong to the session but do not exist (yet): they must not be created."""


def _copy(name: str, tmp_path: Path) -> Path:
    root = tmp_path / name
    shutil.copytree(REAL / name, root, symlinks=True)
    return root


def kimi(tmp_path: Path) -> Home:
    root = _copy("kimi-short", tmp_path)
    (folder,) = (root / ".kimi/sessions").glob("*/*")
    parts = (folder / "wire.jsonl", folder / "context.jsonl", folder / "state.json")
    return Home(root, folder, (*parts, root / ".kimi/kimi.json"), (folder / "context_1.jsonl",))


def vibe(tmp_path: Path) -> Home:
    root = _copy("vibe-short", tmp_path)
    (folder,) = (root / ".vibe/logs/session/unified").iterdir()
    parts = (
        folder / "meta.json",
        folder / "CURRENT",
        sorted((folder / "journal").iterdir())[-1],
        sorted((folder / "chunks").iterdir())[0],
        sorted((folder / "generations").iterdir())[-1] / "manifest.json",
    )
    return Home(root, folder, parts, (folder / "journal" / "0000000000000999.jsonl",))


def cline(tmp_path: Path) -> Home:
    root = _copy("cline-short", tmp_path)
    (folder,) = (root / ".cline/data/sessions").iterdir()
    parts = (folder / f"{folder.name}.messages.json", folder / f"{folder.name}.json")
    return Home(root, folder, parts, (folder / f"{folder.name}.compaction.json",))


def _database(name: str, relative: str, tmp_path: Path) -> Home:
    root = _copy(name, tmp_path)
    db = root / relative
    (db.parent / f"{db.name}-wal").write_bytes(b"")  # what a copy or a `sqlite3` probe leaves
    sidecars = tuple(db.parent / f"{db.name}{s}" for s in ("-shm", "-journal"))
    return Home(root, db, (db, db.parent / f"{db.name}-wal"), sidecars)


def opencode(tmp_path: Path) -> Home:
    return _database("opencode-short", ".local/share/opencode/opencode.db", tmp_path)


def kilo(tmp_path: Path) -> Home:
    return _database("kilo-short", ".local/share/kilo/kilo.db", tmp_path)


def opencode_legacy(tmp_path: Path) -> Home:
    """opencode < 1.2: one session spread over its storage tree."""
    storage = tmp_path / "legacy" / ".local/share/opencode/storage"
    info = {"id": "ses_old", "projectID": "prj_1", "directory": "/home/dev/old"}
    info |= {"title": "Old session", "version": "1.1.20", "time": {"created": T0, "updated": T0}}
    write_json(storage / "session/prj_1/ses_old.json", info)
    write_json(
        storage / "message/ses_old/msg_001.json",
        {"id": "msg_001", "sessionID": "ses_old", **user_info(T0)},
    )
    part = {"id": "prt_001", "sessionID": "ses_old", "messageID": "msg_001"}
    write_json(storage / "part/msg_001/prt_001.json", {**part, **text_part("tidy up")})
    parts = (
        storage / "session/prj_1/ses_old.json",
        storage / "message/ses_old/msg_001.json",
        storage / "part/msg_001/prt_001.json",
    )
    return Home(tmp_path / "legacy", storage, parts, (storage / "part/msg_001/prt_002.json",))


def gemini(tmp_path: Path) -> Home:
    root = _copy("gemini-short", tmp_path)
    (chat,) = (root / ".gemini/tmp").glob("*/chats/*.jsonl")
    marker = chat.parent.parent / ".project_root"
    marker.write_text("/home/dev/work/gemini-short\n")  # the CLI's ownership marker
    return Home(root, chat, (chat, marker))


def continue_cli(tmp_path: Path) -> Home:
    root = _copy("continue-short", tmp_path)
    index = root / ".continue/sessions/sessions.json"
    (session,) = (p for p in index.parent.glob("*.json") if p != index)
    return Home(root, session, (session, index))


def claude(tmp_path: Path) -> Home:
    root = _copy("claude-short", tmp_path)
    (session,) = (root / ".claude/projects").glob("*/*.jsonl")
    agent = session.with_suffix("") / "subagents" / "agent-a1b2c3.jsonl"
    agent.parent.mkdir(parents=True)
    shutil.copyfile(session, agent)  # a sub-agent's transcript, listed as the session's child
    return Home(root, session, (session, agent), (agent.parent / "agent-d4e5f6.jsonl",))


def kimi_code(tmp_path: Path) -> Home:
    from readers.test_kimi_code import journal, write_home

    root = tmp_path / "kimi-code"
    folder = write_home(root, journal())
    parts = (folder / "agents/main/wire.jsonl", folder / "state.json")
    return Home(root, folder, parts, (folder / "agents/main/wire.1.jsonl",))


def kimi_code_agent(tmp_path: Path) -> Home:
    """A sub-agent's own journal: its folder, and its session's `state.json`."""
    home = kimi_code(tmp_path)
    agent = home.session / "agents" / "coder"
    agent.mkdir()
    shutil.copyfile(home.session / "agents/main/wire.jsonl", agent / "wire.jsonl")
    parts = (agent / "wire.jsonl", home.session / "state.json")
    return Home(home.root, agent, parts, (agent / "notes.jsonl",))


def vibe_log(tmp_path: Path) -> Home:
    """A Vibe session folder from before the unified store."""
    from readers.test_vibe_log import FOLDER, messages, meta, write_folder

    root = tmp_path / "vibe-log"
    folder = write_folder(root / ".vibe/logs/session", FOLDER, meta(), messages())
    parts = (folder / "meta.json", folder / "messages.jsonl")
    return Home(root, folder, parts, (folder / "messages.1.jsonl",))


HOMES: dict[str, Callable[[Path], Home]] = {
    "kimi": kimi,
    "kimi-code": kimi_code,
    "kimi-code-agent": kimi_code_agent,
    "vibe-log": vibe_log,
    "vibe": vibe,
    "cline": cline,
    "opencode": opencode,
    "kilo": kilo,
    "opencode-legacy": opencode_legacy,
    "gemini": gemini,
    "continue": continue_cli,
    "claude-code": claude,
}


def state(root: Path) -> dict[str, str]:
    """Every file and link under `root` with its bytes' digest (a link: where it points)."""
    found = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            found[key] = "-> " + os.readlink(path)
        elif path.is_file():
            found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@contextmanager
def opened(path: Path) -> Iterator[Path]:
    """`/proc/self/fd/N` for `path` (a name any process can write through)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        yield Path(f"/proc/self/fd/{fd}")
    finally:
        os.close(fd)


def export_to(home: Home, target: Path) -> tuple[int, str]:
    result = invoke("export", home.session, "-o", target)
    return result.exit_code, result.stderr


def assert_refused(home: Home, target: Path, before: dict[str, str]) -> None:
    code, err = export_to(home, target)
    assert code == ExitCode.USAGE, (target, err)
    lines = err.splitlines()
    assert len(lines) == 1 and "refusing to" in lines[0], err
    assert state(home.root) == before, f"{target} was written"


@pytest.mark.parametrize("name", list(HOMES))
def test_every_file_of_the_session_is_refused_by_any_path(name: str, tmp_path: Path) -> None:
    home = HOMES[name](tmp_path)
    links = tmp_path / "elsewhere"
    links.mkdir()
    before = state(home.root)
    for number, part in enumerate(home.parts):
        assert part.is_file(), part
        assert_refused(home, part, before)
        dotted = part.parent / ".." / part.parent.name / part.name
        assert_refused(home, dotted, before)
        symlink = links / f"link{number}"
        symlink.symlink_to(part)
        assert_refused(home, symlink, before)
        hard = links / f"hard{number}"
        os.link(part, hard)
        before_links = state(links)
        assert_refused(home, hard, before)
        assert state(links) == before_links
        with opened(part) as proc_path:
            assert_refused(home, proc_path, before)


@pytest.mark.parametrize("name", [n for n in HOMES if n not in ("gemini", "continue")])
def test_a_file_the_session_would_read_is_not_created(name: str, tmp_path: Path) -> None:
    """A database's `-journal`, a new journal or context file in a session folder: writing it
    would change what the session is (or corrupt the database), so it is refused too."""
    home = HOMES[name](tmp_path)
    before = state(home.root)
    assert home.missing
    for missing in home.missing:
        assert not missing.exists()
        assert_refused(home, missing, before)
        dangling = tmp_path / f"dangling-{missing.name}"
        dangling.symlink_to(missing)
        assert_refused(home, dangling, before)
        assert not missing.exists()


@pytest.mark.parametrize("name", list(HOMES))
def test_a_file_beside_the_session_is_written(name: str, tmp_path: Path) -> None:
    """The refusal is for the session's own files: an export next to it, or anywhere else,
    is written as usual."""
    home = HOMES[name](tmp_path)
    session_folder = home.session if home.session.is_dir() else home.session.parent
    for target in (session_folder.parent / "report.md", tmp_path / "report.md"):
        code, err = export_to(home, target)
        assert code == ExitCode.OK, err
        assert target.read_text(encoding="utf-8").startswith("# Pivotal report")


# -- the other files pivotal writes: notes, screenshots, the pattern cache ---------------


def test_a_notes_store_that_is_the_session_is_left_alone_by_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`PIVOTAL_DATA_DIR` at a folder whose `notes.sqlite3` is the session's own database:
    opening it as the notes store, even read-only, created its `-wal` and `-shm`."""
    data = tmp_path / "data"
    data.mkdir()
    store = data / "notes.sqlite3"
    shutil.copyfile(REAL / "opencode-short/.local/share/opencode/opencode.db", store)
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(data))
    before = state(data)
    result = invoke("export", store, "--to", "json")
    assert result.exit_code == ExitCode.OK, result.output
    assert f"notes left out: the notes store {store} is a file of this session" in result.stderr
    assert state(data) == before


def test_the_replayer_keeps_no_marks_in_a_store_that_is_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replayer opens the store for writing: it would add its tables to the session's
    database. It says marks are off instead."""
    from pivotal.readers import find_sessions, read_session
    from pivotal.tui.marks import MarkBook

    data = tmp_path / "data"
    data.mkdir()
    store = data / "notes.sqlite3"
    shutil.copyfile(REAL / "opencode-short/.local/share/opencode/opencode.db", store)
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(data))
    before = state(data)
    [ref] = find_sessions([store]).refs
    session = read_session(ref)
    book = MarkBook()
    try:
        notice = book.attach(session)
        assert notice == f"marks are off: the notes store {store} is a file of this session"
        assert book.toggle(session.turns[0]) is None
        assert book.failure == notice
    finally:
        book.close()
    assert state(data) == before


def test_a_scan_does_not_keep_its_patterns_over_the_session(tmp_path: Path) -> None:
    """`PIVOTAL_CACHE_DIR` at the folder of a session named like the pattern cache: the
    first scan of a Python build replaced it with the detector's compiled patterns."""
    import subprocess
    import sys

    cache = tmp_path / "cache"
    cache.mkdir()
    session = cache / f"regex-{sys.implementation.cache_tag}.json"
    messages = [
        {"role": "user", "content": "The build fails on the date parser; can you look?"},
        {"role": "assistant", "content": "I can rewrite the parser and add tests. Shall I?"},
        {"role": "user", "content": "ok"},  # a silence: the detector compiles its patterns
        {"role": "assistant", "content": "Rewrote the parser; all 41 tests pass now."},
    ]
    session.write_text(json.dumps(messages, indent=2), encoding="utf-8")
    before = state(cache)
    env = {**os.environ, "PIVOTAL_CACHE_DIR": str(cache), "PIVOTAL_ONE_CORE": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "pivotal", "scan", str(session)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "(generic, " in proc.stdout
    assert state(cache) == before


async def test_a_screenshot_is_not_saved_into_the_session_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`PIVOTAL_SCREENSHOT_DIR` at the folder of the Kimi session on screen: S refuses to
    add a file to it and says why."""
    from pivotal.readers import find_sessions
    from pivotal.tui.app import ReplayerApp

    home = kimi(tmp_path)
    monkeypatch.setenv("PIVOTAL_SCREENSHOT_DIR", str(home.session))
    before = state(home.root)
    [ref] = find_sessions([home.session]).refs
    app = ReplayerApp(ref)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.replay
        for _ in range(500):
            if screen is not None and screen.playback.turns:
                break
            await pilot.pause(0.01)
            screen = app.replay
        assert screen is not None and screen.playback.turns
        await pilot.press("S")
        await pilot.pause()
        assert screen.status == "screenshot not saved (see the message)"
    assert state(home.root) == before


def test_notes_on_a_session_that_is_the_notes_store_opens_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pivotal notes SESSION` opens the store read-only: that too created the database's
    `-wal` and `-shm` when the store was the session's own file."""
    data = tmp_path / "data"
    data.mkdir()
    store = data / "notes.sqlite3"
    shutil.copyfile(REAL / "opencode-short/.local/share/opencode/opencode.db", store)
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(data))
    before = state(data)
    result = invoke("notes", store)
    assert result.exit_code == ExitCode.OK, result.output
    assert result.stderr == (
        f"pivotal: no marks on this session: the notes store {store} is a file of this session\n"
    )
    assert state(data) == before
