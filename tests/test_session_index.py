"""The session index on its own: where it lives, what invalidates it, how it survives damage."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest

from pivotal.catalog import index as session_index
from pivotal.catalog.index import (
    DB_NAME,
    IndexUnavailable,
    cache_dir,
    file_stamp,
    open_index,
)
from pivotal.model import SessionRef


def ref(path: Path, key: str | None = None, turns: int = 3) -> SessionRef:
    return SessionRef(
        format="claude-code",
        path=path,
        key=key,
        session_id="s-1",
        title="a [bold]title[/]",
        cwd="/home/dev/x",
        started=1.5,
        updated=2.5,
        size=10,
        turns=turns,
        human_turns=1,
        pivots=2,
    )


def test_cache_dir_follows_pivotal_then_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    monkeypatch.delenv("PIVOTAL_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache_dir() == tmp_path / "h" / ".cache" / "pivotal"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "pivotal"
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine"


def test_stamp_changes_with_size_and_mtime(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"{}\n")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    first = file_stamp(path)
    assert first == (3, 1_000_000_000)
    os.utime(path, ns=(1_000_000_000, 1_000_000_001))
    assert file_stamp(path) == (3, 1_000_000_001)
    path.unlink()
    assert file_stamp(path) is None


def test_stamp_of_a_database_counts_its_wal(tmp_path):
    db = tmp_path / "opencode.db"
    db.write_bytes(b"x" * 100)
    os.utime(db, ns=(5, 5))
    alone = file_stamp(db)
    wal = tmp_path / "opencode.db-wal"
    wal.write_bytes(b"y" * 30)
    os.utime(wal, ns=(9, 9))
    assert alone == (100, 5)
    assert file_stamp(db) == (130, 9)


def test_stamp_of_a_folder_sees_a_file_rewritten_deep_inside(tmp_path):
    part = tmp_path / "storage" / "part" / "msg_1" / "prt_1.json"
    part.parent.mkdir(parents=True)
    part.write_text('{"a": 1}')
    before = file_stamp(tmp_path / "storage")
    part.write_text('{"a": 12}')  # rewritten in place: no folder's mtime needs to change
    assert file_stamp(tmp_path / "storage") != before


def test_store_then_lookup_until_the_stamp_changes(tmp_path):
    session = tmp_path / "s.jsonl"
    index = open_index(tmp_path / "cache")
    index.store([(session, (10, 20), [ref(session)]), (tmp_path / "junk.jsonl", (1, 2), [])])
    index.close()

    index = open_index(tmp_path / "cache")  # a later process
    assert index.lookup(session, (10, 20)) == [ref(session)]
    assert index.lookup(tmp_path / "junk.jsonl", (1, 2)) == []  # "not a session" is cached too
    assert index.lookup(session, (11, 20)) is None
    assert index.lookup(session, (10, 21)) is None
    assert index.lookup(tmp_path / "other.jsonl", (10, 20)) is None
    index.close()


def test_several_sessions_of_one_file_keep_their_keys_and_order(tmp_path):
    history = tmp_path / ".aider.chat.history.md"
    refs = [ref(history, key=str(n), turns=n) for n in (1, 2, 3)]
    index = open_index(tmp_path / "cache")
    index.store([(history, (5, 6), refs)])
    index.close()
    assert open_index(tmp_path / "cache").lookup(history, (5, 6)) == refs


def test_lookup_returns_the_path_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    index = open_index(tmp_path / "cache")
    index.store([(tmp_path / "s.jsonl", (1, 1), [ref(tmp_path / "s.jsonl")])])
    found = index.lookup(Path("s.jsonl"), (1, 1))
    assert found is not None and found[0].path == Path("s.jsonl")


def test_drop_missing_forgets_deleted_files_but_keeps_other_roots(tmp_path):
    kept, gone, elsewhere = (tmp_path / n for n in ("kept.jsonl", "gone.jsonl", "else.jsonl"))
    for path in (kept, elsewhere):
        path.write_text("{}")
    index = open_index(tmp_path / "cache")
    index.store([(p, (1, 1), [ref(p)]) for p in (kept, gone, elsewhere)])
    index.drop_missing({str(kept)})
    index.close()
    index = open_index(tmp_path / "cache")
    assert sorted(index.paths()) == sorted([str(kept), str(elsewhere)])


def test_garbage_index_file_is_set_aside_and_rebuilt(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / DB_NAME).write_bytes(b"this is not sqlite at all\n" * 200)
    index = open_index(folder)
    assert len(index) == 0
    index.store([(tmp_path / "s", (1, 1), [ref(tmp_path / "s")])])
    index.close()
    assert (folder / f"{DB_NAME}.corrupt").read_bytes().startswith(b"this is not sqlite")
    assert len(open_index(folder)) == 1


def test_index_with_damaged_pages_is_set_aside_and_rebuilt(tmp_path):
    folder = tmp_path / "cache"
    index = open_index(folder)
    index.store([(tmp_path / f"s{n}", (n, n), [ref(tmp_path / f"s{n}")]) for n in range(300)])
    index.close()
    db = folder / DB_NAME
    data = bytearray(db.read_bytes())
    assert len(data) > 8192
    data[4096:] = b"\xa5" * (len(data) - 4096)  # the header survives, every later page is trash
    db.write_bytes(bytes(data))
    index = open_index(folder)
    assert len(index) == 0
    assert (folder / f"{DB_NAME}.corrupt").exists()


def test_a_deleted_index_is_recreated(tmp_path):
    folder = tmp_path / "cache"
    open_index(folder).close()
    (folder / DB_NAME).unlink()
    index = open_index(folder)
    index.store([(tmp_path / "s", (1, 1), [])])
    assert (folder / DB_NAME).exists()


def test_cache_folder_that_cannot_be_created_is_reported_not_raised(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    with pytest.raises(IndexUnavailable) as info:
        open_index(blocker / "pivotal")
    assert "\n" not in str(info.value)


def test_new_code_empties_the_index(tmp_path, monkeypatch):
    index = open_index(tmp_path / "cache")
    index.store([(tmp_path / "s", (1, 1), [ref(tmp_path / "s")])])
    index.close()
    monkeypatch.setattr(session_index, "code_stamp", lambda: "another version of the readers")
    assert len(open_index(tmp_path / "cache")) == 0


def test_the_index_is_written_only_in_its_folder(tmp_path):
    folder = tmp_path / "cache"
    index = open_index(folder)
    index.store([(tmp_path / "s", (1, 1), [ref(tmp_path / "s")])])
    index.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]
    assert oct(folder.stat().st_mode & 0o777) == oct(0o700)


def _writer(folder: str, tag: str, rounds: int) -> None:
    base = Path(folder).parent
    for n in range(rounds):
        index = open_index(Path(folder))
        paths = [base / f"{tag}-{n}-{i}.jsonl" for i in range(20)]
        index.store([(p, (n, i), [ref(p, turns=i)]) for i, p in enumerate(paths)])
        index.store([(base / "shared.jsonl", (n, 0), [ref(base / "shared.jsonl", turns=n)])])
        index.close()


def test_two_processes_writing_at_once_leave_a_sound_index(tmp_path):
    folder = tmp_path / "cache"
    open_index(folder).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(str(folder), tag, 15)) for tag in ("a", "b")]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [w.exitcode for w in workers] == [0, 0]
    conn = sqlite3.connect(folder / DB_NAME)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    index = open_index(folder)
    assert len(index) == 2 * 15 * 20 + 1
    found = index.lookup(tmp_path / "b-14-7.jsonl", (14, 7))
    assert found is not None and found[0].turns == 7
    assert index.lookup(tmp_path / "shared.jsonl", (14, 0)) is not None


def test_an_index_of_an_older_shape_is_rebuilt_not_fought(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    conn = sqlite3.connect(folder / DB_NAME)
    conn.executescript(
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES ('code', 'pivotal 0.0.1');"
        "CREATE TABLE files (path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER);"
        "CREATE TABLE sessions (path TEXT, key TEXT, turns INTEGER, PRIMARY KEY (path, key));"
        "INSERT INTO files VALUES ('/x', 1, 1);"
    )
    conn.commit()
    conn.close()
    index = open_index(folder)
    assert len(index) == 0
    index.store([(tmp_path / "s", (1, 1), [ref(tmp_path / "s")])])
    index.close()
    assert open_index(folder).lookup(tmp_path / "s", (1, 1)) == [ref(tmp_path / "s")]
