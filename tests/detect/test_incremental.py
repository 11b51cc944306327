"""Incremental == batch, candidates, determinism, and laziness."""

from __future__ import annotations

import msgspec

from pivotal.detect import PivotConfig, PivotTracker, detect_pivots
from pivotal.model import Part, Pivot, Turn

from .helpers import B, bash, edit
from .scenarios import approval, dead_end, milestone


def long_session() -> list[Turn]:
    """The three essays back to back, plus negatives, as one conversation."""
    b = B()
    for make in (dead_end, milestone, approval):
        part, _ = make()
        for turn in part.turns:
            b._add(turn.role, list(turn.parts), turn.flags)
    b.human("ok")
    b.agent("", edit("notes.md"))
    b.human("")
    b.agent("What would you like me to do?")
    return b.turns


def dump(pivots: list[Pivot]) -> list[dict]:
    return [msgspec.to_builtins(p) for p in pivots]


ALL = PivotConfig.for_sensitivity(1.0)
"""Every silence past the hard gates is a pivot: live and batch must agree on all of them,
their confidences included, whatever the fitted bar."""


def test_batch_equals_turn_by_turn() -> None:
    turns = long_session()
    batch = detect_pivots(turns, ALL)
    assert len(batch) >= 3
    tracker = PivotTracker(ALL)
    for n in range(1, len(turns) + 1):
        live = tracker.update(turns[:n], n - 1)
        assert dump(live) == dump(detect_pivots(turns[:n], ALL)), n
    assert dump(live) == dump(batch)
    # and at the shipped bar, the possible pivots too
    tracker = PivotTracker()
    for n in range(1, len(turns) + 1):
        tracker.update(turns[:n], n - 1)
    assert dump(tracker.all_pivots()) == dump(detect_pivots(turns, possible=True))


def test_batch_equals_chunked_and_rewound_updates() -> None:
    turns = long_session()
    tracker = PivotTracker(ALL)
    tracker.update(turns[:7], 0)
    tracker.update(turns[:30], 7)
    tracker.update(turns[:12], 12)  # a rewind shortened the session
    tracker.update(turns[:25], 12)
    final = tracker.update(turns, 25)
    assert dump(final) == dump(detect_pivots(turns, ALL))


def test_silence_at_the_end_is_a_candidate_then_confirmed() -> None:
    b, anchor = dead_end()
    turns = b.turns
    tracker = PivotTracker(ALL)
    live = tracker.update(turns[: anchor + 1], 0)
    assert [(p.turn, p.candidate) for p in live] == [(anchor, True)]
    assert "still filling" in live[0].reason
    b.human("now check the log")  # the next human turn closes the after-window
    final = tracker.update(b.turns, len(turns))
    assert [(p.turn, p.candidate) for p in final] == [(anchor, False)]


def test_candidate_dropped_when_the_agent_only_asks() -> None:
    b, anchor = dead_end()
    turns = b.turns[: anchor + 1]
    tracker = PivotTracker(ALL)
    assert tracker.update(turns, 0)[0].candidate
    b2 = B()
    b2.turns = list(turns)
    b2.agent("What would you like me to do next?")
    assert tracker.update(b2.turns, len(turns)) == []


def test_deterministic() -> None:
    turns = long_session()
    assert dump(detect_pivots(turns, ALL)) == dump(detect_pivots(turns, ALL))


def test_sensitivity_levels() -> None:
    low, normal, high = (PivotConfig.for_sensitivity(x) for x in ("low", "normal", "high"))
    assert low.min_confidence > normal.min_confidence > high.min_confidence
    assert PivotConfig.for_sensitivity(0.7).min_confidence == 0.3
    turns = long_session()
    assert (
        len(detect_pivots(turns, high))
        >= len(detect_pivots(turns, normal))
        >= len(detect_pivots(turns, low))
    )


def test_parts_decoded_only_inside_windows() -> None:
    """A long routine session: only turns near candidate silences are decoded."""
    decoded: list[int] = []
    turns: list[Turn] = []
    template = B()
    template.human("Port every module.")
    for i in range(2000):
        template.agent("", edit(f"src/m{i}.py"), bash("pytest -q", "5 passed"))
        if i == 1500:
            template.human("")
    for t in template.turns:
        parts = list(t.parts)

        def loader(turn: Turn, parts: list[Part] = parts) -> list[Part]:
            decoded.append(turn.index)
            return parts

        turns.append(
            Turn(index=t.index, role=t.role, flags=t.flags, preview=t.preview, _loader=loader)
        )
    detect_pivots(turns)
    assert decoded, "the silence's windows were read"
    assert len(set(decoded)) <= 2 * 20 + 5
    assert all(1480 <= i <= 1525 for i in decoded)


def test_appending_costs_do_not_grow_with_length() -> None:
    b = B()
    b.human("Go.")
    for i in range(3000):
        b.agent("", edit(f"m{i}.py"))
        if i % 100 == 50:
            b.human("ok")
    tracker = PivotTracker()
    tracker.update(b.turns, 0)
    calls = []
    extra = B()
    extra.turns = list(b.turns)
    extra.agent("", bash("pytest", "ok"))
    original = tracker._view

    def counting(turns, pos):  # type: ignore[no-untyped-def]
        calls.append(pos)
        return original(turns, pos)

    tracker._view = counting  # type: ignore[method-assign]
    tracker.update(extra.turns, len(b.turns))
    assert len(calls) <= 60


def test_detector_imports_no_ui() -> None:
    import subprocess
    import sys

    code = (
        "import sys, pivotal.detect; "
        "bad = [m for m in ('textual', 'rich') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_unknown_sensitivity_is_refused() -> None:
    import pytest

    for bad in ("loud", 1.5, -0.1):
        with pytest.raises(ValueError):
            PivotConfig.for_sensitivity(bad)


def test_judging_in_pieces_equals_judging_at_once() -> None:
    """`within` splits the silences to judge, never the turns their windows see."""
    turns = long_session()
    whole = dump(detect_pivots(turns, ALL))
    anchors = [p["turn"] for p in whole]
    assert len(anchors) >= 3
    for cut in [0, *anchors, anchors[-1] + 1, len(turns)]:
        first = detect_pivots(turns, ALL, within=range(0, cut))
        rest = detect_pivots(turns, ALL, within=range(cut, len(turns)))
        assert dump(first) + dump(rest) == whole, cut
        assert all(p.turn < cut for p in first) and all(p.turn >= cut for p in rest)
    assert detect_pivots(turns, ALL, within=range(anchors[0], anchors[0])) == []
