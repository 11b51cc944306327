"""Shared pieces of the new readers' fuzz tests (bounded; PIVOTAL_FUZZ=1 for a long run).

Each test mutates the records of a real client's files (any field replaced by a
value of any JSON type, or removed), then sniffs, lists and reads them the way the
app does. The property is always the same: sniffing never raises, and reading
raises nothing but `read_errors()` (bad files are reported as skipped records).
`lengthened` makes a first record longer than the sniff head (test_long_first_record_fuzz.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from hypothesis import strategies as st

from hardening.fuzz_support import (
    FUZZ_SETTINGS,
    JSON_VALUES,
    json_paths,
    lengthened,
    materialize,
    mutate,
    read,
    refs_for,
    signature,
)
from pivotal.readers import find_sessions, read_errors, sniff_path
from pivotal.readers.base import FormatSpec

__all__ = [
    "FUZZ_SETTINGS",
    "JSON_VALUES",
    "batch_shows_what_following_shows",
    "lengthened",
    "mutated",
    "read_everything",
]


def mutated(data: st.DataObject, records: list[object], rounds: int = 6) -> list[object]:
    """A deep copy of `records` with up to `rounds` random fields changed or deleted."""
    out = json.loads(json.dumps(records))
    if not out:
        return out
    for _ in range(data.draw(st.integers(1, rounds), label="mutations")):
        index = data.draw(st.integers(0, len(out) - 1), label="record")
        path = data.draw(st.sampled_from(json_paths(out[index])), label="path")
        new = data.draw(JSON_VALUES, label="value")
        delete = data.draw(st.booleans(), label="delete")
        out[index] = mutate(out[index], path, new, delete)
    return out


def read_everything(path: Path, spec: FormatSpec | None = None) -> None:
    """Sniff, list and read every session under `path`; only read_errors() may escape."""
    sniff_path(path)
    found = find_sessions([path])
    refs = list(found.refs)
    if spec is not None and not refs:
        spec.sniff(path, _head(path))
        refs = spec.refs(path)  # read it anyway: a reader must cope with what it was given
    for ref in refs:
        try:
            read(_spec_of(ref.format, spec), ref.path)
        except read_errors():
            pass


def batch_shows_what_following_shows(spec: FormatSpec, path: Path) -> None:
    """A batch read (Cline, Continue, Kimi, Vibe, Kilo: an index, each turn's parts decoded
    again on demand) shows exactly what a followed read of the same files (parts held in
    memory) shows."""
    for ref in refs_for(spec, path):
        sessions = []
        for polls in ((True,), (False, True)):
            reader = spec.open(ref)
            try:
                for final in polls:
                    reader.poll(final=final)
                materialize(reader)
            except read_errors():
                return
            finally:
                reader.close()
            sessions.append(signature([reader.session]))
        assert sessions[0] == sessions[1]


def _head(path: Path) -> bytes:
    if path.is_dir():
        return b""
    with open(path, "rb") as handle:
        return handle.read(64 * 1024)


def _spec_of(name: str, fallback: FormatSpec | None) -> FormatSpec:
    from pivotal.readers import spec_for

    try:
        return spec_for(name)
    except KeyError:
        assert fallback is not None
        return fallback


# -- colour escapes in the newer readers' homes (issue 34) -------------------------------
#
# A tool's colours and a terminal's controls in any text of a session, written the two
# ways a file can hold them: as JSON escapes (`\u001b`, what the clients write) and as
# raw bytes inside the JSON strings (invalid JSON: a damaged or hand-made file, which
# the readers repair). Both must read as the same session: the repair loses nothing.

NEWER_HOMES = {
    "kimi": (("kimi-short", "kimi-autocompact"), ".kimi"),
    "vibe": (("vibe-short", "vibe-autocompact"), ".vibe"),
    "kilo": (("kilo-short", "kilo-autocompact"), ".local/share/kilo"),
    "cline": (("cline-short", "cline-bigoutput"), ".cline"),
    "continue": (("continue-short", "continue-autocompact"), ".continue"),
    "qwen": (("qwen-short", "qwen-autocompact"), ".qwen"),
}
"""Reader -> (the real client homes it is fuzzed with, the folder of the home it reads)."""

SCRATCH = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
"""Where the homes are copied: in memory when the system has it (each example copies two)."""

ESCAPES = st.sampled_from(
    [
        "\x1b[31m",  # 16 colours
        "\x1b[1;92m",
        "\x1b[0m",
        "\x1b[m",
        "\x1b[38;5;208m",  # 256 colours
        "\x1b[48;2;10;20;30m",  # truecolour, both syntaxes
        "\x1b[38:2::255:0:0m",
        "\x1b[38;5m",  # malformed colours
        "\x1b[999999999999m",
        "\x1b[2J\x1b[H",  # cursor and screen
        "\x1b[10;20H",
        "\x1b]0;title\x07",  # window title, hyperlink, clipboard
        "\x1b]8;;https://example.invalid\x1b\\link\x1b]8;;\x1b\\",
        "\x1b]52;c;cHduZWQ=\x07",
        "\x1bP1$r0m\x1b\\",  # DCS
        "\x1b",  # a lone ESC, and one cut before its end
        "\x1b[3",
        "\x07\x08\r\x00\x0b\x0c\x7f",  # raw C0 controls and DEL
        "\x9b31m\x9d0;t\x9c",  # C1: 8-bit CSI, OSC, ST
        "\u202e\u2066\u200b\ufeff",  # bidi override, isolate, invisible
    ]
)
ESCAPE_TEXT = st.lists(
    st.one_of(ESCAPES, st.text(alphabet="abc xyz\n\t{}[]\"'\\*_<>é€😀", max_size=12)),
    min_size=1,
    max_size=24,
).map("".join)
"""Text full of escapes and controls, with a little ordinary text between them."""

CONTENT_KEYS = frozenset(
    "text content output think thinking user_input result stdout stderr message title"
    " summary outputText resultDisplay error query command prompt arguments custom_title"
    " conversationSummary editorState description name".split()
)
"""Keys whose string values are what a person reads: coloured first."""

_CONTROL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\(u00[01][0-9a-f]|b|f)")
"""A JSON escape of a control character, not itself escaped (an even run of backslashes)."""
_KEPT = {"u0009", "u000a", "u000d"}  # tab, newline, CR: between values they are whitespace


def string_paths(value: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a string value inside a decoded JSON value."""
    if isinstance(value, str):
        return [prefix]
    paths: list[tuple] = []
    if isinstance(value, dict):
        for key, item in value.items():
            paths += string_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += string_paths(item, (*prefix, index))
    return paths


