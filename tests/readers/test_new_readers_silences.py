"""The six new readers' flags, as the detector's silence index sees them.

What `scan --explain` calls a silence comes from these flags: a person's bare
go-on is `ack`, a compaction boundary is `compaction`, and the harness turns a
compaction brings (summary, canned reply, injected nudge) sit in its cluster.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.detect import PivotConfig
from pivotal.detect.silence import SilenceIndex
from pivotal.readers import find_sessions, read_session

from .realhome import REAL

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def anchors(path: Path) -> list[tuple[str, str, list[int]]]:
    session = read_session(find_sessions([path]).refs[0])
    index = SilenceIndex(PivotConfig())
    return [
        (
            str(index.silence(session.turns, i)),
            session.turns[i].text[:12],
            index.cluster(session.turns, i),
        )
        for i in index.anchors(session.turns, 0)
    ]


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            REAL / "qwen-autocompact",
            [  # boundary, snapshot, "Got it…" (and the second time "Continue with…")
                ("compaction", "Context comp", [6, 7, 8]),
                ("compaction", "Context comp", [10, 11, 12, 13]),
                ("ack", "ok", [15]),
            ],
        ),
        (
            REAL / "kimi-autocompact",
            [
                ("compaction", "Context comp", [6, 7]),
                ("compaction", "Context comp", [9, 10]),
                ("ack", "ok", [12]),
            ],
        ),
        (
            REAL / "vibe-autocompact",
            [  # the first summary is no longer in the store
                ("compaction", "Context comp", [5]),
                ("compaction", "Context comp", [7, 8]),
                ("ack", "ok", [10]),
            ],
        ),
        (  # the "ok" typed right after the compaction is in its run
            FIXTURES / "cline" / "compacted",
            [("compaction", "Context comp", [10, 11, 12]), ("ack", ".", [14])],
        ),
        (REAL / "continue-autocompact", [("compaction", "Conversation", [0, 1])]),
        (
            REAL / "kilo-autocompact",
            [("compaction", "[context com", [6, 7, 8]), ("ack", "ok", [11])],
        ),
        (  # ".", then /compress and what it wrote: one run
            FIXTURES / "qwen" / "ugly.jsonl",
            [("empty", " ", [3]), ("ack", ".", [5, 6, 7, 8, 9, 10])],
        ),
        (  # the typed "continue" came with a file attached: not silent
            FIXTURES / "continue",
            [("compaction", "Conversation", [0, 1]), ("empty", " ", [7])],
        ),
    ],
    ids=lambda v: v.name if isinstance(v, Path) else None,
)
def test_silences_and_compaction_clusters(path: Path, expected: list) -> None:
    assert anchors(path) == expected
