"""Pictures of issue 35's layouts at 80×24 that must not drift (pytest-textual-snapshot).

Deterministic as `test_snapshots.py`'s: the demo session, fixed UTC timestamps,
nothing playing, no focused input when the picture is taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import make_app

NARROW = (80, 24)


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))


def test_pivots_filter_says_what_happened_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """The pivots filter at 80 columns: each banner, its turn's header, and under it what
    happened in plain words, wrapped; the turn the cursor is on (#28, no pivot) is its
    header and the line saying the filter hides it; the status line says the filter and
    how many turns it hides (pivots only, 24 hidden)."""
    assert snap_compare(make_app(at=27), terminal_size=NARROW, press=["backslash", "backslash"])


def test_marked_turn_and_labelled_reasoning_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """Turn #2 marked (▼ in its header, before what a narrow header cuts) with its reasoning
    shown under a label that says it is the agent's reasoning."""
    assert snap_compare(make_app(at=1), terminal_size=NARROW, press=["m", "t"])
