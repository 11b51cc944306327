"""follow_newest(): follow the newest session of a folder and switch when a new one starts."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

from pivotal.live.newest import Followed, follow_newest
from pivotal.model import SessionRef

from .chat_reader import ChatReader, record
from .helpers import Collector, Writer, wait_until
from .real import CLAUDE_SHORT as CLAUDE


@pytest.fixture(params=["inotify", "watchfiles", "polling"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


def chat_refs(folder: Path):
    def listing() -> list[SessionRef]:
        return [
            SessionRef(format="test-chat", path=p, updated=p.stat().st_mtime)
            for p in sorted(folder.glob("*.jsonl"))
        ]

    return listing


def session(folder: Path, name: str, *texts: str, mtime: float | None = None) -> Writer:
    writer = Writer(folder / name)
    writer.append(b"".join(record("user", t) for t in texts))
    if mtime is not None:
        os.utime(writer.path, (mtime, mtime))
    return writer


def start(source, backend: str, **kwargs) -> Collector[Followed]:
    stop = asyncio.Event()
    stream = follow_newest(
        source,
        open_ref=ChatReader,
        stop=stop,
        backend=backend,
        rescan_interval=0.05,
        **kwargs,
    )
    return Collector(stream, stop)


def turn_texts(item: Followed) -> list[str]:
    return [t.text for t in item.reader.session.turns]


async def test_follows_the_newest_and_switches_to_a_new_session(
    tmp_path: Path, backend: str
) -> None:
    old = session(tmp_path, "a.jsonl", "old work", mtime=1_000_000)
    newest = session(tmp_path, "b.jsonl", "current work", mtime=2_000_000)
    tail = start(tmp_path, backend, list_refs=chat_refs(tmp_path))
    first = await tail.wait_for(lambda f: True)
    assert first.switched and first.ref.path == newest.path
    assert first.update.notice == "following b.jsonl"
    assert turn_texts(first) == ["current work"]

    newest.append(record("assistant", "progress"))
    grown = await tail.wait_for(lambda f: not f.switched)
    assert grown.ref.path == newest.path and grown.update.first_changed == 1

    fresh = session(tmp_path, "c.jsonl", "a new run")
    switched = await tail.wait_for(lambda f: f.switched and f.ref.path == fresh.path)
    assert switched.update.notice == "new session c.jsonl: switched from b.jsonl"
    assert turn_texts(switched) == ["a new run"]
    assert switched.reader is not first.reader

    old.append(record("assistant", "the old one keeps going"))
    fresh.append(record("assistant", "and the new one too"))
    await wait_until(lambda: len(switched.reader.session.turns) == 2)
    await tail.close()
    after = tail.items[tail.items.index(switched) :]
    assert all(item.ref.path == fresh.path for item in after)
    for writer in (old, newest, fresh):
        writer.assert_untouched()


async def test_an_empty_folder_waits_for_the_first_session(tmp_path: Path, backend: str) -> None:
    tail = start(tmp_path, backend, list_refs=chat_refs(tmp_path))
    await asyncio.sleep(0)
    assert tail.items == []
    writer = session(tmp_path, "x.jsonl", "hello")
    first = await tail.wait_for(lambda f: True)
    assert first.switched and first.ref.path == writer.path
    assert first.update.notice == "following x.jsonl"
    await tail.close()


async def test_a_listing_callable_is_asked_again_and_a_new_session_wins(
    tmp_path: Path, backend: str
) -> None:
    a = session(tmp_path, "a.jsonl", "one")
    b_dir = tmp_path / "elsewhere"
    b_dir.mkdir()
    refs = [SessionRef(format="test-chat", path=a.path, updated=1.0)]
    tail = start(lambda: list(refs), backend)
    first = await tail.wait_for(lambda f: True)
    assert first.ref.path == a.path

    a.append(record("assistant", "two"))
    await tail.wait_for(lambda f: not f.switched)

    b = session(b_dir, "b.jsonl", "another project")
    refs.append(SessionRef(format="test-chat", path=b.path, updated=2.0))
    switched = await tail.wait_for(lambda f: f.switched and f.ref.path == b.path)
    assert turn_texts(switched) == ["another project"]
    await tail.close()


async def test_real_claude_code_project_folder(tmp_path: Path, backend: str) -> None:
    from pivotal.readers import open_reader

    project = tmp_path / "projects" / "-home-dev-work-claude-short"
    project.mkdir(parents=True)
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    first_path = project / CLAUDE.name
    shutil.copyfile(CLAUDE, first_path)
    os.utime(first_path, (1_000_000, 1_000_000))

    stop = asyncio.Event()
    stream = follow_newest(
        tmp_path / "projects",
        open_ref=open_reader,
        stop=stop,
        backend=backend,
        rescan_interval=0.05,
    )
    tail = Collector(stream, stop)
    first = await tail.wait_for(lambda f: True)
    assert first.ref.format == "claude-code" and first.ref.path == first_path
    assert first.reader.session.turns[0].is_human

    # a second run of the agent starts a new file in the same project folder
    second = Writer(project / "0f0e0d0c-aaaa-bbbb-cccc-000000000001.jsonl")
    second.append(b"".join(lines[:3]))
    switched = await tail.wait_for(lambda f: f.switched and f.ref.path == second.path)
    assert switched.ref.format == "claude-code"
    await wait_until(lambda: switched.reader.session.human_turns() != [])
    second.append(b"".join(lines[3:8]))
    await wait_until(lambda: len(switched.reader.session.turns) > 1)
    await tail.close()
    assert first_path.read_bytes() == CLAUDE.read_bytes()
    second.assert_untouched()


def test_a_sub_agent_is_no_new_session_to_switch_to(tmp_path: Path) -> None:
    """Following a folder chooses among sessions: a sub-agent whose session is there is
    followed through it (its file changes while the session waits), even one the session's
    file does not name (a listing shows that one as a session), and no session is read to
    know it."""
    from pivotal.live.chooser import refs_in
    from readers import unreached_subagent_home as unreached

    paths = unreached.write_codex(tmp_path)
    later = paths[unreached.PARENT].stat().st_mtime + 60
    os.utime(paths[unreached.WREN], (later, later))
    assert [r.session_id for r in refs_in(tmp_path)()] == [unreached.PARENT]
