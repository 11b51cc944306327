"""Committed sample sessions are well formed, up to date, and labelled at real silences.

These checks read the files with tiny format-specific parsers written here, not with
pivotal's readers (those are tested against these samples elsewhere), so a writer bug
such as an anchor on the wrong line is caught on its own.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_sessions"
sys.path.insert(0, str(ROOT / "tools"))

from samplegen import make  # noqa: E402
from samplegen.dsl import Compact, H  # noqa: E402
from samplegen.scenarios import all_scenarios  # noqa: E402

FORMATS = ["claude", "codex", "gemini", "opencode", "aider", "generic"]
SEEDS = ["seed_dead_end", "seed_milestone", "seed_proposal"]
SCENARIOS = {s.name: s for s in all_scenarios()}


def expected_files(root: Path = SAMPLES) -> list[Path]:
    return sorted(p for fmt in FORMATS for p in (root / fmt).rglob("*.expected.json"))


def session_of(expected: Path) -> Path:
    return expected.with_name(expected.name[: -len(".expected.json")])


def line_at(path: Path, line: int) -> str:
    return path.read_text(encoding="utf-8").split("\n")[line - 1]


def is_empty(text: str) -> bool:
    # opencode's `run` stores a typed space with literal quotes: '" "' is still empty
    return text.strip().strip('"').strip() == ""


def is_ack(text: str) -> bool:
    words = text.strip().strip('"').split()
    return 0 < len(words) <= 4


# --- every file parses -------------------------------------------------------------------------


def all_jsonl() -> list[Path]:
    return sorted(SAMPLES.rglob("*.jsonl")) + [ROOT / "src/pivotal/_demo/demo.jsonl"]


@pytest.mark.parametrize("path", all_jsonl(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_jsonl_line_is_json(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    for n, row in enumerate(text.split("\n")[:-1], 1):
        assert isinstance(json.loads(row), dict), f"{path}:{n}"


@pytest.mark.parametrize("path", sorted(SAMPLES.rglob("opencode.db")), ids=str)
def test_opencode_db_opens_read_only(path: Path) -> None:
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"session", "message", "part", "todo", "project"} <= tables
        assert db.execute("SELECT count(*) FROM message").fetchone()[0] > 0
    finally:
        db.close()


def test_every_tuning_scenario_exists_in_every_format() -> None:
    for name in SCENARIOS:
        for fmt in FORMATS:
            path = make.sample_path(SAMPLES, fmt, name)
            assert path.is_file(), path
            assert make.expected_path(path).is_file()


# --- deterministic and up to date -------------------------------------------------------------


def test_regenerating_gives_the_committed_bytes(tmp_path: Path) -> None:
    make.generate(tmp_path, heldout=False)
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert fresh, "nothing generated"
    for rel in fresh:
        committed = SAMPLES / rel
        assert committed.is_file(), f"{rel} is generated but not committed"
        assert (tmp_path / rel).read_bytes() == committed.read_bytes(), f"{rel} differs"
    demo = ROOT / "src/pivotal/_demo/demo.jsonl"
    assert demo.read_bytes() == (tmp_path / "claude/demo.jsonl").read_bytes()


# --- the labels point at real silences --------------------------------------------------------


def anchor_text(fmt: str, path: Path, pivot: dict) -> tuple[str, bool]:
    """(the anchored record's human text, whether it is a compaction marker), parsed here."""
    line, mid = pivot["line"], pivot["message_id"]
    if fmt == "opencode":
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            row = db.execute("SELECT data FROM message WHERE id = ?", (mid,)).fetchone()
            assert row, f"no message {mid}"
            assert json.loads(row[0])["role"] == "user"
            parts = [
                json.loads(r[0])
                for r in db.execute(
                    "SELECT data FROM part WHERE message_id = ? ORDER BY id", (mid,)
                )
            ]
        finally:
            db.close()
        if any(p["type"] == "compaction" for p in parts):
            return "", True
        texts = [p for p in parts if p["type"] == "text"]
        assert len(texts) == 1 and not texts[0].get("synthetic")
        return texts[0]["text"], False
    assert isinstance(line, int) and line > 0
    raw = line_at(path, line)
    if fmt == "aider":
        assert raw.startswith("#### "), raw
        body = raw[5:]
        return ("" if body == "<blank>" else body), False
    rec = json.loads(raw)
    if fmt == "claude":
        if rec.get("type") == "system":
            assert rec["subtype"] == "compact_boundary" and rec["uuid"] == mid
            return "", True
        assert rec["type"] == "user" and rec["uuid"] == mid
        assert not rec.get("isMeta") and not rec.get("isCompactSummary")
        assert isinstance(rec["message"]["content"], str)
        return rec["message"]["content"], False
    if fmt == "codex":
        if rec["type"] == "compacted":
            return "", True
        p = rec["payload"]
        assert rec["type"] == "response_item" and p["type"] == "message" and p["role"] == "user"
        assert p["id"] == mid
        kinds = p["internal_chat_message_metadata_passthrough"]["content_item_kinds"]
        assert kinds == ["user.text"]
        return "".join(c["text"] for c in p["content"]), False
    if fmt == "gemini":
        if "$set" in rec:
            msgs = rec["$set"]["messages"]
            assert "<state_snapshot>" in msgs[1]["content"][0]["text"]
            return "", True
        assert rec["type"] == "user" and rec["id"] == mid
        return "".join(c.get("text", "") for c in rec["content"]), False
    assert fmt == "generic"
    assert rec["role"] == "user"
    return rec["content"], False


@pytest.mark.parametrize("expected", expected_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_anchors_point_at_the_silent_message(expected: Path) -> None:
    doc = json.loads(expected.read_text(encoding="utf-8"))
    fmt = doc["format"]
    assert expected.parent.name == fmt or expected.parent.parent.name == fmt
    for pivot in doc["pivots"]:
        assert pivot["kind"] in {
            "delegation_after_dead_end",
            "continue_after_milestone",
            "implicit_approval",
            "other",
        }
        text, compaction = anchor_text(fmt, session_of(expected), pivot)
        if pivot["silence"] == "compaction":
            assert compaction, pivot
        elif pivot["silence"] == "empty":
            assert not compaction and is_empty(text), (pivot, text)
        else:
            assert pivot["silence"] == "ack" and not compaction, pivot
            assert not is_empty(text) and is_ack(text), (pivot, text)


@pytest.mark.parametrize("expected", expected_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_every_label_is_placed_or_declared_missing(expected: Path) -> None:
    doc = json.loads(expected.read_text(encoding="utf-8"))
    scenario = SCENARIOS[doc["scenario"]]
    labels = [s.expect for s in scenario.steps if isinstance(s, (H, Compact)) and s.expect]
    placed = [p["kind"] for p in doc["pivots"]] + [m["kind"] for m in doc.get("not_in_file", [])]
    assert sorted(placed) == sorted(kind for kind, _ in labels)


def test_claude_maps_an_empty_message_to_a_dot_ack() -> None:
    doc = json.loads((SAMPLES / "claude/seed_dead_end.jsonl.expected.json").read_text())
    (pivot,) = doc["pivots"]
    assert pivot["silence"] == "ack"
    rec = json.loads(line_at(SAMPLES / "claude/seed_dead_end.jsonl", pivot["line"]))
    assert rec["message"]["content"] == "."


# --- the seed scenarios are long enough -------------------------------------------------------


def claude_turns(path: Path) -> int:
    """Human prompts + assistant responses (lines sharing message.id are one response)."""
    humans, responses = 0, set()
    for row in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(row)
        if rec.get("type") == "assistant":
            responses.add(rec["message"]["id"])
        elif rec.get("type") == "user" and not rec.get("isMeta"):
            content = rec["message"]["content"]
            if isinstance(content, str) and not rec.get("isCompactSummary"):
                if not content.lstrip().startswith("<"):
                    humans += 1
    return humans + len(responses)


def generic_turns(path: Path) -> int:
    rows = [json.loads(r) for r in path.read_text(encoding="utf-8").splitlines()]
    return sum(1 for r in rows if r["role"] in ("user", "assistant"))


@pytest.mark.parametrize("name", SEEDS)
def test_seed_scenarios_have_at_least_150_turns(name: str) -> None:
    assert claude_turns(SAMPLES / f"claude/{name}.jsonl") >= 150
    assert generic_turns(SAMPLES / f"generic/{name}.jsonl") >= 150


def test_demo_is_between_60_and_100_turns_with_every_archetype() -> None:
    assert 60 <= claude_turns(SAMPLES / "claude/demo.jsonl") <= 100
    doc = json.loads((SAMPLES / "claude/demo.jsonl.expected.json").read_text())
    assert {p["kind"] for p in doc["pivots"]} == {
        "delegation_after_dead_end",
        "continue_after_milestone",
        "implicit_approval",
    }
