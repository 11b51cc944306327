"""opencode reader: the two real databases, live WAL updates, legacy JSON, bad input."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.model import PartKind, Role, TurnFlag
from pivotal.readers import opencode, opencode_db
from pivotal.readers.opencode_convert import build_turn
from pivotal.readers.opencode_db import FALLBACK_NOTICE
from pivotal.readers.opencode_private import PREFIX, remove_abandoned

from .opencode_builders import (
    REAL_AUTOCOMPACT,
    REAL_SHORT,
    T0,
    add_session,
    assistant_info,
    bash_part,
    create_db,
    put_message,
    put_part,
    text_part,
    user_info,
    write_json,
)

SPEC = opencode.SPEC


def head(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read(64 * 1024)


def read_all(path: Path, key: str | None = None):
    refs = SPEC.refs(path)
    ref = next(r for r in refs if key is None or r.key == key)
    reader = SPEC.open(ref)
    try:
        update = reader.poll(final=True)
    finally:
        reader.close()
    return reader.session, update


@pytest.fixture
def short_copy(tmp_path: Path) -> Path:
    """The real database copied into a directory with no -wal/-shm (like a closed opencode)."""
    target = tmp_path / "opencode.db"
    shutil.copyfile(REAL_SHORT, target)
    return target


# ---------------------------------------------------------------------------
# The real databases written by opencode 1.18.33


def test_real_short_session_listing() -> None:
    assert SPEC.name == "opencode"
    assert SPEC.sniff(REAL_SHORT, head(REAL_SHORT))
    [ref] = SPEC.refs(REAL_SHORT)
    assert ref.key == "ses_dd56d6bd6ffeh6ChL7dECWk7KX"
    assert ref.title == "Inspect repo files"
    assert ref.cwd == "/home/dev/work/opencode-short"
    assert ref.turns == 11
    assert ref.started == pytest.approx(1796010578.986)
    assert ref.updated == pytest.approx(1796010582.198)


def test_real_short_turns_and_tool_calls() -> None:
    session, update = read_all(REAL_SHORT)
    assert update.first_changed == 0 and not session.skipped
    turns = session.turns
    assert [t.index for t in turns] == list(range(11))
    assert [t.role for t in turns] == [Role.USER] + [Role.ASSISTANT] * 10
    [human] = session.human_turns()
    # `opencode run` stores the literal quotes around an argument with spaces
    assert human.text == '"Inspect this directory, try a few commands, and write notes.txt"'
    assert human.message_id == "msg_22a929478001cHNad8JzZSDo4K"
    assert human.source.record_id == human.message_id
    assert human.timestamp == pytest.approx(1796010579.064)

    first = turns[1]
    assert [p.kind for p in first.parts] == [PartKind.REASONING, PartKind.TEXT, PartKind.TOOL]
    assert first.parts[0].text == "I should plan, then look at the directory."
    assert first.model == "mock-model"
    assert first.usage is not None and (first.usage.input, first.usage.output) == (1000, 50)

    calls = [c for t in turns for c in t.tool_calls]
    assert [c.name for c in calls] == [
        "todowrite",
        "bash",
        "bash",
        "bash",
        "write",
        "read",
        "read",
        "edit",
        "nosuchtool",  # rerouted by opencode to `invalid`: shown as what the model asked for
        "todowrite",
    ]
    bash = [c for c in calls if c.name == "bash"]
    assert [c.key_argument() for c in bash] == [
        "ls -la",
        "cat nonexistent.txt",
        "python3 -c 'import sys; print(\"about to fail\"); sys.exit(3)'",
    ]
    assert [c.exit_code for c in bash] == [0, 1, 3]
    assert [c.failed for c in bash] == [False, True, True]
    assert bash[1].output == "cat: nonexistent.txt: No such file or directory\n"
    assert bash[0].duration_ms == 122.0 and bash[0].status == "completed"
    missing_read = calls[5]
    assert missing_read.status == "error" and missing_read.is_error
    assert missing_read.output.startswith("File not found: ")
    assert missing_read.input == {"filePath": "/home/dev/work/opencode-short/does-not-exist.md"}
    unknown = calls[8]  # opencode reroutes an unknown tool to `invalid`
    assert unknown.failed and unknown.key_argument() == "nosuchtool"
    assert [c.name for c in calls if c.failed] == ["bash", "bash", "read", "nosuchtool"]
    assert turns[-1].preview.startswith("Summary: listed files, `cat nonexistent.txt` failed")
    assert session.title == "Inspect repo files" and session.model == "mock-model"
    assert session.children == []


def test_real_autocompact_boundary_summary_and_nudge() -> None:
    session, _ = read_all(REAL_AUTOCOMPACT)
    turns = session.turns
    assert len(turns) == 13 and not session.skipped
    assert [t.text for t in session.human_turns()] == [
        '"Look around and create seed.txt"',
        '"continue with big outputs"',
        "ok",
    ]
    boundary, summary, nudge = turns[6], turns[7], turns[8]
    assert boundary.role is Role.SYSTEM
    assert boundary.flags == TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
    assert boundary.extra == {"auto": True, "overflow": False}
    assert boundary.message_id == "msg_22a93aae8001Nex96cwVwOlZpT"
    assert summary.role is Role.ASSISTANT
    assert summary.flags == TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    assert summary.text.startswith("MOCK COMPACTION SUMMARY:")
    assert nudge.role is Role.USER and nudge.flags == TurnFlag.SYNTHETIC and not nudge.is_human
    assert nudge.text.startswith("Continue if you have next steps, or stop and ask")
    assert turns[5].usage is not None and turns[5].usage.input == 19500
    assert [c.key_argument() for c in turns[9].tool_calls] == ["echo after-compaction"]
    assert [c.exit_code for t in turns for c in t.tool_calls] == [0, 1, 0, 0]


def test_reading_leaves_the_database_untouched(short_copy: Path) -> None:
    before = (short_copy.read_bytes(), os.stat(short_copy).st_mtime_ns)
    assert SPEC.sniff(short_copy, head(short_copy))
    session, _ = read_all(short_copy)
    assert len(session.turns) == 11
    assert (short_copy.read_bytes(), os.stat(short_copy).st_mtime_ns) == before
    assert sorted(p.name for p in short_copy.parent.iterdir()) == ["opencode.db"]


def test_a_part_table_without_rowids_reads_the_same(short_copy: Path) -> None:
    """Rows are read one by one, in id order, by their rowids (SQLite sorting whole rows
    held the session's data at once); a table without rowids is read sorted instead."""
    expected = [(t.role, t.text, t.tool_calls) for t in read_all(REAL_SHORT)[0].turns]
    conn = sqlite3.connect(short_copy, isolation_level=None)
    columns = "id, message_id, session_id, time_created, time_updated, data"
    conn.executescript(
        "CREATE TABLE part_copy (id text PRIMARY KEY, message_id text, session_id text,"
        " time_created integer, time_updated integer, data text) WITHOUT ROWID;"
        f" INSERT INTO part_copy SELECT {columns} FROM part;"
        " DROP TABLE part; ALTER TABLE part_copy RENAME TO part;"
    )
    conn.close()
    session, _ = read_all(short_copy)
    assert [(t.role, t.text, t.tool_calls) for t in session.turns] == expected


# ---------------------------------------------------------------------------
# Live updates through a separate read-write WAL connection


def test_parts_updated_in_place_are_seen_by_repeated_polls(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    try:
        add_session(writer, "ses_a", title="Live")
        put_message(writer, "msg_001", "ses_a", user_info(T0), T0)
        put_part(writer, "prt_001", "msg_001", "ses_a", text_part("fix the build"), T0)
        put_message(writer, "msg_002", "ses_a", assistant_info(T0 + 10, "msg_001"), T0 + 10)
        put_part(writer, "prt_002", "msg_002", "ses_a", text_part("Look"), T0 + 20)
        put_part(writer, "prt_003", "msg_002", "ses_a", bash_part("c1", "make", "running"), T0 + 20)
        [ref] = SPEC.refs(db)
        reader = SPEC.open(ref)
        first = reader.poll()
        assert first.first_changed == 0 and len(reader.session.turns) == 2
        call = reader.session.turns[1].tool_calls[0]
        assert call.status == "running" and not call.has_result

        # same millisecond as the newest row already seen: must still be picked up
        put_part(writer, "prt_002", "msg_002", "ses_a", text_part("Looking at the build"), T0 + 20)
        completed = bash_part("c1", "make", "completed", output="make: *** Error 2\n", exit_code=2)
        put_part(writer, "prt_003", "msg_002", "ses_a", completed, T0 + 30)
        update = reader.poll()
        assert update.first_changed == 1 and not update.reloaded
        assert len(reader.session.turns) == 2
        turn = reader.session.turns[1]
        assert turn.text == "Looking at the build" and turn.preview == "Looking at the build"
        [call] = turn.tool_calls
        assert call.status == "completed" and call.exit_code == 2 and call.failed
        assert call.output == "make: *** Error 2\n"

        assert reader.poll().first_changed is None  # nothing new: no change, no duplicates

        # opencode mid-write: an open write transaction neither blocks us nor shows half
        wal = tmp_path / "opencode.db-wal"
        writer.execute("BEGIN IMMEDIATE")
        put_part(writer, "prt_009", "msg_002", "ses_a", text_part("uncommitted"), T0 + 35)
        wal_before = wal.read_bytes()
        assert reader.poll().first_changed is None
        assert wal.read_bytes() == wal_before  # the reader never writes or checkpoints
        writer.execute("ROLLBACK")

        put_message(writer, "msg_003", "ses_a", user_info(T0 + 40), T0 + 40)
        put_part(writer, "prt_004", "msg_003", "ses_a", text_part("ok"), T0 + 40)
        update = reader.poll()
        assert update.first_changed == 2
        assert [t.message_id for t in reader.session.turns] == ["msg_001", "msg_002", "msg_003"]
        assert [t.index for t in reader.session.turns] == [0, 1, 2]
        assert reader.session.turns[2].is_human and not reader.session.skipped
        reader.close()
    finally:
        writer.close()


def test_message_before_its_parts_then_parts_arrive(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    try:
        add_session(writer, "ses_a")
        put_message(writer, "msg_001", "ses_a", user_info(T0), T0)
        reader = SPEC.open(SPEC.refs(db)[0])
        reader.poll()
        [turn] = reader.session.turns
        assert not turn.is_human and not turn.is_synthetic  # no parts yet: nothing claimed
        put_part(writer, "prt_001", "msg_001", "ses_a", text_part("go"), T0 + 5)
        assert reader.poll().first_changed == 0
        assert len(reader.session.turns) == 1 and reader.session.turns[0].is_human
    finally:
        writer.close()


def test_deleted_messages_reload_the_session(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    try:
        add_session(writer, "ses_a")
        for n in range(3):
            put_message(writer, f"msg_00{n}", "ses_a", user_info(T0 + n), T0 + n)
            put_part(writer, f"prt_00{n}", f"msg_00{n}", "ses_a", text_part(f"m{n}"), T0 + n)
        reader = SPEC.open(SPEC.refs(db)[0])
        reader.poll()
        writer.execute("DELETE FROM part WHERE message_id = 'msg_002'")
        writer.execute("DELETE FROM message WHERE id = 'msg_002'")
        update = reader.poll()
        assert update.reloaded and update.first_changed == 0
        assert [t.text for t in reader.session.turns] == ["m0", "m1"]
    finally:
        writer.close()


def test_falls_back_to_immutable_when_read_only_open_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stands in for a WAL database in a directory we cannot write (no -shm can be made)."""
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    try:
        add_session(writer, "ses_a")
        put_message(writer, "msg_001", "ses_a", user_info(T0), T0)
        put_part(writer, "prt_001", "msg_001", "ses_a", text_part("hi"), T0)
        writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert (tmp_path / "opencode.db-wal").exists()  # opencode still has it open
        real_connect = opencode_db._connect

        def refuse_ro(uri: str) -> sqlite3.Connection:
            if "mode=ro" in uri:
                raise sqlite3.OperationalError("unable to open database file")
            return real_connect(uri)

        monkeypatch.setattr(opencode_db, "_connect", refuse_ro)
        reader = SPEC.open(SPEC.refs(db)[0])
        update = reader.poll()
        assert update.notice == FALLBACK_NOTICE
        assert [t.text for t in reader.session.turns] == ["hi"]
        assert reader.poll().notice is None  # said once
    finally:
        writer.close()


# ---------------------------------------------------------------------------
# Turn shapes


def _one_session_db(tmp_path: Path, messages: list[tuple[dict, list[dict]]]) -> Path:
    """A closed database (checkpointed, no -wal) holding one session with these messages."""
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    add_session(writer, "ses_a")
    for n, (info, parts) in enumerate(messages):
        mid = f"msg_{n:03d}"
        put_message(writer, mid, "ses_a", info, T0 + n)
        for k, part in enumerate(parts):
            put_part(writer, f"prt_{n:03d}_{k}", mid, "ses_a", part, T0 + n)
    writer.close()
    return db


def test_aborted_and_failed_assistant_messages(tmp_path: Path) -> None:
    aborted = {"name": "MessageAbortedError", "data": {"message": "The operation was aborted."}}
    api = {"name": "APIError", "data": {"message": "overloaded", "isRetryable": True}}
    interrupted_tool = {
        "type": "tool",
        "tool": "bash",
        "callID": "c9",
        "state": {
            "status": "error",
            "input": {"command": "sleep 100"},
            "error": "Tool execution aborted",
            "metadata": {"interrupted": True},
            "time": {"start": T0, "end": T0 + 900},
        },
    }
    db = _one_session_db(
        tmp_path,
        [
            (user_info(T0), [text_part("run it")]),
            (assistant_info(T0 + 1, "msg_000", error=aborted), [interrupted_tool]),
            (assistant_info(T0 + 2, "msg_000", error=api), []),
        ],
    )
    session, _ = read_all(db)
    cut, failed = session.turns[1], session.turns[2]
    assert cut.flags & TurnFlag.INTERRUPTED and not cut.flags & TurnFlag.ERROR
    assert cut.extra == {"error": "MessageAbortedError: The operation was aborted."}
    [call] = cut.tool_calls
    assert call.is_error and call.status == "error" and call.duration_ms == 900.0
    assert failed.flags & TurnFlag.ERROR and not failed.flags & TurnFlag.INTERRUPTED


def test_empty_quoted_space_and_synthetic_user_text(tmp_path: Path) -> None:
    file_read = text_part(
        'Called the Read tool with the following input: {"filePath":"a.py"}', synthetic=True
    )
    db = _one_session_db(
        tmp_path,
        [
            (user_info(T0), [text_part('" "')]),
            (user_info(T0 + 1), [text_part("")]),
            (user_info(T0 + 2), [text_part("  \n")]),
            (user_info(T0 + 3), [text_part("Continue if you have next steps", synthetic=True)]),
            (user_info(T0 + 4), [text_part("look at @a.py"), file_read]),
            (user_info(T0 + 5), [{"type": "compaction", "auto": False}]),
        ],
    )
    session, _ = read_all(db)
    quoted, empty, blank, nudge, mixed, manual = session.turns
    # opencode run quotes an argument with spaces: the person typed one space
    assert quoted.is_human and quoted.text == " " and quoted.preview == ""
    assert quoted.extra == {"raw_text": '" "'}
    assert empty.is_human and empty.text == "" and empty.extra is None
    assert blank.is_human and blank.text == "  \n" and blank.extra is None  # stays whitespace
    assert nudge.flags == TurnFlag.SYNTHETIC and nudge.text == "Continue if you have next steps"
    assert mixed.is_human and mixed.text == "look at @a.py"
    assert [p.kind for p in mixed.parts] == [PartKind.TEXT, PartKind.ATTACHMENT]
    assert manual.role is Role.SYSTEM
    assert manual.flags == TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
    assert manual.extra == {"auto": False, "overflow": False}


def test_file_subtask_and_step_parts(tmp_path: Path) -> None:
    parts = [
        {"type": "step-start"},
        {"type": "file", "mime": "image/png", "filename": "shot.png", "url": "data:..."},
        {"type": "subtask", "prompt": "p", "description": "find callers", "agent": "general"},
        {"type": "step-finish", "reason": "stop", "cost": 0, "tokens": {}},
        {"type": "snapshot", "snapshot": "abc"},
        {"type": "mystery-new-part", "x": 1},
    ]
    db = _one_session_db(tmp_path, [(assistant_info(T0, "msg_x"), parts)])
    session, _ = read_all(db)
    [turn] = session.turns
    assert [(p.kind, p.text) for p in turn.parts] == [
        (PartKind.ATTACHMENT, "[image/png shot.png]"),
        (PartKind.TEXT, "[subtask → general: find callers]"),
    ]


def test_child_sessions_are_refs_and_listed_in_parent(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    add_session(writer, "ses_parent", title="Parent", created=T0, updated=T0 + 100)
    add_session(writer, "ses_child", title="Child", parent="ses_parent", created=T0 + 5)
    add_session(writer, "ses_newest", title="Newest", created=T0 + 500)
    put_message(writer, "msg_1", "ses_child", user_info(T0 + 6), T0 + 6)
    writer.close()
    refs = SPEC.refs(db)
    assert [r.key for r in refs] == ["ses_newest", "ses_parent", "ses_child"]
    assert [r.turns for r in refs] == [0, 0, 1]
    session, _ = read_all(db, "ses_parent")
    assert [(c.key, c.title, c.path) for c in session.children] == [("ses_child", "Child", db)]


# ---------------------------------------------------------------------------
# Legacy storage/ tree (opencode < 1.2)


def _legacy_tree(data: Path) -> Path:
    storage = data / "storage"
    write_json(
        storage / "session/prj_1/ses_old.json",
        {
            "id": "ses_old",
            "projectID": "prj_1",
            "directory": "/home/dev/old",
            "title": "Old session",
            "version": "1.1.20",
            "time": {"created": T0, "updated": T0 + 9},
        },
    )
    for mid, info in (
        ("msg_001", user_info(T0)),
        ("msg_002", assistant_info(T0 + 1, "msg_001", completed=T0 + 8)),
    ):
        write_json(
            storage / f"message/ses_old/{mid}.json", {"id": mid, "sessionID": "ses_old", **info}
        )
    for pid, mid, part in (
        ("prt_001", "msg_001", text_part("tidy the repo")),
        ("prt_002", "msg_002", text_part("Done.")),
    ):
        record = {"id": pid, "sessionID": "ses_old", "messageID": mid, **part}
        write_json(storage / f"part/{mid}/{pid}.json", record)
    return storage


def test_legacy_tree_with_a_half_written_part(tmp_path: Path) -> None:
    storage = _legacy_tree(tmp_path)
    half = storage / "part/msg_002/prt_003.json"
    full = (
        '{\n  "id": "prt_003",\n  "messageID": "msg_002",\n  "type": "text",\n  "text": "More."\n}'
    )
    half.write_text(full[:30])
    assert SPEC.sniff(tmp_path, b"") and SPEC.sniff(storage, b"")
    [ref] = SPEC.refs(tmp_path)
    assert (ref.key, ref.title, ref.cwd, ref.turns) == (
        "ses_old",
        "Old session",
        "/home/dev/old",
        2,
    )
    reader = SPEC.open(ref)
    reader.poll()
    session = reader.session
    assert [t.text for t in session.turns] == ["tidy the repo", "Done."]
    assert session.turns[0].is_human and not session.skipped  # in flight: retried, not reported
    half.write_text(full)
    update = reader.poll()
    assert update.first_changed == 1
    assert [t.text for t in session.turns] == ["tidy the repo", "Done.\n\nMore."]
    assert not session.skipped and session.title == "Old session"
    assert reader.poll().first_changed is None


def test_legacy_corrupt_file_is_reported_once_when_it_stays_broken(tmp_path: Path) -> None:
    storage = _legacy_tree(tmp_path)
    (storage / "part/msg_002/prt_009.json").write_text('{"id": "prt_009", "ty')
    reader = SPEC.open(SPEC.refs(storage)[0])
    assert reader.poll().new_skipped == 0
    assert reader.poll().new_skipped == 1  # unchanged and still unreadable: corrupt
    assert reader.poll().new_skipped == 0
    assert "part/msg_002/prt_009.json" in reader.session.skipped[0].reason
    assert [t.text for t in reader.session.turns] == ["tidy the repo", "Done."]


def test_database_wins_over_leftover_json(tmp_path: Path) -> None:
    storage = _legacy_tree(tmp_path)
    write_json(
        storage / "session/prj_1/ses_only_json.json",
        {"id": "ses_only_json", "title": "Only JSON", "time": {"created": T0, "updated": T0}},
    )
    writer = create_db(tmp_path / "opencode.db")
    add_session(writer, "ses_old", title="Old session (migrated)")
    writer.close()
    refs = SPEC.refs(tmp_path)
    assert sorted((r.key, r.path.name) for r in refs) == [
        ("ses_old", "opencode.db"),
        ("ses_only_json", "storage"),
    ]


# ---------------------------------------------------------------------------
# Bad input never raises


def test_not_a_database_is_not_sniffed(tmp_path: Path) -> None:
    junk = tmp_path / "opencode.db"
    junk.write_bytes(b"this is not sqlite\n" * 10)
    assert not SPEC.sniff(junk, head(junk))
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (x)")
    conn.close()
    assert not SPEC.sniff(other, head(other))


def test_a_database_is_asked_of_the_database_formats_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text format's sniffer would try to decode SQLite pages as JSON lines (slowly)."""
    import pivotal.readers as registry
    from pivotal.readers.base import FormatSpec

    asked: list[str] = []

    def spying(spec: FormatSpec) -> FormatSpec:
        def sniff(path: Path, head: bytes) -> bool:
            asked.append(spec.name)
            return spec.sniff(path, head)

        return msgspec.structs.replace(spec, sniff=sniff)

    spied = [spying(spec) for spec in registry.specs()]
    monkeypatch.setattr(registry, "_iter_specs", lambda: iter(spied))
    db = tmp_path / "history.sqlite"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes (x)")
    conn.execute('INSERT INTO notes VALUES (\'{"type":"user","uuid":"u1"}\')')
    conn.commit()
    conn.close()
    assert registry.sniff_path(db) is None
    assert sorted(asked) == ["kilo", "opencode"]
    asked.clear()
    sessions = tmp_path / "opencode.db"
    shutil.copy(REAL_SHORT, sessions)
    assert registry.sniff_path(sessions).name == "opencode"
    assert "claude-code" not in asked
    asked.clear()
    text = tmp_path / "notes.jsonl"  # the same rows as text: every format may still claim it
    text.write_text('{"type":"user","uuid":"u1","sessionId":"s","message":{"content":"hi"}}\n')
    assert registry.sniff_path(text).name == "claude-code"


def test_corrupt_database_reports_a_skip_and_poll_does_not_raise(tmp_path: Path) -> None:
    broken = tmp_path / "opencode.db"
    broken.write_bytes(REAL_SHORT.read_bytes()[:100] + b"\xff" * 8000)
    ref = opencode_db._ref(broken, ("ses_x", None, "t", "/", T0, T0))
    reader = SPEC.open(ref)
    update = reader.poll()
    assert update.new_skipped == 1 and "not a readable opencode database" in update.notice
    assert reader.poll().new_skipped == 0  # reported once
    assert reader.session.turns == []
    broken.unlink()
    assert reader.poll().gone


def test_malformed_rows_are_skipped_and_the_rest_is_read(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    add_session(writer, "ses_a")
    put_message(writer, "msg_001", "ses_a", user_info(T0), T0)
    put_part(writer, "prt_001", "msg_001", "ses_a", text_part("hello"), T0)
    writer.execute(
        "INSERT INTO message VALUES ('msg_002', 'ses_a', ?, ?, '{\"role\": \"assis')", (T0, T0)
    )
    writer.execute("INSERT INTO part VALUES ('prt_002', 'msg_001', 'ses_a', ?, ?, '[1]')", (T0, T0))
    writer.close()
    session, update = read_all(db)
    assert [t.text for t in session.turns] == ["hello"]
    assert update.new_skipped == 2
    assert [s.reason.split(":")[0] for s in session.skipped] == ["message msg_002", "part prt_002"]


def test_legacy_deleted_message_file_reloads(tmp_path: Path) -> None:
    storage = _legacy_tree(tmp_path)
    reader = SPEC.open(SPEC.refs(storage)[0])
    reader.poll()
    (storage / "message/ses_old/msg_002.json").unlink()
    update = reader.poll()
    assert update.reloaded and update.first_changed == 0
    assert [t.text for t in reader.session.turns] == ["tidy the repo"]


def test_error_tool_whose_message_sits_in_output(tmp_path: Path) -> None:
    """The shared session generator (and so the benchmarks) writes errors this way."""
    part = {
        "type": "tool",
        "tool": "bash",
        "callID": "c1",
        "state": {"status": "error", "input": {"command": "x"}, "output": "boom", "metadata": {}},
    }
    db = _one_session_db(tmp_path, [(assistant_info(T0, "msg_x"), [part])])
    session, _ = read_all(db)
    [call] = session.turns[0].tool_calls
    assert call.is_error and call.output == "boom" and call.duration_ms is None


def test_legacy_child_sessions(tmp_path: Path) -> None:
    storage = _legacy_tree(tmp_path)
    write_json(
        storage / "session/prj_1/ses_sub.json",
        {
            "id": "ses_sub",
            "parentID": "ses_old",
            "title": "Find callers (@general subagent)",
            "time": {"created": T0 + 3, "updated": T0 + 4},
        },
    )
    assert {r.key for r in SPEC.refs(storage)} == {"ses_old", "ses_sub"}
    session, _ = read_all(storage, "ses_old")
    assert [(c.key, c.title) for c in session.children] == [
        ("ses_sub", "Find callers (@general subagent)")
    ]
    child, _ = read_all(storage, "ses_sub")
    assert child.children == [] and child.turns == []


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)
_keys = st.sampled_from(
    [
        "role",
        "type",
        "text",
        "synthetic",
        "time",
        "tokens",
        "error",
        "summary",
        "state",
        "tool",
        "status",
        "input",
        "output",
        "metadata",
        "exit",
        "start",
        "end",
        "cache",
        "name",
        "auto",
    ]
)
_record = st.dictionaries(_keys, _json | st.dictionaries(_keys, _json, max_size=4), max_size=6)


@settings(max_examples=200, deadline=None)
@given(
    info=_record, parts=st.lists(_record, max_size=4), role=st.sampled_from(["user", "assistant"])
)
def test_any_json_shape_becomes_a_turn_without_raising(info, parts, role) -> None:
    info = {**info, "role": role}
    turn = build_turn("msg_1", info, parts)
    assert turn.message_id == "msg_1" and isinstance(turn.preview, str)
    for call in turn.tool_calls:
        assert isinstance(call.name, str)


def test_a_read_that_fails_midway_loses_no_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows come in id order, not time order: a failure must not move the watermark."""
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    add_session(writer, "ses_a")
    put_message(writer, "msg_001", "ses_a", assistant_info(T0, "msg_0"), T0)
    put_part(writer, "prt_001", "msg_001", "ses_a", text_part("newer"), T0 + 50)
    put_part(writer, "prt_002", "msg_001", "ses_a", text_part("older"), T0 + 10)
    writer.close()
    reader = SPEC.open(SPEC.refs(db)[0])
    real_decode = opencode_db.DbReader._decode
    calls = {"n": 0}

    def flaky(self, data, what):  # noqa: ANN001, ANN202 - test double
        if what == "part prt_002" and calls["n"] == 0:
            calls["n"] += 1
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real_decode(self, data, what)

    monkeypatch.setattr(opencode_db.DbReader, "_decode", flaky)
    reader.poll()
    update = reader.poll()
    assert update.first_changed == 0
    assert reader.session.turns[0].text == "newer\n\nolder"


def test_folders_left_by_a_killed_pivotal_are_removed_and_nothing_else(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a process id nobody holds now
    old = time.time() - 2 * 3600
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "keep.db").write_bytes(b"x")
    names = {
        "abandoned": f"{PREFIX}{gone.pid}-a1b2",
        "recent": f"{PREFIX}{gone.pid}-c3d4",
        "alive": f"{PREFIX}{os.getpid()}-e5f6",
        "no pid": f"{PREFIX}g7h8i9j0",
        "a link": f"{PREFIX}{gone.pid}-link",
        "a file": f"{PREFIX}{gone.pid}-file",
    }
    for what, name in names.items():
        path = tmp_path / name
        if what == "a link":
            path.symlink_to(outside, target_is_directory=True)
        elif what == "a file":
            path.write_bytes(b"not ours")
        else:
            path.mkdir()
            (path / "opencode.db").write_bytes(b"copy")
        if what != "recent":
            os.utime(path, (old, old), follow_symlinks=False)
    removed = remove_abandoned(tmp_path)
    assert removed == [tmp_path / names["abandoned"]]
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {"elsewhere", *(n for w, n in names.items() if w != "abandoned")}
    assert (outside / "keep.db").read_bytes() == b"x"
