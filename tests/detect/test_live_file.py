"""The tracker fed by a real reader while a sample file grows, chunk by chunk.

Claude Code writes one assistant message over several lines, so a turn can
change after it first appears: the reader reports that through
`first_changed`, and the tracker must still end with the batch answer.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from pivotal.detect import PivotConfig, PivotTracker, detect_pivots
from pivotal.model import SessionRef
from pivotal.readers import find_sessions, open_reader, read_session

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
CASES = [
    p
    for p in (
        SAMPLES / "claude" / "seed_dead_end.jsonl",
        SAMPLES / "codex" / "seed_proposal.jsonl",
        SAMPLES / "gemini" / "seed_milestone.jsonl",
    )
    if p.exists()
]


ALL = PivotConfig.for_sensitivity(1.0)
"""Every silence past the hard gates: live and batch agree on all of them, whatever the bar."""


@pytest.mark.parametrize("source", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_growing_file_ends_with_the_batch_answer(source: Path, tmp_path: Path) -> None:
    lines = source.read_bytes().splitlines(keepends=True)
    live = tmp_path / source.name
    live.write_bytes(b"")
    [ref] = find_sessions([source]).refs
    reader = open_reader(SessionRef(format=ref.format, path=live))
    tracker = PivotTracker(ALL)
    seen_candidate = False
    step = 7
    for start in range(0, len(lines), step):
        with open(live, "ab") as handle:
            handle.write(b"".join(lines[start : start + step]))
        update = reader.poll()
        if update.first_changed is not None:
            pivots = tracker.update(reader.session.turns, update.first_changed)
            seen_candidate |= any(p.candidate for p in pivots)
    last = reader.poll(final=True).first_changed
    turns = reader.session.turns
    live_pivots = tracker.update(turns, len(turns) if last is None else last)
    batch = detect_pivots(read_session(ref).turns, ALL)
    assert batch, "the sample has pivots"
    assert [msgspec.to_builtins(p) for p in live_pivots] == [msgspec.to_builtins(p) for p in batch]
    assert seen_candidate, "a pivot was shown as a candidate before its after-window filled"
