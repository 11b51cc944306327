"""Facts that formats only record inside tool output text (exit codes, timings)."""

from __future__ import annotations

import re

_EXIT = re.compile(
    r"(?im)^[ \t]*(?:exit code:?|process exited with code|exit status:?)[ \t]*(-?\d{1,4})\b"
)
_EDGE = 4096


def exit_code_from_output(text: str | None) -> int | None:
    """The exit code a tool's output reports ("Exit code 3", "Process exited with code 1")."""
    if not text:
        return None
    match = _EXIT.search(text, 0, _EDGE)
    if match is None and len(text) > _EDGE:
        match = _EXIT.search(text, len(text) - _EDGE)
    return int(match.group(1)) if match else None


_WALL = re.compile(r"(?im)^[ \t]*Wall time\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*s(?:econds)?\b")


def duration_ms_from_output(text: str | None) -> float | None:
    """Milliseconds from a "Wall time: X seconds" line, when the tool printed one."""
    if not text:
        return None
    match = _WALL.search(text, 0, _EDGE)
    return float(match.group(1)) * 1000.0 if match else None
