"""Fuzzing beyond the line readers (bounded; PIVOTAL_FUZZ=1 for a long run): issue 18.

* every sniffer, called directly (the registry hides a sniffer that raises), over
  the records of every real client's files with wrong types in any field;
* the single-JSON documents (Gemini's legacy chat, generic chat JSON);
* opencode databases whose rows hold any SQLite type in any column, and
  opencode's legacy `storage/` tree with wrong types in any field of any file;
* what consumers do with a fuzzed session: scan's table, --explain and JSON,
  and the four exports;
* a notes store with random pages damaged: opening it read-only raises nothing
  but NotesError, and what is salvaged is only ever what was written.

The properties: a sniff never raises; a read raises nothing but `read_errors()`;
every session read passes `check_consumable`.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from pivotal.readers import find_sessions, open_reader, read_errors, specs
from readers.fuzzing import mutated
from readers.opencode_builders import (
    REAL_SHORT,
    T0,
    assistant_info,
    bash_part,
    text_part,
    user_info,
)

from .fuzz_support import (
    FIXTURES,
    FUZZ_SETTINGS,
    JSON_FORMATS,
    JSON_IDS,
    LineFormat,
    encode,
    materialize,
    read,
    session_file,
)

ROOT = Path(__file__).resolve().parents[1] / "fixtures"
MAX_FIXTURE = 256 * 1024


def _fixture_files() -> list[Path]:
    files = [
        p
        for p in sorted(ROOT.rglob("*"))
        if p.is_file() and p.suffix in (".json", ".jsonl") and p.stat().st_size <= MAX_FIXTURE
    ]
    return files + sorted(FIXTURES.glob("*.jsonl"))


FIXTURE_FILES = _fixture_files()


def _records(path: Path) -> tuple[list[object], bool]:
    """The file's records and whether it is JSONL (else one JSON document)."""
    data = path.read_bytes()
    try:
        return [json.loads(data)], False
    except ValueError:
        pass
    records = []
    for line in data.splitlines()[:60]:
        try:
            records.append(json.loads(line))
        except ValueError:
            continue
    return records, True


def _write_like(source: Path, folder: Path, records: list[object], jsonl: bool) -> Path:
    """`records` written under the source's last two path parts (some sniffs look at names)."""
    target = folder / source.parent.name / source.name
    target.parent.mkdir(parents=True)
    if jsonl:
        target.write_bytes(b"\n".join(encode(r) for r in records) + b"\n")
    else:
        target.write_bytes(encode(records[0]) if records else b"")
    return target


def test_the_fixture_set_covers_every_format() -> None:
    sniffed = set()
    for path in FIXTURE_FILES:
        found = find_sessions([path])
        sniffed.update(ref.format for ref in found.refs)
    # databases and session folders are fuzzed elsewhere; aider's Markdown gets random bytes
    # (test_reader_fuzz.test_sniffing_and_finding_never_raise)
    wanted = {s.name for s in specs()} - {"opencode", "kilo", "vibe", "cline", "aider"}
    assert wanted <= sniffed, wanted - sniffed


@FUZZ_SETTINGS
@given(st.data())
def test_no_sniffer_raises_on_records_of_any_shape(data: st.DataObject) -> None:
    source = data.draw(st.sampled_from(FIXTURE_FILES), label="fixture")
    records, jsonl = _records(source)
    changed = mutated(data, records[:40])
    with tempfile.TemporaryDirectory(prefix="pivotal-sniff-fuzz-") as folder:
        path = _write_like(source, Path(folder), changed, jsonl)
        head = path.read_bytes()[: 64 * 1024]
        for spec in specs():
            spec.sniff(path, head)  # a raise here fails the test: sniffs never raise
            spec.sniff(path.parent, b"")
        find_sessions([path, path.parent])


DOCUMENTS = [
    (ROOT / "gemini" / "legacy-session.json", "pivotal.readers.gemini"),
    (ROOT / "generic" / "chat.json", "pivotal.readers.generic"),
    (ROOT / "generic" / "blocks.json", "pivotal.readers.generic"),
]


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(DOCUMENTS))
def test_single_json_documents_with_wrong_types_in_any_field(
    data: st.DataObject, document: tuple[Path, str]
) -> None:
    source, module = document
    fmt = LineFormat(module, (), ".json")
    spec = fmt.spec()
    doc = json.loads(source.read_bytes())
    [changed] = mutated(data, [doc], rounds=8)
    with tempfile.TemporaryDirectory(prefix="pivotal-doc-fuzz-") as folder:
        path = Path(folder) / source.name
        path.write_bytes(encode(changed))
        read(spec, path)  # anything but read_errors() fails the test
        find_sessions([path])


SQL_VALUES = st.one_of(
    st.none(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=20),
    st.binary(max_size=20),
    st.sampled_from(["1e20", "12345678901234567890", "{}", "[]", "null", '{"role": 3}']),
)
_COLUMNS = {
    "session": ["id", "parent_id", "title", "directory", "time_created", "time_updated"],
    "message": ["id", "session_id", "time_created", "time_updated", "data"],
    "part": ["id", "message_id", "session_id", "time_created", "time_updated", "data"],
}


