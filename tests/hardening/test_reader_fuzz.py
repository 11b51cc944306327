"""Property-based fuzzing of every line-based reader (bounded; PIVOTAL_FUZZ=1 for a long run).

Properties: nothing raises out of `poll`/`read`; a malformed line never costs the
valid records around it (same turns as the clean file) and is reported with its
line number; reading is deterministic; reading in appended pieces ends where one
batch read ends.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pivotal.readers import find_sessions, read_errors, sniff_path, specs
from pivotal.readers.base import FormatSpec
from readers.fuzzing import NEWER_HOMES, SCRATCH, colour_home
from readers.realhome import REAL

from .fuzz_support import (
    FUZZ_SETTINGS,
    IDS,
    JSON_FORMATS,
    JSON_IDS,
    JSON_VALUES,
    LINE_FORMATS,
    LineFormat,
    encode,
    garbage_line,
    json_paths,
    lengthened,
    materialize,
    mutate,
    read,
    refs_for,
    session_file,
    signature,
    skipped_lines,
)


def read_bytes(spec: FormatSpec, fmt: LineFormat, data: bytes) -> tuple:
    """Read `data` twice; both reads must agree (determinism), return the signature."""
    with session_file(data, fmt) as path:
        first = signature(read(spec, path))
        second = signature(read(spec, path))
    assert first == second
    return first


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=IDS)
def test_random_bytes(fmt: LineFormat) -> None:
    spec = fmt.spec()

    @FUZZ_SETTINGS
    @given(st.binary(max_size=4096))
    def check(data: bytes) -> None:
        read_bytes(spec, fmt, data)

    check()


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=IDS)
def test_random_lines_mixed_with_real_ones(fmt: LineFormat) -> None:
    spec = fmt.spec()
    valid = fmt.lines()
    line = st.one_of(st.sampled_from(valid), garbage_line(valid), st.binary(max_size=80))

    @FUZZ_SETTINGS
    @given(st.lists(line, max_size=40), st.sampled_from([b"\n", b"\r\n"]), st.booleans())
    def check(lines: list[bytes], newline: bytes, final_newline: bool) -> None:
        data = newline.join(lines) + (newline if final_newline else b"")
        read_bytes(spec, fmt, data)

    check()


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_records_with_random_field_types_and_missing_fields(fmt: LineFormat) -> None:
    spec = fmt.spec()
    records = [json.loads(line) for line in fmt.lines()]

    @FUZZ_SETTINGS
    @given(st.data())
    def check(data: st.DataObject) -> None:
        mutated = json.loads(json.dumps(records))
        for _ in range(data.draw(st.integers(1, 6), label="mutations")):
            index = data.draw(st.integers(0, len(mutated) - 1), label="record")
            path = data.draw(st.sampled_from(json_paths(mutated[index])), label="path")
            new = data.draw(JSON_VALUES, label="value")
            delete = data.draw(st.booleans(), label="delete")
            mutated[index] = mutate(mutated[index], path, new, delete)
        read_bytes(spec, fmt, b"\n".join(encode(r) for r in mutated) + b"\n")

    check()


@pytest.mark.parametrize("fmt", JSON_FORMATS, ids=JSON_IDS)
def test_garbage_lines_cost_nothing_and_are_reported(fmt: LineFormat) -> None:
    spec = fmt.spec()
    for fixture in fmt.fixtures:
        valid = fmt.lines(fixture)
        clean = read_bytes(spec, fmt, b"\n".join(valid) + b"\n")
        _check_garbage(spec, fmt, valid, clean)


def _check_garbage(spec: FormatSpec, fmt: LineFormat, valid: list[bytes], clean: tuple) -> None:
    first = 1 if fmt.first_line_decides else 0
    positions = st.integers(first, len(valid))

    @FUZZ_SETTINGS
    @given(st.lists(st.tuples(positions, garbage_line(valid)), max_size=6))
    def check(inserts: list[tuple[int, bytes]]) -> None:
        lines: list[bytes | None] = list(valid)
        for position, garbage in sorted(inserts, key=lambda item: -item[0]):
            lines.insert(position, garbage)
        bad = {n for n, line in enumerate(lines, 1) if line not in valid}
        data = b"\n".join(line for line in lines if line is not None) + b"\n"
        with session_file(data, fmt) as path:
            sessions = read(spec, path)
        assert signature(sessions, lines=False) == signature_without_lines(clean)
        assert bad <= skipped_lines(sessions), "malformed lines must be reported by number"

    check()


def signature_without_lines(full: tuple) -> tuple:
    """Drop line numbers from a `signature(lines=True)` tuple."""
    result = []
    for session_id, cwd, turns, branches, _skipped in full:
        result.append(
            (
                session_id,
                cwd,
                tuple(t[:-1] for t in turns),
                tuple(tuple(t[:-1] for t in branch) for branch in branches),
                (),
            )
        )
    return tuple(result)


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=IDS)
def test_truncated_duplicated_and_reordered_lines(fmt: LineFormat) -> None:
    spec = fmt.spec()
    valid = fmt.lines()

    @FUZZ_SETTINGS
    @given(
        st.lists(st.integers(0, len(valid) - 1), min_size=1, max_size=len(valid) * 2),
        st.integers(0, 1 << 20),
    )
    def check(order: list[int], cut: int) -> None:
        data = b"\n".join(valid[i] for i in order) + b"\n"
        read_bytes(spec, fmt, data[: cut % (len(data) + 1)])

    check()


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=IDS)
def test_reading_in_appended_pieces_ends_like_one_batch_read(fmt: LineFormat) -> None:
    spec = fmt.spec()
    data = b"\n".join(fmt.lines()) + b"\n"
    with session_file(data, fmt) as path:
        batch = signature(read(spec, path))

    @FUZZ_SETTINGS
    @given(st.lists(st.integers(0, len(data)), max_size=8))
    def check(cuts: list[int]) -> None:
        with session_file(b"", fmt) as path:
            ref = refs_for(spec, path)[0]
            reader = spec.open(ref)
            try:
                written = 0
                for cut in sorted(set(cuts)):
                    with open(path, "ab") as handle:
                        handle.write(data[written:cut])
                    written = cut
                    reader.poll()
                with open(path, "ab") as handle:
                    handle.write(data[written:])
                reader.poll(final=True)
                materialize(reader)
            finally:
                reader.close()
            assert signature([reader.session]) == batch

    check()


@pytest.mark.parametrize("fmt", LINE_FORMATS, ids=IDS)
def test_a_first_record_longer_than_the_sniff_head(fmt: LineFormat) -> None:
    """The format is still told from the file, and the file reads as the short one does."""
    spec = fmt.spec()
    for fixture in fmt.fixtures:
        valid = fmt.lines(fixture)
        _check_long_first_record(spec, fmt, valid, read_bytes(spec, fmt, b"\n".join(valid) + b"\n"))


def _check_long_first_record(
    spec: FormatSpec, fmt: LineFormat, valid: list[bytes], clean: tuple
) -> None:
    @FUZZ_SETTINGS
    @given(st.data())
    def check(data: st.DataObject) -> None:
        if fmt.json_lines:
            records, _ = lengthened(data, [json.loads(line) for line in valid])
            lines = [encode(record) for record in records]
        else:  # aider: the first message the person typed is the long one
            (line,) = [n for n, text in enumerate(valid) if text.startswith(b"#### ")][:1]
            [filler], _ = lengthened(data, [valid[line].decode()])
            lines = list(valid)
            lines[line] = filler.replace("\n", " ").replace("\r", " ").encode()
        with session_file(b"\n".join(lines) + b"\n", fmt) as path:
            assert sniff_path(path) is spec
            sessions = read(spec, path)
        assert [_shape(s) for s in sessions] == [_shape_of(s) for s in clean]
        assert not any(s.skipped for s in sessions)

    check()


def _shape(session) -> tuple:  # type: ignore[no-untyped-def]
    """Who spoke, in order, with the turn's flags: what a long text must not change."""
    return tuple((str(t.role), int(t.flags)) for t in session.turns)


