"""Every input of the real aider histories is a person turn, counted without the reader.

Reads `../shared/realworld/aider/` when it exists (histories other people's
aiders wrote; never copied into this repository) and skips otherwise: the same
behaviour is held by the fixture tests in `test_aider.py` and by the yardstick's
own tests below, which need no outside files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.model import Role
from pivotal.readers.aider import SPEC

from .aider_count import count_inputs

REALWORLD = Path(__file__).resolve().parents[3] / "shared" / "realworld" / "aider"
FILES = sorted(REALWORLD.glob("*.md")) if REALWORLD.is_dir() else []


def _turns_by_line(path: Path) -> dict[int, object]:
    found = {}
    for ref in SPEC.refs(path):
        reader = SPEC.open(ref)
        reader.poll(final=True)
        for turn in reader.session.turns:
            found.setdefault(turn.source.line, turn)
    return found


@pytest.mark.skipif(not FILES, reason="../shared/realworld/aider is not on this machine")
@pytest.mark.parametrize("path", FILES, ids=[p.name[:40] for p in FILES])
def test_every_real_input_is_a_person_turn(path: Path) -> None:
    counted = count_inputs(path.read_bytes())
    turns = _turns_by_line(path)
    human = sorted(line for line, t in turns.items() if t.is_human)
    assert human == counted.typed, "the reader's person turns are the counted inputs, no more"
    for line in counted.commands + counted.plans:
        turn = turns[line]
        assert turn.role is Role.USER and not turn.is_human and turn.is_synthetic, line
    for line in counted.blank:
        assert turns[line].text == "" and turns[line].flags & turns[line].flags.UNSENT


def test_the_yardstick_counts_what_aider_writes() -> None:
    history = (
        b"# aider chat started at 2026-01-01 09:00:00\n\n> Aider v0.86.2  \n\n"
        b"#### first line  \n#### second line  \n\n"
        b"Reply with a heading:\n\n#### not an input\n\n> Tokens: 1k sent, 2 received.  \n\n"
        b"#### /add x.py  \n> Added x.py to the chat  \n\n"
        b"#### <blank>  \n\n"
        b"Here is a plan long enough to be handed to the editor model.\n\n"
        b"> Tokens: 1k sent, 9 received.  \n\n"
        b"#### Here is a plan long enough to be handed to the editor model.  \n\n"
        b"Done.\n"
    )
    counted = count_inputs(history)
    assert counted.typed == [5, 17]
    assert counted.commands == [14]
    assert counted.plans == [23]
    assert counted.blank == [17]
