"""A garbage (or half-written) first line must not make a whole session unrecognisable.

Gemini's header and generic chat records are recognised from the first JSON line;
a corrupt first line is skipped and reported, and everything after it is read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.readers import find_sessions, read_session

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REAL = FIXTURES / "realclients"
CASES = {
    "gemini": next((REAL / "gemini-short").rglob("*.jsonl")),
    "generic": FIXTURES / "generic" / "openai.jsonl",
}


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_garbage_first_line_is_skipped_not_fatal(fmt: str, tmp_path: Path) -> None:
    source = CASES[fmt]
    clean = read_session(find_sessions([source]).refs[0])
    broken = tmp_path / source.name
    broken.write_bytes(b'{"sessionId": "cut off in the mid\n' + source.read_bytes())
    found = find_sessions([broken])
    assert [r.format for r in found.refs] == [fmt], found.problems
    session = read_session(found.refs[0])
    assert [k.line for k in session.skipped] == [1] + [k.line + 1 for k in clean.skipped]
    assert [t.text for t in session.turns if t.is_human] == [
        t.text for t in clean.turns if t.is_human
    ]
    assert len(session.turns) == len(clean.turns)


@pytest.mark.parametrize("fmt", sorted(CASES))
def test_a_skipped_line_says_malformed_json_once(fmt: str, tmp_path: Path) -> None:
    """The decoder opens its message with "JSON is malformed:" and the readers with
    "malformed JSON:": the JSON output said both ("malformed JSON: JSON is malformed: ...")."""
    source = CASES[fmt]
    broken = tmp_path / source.name
    lines = source.read_bytes().splitlines(keepends=True)
    broken.write_bytes(b"".join([lines[0], b"{\x01 not json at all}\n", *lines[1:]]))
    session = read_session(find_sessions([broken]).refs[0])
    reasons = [k.reason for k in session.skipped if k.line == 2]
    assert reasons and reasons[0].startswith("malformed JSON: "), session.skipped
    assert "JSON is malformed" not in reasons[0]
