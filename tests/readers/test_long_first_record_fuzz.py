"""Fuzzing the readers of fuzzing.py with a first record longer than the sniff head.

The real clients' files (see realhome.py) with one text of their first text-bearing
record made longer than what pivotal reads to tell a format (`lengthened`: the cut falls
anywhere in it, inside escapes and characters too). The property: the session is still
found as its format and reads as the short file does, turn for turn. Kilo keeps its
sessions in a database, which has no first record to lengthen (its own fuzz test covers
long texts in rows); the line-based formats are in hardening/test_reader_fuzz.py.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hardening.fuzz_support import encode
from pivotal.model import Session
from pivotal.readers import find_sessions, read_session

from .fuzzing import FUZZ_SETTINGS, lengthened
from .realhome import REAL

QWEN = [next((REAL / name).rglob("*.jsonl")) for name in ("qwen-short", "qwen-autocompact")]
CONTINUE = [
    next((REAL / name / ".continue/sessions").glob(f"{prefix}*.json"))
    for name, prefix in (("continue-short", "7a"), ("continue-autocompact", "c6"))
]
CLINE = next((REAL / "cline-short/.cline/data/sessions").glob("*"))
KIMI = next((REAL / "kimi-autocompact").glob(".kimi/sessions/*/*"))
VIBE = next((REAL / "vibe-short").glob(".vibe/logs/session/unified/*"))


def _shape(session: Session) -> list[tuple[str, int]]:
    return [(str(turn.role), int(turn.flags)) for turn in session.turns]


def _read_as(path: Path, fmt: str) -> Session:
    """The one session `path` holds, found as `fmt` (as `scan PATH` finds it)."""
    found = find_sessions([path])
    assert [ref.format for ref in found.refs] == [fmt], found.problems
    return read_session(found.refs[0])


def _jsonl(records: list[object]) -> bytes:
    return b"\n".join(encode(record) for record in records) + b"\n"


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(QWEN))
def test_qwen(data, source: Path) -> None:
    records = [json.loads(line) for line in source.read_bytes().splitlines() if line.strip()]
    longer, _ = lengthened(data, records)
    with tempfile.TemporaryDirectory(prefix="pivotal-long-qwen-") as folder:
        path = Path(folder) / source.name
        path.write_bytes(_jsonl(longer))
        assert _shape(_read_as(path, "qwen")) == _shape(_read_as(source, "qwen"))


@FUZZ_SETTINGS
@given(st.data(), st.sampled_from(CONTINUE))
def test_continue(data, source: Path) -> None:
    doc = json.loads(source.read_text())
    doc["history"], _ = lengthened(data, doc["history"])
    with tempfile.TemporaryDirectory(prefix="pivotal-long-continue-") as folder:
        path = Path(folder) / "sessions" / source.name
        path.parent.mkdir()
        path.write_text(json.dumps(doc, indent=2))
        assert _shape(_read_as(path, "continue")) == _shape(_read_as(source, "continue"))


@FUZZ_SETTINGS
@given(st.data())
def test_cline(data) -> None:
    name = f"{CLINE.name}.messages.json"
    doc = json.loads((CLINE / name).read_text())
    doc["messages"], _ = lengthened(data, doc["messages"])
    with tempfile.TemporaryDirectory(prefix="pivotal-long-cline-") as root:
        folder = Path(root) / CLINE.name
        shutil.copytree(CLINE, folder)
        (folder / name).write_text(json.dumps(doc, indent=2))
        assert _shape(_read_as(folder, "cline")) == _shape(_read_as(CLINE, "cline"))


@FUZZ_SETTINGS
@given(st.data())
def test_kimi(data) -> None:
    # wire.jsonl only: a context file whose first record (the system prompt) is this long
    # hides its compaction summary from the reader, which looks for it in the file's head
    # (kimi_context.SUMMARY_HEAD); that is the Kimi reader's to fix, not the sniffers'.
    name = "wire.jsonl"
    records = [json.loads(line) for line in (KIMI / name).read_bytes().splitlines() if line]
    longer, _ = lengthened(data, records)
    with tempfile.TemporaryDirectory(prefix="pivotal-long-kimi-") as root:
        folder = Path(root) / ".kimi" / "sessions" / KIMI.parent.name / KIMI.name
        shutil.copytree(KIMI, folder)
        (folder / name).write_bytes(_jsonl(longer))
        assert _shape(_read_as(folder, "kimi")) == _shape(_read_as(KIMI, "kimi"))


@FUZZ_SETTINGS
@given(st.data())
def test_vibe(data) -> None:
    journal = sorted((VIBE / "journal").glob("*.jsonl"))[0]
    records = [json.loads(line) for line in journal.read_bytes().splitlines() if line]
    longer, _ = lengthened(data, records)
    with tempfile.TemporaryDirectory(prefix="pivotal-long-vibe-") as root:
        folder = Path(root) / VIBE.name
        shutil.copytree(VIBE, folder)
        (folder / "journal" / journal.name).write_bytes(_jsonl(longer))
        assert _shape(_read_as(folder, "vibe")) == _shape(_read_as(VIBE, "vibe"))
