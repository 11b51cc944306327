"""opencode databases as users really have them: odd rows, copies, locks (issue 18: 7, 12, 20).

Each database is built with the real opencode schema (`readers.opencode_builders`);
the odd values are what SQLite lets any writer store: text or a BLOB in an
integer column, NULL in a text primary key.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.readers import find_sessions, open_reader, read_session
from privilege import as_nobody
from readers.opencode_builders import (
    REAL_SHORT,
    T0,
    add_session,
    create_db,
    put_message,
    put_part,
    text_part,
    user_info,
)


def _db_with_odd_rows(path: Path) -> None:
    writer = create_db(path)
    add_session(writer, "ses_a")
    put_message(writer, "msg_001", "ses_a", user_info(T0), T0)
    put_part(writer, "prt_001", "msg_001", "ses_a", text_part("kept one"), T0)
    put_message(writer, "msg_003", "ses_a", user_info(T0 + 3), T0 + 3)
    put_part(writer, "prt_003", "msg_003", "ses_a", text_part("kept two"), T0 + 3)
    data = '{"role": "user", "time": {"created": 1}}'
    part = '{"type": "text", "text": "lost"}'
    rows = [
        ("INSERT INTO message VALUES ('msg_t', 'ses_a', 1, 'soon', ?)", (data,)),
        ("INSERT INTO message VALUES ('msg_b', 'ses_a', 1, x'00ff', ?)", (data,)),
        ("INSERT INTO message VALUES (NULL, 'ses_a', 1, 5, ?)", (data,)),
        ("INSERT INTO part VALUES (x'01', 'msg_001', 'ses_a', 1, 5, ?)", (part,)),
        ("INSERT INTO part VALUES ('prt_t', 'msg_001', 'ses_a', 1, 'later', ?)", (part,)),
    ]
    for sql, args in rows:
        writer.execute(sql, args)
    writer.close()


def test_rows_of_the_wrong_type_are_skipped_and_reported_once(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    _db_with_odd_rows(db)
    [ref] = find_sessions([db]).refs
    reader = open_reader(ref)
    try:
        first = reader.poll()
        again = reader.poll()  # text and BLOB sort after every number: they match every poll
    finally:
        reader.close()
    session = reader.session
    assert [t.text for t in session.turns] == ["kept one", "kept two"]
    reasons = sorted(s.reason for s in session.skipped)
    assert reasons == [
        "message NULL: its id is NULL",
        "message msg_b: time_updated is a BLOB, not a number",
        "message msg_t: time_updated is text, not a number",
        "part a BLOB: its id is a BLOB",
        "part prt_t: time_updated is text, not a number",
    ]
    assert first.new_skipped == 5 and again.new_skipped == 0


def test_scan_and_export_of_odd_rows_exit_0_with_the_rest(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    _db_with_odd_rows(db)
    scanned = invoke("scan", db)
    assert scanned.exit_code == 0, scanned.output
    assert "2 turns" in scanned.stdout
    # each odd row for its own reason, not all five for the first one's
    assert "skipped 5 unreadable records: 1 record (message NULL: its id is NULL); " in (
        scanned.stdout
    )
    exported = invoke("export", db, "--to", "json")
    assert exported.exit_code == 0, exported.output
    assert "kept two" in exported.stdout


def test_a_session_row_without_a_text_id_or_title_is_not_listed_raw(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    add_session(writer, "ses_ok", title="fine")
    writer.execute(
        "INSERT INTO session (id, project_id, slug, directory, title, version, time_created,"
        " time_updated) VALUES (x'ab', 'g', 's', x'cd', x'ef', '1', 'x', x'00')"
    )
    writer.execute(
        "INSERT INTO session (id, project_id, slug, directory, title, version, time_created,"
        " time_updated) VALUES ('ses_blob_title', 'g', 's', x'cd', x'ef', '1', 1, 2)"
    )
    writer.close()
    refs = find_sessions([db]).refs
    assert sorted(r.key for r in refs) == ["ses_blob_title", "ses_ok"]
    odd = next(r for r in refs if r.key == "ses_blob_title")
    assert odd.title is None and odd.cwd is None
    session = read_session(odd)
    assert session.title is None and session.cwd is None


# -- a -wal without its -shm (a copy or a backup) -----------------------------------


def _wal_only_copy(tmp_path: Path) -> Path:
    """A WAL database whose last rows are only in `-wal`, copied without `-shm`."""
    live = tmp_path / "live"
    live.mkdir()
    writer = create_db(live / "opencode.db")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    add_session(writer, "ses_w")
    put_message(writer, "msg_001", "ses_w", user_info(T0), T0)
    put_part(writer, "prt_001", "msg_001", "ses_w", text_part("in the main file"), T0)
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    put_message(writer, "msg_002", "ses_w", user_info(T0 + 1), T0 + 1)
    put_part(writer, "prt_002", "msg_002", "ses_w", text_part("only in the wal"), T0 + 1)
    backup = tmp_path / "backup"
    backup.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy2(live / f"opencode.db{suffix}", backup / f"opencode.db{suffix}")
    writer.close()
    assert (backup / "opencode.db-wal").stat().st_size > 0
    return backup / "opencode.db"


def test_a_wal_without_shm_is_read_whole_and_no_file_appears(tmp_path: Path) -> None:
    db = _wal_only_copy(tmp_path)
    before = sorted(os.listdir(db.parent))
    refs = find_sessions([db]).refs
    assert [r.key for r in refs] == ["ses_w"]
    session = read_session(refs[0])
    assert [t.text for t in session.turns] == ["in the main file", "only in the wal"]
    result = invoke("scan", db)
    assert result.exit_code == 0 and "2 turns" in result.stdout, result.output
    assert sorted(os.listdir(db.parent)) == before == ["opencode.db", "opencode.db-wal"]


async def test_following_a_wal_without_shm_creates_nothing(tmp_path: Path) -> None:
    import asyncio

    from pivotal.live.tail import follow

    db = _wal_only_copy(tmp_path)
    [ref] = find_sessions([db]).refs
    reader = open_reader(ref)
    stop = asyncio.Event()
    stream = follow(reader, stop=stop, force_polling=True, poll_interval=0.01)
    try:
        await anext(stream)
        asyncio.get_running_loop().call_later(0.2, stop.set)
        async for _update in stream:
            pass
    finally:
        await stream.aclose()
        reader.close()
    assert len(reader.session.turns) == 2
    assert sorted(os.listdir(db.parent)) == ["opencode.db", "opencode.db-wal"]


# -- unreadable and locked databases -----------------------------------------------


def test_a_locked_rollback_database_says_so_instead_of_reading_stale(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    shutil.copyfile(REAL_SHORT, db)
    conn = sqlite3.connect(db, isolation_level=None)
    assert conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    conn.close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # opencode (or a backup tool) mid-write
    try:
        result = invoke("scan", db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 5, result.output
    assert "locked" in result.stderr and "try again" in result.stderr
    assert "turns" not in result.stdout  # nothing stale shown as if it were the session


def test_an_unreadable_database_in_a_data_folder_says_permission_denied(world_tmp: Path) -> None:
    data = world_tmp / "opencode"
    data.mkdir()
    db = data / "opencode.db"
    shutil.copyfile(REAL_SHORT, db)
    db.chmod(0o000)  # as `nobody` (privilege.as_nobody), chmod holds even when tests run as root
    for target in (db, data):
        proc = as_nobody([sys.executable, "-m", "pivotal", "scan", str(target)], cwd="/")
        err = proc.stderr.decode()
        assert proc.returncode == 5, err
        assert "permission denied" in err, err
        assert "no sessions found" not in err and "internal error" not in err
        assert len(err.splitlines()) == 1


# -- nothing beside the database, whatever the -wal (issue 34: 2) ---------------------


def _database_with_frames(tmp_path: Path) -> tuple[Path, bytes]:
    """A WAL database (its last rows only in its -wal) and the bytes of that -wal."""
    live = tmp_path / "live"
    live.mkdir()
    writer = create_db(live / "opencode.db")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    add_session(writer, "ses_w")
    put_message(writer, "msg_001", "ses_w", user_info(T0), T0)
    put_part(writer, "prt_001", "msg_001", "ses_w", text_part("in the main file"), T0)
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    put_message(writer, "msg_002", "ses_w", user_info(T0 + 1), T0 + 1)
    put_part(writer, "prt_002", "msg_002", "ses_w", text_part("only in the wal"), T0 + 1)
    frames = (live / "opencode.db-wal").read_bytes()
    shutil.copyfile(live / "opencode.db", tmp_path / "main")
    writer.close()
    return tmp_path / "main", frames


def _files_beside(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("journal", ["wal", "rollback"])
@pytest.mark.parametrize("wal", ["none", "empty", "frames"])
def test_no_file_appears_beside_a_database_whatever_its_wal(
    tmp_path: Path, journal: str, wal: str
) -> None:
    """A 0-byte `-wal` with no `-shm` (a copy, a `sqlite3` probe) made SQLite create the
    `-shm` beside it; every -wal state, in either journal mode's header, now leaves the
    folder as it was and reads every committed row."""
    main, frames = _database_with_frames(tmp_path)
    folder = tmp_path / "copy"
    folder.mkdir()
    db = folder / "opencode.db"
    data = bytearray(main.read_bytes())
    if journal == "rollback":
        data[18:20] = b"\x01\x01"  # the header of a rollback-journal database
    db.write_bytes(bytes(data))
    if wal != "none":
        Path(f"{db}-wal").write_bytes(frames if wal == "frames" else b"")
    before = _files_beside(folder)
    [ref] = find_sessions([db]).refs
    texts = [t.text for t in read_session(ref).turns]
    expected = ["in the main file"] + (["only in the wal"] if wal == "frames" else [])
    assert texts == expected
    for command in (("scan", db), ("export", db, "--to", "json")):
        result = invoke(*command)
        assert result.exit_code == 0, result.output
    assert _files_beside(folder) == before


# -- a writer in exclusive locking mode (issue 34: 7) ----------------------------------

_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "wal-first":
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
else:
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("PRAGMA journal_mode=WAL")
conn.execute("PRAGMA wal_autocheckpoint=0")
if sys.argv[3] == "write":
    conn.execute("UPDATE session SET title = 'renamed by the holder'")
else:
    conn.execute("SELECT count(*) FROM session").fetchone()
print("held", flush=True)
sys.stdin.read()  # hold the database until the test closes our stdin
"""

