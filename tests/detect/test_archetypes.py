"""One test per archetype (the three essays), plus `other`."""

from __future__ import annotations

from pivotal.detect import detect_pivots
from pivotal.model import PivotKind, Silence

from .helpers import EVERY, B, bash, edit, read
from .scenarios import approval, dead_end, milestone


def test_delegation_after_dead_end() -> None:
    b, anchor = dead_end()
    [p] = detect_pivots(b.turns, EVERY)
    assert (p.turn, p.kind, p.silence) == (
        anchor,
        PivotKind.DELEGATION_AFTER_DEAD_END,
        Silence.EMPTY,
    )
    assert {"failure streak", "inconclusive ending", "summary recorded"} <= {
        s.name for s in p.signals
    }
    assert p.cluster == [anchor, anchor + 1, anchor + 2]
    words = {s.name for s in p.delegation}
    assert {"no instruction", "acceptance of uncertainty", "transfer of initiative"} <= words
    assert any(t.item == "NCCL Tree" and t.after == "FAILED" for t in p.state.tasks)
    assert p.state.initiative_after == "agent-led"
    assert "failed" in p.reason and "summary" in p.reason


def test_continue_after_milestone() -> None:
    b, anchor = milestone()
    [p] = detect_pivots(b.turns, EVERY)
    assert (p.turn, p.kind) == (anchor, PivotKind.CONTINUE_AFTER_MILESTONE)
    assert "806.04 tok/s" not in p.state.figures_before  # table cells carry no unit ...
    assert "11 tok/s" in p.state.figures_before  # ... the prose figure does
    assert "satisfaction with status quo" in {s.name for s in p.delegation}


def test_implicit_approval() -> None:
    b, anchor = approval()
    [p] = detect_pivots(b.turns, EVERY)
    assert (p.turn, p.kind) == (anchor, PivotKind.IMPLICIT_APPROVAL)
    words = {s.name for s in p.delegation}
    assert {"trust after research", "implicit decision"} <= words
    assert p.state.phase_before == "investigating"
    assert p.state.phase_after.startswith("installing")


def test_other_when_no_archetype_fits() -> None:
    b = B()
    b.human("Write the README sections for install and usage.")
    for i in range(3):
        b.agent("", read(f"docs/part{i}.md"), edit("README.md"))
    b.agent("I drafted the install section and started on usage.")
    anchor = b.human("")
    b.agent("", read("src/cli.py"), edit("README.md"), bash("python -m mdformat README.md", ""))
    [p] = detect_pivots(b.turns, EVERY)
    assert (p.turn, p.kind) == (anchor, PivotKind.OTHER)


def test_confidence_is_the_sum_of_listed_weights() -> None:
    for make in (dead_end, milestone, approval):
        b, _ = make()
        for p in detect_pivots(b.turns, EVERY):
            total = sum(s.weight for s in p.signals)
            assert p.confidence == round(max(0.0, min(1.0, total)), 3)
            assert all(s.turns or s.name == "hands-off streak" for s in p.signals)


def test_mixed_milestone_beats_earlier_failures() -> None:
    b = B()
    b.human("Get the server running in the container.")
    b.agent("", bash("python -m server &", "ImportError: libcuda", 1))
    b.agent("", bash("python -m server &", "RuntimeError: CUDA error", 1))
    b.agent("", bash("python -m server &", "started"), bash("curl localhost:8000/health", "ready"))
    b.agent(
        "It finally works: 806 tok/s at concurrency 128, but single stream is 11 tok/s, "
        "slower than the target."
    )
    anchor = b.human("")
    b.agent("", read("research/moe-tuning.md"), bash("python tune_moe.py", "saved"))
    [p] = detect_pivots(b.turns, EVERY)
    assert (p.turn, p.kind) == (anchor, PivotKind.CONTINUE_AFTER_MILESTONE)
    assert "mixed" in p.reason
