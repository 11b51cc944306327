"""Every follow notice names the session's file or folder the same way: by its base name
(issue 34: 8).

`scan --follow`, `follow` and the replayer's live mode print what the readers and the
tail say when a source is truncated, replaced, rewritten, deleted, back, unreadable
or switched. "… is gone" printed the full path and every other notice the base name;
now each names it by its base name (`readers.base.shown_name`): the session followed is
the one the person named or was told about ("following NAME"), and the replayer's
status line is too narrow for a full path and what happened.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pivotal.live.chooser import switch_notice
from pivotal.live.tail import Tail
from pivotal.model import SessionRef
from pivotal.readers import find_sessions, open_reader
from pivotal.readers.base import Update
from pivotal.scan.follow import scan_follow
from readers.opencode_builders import REAL_SHORT

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
DEEP = ("home", "dev", "sessions")


def deep(tmp_path: Path) -> Path:
    folder = tmp_path.joinpath(*DEEP)
    folder.mkdir(parents=True)
    return folder


def line(role: str, text: str) -> bytes:
    return json.dumps({"role": role, "content": text}).encode() + b"\n"


def assert_named(notice: str | None, name: str, tmp_path: Path) -> None:
    assert notice is not None
    assert notice.startswith(f"{name} ") or f" {name}" in notice, notice
    assert str(tmp_path) not in notice and os.sep + DEEP[-1] not in notice, notice


def _read(ref: SessionRef):  # type: ignore[no-untyped-def]
    reader = open_reader(ref)
    reader.poll()
    return reader


def test_a_line_file_is_named_by_its_name_in_every_notice(tmp_path: Path) -> None:
    path = deep(tmp_path) / "chat.jsonl"
    path.write_bytes(line("user", "fix the parser") + line("assistant", "on it"))
    [ref] = find_sessions([path]).refs
    reader = _read(ref)
    path.write_bytes(line("user", "fix"))  # shorter: truncated
    assert_named(reader.poll().notice, "chat.jsonl", tmp_path)
    replacement = path.with_name("new.jsonl")
    replacement.write_bytes(line("user", "fix the parser again"))
    os.replace(replacement, path)
    assert_named(reader.poll().notice, "chat.jsonl", tmp_path)
    path.unlink()
    gone = reader.poll()
    assert gone.gone
    assert gone.notice == "chat.jsonl is gone; keeping what was read"


def test_a_whole_document_and_a_database_are_named_by_their_names(tmp_path: Path) -> None:
    folder = deep(tmp_path)
    chat = folder / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "hello"}]))
    db = folder / "opencode.db"
    shutil.copyfile(REAL_SHORT, db)
    for path in (chat, db):
        [ref] = find_sessions([path]).refs
        reader = _read(ref)
        try:
            path.unlink()
            update = reader.poll()
        finally:
            reader.close()
        assert update.gone
        assert update.notice == f"{path.name} is gone; keeping what was read"


def _kimi_code(root: Path) -> None:
    from readers.test_kimi_code import journal, write_home

    write_home(root, journal())


def _vibe_log(root: Path) -> None:
    from readers.test_vibe_log import FOLDER, messages, meta, write_folder

    write_folder(root / ".vibe/logs/session", FOLDER, meta(), messages())


@pytest.mark.parametrize(
    ("client", "pattern"),
    [
        ("kimi-short", ".kimi/sessions/*/*"),
        ("vibe-short", ".vibe/logs/session/unified/*"),
        ("cline-short", ".cline/data/sessions/*"),
        (_kimi_code, ".kimi-code/sessions/*/*"),
        (_vibe_log, ".vibe/logs/session/session_*"),
    ],
    ids=["kimi", "vibe", "cline", "kimi-code", "vibe-log"],
)
def test_a_session_folder_is_named_by_its_name(
    tmp_path: Path, client: str | Callable[[Path], None], pattern: str
) -> None:
    root = tmp_path / "home"
    if isinstance(client, str):
        shutil.copytree(REAL / client, root)
    else:
        client(root)
    (folder,) = root.glob(pattern)
    [ref] = find_sessions([folder]).refs
    reader = _read(ref)
    shutil.rmtree(folder)
    update = reader.poll()
    assert update.gone
    assert update.notice == f"{folder.name} is gone; keeping what was read"


async def test_the_tail_names_an_unreadable_or_returning_file_by_its_name(
    tmp_path: Path,
) -> None:
    path = deep(tmp_path) / "chat.jsonl"
    path.write_bytes(line("user", "fix the parser"))
    [ref] = find_sessions([path]).refs
    reader = open_reader(ref)
    tail = Tail(reader)
    await tail.first()
    real_poll = reader.poll

    def failing(final: bool = False, budget: int | None = None) -> Update:
        raise PermissionError(13, "Permission denied", str(path))

    reader.poll = failing  # type: ignore[method-assign]
    update = await tail.check()
    assert update is not None and update.notice == "cannot read chat.jsonl: Permission denied"
    reader.poll = real_poll  # type: ignore[method-assign]
    path.unlink()
    gone = await tail.check()
    assert gone is not None and gone.gone
    path.write_bytes(line("user", "back again"))
    back = await tail.check()
    assert back is not None
    assert_named(back.notice, "chat.jsonl", tmp_path)


def test_a_switch_names_both_sessions_by_their_names(tmp_path: Path) -> None:
    folder = deep(tmp_path)
    old = SessionRef(format="generic", path=folder / "old.jsonl")
    new = SessionRef(format="opencode", path=folder / "opencode.db", key="ses_1")
    assert switch_notice(Update(), old, None).notice == "following old.jsonl"
    notice = switch_notice(Update(), new, old).notice
    assert notice == "new session opencode.db#ses_1: switched from old.jsonl"


async def test_the_replayer_names_a_session_it_cannot_open_by_its_name(tmp_path: Path) -> None:
    from pivotal.tui.live_feed import follow_ref

    posted = []
    ref = SessionRef(format="no-such-format", path=deep(tmp_path) / "chat.jsonl")
    await follow_ref(posted.append, ref, asyncio.Event(), initial=True)
    [snapshot] = posted
    assert snapshot.notice.startswith("cannot open chat.jsonl: ")
    assert str(tmp_path) not in snapshot.notice


async def test_scan_follow_prints_the_name_when_the_file_goes(tmp_path: Path) -> None:
    path = deep(tmp_path) / "chat.jsonl"
    path.write_bytes(line("user", "fix the parser") + line("assistant", "on it"))
    [ref] = find_sessions([path]).refs
    err, stop = io.StringIO(), asyncio.Event()
    task = asyncio.create_task(
        scan_follow(
            ref,
            as_json=False,
            out=io.StringIO(),
            err=err,
            stop=stop,
            force_polling=True,
            poll_interval=0.01,
        )
    )
    try:
        for _ in range(500):
            await asyncio.sleep(0.01)
            if path.exists():
                path.unlink()
            if "is gone" in err.getvalue():
                break
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
    assert err.getvalue() == "pivotal: chat.jsonl is gone; keeping what was read\n"


def test_a_folder_given_as_dot_is_named_by_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pivotal.readers.base import shown_name

    folder = deep(tmp_path)
    monkeypatch.chdir(folder)
    assert shown_name(Path(".")) == DEEP[-1]
    assert shown_name(Path("..")) == DEEP[-2]
    assert shown_name(Path("a/b/chat.jsonl")) == "chat.jsonl"
