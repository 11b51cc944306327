"""Markdown report: pivot panels, excerpts, notes; hostile text stays inert."""

from __future__ import annotations

import re

from pivotal.catalog.notes import Mark
from pivotal.export import ExportInput, render

from .conftest import HOSTILE, SECRET_VALUES

UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_each_pivot_has_its_panel_and_an_excerpt(demo_input):
    md = render("md", demo_input)
    s = demo_input.session
    assert md.startswith("# Pivotal report: ")
    assert f"| Session id | {s.id} |" in md
    assert f"| Silent pivots | {len(demo_input.pivots)} |" in md
    sections = md.split('<a id="pivot-')[1:]
    assert len(sections) == len(demo_input.pivots)
    for number, (pivot, section) in enumerate(zip(demo_input.pivots, sections, strict=True), 1):
        assert section.startswith(f'{number}"></a>')
        assert f"### Pivot {number}: turn #{pivot.turn + 1} · {pivot.kind}" in section
        assert f"**Silence:** {pivot.silence}" in section
        assert f"**Confidence:** {pivot.confidence:.2f}" in section
        for sig in pivot.signals:
            assert f"| {sig.weight:+.2f} |" in section
        if pivot.delegation:
            assert "**Delegation**" in section
        phase = f"| phase | {pivot.state.phase_before or '?'} | {pivot.state.phase_after or '?'} |"
        assert phase in section
        assert f"**Turn #{pivot.turn + 1}** · person" in section
        assert "· **silent**" in section
        assert f"**Turn #{pivot.turn + 2}**" in section  # what the agent did next
        assert f"(#pivot-{number})" in md  # linked from the index


def test_marks_and_notes_are_listed_and_shown_in_excerpts(demo_input):
    pivot = demo_input.pivots[0]
    marks = [
        Mark(pivot.turn, "x", "Here it **gave up** on\nthe CUDA graphs.", 1_700_000_000.0),
        Mark(None, "gone", "", 1_700_000_100.0),
    ]
    data = ExportInput(demo_input.ref, demo_input.session, demo_input.pivots, marks)
    md = render("md", data)
    assert "## Marks and notes" in md
    assert f"### Turn #{pivot.turn + 1} (marked 2023-11-14T22:13:20Z)" in md
    assert "> 🔖 **Note:**\n> Here it **gave up** on\n> the CUDA graphs." in md
    assert "### Turn not found" in md


def _outside_fences(md: str) -> str:
    """The Markdown a renderer would interpret: fenced blocks (literal text) removed."""
    kept, fence = [], None
    for line in md.split("\n"):
        if fence is None:
            opening = re.match(r"^(`{3,})text$", line)
            if opening:
                fence = opening.group(1)
            else:
                kept.append(line)
        elif line == fence:
            fence = None
    assert fence is None, "unclosed fence"
    return "\n".join(kept)


def test_hostile_text_is_inert(hostile_input):
    md = render("md", hostile_input)
    assert not UNSAFE.search(md)
    assert "pwned" in md  # the text is kept, only made visible
    assert "<script>" in md  # inside fences only:
    live = _outside_fences(md)
    assert "\\<script\\>" in live  # quoted in a signal's evidence, escaped
    assert not re.search(r"(?<!\\)<(script|img|/pre|/details)", live)
    assert not re.search(r"(?<!\\)\]\(https?://", live)  # no live links from session text
    assert re.search(r"^`{5,}text$", md, re.M)  # a fence longer than the injected ````
    assert HOSTILE not in md


def test_redact_removes_every_secret(hostile_input):
    plain = render("md", hostile_input)
    assert any(secret in plain for secret in SECRET_VALUES)
    md = render("md", hostile_input, redact=True)
    for secret in SECRET_VALUES:
        assert secret not in md
    assert "REDACTED:openai-key" in md and "REDACTED:private-key" in md
