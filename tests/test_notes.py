"""Notes store: keyed by source ids, survives growth and restarts, rebuilds when corrupt."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from pivotal.catalog.notes import FILE_NAME, NoteStore, data_dir, session_key, source_id
from pivotal.model import Role, Session, SourceRef, Turn, TurnFlag
from pivotal.readers import find_sessions, read_session

REAL = Path(__file__).resolve().parent / "fixtures" / "realclients"
CLAUDE = next((REAL / "claude-short").rglob("*.jsonl"))
AIDER = REAL / "aider-short" / ".aider.chat.history.md"


def _read(path: Path) -> Session:
    found = find_sessions([path])
    assert found.refs, found.problems
    return read_session(found.refs[-1])


@pytest.fixture
def store(tmp_path: Path) -> NoteStore:
    with NoteStore(tmp_path / "data" / FILE_NAME) as opened:
        yield opened


def test_data_dir_precedence(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PIVOTAL_DATA_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "pivotal"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "pivotal"
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "explicit"))
    assert data_dir() == tmp_path / "explicit"
    with NoteStore() as default:
        assert default.path == tmp_path / "explicit" / FILE_NAME


def test_keys_come_from_the_source():
    session = _read(CLAUDE)
    assert session_key(session) == "claude-code:9bff2a97-be17-49dd-82a0-730bb832af0b"
    assert source_id(session.turns[1]) == "385e8b99-67b1-430b-a468-4f820df9d174"
    aider = _read(AIDER)
    assert session_key(aider).startswith("aider:" + str(AIDER.resolve()))
    assert source_id(aider.turns[1]).startswith("line:")


def test_mark_note_unmark_round_trip(store):
    session = _read(CLAUDE)
    store.mark(session, session.turns[4])
    store.set_note(session, session.turns[2], "**why** did it `ls` twice?")
    store.mark(session, session.turns[2])  # marking again keeps the note
    marks = store.marks_for(session)
    assert [(m.turn_index, m.note) for m in marks] == [
        (2, "**why** did it `ls` twice?"),
        (4, ""),
    ]
    assert store.unmark(session, session.turns[4]) is True
    assert store.unmark(session, session.turns[4]) is False
    assert [m.turn_index for m in store.marks_for(session)] == [2]
    [listed] = store.all_sessions()
    assert (listed.key, listed.marks, listed.notes) == (session_key(session), 1, 1)


def test_marks_survive_a_restart_and_the_file_growing(tmp_path):
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    growing = tmp_path / "proj" / CLAUDE.name
    growing.parent.mkdir()
    growing.write_bytes(b"".join(lines[:16]))
    db = tmp_path / "notes.sqlite3"
    early = _read(growing)
    assert len(early.turns) < 10
    target = early.turns[4]
    with NoteStore(db) as first:
        first.set_note(early, target, "the turn before it got stuck")
    with open(growing, "ab") as handle:
        handle.write(b"".join(lines[16:]))
    later = _read(growing)
    assert len(later.turns) == 10
    with NoteStore(db) as second:
        [mark] = second.marks_for(later)
    assert mark.turn_index == 4
    assert later.turns[mark.turn_index].source.record_id == target.source.record_id
    assert mark.note == "the turn before it got stuck"


def test_marks_follow_the_turn_when_indices_shift(store):
    def turn(index: int, rid: str) -> Turn:
        return Turn(
            index, Role.USER, TurnFlag.HUMAN, source=SourceRef(line=index + 1, record_id=rid)
        )

    before = Session("codex", Path("/s.jsonl"), id="abc", turns=[turn(0, "a"), turn(1, "b")])
    store.mark(before, before.turns[1])
    # a reader that now folds one more record in front: "b" moved to index 2
    after = Session(
        "codex", Path("/s.jsonl"), id="abc", turns=[turn(0, "z"), turn(1, "a"), turn(2, "b")]
    )
    assert [m.turn_index for m in store.marks_for(after)] == [2]
    # rewound away: the mark is kept but has no index
    rewound = Session("codex", Path("/s.jsonl"), id="abc", turns=[turn(0, "a")])
    [lost] = store.marks_for(rewound)
    assert lost.turn_index is None and lost.source_id == "b"


def test_sessions_do_not_share_marks(store):
    one = _read(CLAUDE)
    other = _read(AIDER)
    store.mark(one, one.turns[0])
    assert store.marks_for(other) == []


def test_a_corrupt_store_is_kept_and_rebuilt_in_place(tmp_path):
    db = tmp_path / FILE_NAME
    db.write_bytes(b"this is not sqlite at all\x00" * 200)
    inode = db.stat().st_ino
    with NoteStore(db) as rebuilt:
        assert rebuilt.notice and "the damaged file is kept as" in rebuilt.notice
        session = _read(CLAUDE)
        rebuilt.mark(session, session.turns[0])
        assert len(rebuilt.marks_for(session)) == 1
    assert db.stat().st_ino == inode  # the same file, never renamed
    kept = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert len(kept) == 1
    assert kept[0].read_bytes().startswith(b"this is not sqlite")
    with NoteStore(db) as again:
        assert again.notice is None
        assert len(again.marks_for(session)) == 1


def test_store_never_touches_the_session_file(tmp_path, store):
    copy = tmp_path / "s" / CLAUDE.name
    copy.parent.mkdir()
    shutil.copy(CLAUDE, copy)
    before = (copy.read_bytes(), copy.stat().st_mtime_ns)
    session = _read(copy)
    store.set_note(session, session.turns[3], "x")
    assert (copy.read_bytes(), copy.stat().st_mtime_ns) == before
    assert sorted(p.name for p in copy.parent.iterdir()) == [copy.name]
    assert store.path.parent != copy.parent


def test_a_second_connection_sees_writes(tmp_path):
    db = tmp_path / FILE_NAME
    session = _read(CLAUDE)
    with NoteStore(db) as a, NoteStore(db) as b:
        a.set_note(session, session.turns[1], "from the app")
        assert [m.note for m in b.marks_for(session)] == ["from the app"]
    rows = sqlite3.connect(db).execute("SELECT COUNT(*) FROM marks").fetchone()
    assert rows == (1,)


# -- `pivotal notes` -----------------------------------------------------------


def _cli(*args: str) -> tuple[int, str, str]:
    from cli_helpers import invoke

    result = invoke(*args)
    return result.exit_code, result.stdout, result.stderr


def test_notes_command_lists_sessions_and_marks(tmp_path, monkeypatch):
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path))
    code, out, err = _cli("notes")
    assert code == 0 and out == "" and "no marks yet" in err
    session = _read(CLAUDE)
    with NoteStore() as store:
        store.set_note(session, session.turns[2], "first line of the note\nsecond line")
        store.mark(session, session.turns[0])
    code, out, _ = _cli("notes")
    assert code == 0
    header, row = out.splitlines()
    assert header.split() == ["MARKS", "NOTES", "TOUCHED", "FORMAT", "TITLE", "PATH"]
    assert row.split()[:2] == ["2", "1"] and "claude-code" in row
    assert row.endswith(str(CLAUDE))  # whole, to pass back to `pivotal notes`
    code, out, _ = _cli("notes", str(CLAUDE))
    lines = out.splitlines()
    assert lines[0].split() == ["TURN", "WHEN", "WHO", "NOTE"]
    assert lines[1].split()[0] == "#1" and lines[1].endswith("(marked)")
    assert lines[2].split()[0] == "#3" and lines[2].endswith("first line of the note")
    code, out, _ = _cli("notes", str(CLAUDE), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["turn"], r["number"], r["who"], r["note"]) for r in rows] == [
        (0, 1, "person", ""),  # `number` as the table above and the replayer show it
        (2, 3, "agent", "first line of the note\nsecond line"),
    ]


def test_a_long_path_is_listed_whole_and_a_long_wide_title_cut_in_cells(tmp_path, monkeypatch):
    """The path is what `pivotal notes PATH` takes back: never cut. A title in a wide script
    is cut to its column in cells, so the path after it stays in line."""
    import shutil

    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    deep = tmp_path / ("a-rather-long-folder-name-" * 4) / "project" / CLAUDE.name
    deep.parent.mkdir(parents=True)
    shutil.copy2(CLAUDE, deep)
    session = _read(deep)
    session.title = "자동화 도구로 테스트 파이프라인을 정리하고 문서를 다시 쓰기"
    with NoteStore() as store:
        store.mark(session, session.turns[0])
    code, out, _ = _cli("notes")
    header, row = out.splitlines()
    assert code == 0 and row.endswith(str(deep)) and "more characters" not in row
    from rich.cells import cell_len

    assert cell_len(row[: row.index(str(deep))]) == header.index("PATH")
    assert "…" in row


def test_notes_command_reports_a_damaged_store_and_leaves_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path))
    (tmp_path / FILE_NAME).write_bytes(b"garbage" * 100)
    code, _, err = _cli("notes", "--json")
    assert code == 0 and "is damaged" in err and "left as it is" in err
    assert (tmp_path / FILE_NAME).read_bytes() == b"garbage" * 100


def test_a_store_that_cannot_be_opened_is_not_moved_aside(tmp_path):
    blocked = tmp_path / FILE_NAME
    blocked.mkdir()  # a directory where the database should be
    with pytest.raises(sqlite3.OperationalError):
        NoteStore(blocked)
    assert blocked.is_dir() and [p.name for p in tmp_path.iterdir()] == [FILE_NAME]
