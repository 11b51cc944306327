"""The parts of a turn are cached by the records that make it, not by the turn object's
identity: copies of turns (a piece of a session renumbered to be judged alone) come and
go, and CPython gives a new copy the address, so the id, of one just freed."""

from __future__ import annotations

from pathlib import Path

import msgspec

from pivotal.model import SessionRef
from pivotal.readers import read_session

from . import claude_builders as cb


def test_a_copy_of_a_turn_always_gets_its_own_parts(tmp_path: Path) -> None:
    records: list[object] = [cb.user("u0", None, 0, "Check both services.")]
    parent = "u0"
    for n in range(6):
        records.append(cb.said(f"a{n}", parent, 1 + 2 * n, f"msg_{n}", f"Reply number {n}."))
        parent = f"a{n}"
    turns = read_session(SessionRef("claude-code", cb.home(tmp_path, records))).turns
    agents = [t for t in turns if t.role.value == "assistant"]
    assert len(agents) == 6
    for round_ in range(300):
        turn = agents[round_ % len(agents)]
        copy = msgspec.structs.replace(turn, index=round_)
        text = " ".join(p.text for p in copy.parts)
        assert text == f"Reply number {round_ % len(agents)}.", round_
        del copy