def coloured(data: st.DataObject, records: list[object], rounds: int = 6) -> list[object]:
    """A deep copy of `records` with up to `rounds` string values given escapes.

    A value is replaced, or escapes go before it, after it or around it; values
    under a key a person reads (`CONTENT_KEYS`) are chosen first.
    """
    out = json.loads(json.dumps(records))
    paths = [(i, p) for i, record in enumerate(out) for p in string_paths(record)]
    if not paths:
        return out
    read_by_people = [(i, p) for i, p in paths if p and p[-1] in CONTENT_KEYS]
    for _ in range(data.draw(st.integers(1, rounds), label="coloured values")):
        anywhere = data.draw(st.booleans(), label="any string") or not read_by_people
        index, path = data.draw(st.sampled_from(paths if anywhere else read_by_people))
        old = _at(out[index], path)
        new = data.draw(ESCAPE_TEXT, label="escapes")
        how = data.draw(st.sampled_from(["replace", "before", "after", "around"]), label="how")
        value = {
            "replace": new,
            "before": new + old,
            "after": old + new,
            "around": f"\x1b[1;31m{old}\x1b[0m{new}",
        }[how]
        out[index] = mutate(out[index], path, value, delete=False)
    return out


def _at(value: object, path: tuple) -> str:
    for key in path:
        value = value[key]  # type: ignore[index]
    assert isinstance(value, str)
    return value


