"""Fuzzing the Cline reader: real session folders with mutated files (see fuzzing.py)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pivotal.readers.cline import SPEC

from .fuzzing import FUZZ_SETTINGS, batch_shows_what_following_shows, mutated, read_everything
from .realhome import REAL

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FOLDERS = [
    REAL / "cline-short/.cline/data/sessions/1796114117345_dsoke",
    FIXTURES / "cline/compacted/.cline/data/sessions/1796200000000_cmpct",
]


def _docs(folder: Path) -> dict[str, object]:
    return {p.name: json.loads(p.read_text()) for p in folder.glob("*.json")}


DOCS = [_docs(folder) for folder in FOLDERS]


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(range(len(FOLDERS))))
def test_session_files_with_wrong_types_in_any_field(data, which) -> None:
    docs = dict(DOCS[which])
    name = data.draw(st.sampled_from(sorted(docs)), label="file")
    doc = docs[name]
    if isinstance(doc, dict) and isinstance(doc.get("messages"), list) and data.draw(st.booleans()):
        docs[name] = dict(doc, messages=mutated(data, doc["messages"]))
    else:
        [docs[name]] = mutated(data, [doc])
    with tempfile.TemporaryDirectory(prefix="pivotal-cline-fuzz-") as root:
        folder = Path(root) / FOLDERS[which].name
        folder.mkdir()
        for file_name, value in docs.items():
            text = json.dumps(value)
            if file_name == name and data.draw(st.booleans(), label="cut"):
                text = text[: data.draw(st.integers(0, len(text)), label="at")]
            (folder / file_name).write_text(text)
        read_everything(folder, SPEC)
        read_everything(Path(root), SPEC)
        batch_shows_what_following_shows(SPEC, folder)
