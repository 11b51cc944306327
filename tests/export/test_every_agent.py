"""Every export of every agent's real session file: renders, parses, and stays inert."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pivotal.export import ExportInput, render
from pivotal.readers import find_sessions, read_session

from .test_cast import parse_cast
from .test_html import parse

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "realclients"
REFS = find_sessions([REAL]).refs


def test_the_fixtures_cover_every_agent():
    assert {r.format for r in REFS} >= {"claude-code", "codex", "gemini", "opencode", "aider"}


@pytest.mark.parametrize("ref", REFS, ids=lambda r: f"{r.format}-{r.path.parent.name}")
@pytest.mark.parametrize("redact", [False, True], ids=["plain", "redacted"])
def test_all_formats(ref, redact):
    session = read_session(ref)
    data = ExportInput(ref, session, [], [])
    html = render("html", data, redact=redact)
    page = parse(html)
    assert page.tags["article"] == len(session.turns)
    assert page.tags["details"] == sum(len(t.tool_calls) for t in session.turns)
    out = json.loads(render("json", data, redact=redact))
    assert len(out["transcript"]) == len(session.turns)
    header, events = parse_cast(render("cast", data, redact=redact))
    assert sum(1 for _, code, _ in events if code == "o") >= len(session.turns)
    md = render("md", data, redact=redact)
    assert md.startswith("# Pivotal report")
    for text in (html, md):
        assert not any(ord(c) < 0x20 and c not in "\n\t" for c in text)
    if redact:
        assert "/home/dev" not in html + md + json.dumps(out)
