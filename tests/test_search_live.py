"""A followed session is kept in the search index as it grows (issue 32: 3), by the
replayer's live follow and by `scan --follow`, without touching the other sessions of
its file; the next listing pass reads it whole again and keeps one copy of each text."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pivotal.catalog import discovery
from pivotal.catalog.search_index import PARTIAL, open_search_index
from pivotal.catalog.search_live import LiveIndexer
from pivotal.catalog.search_query import parse_query, search
from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from search_homes import claude_session, write_claude

TURNS = [("you", "start the benchmark"), ("agent", "Starting it now.")]


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(folder))
    return folder


def found(text: str) -> list[int]:
    index = open_search_index()
    try:
        return [hit.turn for hit in search(index, parse_query(text), limit=50)]
    finally:
        index.close()


def wait(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def test_a_growing_session_is_indexed_as_it_grows(tmp_path: Path, cache: Path) -> None:
    home = tmp_path / "home"
    path = write_claude(home, "live", TURNS)
    ref = find_sessions([path]).refs[0]
    with LiveIndexer(ref, every=0.05) as indexer:
        wait(lambda: found("benchmark") == [0])
        path.write_bytes(claude_session([*TURNS, ("you", "now the flamegraph please")], sid="live"))
        wait(lambda: found("flamegraph") == [2])
        grown = [*TURNS, ("you", "now the flamegraph please"), ("agent", "Flamegraph saved.")]
        path.write_bytes(claude_session(grown, sid="live"))
        wait(lambda: sorted(found("flamegraph")) == [2, 3])
    assert indexer.problem == ""
    index = open_search_index()
    assert not index.fresh(path, discovery.file_stamp(path))  # PARTIAL: the next pass reads it
    index.close()
    discovery.refresh_index(discovery.located([home]))
    assert sorted(found("flamegraph")) == [2, 3] and found("benchmark") == [0]
    index = open_search_index()
    (twice,) = index.conn.execute(
        "SELECT COUNT(*) FROM (SELECT 1 FROM docs GROUP BY session, turn, who HAVING COUNT(*) > 1)"
    ).fetchone()
    index.close()
    assert twice == 0 and PARTIAL != discovery.file_stamp(path)


def test_following_one_session_of_a_container_leaves_the_others(cache: Path) -> None:
    from search_homes import SAMPLES

    history = SAMPLES / "aider" / "seed_dead_end.aider.chat.history.md"
    refs = find_sessions([history]).refs
    assert len(refs) >= 1
    discovery.refresh_index([(history, "aider")])
    index = open_search_index()
    before = index.conn.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
    index.close()
    with LiveIndexer(refs[-1], every=0.05) as indexer:
        wait(lambda: indexer.updates >= 1)
    index = open_search_index()
    after = index.conn.execute("SELECT COUNT(*) FROM docs").fetchone()[0]
    index.close()
    assert after == before  # the same texts, none lost, none twice


async def test_the_replayers_live_follow_indexes_the_session(tmp_path: Path, cache: Path) -> None:
    path = write_claude(tmp_path / "home", "followed", TURNS)
    ref = find_sessions([path]).refs[0]
    app = ReplayerApp(ref, follow=True)
    async with app.run_test(size=(120, 30)):
        deadline = asyncio.get_running_loop().time() + 20
        path.write_bytes(claude_session([*TURNS, ("you", "what about hugepages")], sid="followed"))
        while found("hugepages") != [2]:
            assert asyncio.get_running_loop().time() < deadline, "not indexed while followed"
            await asyncio.sleep(0.05)
