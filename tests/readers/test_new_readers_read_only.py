"""Reading the six new formats' real homes changes nothing and creates nothing."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pivotal.readers import find_sessions, open_reader

from .realhome import copied_home

HOMES = [
    "qwen-autocompact",
    "kimi-autocompact",
    "vibe-autocompact",
    "cline-short",
    "continue-autocompact",
    "kilo-autocompact",
]


def state(folder: Path) -> dict[str, tuple]:
    return {
        str(p.relative_to(folder)): (
            hashlib.sha256(p.read_bytes()).hexdigest(),
            p.stat().st_size,
            p.stat().st_mode,
            p.stat().st_mtime_ns,
        )
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("name", HOMES)
def test_find_read_and_follow_leave_the_home_as_it_was(tmp_path: Path, name: str) -> None:
    home = copied_home(tmp_path, name)
    before = state(home)
    found = find_sessions([home])
    assert len(found.refs) == 1 and not found.problems
    reader = open_reader(found.refs[0])
    try:
        reader.poll()
        reader.poll()  # a follower polls again and again
        reader.poll(final=True)
    finally:
        reader.close()
    assert reader.session.turns
    assert state(home) == before
