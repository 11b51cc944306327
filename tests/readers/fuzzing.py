"""Shared pieces of the new readers' fuzz tests (bounded; PIVOTAL_FUZZ=1 for a long run).

Each test mutates the records of a real client's files (any field replaced by a
value of any JSON type, or removed), then sniffs, lists and reads them the way the
app does. The property is always the same: sniffing never raises, and reading
raises nothing but `read_errors()` (bad files are reported as skipped records).
`lengthened` makes a first record longer than the sniff head (test_long_first_record_fuzz.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import strategies as st

from hardening.fuzz_support import (
    FUZZ_SETTINGS,
    JSON_VALUES,
    json_paths,
    lengthened,
    mutate,
    read,
)
from pivotal.readers import find_sessions, read_errors, sniff_path
from pivotal.readers.base import FormatSpec

__all__ = ["FUZZ_SETTINGS", "JSON_VALUES", "lengthened", "mutated", "read_everything"]


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
