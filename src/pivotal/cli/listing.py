"""The sessions listing as a table or JSON lines: what `pivotal sessions` prints.

One row per session (agent, project, ages, counts, size, path), every field
from the session files cleaned for the terminal. Kept apart from the command
so the rendering can be read and tested without its arguments and exit codes.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

import msgspec

from pivotal.model import SessionRef
from pivotal.scan.report import iso
from pivotal.text.fit import cells, clip_start, pad
from pivotal.text.safe import clean, clean_line, json_inert


def _age(timestamp: float | None, now: float) -> str:
    if timestamp is None:
        return "-"
    seconds = max(0, int(now - timestamp))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{seconds}s ago"


def _count(value: int | None) -> str:
    return str(value) if value is not None else "-"


def _size(size: int | None) -> str:
    if size is None:
        return "-"
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return "-"


def ref_json(ref: SessionRef) -> dict[str, object]:
    """One session as the JSON object `sessions --json` prints (strings cleaned)."""
    return {
        "agent": ref.format,
        "path": clean(str(ref.path)),
        "key": clean(ref.key) if ref.key else None,
        "session_id": clean(ref.session_id) if ref.session_id else None,
        "title": clean(ref.title) if ref.title else None,
        "cwd": clean(ref.cwd) if ref.cwd else None,
        "started": iso(ref.started),
        "updated": iso(ref.updated),
        "turns": ref.turns,
        "human_turns": ref.human_turns,
        "pivots": ref.pivots,
        "size": ref.size,
        "tokens": ref.tokens,
        "cost_usd": ref.cost,
        "cost_whole": ref.cost_whole,
        "parent": clean(ref.parent) if ref.parent else None,
    }


PROJECT_MIN = 12
"""The project column gives way first on a narrow terminal, down to this many columns."""


def print_sessions(
    refs: list[SessionRef], *, as_json: bool, out: TextIO | None = None, width: int | None = None
) -> None:
    """Write `refs` to `out` (stdout): aligned columns, or one JSON object per line.

    `width`: a terminal that wide. The project column is cut from the left (its last
    folders are the ones that say which project); a path that does not fit beside
    its row goes on a line of its own under it, whole, for a person to copy.
    """
    out = out or sys.stdout
    if as_json:
        encode = msgspec.json.encode
        for ref in refs:
            out.write(json_inert(encode(ref_json(ref)).decode()) + "\n")
        return
    if not refs:
        return
    now = time.time()
    rows = [("AGENT", "PROJECT", "STARTED", "CHANGED", "TURNS", "PIVOTS", "SIZE", "PATH")]
    for ref in refs:
        rows.append(
            (
                ref.format,
                clean_line(ref.cwd) if ref.cwd else "-",  # not the title: the picker shows none
                _age(ref.started, now),
                _age(ref.updated, now),
                _count(ref.turns),
                _count(ref.pivots),
                _size(ref.size),
                clean_line(ref.label),
            )
        )
    last = len(rows[0]) - 1
    widths = [max(cells(r[i]) for r in rows) for i in range(last)]
    widths[1] = min(widths[1], 40)  # piped too: its end, where projects differ, behind `…`
    under = False
    if width is not None:
        before = sum(widths) + 2 * (last - 1)
        widths[1] = max(widths[1] - max(before - width, 0), PROJECT_MIN)
        before = sum(widths) + 2 * (last - 1)
        under = any(before + 2 + cells(r[last]) > width for r in rows[1:])
    for n, row in enumerate(rows):
        shown = [pad(clip_start(row[i], widths[i]), widths[i]) for i in range(last)]
        if under:
            out.write("  ".join(shown).rstrip() + "\n")
            if n:
                out.write("    " + row[last] + "\n")
        else:
            out.write("  ".join(shown) + "  " + row[last] + "\n")
