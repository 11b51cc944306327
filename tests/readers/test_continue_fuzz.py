"""Fuzzing the Continue reader: real documents with mutated fields (see fuzzing.py)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pivotal.readers.continue_cli import SPEC

from .fuzzing import FUZZ_SETTINGS, batch_shows_what_following_shows, mutated, read_everything
from .realhome import REAL

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DOCS = [
    json.loads(p.read_text())
    for p in (
        *(REAL / "continue-short/.continue/sessions").glob("7a*.json"),
        *(REAL / "continue-autocompact/.continue/sessions").glob("c6*.json"),
        *(FIXTURES / "continue").glob("0b*.json"),
    )
]


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(range(len(DOCS))), st.booleans())
def test_documents_with_wrong_types_in_any_field(data, which, whole) -> None:
    doc = DOCS[which]
    if whole:  # anywhere in the document, the top-level keys included
        [doc] = mutated(data, [doc])
    else:
        doc = dict(doc, history=mutated(data, doc["history"]))
    with tempfile.TemporaryDirectory(prefix="pivotal-continue-fuzz-") as folder:
        path = Path(folder) / "sessions" / "0b6e2d4a-1111-4c8e-9f00-5a5a5a5a5a5a.json"
        path.parent.mkdir()
        path.write_text(json.dumps(doc, indent=2))
        index = data.draw(st.sampled_from([b"", b"[]", b"{", b'[{"sessionId": 3}]']))
        (path.parent / "sessions.json").write_bytes(index)
        read_everything(path, SPEC)
        read_everything(path.parent, SPEC)
        batch_shows_what_following_shows(SPEC, path)