_DATABASES = {
    "opencode": "opencode-short/.local/share/opencode/opencode.db",
    "kilo": "kilo-short/.local/share/kilo/kilo.db",
}


@pytest.mark.parametrize("action", ["write", "read"])
@pytest.mark.parametrize("order", ["wal-first", "exclusive-first"])
@pytest.mark.parametrize("fmt", list(_DATABASES))
def test_a_database_held_in_exclusive_locking_mode_is_read_anyway(
    tmp_path: Path, fmt: str, order: str, action: str
) -> None:
    """The promise of docs/errors.md for a WAL database locked by a writer: read anyway, exit 0.

    A writer in `locking_mode=EXCLUSIVE` keeps every other connection out for as long as
    it runs; its database is read from a private copy, and what it committed is shown."""
    import subprocess

    source = Path(__file__).resolve().parents[1] / "fixtures" / "realclients" / _DATABASES[fmt]
    db = tmp_path / source.name
    shutil.copyfile(source, db)
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(db), order, action],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        before = _files_beside(tmp_path)
        scanned = invoke("scan", db)
        exported = invoke("export", db, "--to", "json")
        after = _files_beside(tmp_path)
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    assert scanned.exit_code == 0, scanned.output
    assert exported.exit_code == 0, exported.output
    assert f"({fmt}, " in scanned.stdout and " turns" in scanned.stdout
    assert ("renamed by the holder" in exported.stdout) == (action == "write")
    assert sorted(after) == sorted(before)  # nothing created beside it
