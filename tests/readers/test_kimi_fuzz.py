"""Fuzzing the Kimi reader: session folders with mutated wire and context records."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hardening.fuzz_support import encode
from pivotal.readers.kimi import SPEC

from .fuzzing import FUZZ_SETTINGS, batch_shows_what_following_shows, mutated, read_everything
from .realhome import REAL

FOLDER = next((REAL / "kimi-autocompact").glob(".kimi/sessions/*/*"))
FILES = {
    name: [json.loads(line) for line in (FOLDER / name).read_bytes().splitlines() if line.strip()]
    for name in ("wire.jsonl", "context_1.jsonl", "context_2.jsonl", "context.jsonl")
}


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(sorted(FILES)), st.sets(st.sampled_from(sorted(FILES))))
def test_session_folders_with_wrong_types_in_any_field(data, target, left_out) -> None:
    with tempfile.TemporaryDirectory(prefix="pivotal-kimi-fuzz-") as root:
        folder = Path(root) / ".kimi" / "sessions" / FOLDER.parent.name / FOLDER.name
        folder.mkdir(parents=True)
        for name, lines in FILES.items():
            if name in left_out:
                continue
            if name == target:
                lines = mutated(data, lines)
            (folder / name).write_bytes(b"\n".join(encode(r) for r in lines) + b"\n")
        (Path(root) / ".kimi" / "kimi.json").write_text(
            json.dumps(data.draw(st.sampled_from([{"work_dirs": [{"path": 3}]}, [], "x"])))
        )
        read_everything(folder, SPEC)
        read_everything(Path(root), SPEC)
        batch_shows_what_following_shows(SPEC, folder)


@FUZZ_SETTINGS
@given(st.data())
def test_kimi_code_journals_with_wrong_types_in_any_field(data) -> None:
    from .test_kimi_code import journal, write_home

    lines = [line for line in journal() if isinstance(line, dict)]
    with tempfile.TemporaryDirectory(prefix="pivotal-kimi-code-fuzz-") as root:
        folder = write_home(Path(root), mutated(data, lines))
        state = data.draw(st.sampled_from([{"title": 3, "cwd": []}, [], {"createdAt": "x"}]))
        (folder / "state.json").write_text(json.dumps(state))
        read_everything(folder, SPEC)
        read_everything(folder / "agents" / "main" / "wire.jsonl", SPEC)
        batch_shows_what_following_shows(SPEC, folder)
