"""aider writes a pasted multi-line message as one `#### ` line per line, empty ones included.

`io.py` joins the lines with two spaces and a new `#### `, then strips the end and adds two
spaces: an empty line inside the message is `####` and three spaces, an empty last line
`####` and two. Those lines are one message (the person's paste), never empty messages of
their own. The file as aider writes it, and the same file after an editor stripped the
trailing spaces (text written for the test).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.detect import PivotConfig
from pivotal.detect.silence import SilenceIndex
from pivotal.model import SessionRef, Silence
from pivotal.readers.aider import SPEC

HISTORY = (
    "\n# aider chat started at 2026-12-03 10:00:00\n\n"
    "> /home/dev/.local/bin/aider --model sonnet  \n"
    "> Aider v0.86.2  \n"
    "> Main model: anthropic/claude-sonnet-4-20250514 with diff edit format  \n\n"
    "####   \n"
    "#### the importer fails on this file:  \n"
    "####   \n"
    "####   \n"
    "#### Traceback (most recent call last):  \n"
    '####   File "ledger/import.py", line 12, in <module>  \n'
    "#### ValueError: time data '03/12/2026' does not match format '%Y-%m-%d'  \n"
    "####   \n"
    "#### fix it and keep ISO dates working  \n\n"
    "The date format is hard-coded; I'll accept both forms.\n\n"
    "> Tokens: 4.1k sent, 212 received. Cost: $0.02 message, $0.02 session.  \n"
    "> Applied edit to ledger/import.py  \n\n"
    "#### ok  \n\n"
    "Both forms parse now.\n\n"
    "#### run the tests too  \n"
    "####   \n"
    "####  \n\n"
    "All 14 tests pass.\n"
)
PASTED = "\n".join(
    [
        "",
        "the importer fails on this file:",
        "",
        "",
        "Traceback (most recent call last):",
        '  File "ledger/import.py", line 12, in <module>',
        "ValueError: time data '03/12/2026' does not match format '%Y-%m-%d'",
        "",
        "fix it and keep ISO dates working",
    ]
)


@pytest.mark.parametrize("stripped", [False, True], ids=["as-aider-writes", "spaces-stripped"])
def test_the_empty_lines_of_a_paste_are_part_of_one_message(tmp_path: Path, stripped: bool) -> None:
    text = HISTORY
    if stripped:
        text = "\n".join(line.rstrip() for line in HISTORY.split("\n"))
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(text, encoding="utf-8")
    reader = SPEC.open(SessionRef(format="aider", path=path, key="1"))
    reader.poll(final=True)
    turns = reader.session.turns
    assert [t.text for t in reader.session.human_turns()] == [
        PASTED,
        "ok",
        "run the tests too\n\n",
    ]
    silences = SilenceIndex(PivotConfig())
    silent = [(turns[i].text, silences.silence(turns, i)) for i in range(len(turns))]
    assert [s for s in silent if s[1] is not None] == [("ok", Silence.ACK)]
