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
