"""Fuzzing the Vibe reader: store folders with mutated chunks, journal and pointers."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hardening.fuzz_support import encode
from pivotal.readers.vibe import SPEC

from .fuzzing import FUZZ_SETTINGS, batch_shows_what_following_shows, mutated, read_everything
from .realhome import REAL

FOLDERS = [
    next((REAL / n).glob(".vibe/logs/session/unified/*"))
    for n in ("vibe-short", "vibe-autocompact")
]


def _json_files(folder: Path) -> list[str]:
    names = [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()]
    return sorted(n for n in names if not n.endswith("runtime-state.json") and "d82254" not in n)


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(range(len(FOLDERS))))
def test_store_files_with_wrong_types_in_any_field(data, which) -> None:
    source = FOLDERS[which]
    name = data.draw(st.sampled_from(_json_files(source)), label="file")
    with tempfile.TemporaryDirectory(prefix="pivotal-vibe-fuzz-") as root:
        folder = Path(root) / source.name
        shutil.copytree(source, folder)
        path = folder / name
        raw = path.read_bytes()
        if name.endswith(".jsonl"):
            records = [json.loads(line) for line in raw.splitlines() if line.strip()][:40]
            path.write_bytes(b"\n".join(encode(r) for r in mutated(data, records)) + b"\n")
        elif raw.strip():
            doc = json.loads(raw)
            if isinstance(doc, list) and doc and data.draw(st.booleans()):
                path.write_bytes(encode(mutated(data, doc)))
            else:
                path.write_bytes(encode(mutated(data, [doc])[0]))
        if data.draw(st.booleans(), label="cut"):
            data_now = path.read_bytes()
            path.write_bytes(data_now[: data.draw(st.integers(0, len(data_now)), label="at")])
        read_everything(folder, SPEC)
        batch_shows_what_following_shows(SPEC, folder)


@FUZZ_SETTINGS
@given(st.data())
def test_older_vibe_folders_with_wrong_types_in_any_field(data) -> None:
    from .test_vibe_log import messages, meta, write_folder

    lines = [line for line in messages() if isinstance(line, dict)]
    info = data.draw(st.sampled_from([meta(), {"session_id": 3, "config": []}, []]))
    with tempfile.TemporaryDirectory(prefix="pivotal-vibe-log-fuzz-") as root:
        folder = write_folder(Path(root), "session_x", {"session_id": "s"}, mutated(data, lines))
        (folder / "meta.json").write_text(json.dumps(info))
        read_everything(folder, SPEC)
        read_everything(folder / "messages.jsonl", SPEC)
