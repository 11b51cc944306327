"""One writer module per agent format.

Each module exposes `EXT` and `write(scenario, path) -> anchors` where anchors is
the list of expected pivots as placed in that file:
`{"line", "message_id", "kind", "silence"}` (in scenario order). A writer may
instead return `(anchors, not_in_file)` when the format cannot record some
labelled moment at all (aider does not write compactions to its history file).
"""

from __future__ import annotations

import importlib
from types import ModuleType

FORMATS = ["claude", "codex", "gemini", "opencode", "aider", "generic"]


def writer(fmt: str) -> ModuleType:
    """The writer module for a format name."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
    return importlib.import_module(f"samplegen.writers.{fmt}")