def _shape_of(signed: tuple) -> tuple:
    _id, _cwd, turns, _branches, _skipped = signed
    return tuple((role, flags) for role, flags, *_rest in turns)


@FUZZ_SETTINGS
@given(st.binary(max_size=2048), st.sampled_from([".jsonl", ".json", ".md", ".db"]))
def test_sniffing_and_finding_never_raise(data: bytes, suffix: str) -> None:
    fmt = LineFormat("pivotal.readers.claude_code", (), suffix)
    with session_file(data, fmt) as path:
        for spec in specs():  # directly: the registry would hide a sniffer that raises
            spec.sniff(path, data[: 64 * 1024])
        found = find_sessions([path])
        found_dir = find_sessions([Path(path).parent])
    assert len(found.refs) + len(found.problems) >= 1
    assert len(found_dir.refs) + len(found_dir.problems) >= 1


# -- colour escapes in the six newer readers' homes (issue 34) ---------------------------


@pytest.mark.parametrize("reader", sorted(NEWER_HOMES))
def test_newer_readers_with_colour_escapes_in_any_text(reader: str) -> None:
    """Escapes and controls in any text of a real client's home, written as JSON escapes and
    as raw bytes: both read as the same session (the repair of the raw ones loses nothing),
    and no export lets one through as itself."""
    homes, folder = NEWER_HOMES[reader]

    @FUZZ_SETTINGS
    @given(st.data(), st.sampled_from(homes))
    def check(data: st.DataObject, home: str) -> None:
        with tempfile.TemporaryDirectory(prefix=f"pivotal-{reader}-", dir=SCRATCH) as root:
            escaped, raw = Path(root) / "escaped", Path(root) / "raw"
            colour_home(data, REAL / home, escaped, raw)
            expected = _read_home(escaped / folder)
            seen = _read_home(raw / folder)
            assert seen == expected
            for ref in find_sessions([raw / folder]).refs:
                _export_everything(ref)

    check()


def _read_home(folder: Path) -> list[tuple]:
    """(format, what a user could see) of every session found under `folder`."""
    from pivotal.readers import spec_for

    found = []
    for ref in find_sessions([folder]).refs:
        try:
            found.append((ref.format, signature(read(spec_for(ref.format), ref.path))))
        except read_errors() as exc:
            found.append((ref.format, type(exc).__name__))
    return found


def _export_everything(ref) -> None:  # type: ignore[no-untyped-def]
    """Every export and scan line of the session: no escape or control reaches them raw."""
    from pivotal.export import FORMATS, build_input, render
    from pivotal.readers import spec_for
    from pivotal.scan.report import pivot_table, session_header

    try:
        [session] = read(spec_for(ref.format), ref.path)
    except read_errors():
        return
    export = build_input(ref, session, with_notes=False)
    shown = [session_header(ref, session), "\n".join(pivot_table(session, export.pivots))]
    shown += [render(name, export) for name in FORMATS]
    for text in shown:
        assert not _RAW_CONTROL.search(text), _RAW_CONTROL.search(text)


_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
