"""Counted words: `1 pivot`, `3 pivots`. Pure Python.

Every surface that says how many of something (the exports, the cast, stats,
the scan table, the replayer's status) says it the same way: "1 pivots" and
"1 delegations" read as a bug.
"""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """`count` and `word`, `word` + "s" (or `many`) unless `count` is 1."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
