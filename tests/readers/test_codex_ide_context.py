"""Codex's VS Code extension: the person's words under the editor's notes.

Every message sent from the extension is stored (response copy and event copy alike) as
`# Context from my IDE setup:` with the active file, the selection and the open tabs,
then `## My request for Codex:` and what the person typed. The typed words are the
person's turn; the notes are injected context, shown folded before them, as Claude
Code's `<ide_opened_file>` notes are.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import TurnFlag
from pivotal.readers import find_sessions, read_session
from pivotal.readers.codex_ide import ide_request
from surfaces import through_cli

from .codex_builders import Rollout


def wrapped(request: str, selection: str = "") -> str:
    """A message as the extension sends it (Windows line ends in the words included)."""
    picked = f"## Active selection of the file:\n{selection}\n" if selection else ""
    return (
        "# Context from my IDE setup:\n\n## Active file: docs/plan.md\n\n"
        f"{picked}## Open tabs:\n- plan.md: docs/plan.md\n- stock.ts: src/lib/stock.ts\n\n"
        f"## My request for Codex:\n{request}"
    )


TYPED = "C:\\Users\\ana\\kit\\.codex\\prompts\\build.md\r\nhaz de la T004 a la T006"
FIRST = wrapped(TYPED + "\n", "T004")
GO_ON = wrapped("si, adelante\n \n")
MENTION = "Why does the log show\n## My request for Codex:\nbefore what I wrote?"
HEADED = "# Plan\n\n- move the tables\n- drop the old schema"
NO_WORDS = wrapped("\n")


def ide_session(home: Path) -> Path:
    rollout = Rollout("2026-01-07T18:44:34", session_id="019b99c6-0000-7000-8000-00000000a1d5")
    rollout.add(
        "session_meta",
        {
            "id": rollout.session_id,
            "timestamp": rollout.stamp(0),
            "cwd": "c:\\Users\\ana\\kit",
            "originator": "codex_vscode",
            "cli_version": "0.77.0",
        },
    )
    rollout.environment()
    for text, reply in [
        (FIRST, "T004 to T006 are done."),
        (GO_ON, "Removed the two schemas."),
        (MENTION, "That heading is the extension's."),
        (HEADED, "Both done."),
        (NO_WORDS, "Nothing was asked."),
    ]:
        rollout.both(text)
        rollout.reply(reply)
    return rollout.write(home)


def test_the_persons_turn_is_what_they_typed_and_the_ide_notes_are_context(
    tmp_path: Path,
) -> None:
    path = ide_session(tmp_path)
    session = read_session(find_sessions([path]).refs[0])
    people = [t for t in session.turns if t.is_human]
    assert [t.text for t in people] == [
        TYPED,
        "si, adelante",
        MENTION,  # the marker inside a message that is not the wrapper: the person's words
        HEADED,  # a heading but no marker
    ]
    assert [t.preview for t in people][:2] == [TYPED, "si, adelante"]
    # each wrapped message: its notes, injected, right before the words
    notes = [t for t in session.turns if "# Context from my IDE setup:" in t.text]
    assert len(notes) == 3
    for note in notes[:2]:
        assert note.flags & TurnFlag.SYNTHETIC and not note.is_human
        assert "## Active file: docs/plan.md" in note.text
        assert "My request for Codex" not in note.text
        after = session.turns[note.index + 1]
        assert after.is_human and after.source.line == note.source.line
    assert "## Active selection of the file:\nT004" in notes[0].text
    # notes with nothing typed under them are all injected: never an empty message
    assert notes[2].text == NO_WORDS and not notes[2].is_human
    assert notes[2].flags & TurnFlag.SYNTHETIC

    cli = through_cli(path)
    assert cli.person == [t.text.replace("\r\n", "\n") for t in people]  # the export's line ends
    assert cli.scan["turns"] == cli.export["turns"] == len(session.turns)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GO_ON, ("# Context from my IDE setup:", "si, adelante")),
        (
            "# Files mentioned by the user:\n\n## shot.png: C:/tmp/shot.png\n\n"
            "## My request for Codex:\nmira la imagen",
            ("# Files mentioned by the user:", "mira la imagen"),
        ),
        (NO_WORDS, ("# Context from my IDE setup:", "")),
    ],
    ids=["ide", "files", "empty"],
)
def test_the_wrapper_is_split(text: str, expected: tuple[str, str]) -> None:
    found = ide_request(text)
    assert found is not None
    assert found[0].startswith(expected[0]) and found[1] == expected[1]


@pytest.mark.parametrize(
    "text",
    [MENTION, HEADED, "# Notes: see ## My request for Codex: in the log", "si, adelante"],
    ids=["mention", "heading", "inline", "plain"],
)
def test_a_message_that_is_not_wrapped_is_left_whole(text: str) -> None:
    assert ide_request(text) is None