@FUZZ_SETTINGS
@given(
    st.lists(
        st.tuples(st.sampled_from(sorted(_COLUMNS)), st.integers(0, 400), st.data()),
        min_size=1,
        max_size=8,
    )
)
def test_opencode_rows_of_any_type_in_any_column(changes: list) -> None:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory(prefix="pivotal-db-fuzz-") as folder:
        path = Path(folder) / "opencode.db"
        shutil.copyfile(REAL_SHORT, path)
        conn = sqlite3.connect(path)
        try:
            for table, row, data in changes:
                column = data.draw(st.sampled_from(_COLUMNS[table]), label="column")
                value = data.draw(SQL_VALUES, label="value")
                conn.execute(
                    f"UPDATE OR IGNORE {table} SET {column} = ? WHERE rowid = ("
                    f"SELECT rowid FROM {table} ORDER BY rowid LIMIT 1 OFFSET ?)",
                    (value, row % 40),
                )
            conn.commit()
        except sqlite3.IntegrityError:
            pass  # NOT NULL refuses it: SQLite would for opencode too
        finally:
            conn.close()
        read_found(path)


def read_found(path: Path) -> None:
    """Read every session found at `path` in full: a clean read error is fine, nothing else."""
    for ref in find_sessions([path]).refs:
        reader = open_reader(ref)
        try:
            reader.poll(final=True)
            materialize(reader)
        except read_errors():
            pass
        finally:
            reader.close()


def _legacy_records() -> dict[str, dict]:
    """A legacy opencode `storage/` tree (relative path -> record), shaped as opencode 1.1 wrote."""
    files: dict[str, dict] = {
        "session/prj_1/ses_old.json": {
            "id": "ses_old",
            "projectID": "prj_1",
            "directory": "/home/dev/old",
            "title": "Old session",
            "version": "1.1.20",
            "time": {"created": T0, "updated": T0 + 9},
        }
    }
    infos = (("msg_001", user_info(T0)), ("msg_002", assistant_info(T0 + 1, "msg_001")))
    for mid, info in infos:
        files[f"message/ses_old/{mid}.json"] = {"id": mid, "sessionID": "ses_old", **info}
    parts = (
        ("prt_001", "msg_001", text_part("tidy the repo")),
        ("prt_002", "msg_002", bash_part("call_1", "ls", "completed", output="a")),
        ("prt_003", "msg_002", text_part("Done.")),
    )
    for pid, mid, part in parts:
        record = {"id": pid, "sessionID": "ses_old", "messageID": mid, **part}
        files[f"part/{mid}/{pid}.json"] = record
    return files


LEGACY = _legacy_records()


def write_legacy(folder: Path, names: list[str], records: list[object]) -> Path:
    storage = folder / "opencode" / "storage"
    for name, record in zip(names, records, strict=True):
        target = storage / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(encode(record))
    return storage.parent


def test_the_legacy_tree_unchanged_is_read(tmp_path: Path) -> None:
    [ref] = find_sessions(
        [write_legacy(tmp_path, sorted(LEGACY), [LEGACY[n] for n in sorted(LEGACY)])]
    ).refs
    reader = open_reader(ref)
    reader.poll(final=True)
    assert [t.text for t in reader.session.turns] == ["tidy the repo", "Done."]
    assert reader.session.turns[1].tool_calls[0].output == "a"


@FUZZ_SETTINGS
@given(st.data())
def test_opencode_legacy_tree_with_wrong_types_in_any_field(data: st.DataObject) -> None:
    names = sorted(LEGACY)
    changed = mutated(data, [LEGACY[n] for n in names])
    with tempfile.TemporaryDirectory(prefix="pivotal-legacy-fuzz-") as folder:
        read_found(write_legacy(Path(folder), names, changed))


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(JSON_FORMATS))
def test_consumers_of_a_fuzzed_session_never_fail(data: st.DataObject, fmt: LineFormat) -> None:
    assert fmt.id in JSON_IDS
    """scan (table, --explain, --json) and every export of whatever a reader made of it."""
    from pivotal.export import FORMATS, build_input, render
    from pivotal.scan.report import explain, pivot_table, session_header, session_json

    spec = fmt.spec()
    records = [json.loads(line) for line in fmt.lines()]
    changed = mutated(data, records, rounds=8)
    with session_file(b"\n".join(encode(r) for r in changed) + b"\n", fmt) as path:
        for ref in find_sessions([path]).refs or spec.refs(path):
            [session] = read(spec, ref.path)
            export = build_input(ref, session, with_notes=False)
            msgspec.json.encode(session_json(ref, session, export.pivots))
            session_header(ref, session)
            pivot_table(session, export.pivots)
            for pivot in export.pivots:
                explain(session, pivot)
            for name in FORMATS:
                render(name, export)
