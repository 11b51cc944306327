"""Fuzzing the Kilo reader: rows of a real kilo.db with mutated JSON (see fuzzing.py)."""

from __future__ import annotations

import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pivotal.readers.kilo import SPEC

from .fuzzing import FUZZ_SETTINGS, batch_shows_what_following_shows, mutated, read_everything
from .realhome import REAL

DB = REAL / "kilo-autocompact/.local/share/kilo/kilo.db"


def _rows(table: str) -> list[tuple[str, object]]:
    conn = sqlite3.connect(f"file:{DB}?immutable=1", uri=True)
    try:
        return [(i, json.loads(d)) for i, d in conn.execute(f"SELECT id, data FROM {table}")]
    finally:
        conn.close()


MESSAGES = _rows("message")
PARTS = _rows("part")


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(["message", "part"]), st.booleans())
def test_mutated_rows_never_break_sniff_or_read(data, table, raw) -> None:
    rows = MESSAGES if table == "message" else PARTS
    values = mutated(data, [v for _, v in rows])
    with tempfile.TemporaryDirectory(prefix="pivotal-kilo-fuzz-") as folder:
        path = Path(folder) / "kilo.db"
        path.write_bytes(DB.read_bytes())
        conn = sqlite3.connect(path)
        try:
            for (ident, _), value in zip(rows, values, strict=True):
                text = json.dumps(value)
                if raw:  # not even JSON (or not text) in the data column
                    text = data.draw(st.one_of(st.binary(max_size=20), st.text(max_size=20)))
                try:
                    conn.execute(f"UPDATE {table} SET data = ? WHERE id = ?", (text, ident))
                except sqlite3.OperationalError:
                    pass  # the schema refuses it (an index on json_extract): no real file has it
                if raw:
                    break
            conn.commit()
        finally:
            conn.close()
        read_everything(path, SPEC)
        batch_shows_what_following_shows(SPEC, path)
