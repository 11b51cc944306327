"""Facts that formats only record inside tool output text (exit codes, timings)."""

from __future__ import annotations

import re

_EXIT = re.compile(
    r"(?im)^[ \t]*[\[(]?(?:exit code:?|process exited with code|exit status:?)[ \t]*(-?\d{1,4})\b"
)
_EDGE = 4096


def exit_code_from_output(text: str | None) -> int | None:
    """The exit code a tool's output states ("Exit code 3", "[exit code 1]", "exit status 1")."""
    if not text:
        return None
    match = _exit_in(text, 0, _EDGE)
    if match is None and len(text) > _EDGE:
        match = _exit_in(text, len(text) - _EDGE, len(text))
    return int(match.group(1)) if match else None


def _exit_in(text: str, start: int, end: int) -> re.Match[str] | None:
    """`_EXIT` in text[start:end], asked only where "ex" occurs in any case.

    Every phrase of the pattern holds "ex", and no character other than E/e and X/x
    matches those two letters case-insensitively, so a piece without it cannot match;
    most tool output has none, and the line-start pattern costs far more than the look.
    """
    if "ex" not in text[start:end].lower():
        return None
    return _EXIT.search(text, start, end)


_WALL = re.compile(r"(?im)^[ \t]*Wall time\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*s(?:econds)?\b")


def duration_ms_from_output(text: str | None) -> float | None:
    """Milliseconds from a "Wall time: X seconds" line, when the tool printed one."""
    if not text:
        return None
    match = _WALL.search(text, 0, _EDGE)
    return float(match.group(1)) * 1000.0 if match else None
