"""Mistral Vibe 3.0.2: real unified-store folders, with chunks lost and journals appended."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from cli_helpers import invoke
from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from pivotal.readers.vibe import SPEC, VibeReader

from .realhome import REAL, copied_home, exported, flagged, listed, person_texts, scanned, tools

UNIFIED = ".vibe/logs/session/unified"
SHORT = next((REAL / "vibe-short").glob(f"{UNIFIED}/*"))
AUTOCOMPACT = next((REAL / "vibe-autocompact").glob(f"{UNIFIED}/*"))
HISTORY_SHORT = "1ebf6da8459a0a21f940078433888ef82d77194cfa96fa8720ffc41dc9260e15"
HISTORY_AUTOCOMPACT = "fd72dcb73015aeccc105f207647b0fbc59f9d37158c8f28db5ecbc1a98ca1640"


def read(folder: Path):
    return read_session(SPEC.refs(folder)[0])


def shape(session) -> list[tuple]:
    return [
        (t.role, int(t.flags), t.text, [(c.name, c.exit_code, c.failed) for c in t.tool_calls])
        for t in session.turns
    ]


def copy(tmp_path: Path, folder: Path) -> Path:
    target = tmp_path / folder.name
    shutil.copytree(folder, target)
    return target


def test_the_folder_and_its_pointer_files_are_one_session() -> None:
    for path in (SHORT, SHORT / "CURRENT", SHORT / "meta.json"):
        assert sniff_path(path).name == "vibe"
        [ref] = find_sessions([path]).refs
        assert ref.path == SHORT and ref.cwd == "/home/dev/work/vibe-short"
    assert len(find_sessions([REAL / "vibe-short"]).refs) == 1


def test_short_one_turn_per_model_response_with_the_journal() -> None:
    session = read(SHORT)
    assert not session.skipped
    assert (session.id, session.model) == ("98c38544-046e-0bf9-0e5d-b48e0e235eee", "mock-model")
    assert [t.text for t in session.human_turns()] == [
        "Inspect this directory, try a few commands, and write notes.txt"
    ]
    assert [t.role for t in session.turns] == [Role.USER] + [Role.ASSISTANT] * 10
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [(c.name, c.exit_code, c.failed) for c in calls] == [
        ("todo", None, False),
        ("bash", 0, False),
        ("bash", 1, True),
        ("bash", 3, True),  # returncode from structured_content; the effect says "success"
        ("write_file", None, False),
        ("read_file", None, True),
        ("search_replace", None, False),
        ("read_file", None, False),
        ("nosuchtool", None, True),  # never an effect: from the completion and model context
        ("todo", None, False),
    ]
    assert all(c.output for c in calls)
    assert calls[3].output == "about to fail\n"
    assert calls[5].output == "File not found at: /home/dev/work/vibe-short/does-not-exist.md"
    first = session.turns[1]
    assert [p.kind.value for p in first.parts] == ["reasoning", "text", "tool"]
    assert (first.usage.input, first.usage.output) == (1000, 50)


def test_autocompact_boundaries_and_the_summary_still_in_the_model_context() -> None:
    session = read(AUTOCOMPACT)
    assert [t.text for t in session.human_turns()] == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert [b.text for b in boundaries] == ["Context compacted (automatic)"] * 2
    assert [b.extra["trigger"] for b in boundaries] == ["automatic", "automatic"]
    # only the latest summary is still in the store (the model context it opens)
    after_first = session.turns[boundaries[0].index + 1]
    assert not after_first.flags & TurnFlag.COMPACTION_SUMMARY
    summary = session.turns[boundaries[1].index + 1]
    assert summary.flags & TurnFlag.COMPACTION_SUMMARY and summary.is_synthetic
    assert summary.text.startswith("MOCK COMPACTION SUMMARY: the user asked to inspect the repo")
    # the journal of the first turns was dropped: their usage is unknown, the last one's is not
    usage = [t.usage for t in session.turns if t.role is Role.ASSISTANT]
    assert [u is None for u in usage] == [True] * 5 + [False]


def test_a_missing_history_chunk_is_rebuilt_from_the_journal(tmp_path: Path) -> None:
    folder = copy(tmp_path, SHORT)
    (folder / "chunks" / f"{HISTORY_SHORT}.json").unlink()
    session = read(folder)
    assert shape(session) == shape(read(SHORT))
    # generation 1 is the empty snapshot the journal starts from
    assert [s.reason for s in session.skipped] == [
        "1 history chunk of the newest snapshot missing; read from generation"
        " 0000000000000001 and the journal"
    ]
    shutil.rmtree(folder / "generations" / "0000000000000001")
    again = read(folder)
    assert shape(again) == shape(session)
    assert again.skipped[0].reason == "1 history chunk missing; rebuilt from the journal"


def test_a_missing_history_chunk_falls_back_to_an_older_snapshot(tmp_path: Path) -> None:
    folder = copy(tmp_path, AUTOCOMPACT)
    (folder / "chunks" / f"{HISTORY_AUTOCOMPACT}.json").unlink()
    session = read(folder)
    assert shape(session) == shape(read(AUTOCOMPACT))  # generation 78 + journal 79..86
    assert "read from generation 0000000000000078 and the journal" in session.skipped[0].reason


def test_what_no_snapshot_or_journal_holds_any_more_is_said_to_be_lost(tmp_path: Path) -> None:
    folder = copy(tmp_path, AUTOCOMPACT)
    for chunk in (
        HISTORY_AUTOCOMPACT,
        "f7230f741b8bcd9c45606f4407c0e71b375643e6c190028686d1f3bb55238286",
    ):
        (folder / "chunks" / f"{chunk}.json").unlink()
    session = read(folder)
    assert session.turns == []
    assert session.skipped[0].reason == (
        "1 history chunk missing: the history they held cannot be shown"
    )
    assert session.notices == [session.skipped[0].reason]


def test_following_the_journal_and_a_half_written_record(tmp_path: Path) -> None:
    folder = copy(tmp_path, AUTOCOMPACT)
    reader = VibeReader(SPEC.refs(folder)[0])
    reader.poll()
    assert len(reader.session.turns) == 12

    def delta(sequence: int, entry: dict) -> bytes:
        record = {
            "sequence": sequence,
            "type": "projection_delta",
            "payload": {
                "delta": [
                    {"op": "append_entry", "entry": entry},
                    {"op": "set_envelope", "state": {}},
                ]
            },
        }
        return json.dumps(record).encode() + b"\n"

    user = {
        "type": "message",
        "role": "user",
        "source": "turn_start",
        "id": "user-turn-x-21",
        "content": [{"type": "text", "text": " "}],
        "createdAt": 1796114100000,
    }
    reply = {
        "type": "message",
        "role": "assistant",
        "source": "harness",
        "id": "assistant-a9",
        "content": [{"type": "text", "text": "Still with you."}],
        "outcome": {"type": "committed"},
        "createdAt": 1796114101000,
    }
    journal = folder / "journal" / "0000000000000087.jsonl"
    line = delta(88, reply)
    journal.write_bytes(delta(87, user) + line[:40])
    update = reader.poll()
    assert update.first_changed == 12 and reader.session.turns[-1].text == " "
    assert reader.session.turns[-1].is_human  # a blank prompt, kept as typed
    reader.poll(final=True)
    assert reader.session.skipped[-1].reason.startswith("the journal's last line is incomplete")
    journal.write_bytes(delta(87, user) + line)
    reader.poll()
    assert [t.text for t in reader.session.turns[-2:]] == [" ", "Still with you."]


# -- acceptance: the commands a person runs, HOME at a copy of the real home ---------


def test_sessions_scan_and_export_with_home_at_the_real_vibe_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "vibe-short")
    [listing] = listed(monkeypatch, home)
    assert listing["agent"] == "vibe"
    assert listing["session_id"] == "98c38544-046e-0bf9-0e5d-b48e0e235eee"
    assert listing["cwd"] == "/home/dev/work/vibe-short"
    assert (listing["turns"], listing["human_turns"]) == (11, 1)
    folder = next(home.glob(f"{UNIFIED}/*"))
    [scan] = scanned(folder)
    assert (scan["format"], scan["turns"], scan["skipped"]) == ("vibe", 11, [])
    doc = exported(folder)
    assert person_texts(doc) == ["Inspect this directory, try a few commands, and write notes.txt"]
    calls = tools(doc)
    assert all(c["output"] for c in calls)
    assert [c["failed"] for c in calls] == [
        False,
        False,
        True,
        True,
        False,
        True,
        False,
        False,
        True,
        False,
    ]
    assert doc["resume"]["argv"] == ["vibe", "--resume", "98c38544-046e-0bf9-0e5d-b48e0e235eee"]

    compacted = exported(next(copied_home(tmp_path, "vibe-autocompact").glob(f"{UNIFIED}/*")))
    assert len(flagged(compacted, "compaction_boundary")) == 2
    assert len(flagged(compacted, "compaction_summary")) == 1


def test_vibe_sessions_follow_vibe_home(tmp_path, monkeypatch) -> None:
    home = copied_home(tmp_path, "vibe-autocompact")
    moved = tmp_path / "vibe-home"
    os.rename(home / ".vibe", moved)
    assert listed(monkeypatch, home) == []
    monkeypatch.setenv("VIBE_HOME", str(moved))
    [line] = invoke("sessions", "--json").stdout.splitlines()
    assert json.loads(line)["session_id"] == "f0a39fda-ed5e-f6e1-ba73-e968342254e6"


def test_reading_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    folder = copy(tmp_path, SHORT)
    before = {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")}
    read_session(SessionRef(format="vibe", path=folder))
    assert {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")} == before


def test_entry_ids_of_the_wrong_type_cost_only_themselves(tmp_path: Path) -> None:
    folder = copy(tmp_path, AUTOCOMPACT)
    chunk = folder / "chunks" / f"{HISTORY_AUTOCOMPACT}.json"
    entries = json.loads(chunk.read_text())
    entries[2]["id"] = []  # found by the fuzz test: an unhashable id
    entries[3]["id"] = None
    chunk.write_text(json.dumps(entries))
    session = read(folder)
    assert [t.text for t in session.human_turns()] == [
        "Look around and create seed.txt",
        "continue with big outputs",
        "ok",
    ]
    assert len([c for t in session.turns for c in t.tool_calls]) == 4


def test_a_message_source_of_the_wrong_type_is_no_person(tmp_path: Path) -> None:
    """Found by the fuzz test: a person's message whose `source` was a list stopped the
    read (a list is no member of a set of names). Only a named human source, or none, is
    the person."""
    folder = copy(tmp_path, AUTOCOMPACT)
    chunk = folder / "chunks" / f"{HISTORY_AUTOCOMPACT}.json"
    entries = json.loads(chunk.read_text())
    first = next(e for e in entries if e.get("type") == "message" and e.get("role") == "user")
    first["source"] = []
    chunk.write_text(json.dumps(entries))
    session = read(folder)
    assert [t.text for t in session.human_turns()] == ["continue with big outputs", "ok"]
    assert session.turns[0].flags & TurnFlag.SYNTHETIC