def raw_json(value: object) -> str:
    """Compact JSON of `value` with its control characters written raw (not as escapes)."""
    return _CONTROL_ESCAPE.sub(_raw, json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _raw(match: re.Match[str]) -> str:
    escape = match.group(2)
    if escape in _KEPT:
        return match.group(0)
    char = {"b": "\b", "f": "\f"}.get(escape) or chr(int(escape[1:], 16))
    return match.group(1) + char


def colour_home(data: st.DataObject, source: Path, escaped: Path, raw: Path) -> None:
    """Copy the home `source` twice with the same escapes put into its sessions' text:
    as JSON escapes under `escaped`, as raw control bytes under `raw`."""
    shutil.copytree(source, escaped)
    shutil.copytree(source, raw)
    files = _json_files(escaped)
    pool = [record for _, _, records in files for record in records if record is not _NOT_JSON]
    changed = iter(coloured(data, pool))
    for path, kind, records in files:
        new = [next(changed) if r is not _NOT_JSON else r for r in records]
        target = raw / path.relative_to(escaped)
        if kind == "db":
            _write_rows(path, target, new)
        elif kind == "document":
            path.write_text(json.dumps(new[0], ensure_ascii=False))
            target.write_text(raw_json(new[0]))
        else:
            lines = path.read_text().splitlines()
            escaped_lines = [
                json.dumps(r, ensure_ascii=False) if r is not _NOT_JSON else line
                for r, line in zip(new, lines, strict=True)
            ]
            raw_lines = [
                raw_json(r) if r is not _NOT_JSON else line
                for r, line in zip(new, lines, strict=True)
            ]
            path.write_text("\n".join(escaped_lines) + "\n")
            target.write_text("\n".join(raw_lines) + "\n")


_NOT_JSON = object()
"""A line of a JSONL file that is not JSON: written back as it was."""


def _json_files(home: Path) -> list[tuple[Path, str, list]]:
    """(file, kind, records) of every JSON document, JSONL file and opencode-style database."""
    found: list[tuple[Path, str, list]] = []
    for path in sorted(p for p in home.rglob("*") if p.is_file()):
        if path.suffix == ".db":
            rows = _rows(path)
            if rows:
                found.append((path, "db", [json.loads(data) for _, _, data in rows]))
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        try:
            found.append((path, "document", [json.loads(text)]))
            continue
        except ValueError:
            pass
        records: list[object] = []
        for line in text.splitlines():
            try:
                records.append(json.loads(line))
            except ValueError:
                records.append(_NOT_JSON)
        found.append((path, "lines", records))
    return found


def _rows(path: Path) -> list[tuple[str, int, str]]:
    import sqlite3

    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master")}
        return [
            (table, rowid, data)
            for table in ("message", "part")
            if table in tables
            for rowid, data in conn.execute(f"SELECT rowid, data FROM {table} ORDER BY rowid")
        ]
    finally:
        conn.close()


def _write_rows(escaped: Path, raw: Path, records: list[object]) -> None:
    """Each row's record into both databases; a row whose raw form the database refuses (an
    index reads its JSON) keeps its escapes: no real database can hold it raw either."""
    import sqlite3

    rows = _rows(escaped)
    with sqlite3.connect(escaped) as plain, sqlite3.connect(raw) as rawdb:
        for (table, rowid, _), record in zip(rows, records, strict=True):
            update = f"UPDATE {table} SET data = ? WHERE rowid = ?"
            text = json.dumps(record, ensure_ascii=False)
            plain.execute(update, (text, rowid))
            try:
                rawdb.execute(update, (raw_json(record), rowid))
            except sqlite3.OperationalError:
                rawdb.execute(update, (text, rowid))
    plain.close()
    rawdb.close()
