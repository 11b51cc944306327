"""The notes store when it is damaged, locked or full (issue 18: 6, and the store side of 8).

A store with a few hundred marks spans many pages; one of the pages holding
mark rows is overwritten with garbage, as a bad sector or a torn write would.
Which marks were on that page is read from the page's own bytes (their ids
are in it); every other mark must come back with its note.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cli_helpers import invoke
from pivotal.catalog.notes import FILE_NAME, NotesError, NoteStore
from pivotal.model import Role, Session, SourceRef, Turn, TurnFlag
from pivotal.readers import find_sessions, read_session

from .fuzz_support import FIXTURES, FUZZ_SETTINGS

CLAUDE = FIXTURES / "claude-short.jsonl"
PAGE = 4096
OTHERS = 12
MARKS_EACH = 30


def turn(index: int, record_id: str) -> Turn:
    return Turn(
        index, Role.USER, TurnFlag.HUMAN, source=SourceRef(line=index + 1, record_id=record_id)
    )


def other_session(n: int) -> Session:
    turns = [turn(i, f"rec-{n:02d}-{i:03d}") for i in range(MARKS_EACH)]
    return Session("codex", Path(f"/work/s{n}.jsonl"), id=f"other-{n:02d}", turns=turns)


def note_for(record_id: str) -> str:
    return f"note on {record_id}: " + "why the agent went on " * 4


def real_session() -> Session:
    [ref] = find_sessions([CLAUDE]).refs
    return read_session(ref)


def filled_store(path: Path) -> dict[str, str]:
    """A store with marks on the real session and many others; returns record id -> note."""
    notes: dict[str, str] = {}
    with NoteStore(path) as store:
        real = real_session()
        for index in (0, 3, 7):
            store.set_note(real, real.turns[index], f"real note {index}")
        for n in range(OTHERS):
            session = other_session(n)
            for t in session.turns:
                store.set_note(session, t, note_for(t.source.record_id or ""))
                notes[t.source.record_id or ""] = note_for(t.source.record_id or "")
    return notes


def damage_one_mark_page(path: Path) -> set[str]:
    """Overwrite one table leaf page full of mark rows; returns the record ids it held."""
    data = bytearray(path.read_bytes())
    real_key = b"claude-code:"
    for number in range(len(data) // PAGE - 2, 1, -1):
        page = bytes(data[(number - 1) * PAGE : number * PAGE])
        held = {m.decode() for m in _ids(page)}
        if page[0] == 0x0D and len(held) >= 5 and real_key not in page:
            data[(number - 1) * PAGE : number * PAGE] = b"\xa5" * PAGE
            path.write_bytes(bytes(data))
            return held
    raise AssertionError("no page of mark rows found")


def _ids(page: bytes) -> set[bytes]:
    import re

    return set(re.findall(rb"rec-\d\d-\d\d\d", page))


def all_marks(path: Path) -> dict[str, str]:
    with NoteStore(path, readonly=True) as store:
        result = {}
        for n in range(OTHERS):
            for mark in store.marks_for(other_session(n)):
                result[mark.source_id] = mark.note
        return result


@pytest.fixture
def damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, dict[str, str], set[str]]:
    data = tmp_path / "data"
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(data))
    store = data / FILE_NAME
    notes = filled_store(store)
    assert store.stat().st_size > 10 * PAGE
    lost = damage_one_mark_page(store)
    return store, notes, lost


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_read_only_commands_leave_a_damaged_store_as_it_is_and_show_what_is_left(
    damaged: tuple[Path, dict[str, str], set[str]],
) -> None:
    store, _notes, _lost = damaged
    before = listing(store.parent)
    exported = invoke("export", CLAUDE, "--to", "json")
    assert exported.exit_code == 0, exported.output
    notes = [m["note"] for m in json.loads(exported.stdout)["marks"]]
    assert sorted(notes) == ["real note 0", "real note 3", "real note 7"]
    [line] = exported.stderr.splitlines()
    assert "is damaged" in line and "left as it is" in line
    listed = invoke("notes", "--json")
    assert listed.exit_code == 0, listed.output
    keys = {json.loads(row)["session_key"] for row in listed.stdout.splitlines()}
    assert len(keys) >= OTHERS  # every session still listed, though one page is gone
    assert listing(store.parent) == before  # nothing moved, repaired or added


def test_salvage_keeps_every_mark_not_on_the_damaged_page(
    damaged: tuple[Path, dict[str, str], set[str]],
) -> None:
    store, notes, lost = damaged
    salvaged = all_marks(store)
    expected = {rid: note for rid, note in notes.items() if rid not in lost}
    assert {rid: salvaged[rid] for rid in expected if rid in salvaged} == expected
    assert set(salvaged) >= set(expected)
    assert len(lost) < len(notes) // 4


def test_the_replayer_repairs_in_place_and_keeps_the_damaged_file(
    damaged: tuple[Path, dict[str, str], set[str]],
) -> None:
    store, notes, lost = damaged
    original = store.read_bytes()
    inode = store.stat().st_ino
    with NoteStore(store) as repaired:
        assert repaired.notice is not None and "\n" not in repaired.notice
        assert "recovered" in repaired.notice and "kept as" in repaired.notice
    [kept] = [p for p in store.parent.iterdir() if ".damaged-" in p.name]
    assert kept.read_bytes() == original
    assert store.stat().st_ino == inode  # rebuilt in the same file, never renamed
    assert sqlite3.connect(store).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    salvaged = all_marks(store)
    assert {rid for rid in notes if rid not in lost} <= set(salvaged)
    with NoteStore(store) as again:  # sound now: no second repair, no second copy
        assert again.notice is None
    assert len([p for p in store.parent.iterdir() if ".damaged-" in p.name]) == 1


def test_a_replayer_that_had_the_store_open_keeps_writing_into_the_live_file(
    damaged: tuple[Path, dict[str, str], set[str]],
) -> None:
    store, _notes, _lost = damaged
    first = NoteStore.__new__(NoteStore)  # opened before the damage was found
    first.path, first.readonly, first.timeout, first.notice = store, False, 5.0, None
    first._db = sqlite3.connect(store, timeout=5.0)
    try:
        with NoteStore(store) as second:  # another replayer finds the damage and repairs
            assert second.notice
        session = other_session(99)
        first.set_note(session, session.turns[0], "written after the repair")
    finally:
        first.close()
    with NoteStore(store, readonly=True) as check:
        assert [m.note for m in check.marks_for(session)] == ["written after the repair"]


def test_a_damaged_store_that_is_locked_is_left_as_it_is_with_one_clear_error(
    damaged: tuple[Path, dict[str, str], set[str]],
) -> None:
    store, _notes, _lost = damaged
    original = store.read_bytes()
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # e.g. another pivotal mid-write
    try:
        with pytest.raises(NotesError) as raised:
            NoteStore(store, timeout=0.05)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "locked by another program" in str(raised.value) and "\n" not in str(raised.value)
    assert store.read_bytes() == original  # not half rebuilt
    with NoteStore(store) as repaired:  # once the lock is gone, the repair goes through
        assert repaired.notice and "recovered" in repaired.notice


def test_a_locked_store_raises_a_clear_catchable_error(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    session = other_session(1)
    with NoteStore(path) as store:
        store.mark(session, session.turns[0])
    with NoteStore(path, timeout=0.05) as store:
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another program mid-write, for longer than we wait
        try:
            with pytest.raises(NotesError) as raised:
                store.set_note(session, session.turns[1], "not saved")
            with pytest.raises(NotesError):
                NoteStore(path, timeout=0.05)
            with pytest.raises(sqlite3.Error):  # callers that catch sqlite3.Error still do
                store.mark(session, session.turns[2])
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        message = str(raised.value)
        assert message.startswith(f"cannot save to the notes store {path}")
        assert "locked by another program" in message and "\n" not in message
        store.set_note(session, session.turns[1], "saved once the lock is gone")
    with NoteStore(path, readonly=True) as check:
        assert [m.note for m in check.marks_for(session)] == ["", "saved once the lock is gone"]


def test_a_full_disk_raises_a_clear_error_and_keeps_what_was_saved(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    session = other_session(2)
    with NoteStore(path) as store:
        store.set_note(session, session.turns[0], "saved before the disk filled")
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        # SQLite's own "database or disk is full" (SQLITE_FULL), as on a full disk
        store._db.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(NotesError) as raised:
            store.set_note(session, session.turns[1], "x" * (PAGE * 8))
    assert "the disk is full" in str(raised.value)
    with NoteStore(path, readonly=True) as check:
        assert [m.note for m in check.marks_for(session)] == ["saved before the disk filled"]


def test_a_read_only_store_refuses_writes_and_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "data" / FILE_NAME
    with NoteStore(path, readonly=True) as store:
        assert store.all_sessions() == []
        session = other_session(3)
        with pytest.raises(NotesError):
            store.mark(session, session.turns[0])
    assert not path.parent.exists()


def test_a_store_that_is_not_sqlite_at_all_is_kept_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(os.urandom(3 * PAGE))
    original = path.read_bytes()
    with NoteStore(path) as store:
        assert store.notice and "recovered 0 marks" in store.notice
        session = other_session(4)
        store.mark(session, session.turns[0])
    [kept] = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert kept.read_bytes() == original
    with NoteStore(path, readonly=True) as check:
        assert len(check.marks_for(session)) == 1


# -- random damage (hypothesis; bounded, PIVOTAL_FUZZ=1 for a long run) ---------------------


@pytest.fixture(scope="module")
def sound_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, dict[str, str]]:
    path = tmp_path_factory.mktemp("notes") / FILE_NAME
    notes = filled_store(path)
    return path.read_bytes(), notes


@FUZZ_SETTINGS
@given(
    st.lists(
        st.tuples(st.integers(1, 200), st.sampled_from(["zeros", "junk", "copy"]), st.randoms()),
        min_size=1,
        max_size=5,
    ),
    st.integers(0, 1 << 20),
)
def test_random_page_damage_salvages_what_was_written_and_nothing_else(
    sound_store: tuple[bytes, dict[str, str]], hits: list[tuple], cut: int
) -> None:
    """Whole pages lost (zeroed, junk, another page's bytes), maybe a torn end of file.

    Every mark on a table page that survived is salvaged; no mark or note is made up.
    (Bytes changed inside one row cannot be told from real text: not tested here.)
    """
    image, notes = sound_store
    data = bytearray(image)
    pages = len(data) // PAGE
    damaged = set()
    for page, kind, rnd in hits:
        number = page % pages  # 0-based; page 0 (the header) may be hit too
        if kind == "zeros":
            block = bytes(PAGE)
        elif kind == "junk":
            block = rnd.randbytes(PAGE)
        else:
            other = rnd.randrange(pages)
            block = image[other * PAGE : (other + 1) * PAGE]
        data[number * PAGE : (number + 1) * PAGE] = block
        damaged.add(number)
    keep = max(1, pages - cut % max(1, pages // 2))
    data = data[: keep * PAGE]
    intact = [n for n in range(keep) if n not in damaged and image[n * PAGE] == 0x0D and n != 0]
    expected = set().union(*(_ids(image[n * PAGE : (n + 1) * PAGE]) for n in intact))
    with tempfile.TemporaryDirectory(prefix="pivotal-notes-fuzz-") as folder:
        path = Path(folder) / FILE_NAME
        path.write_bytes(bytes(data))
        try:
            salvaged = all_marks(path)
        except NotesError:
            return  # one clear error (SQLite refuses to open what is left read-only)
        assert path.read_bytes() == bytes(data)  # read-only: never changed
    invented = {rid: note for rid, note in salvaged.items() if notes.get(rid) != note}
    assert not invented, "salvage must never make up marks or notes"
    if 0 not in damaged:  # with the header gone the page size is a guess
        assert {m.decode() for m in expected} <= set(salvaged)
