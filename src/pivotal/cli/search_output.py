"""Search hits as a table or JSON lines: what `pivotal search` prints.

One hit per line: agent, project, when, turn (as the replayer numbers it), who
wrote the text that matched, a one-line snippet with the matches marked, and
the session (the name `pivotal sessions` prints, which every command takes).
Every piece of session text is cleaned for the terminal; with `redact`,
secrets and home paths are masked before the snippet is cut (`export.redact`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TextIO

import msgspec

from pivotal.catalog.search_query import Hit, SearchQuery, Snippet, marked, snippet
from pivotal.catalog.search_text import WHO_KEYS, WHO_NAMES
from pivotal.scan.report import iso, short_time
from pivotal.text.fit import cells, pad
from pivotal.text.project import project_cell
from pivotal.text.safe import clean, clean_line, json_inert

MARK = ("«", "»")
"""Around a match off a terminal (and with NO_COLOR)."""
COLOR = ("\x1b[1;31m", "\x1b[0m")
"""Around a match on a terminal: bold red, as grep and ripgrep print matches."""
PROJECT = 28


def project(cwd: str | None) -> str:
    """The working directory's last two folders (enough to know a project), or `-`."""
    return project_cell(cwd, PROJECT)


def hit_json(hit: Hit, rank: int, snip: Snippet, mask: Callable[[str], str]) -> dict[str, object]:
    """One hit as the JSON object `search --json` prints (strings cleaned)."""
    row = hit.session
    return {
        "rank": rank,
        "agent": row.format,
        "path": mask(clean(row.path)),
        "key": mask(clean(row.key)) if row.key else None,
        "session": mask(clean(row.label)),
        "session_id": clean(row.session_id) if row.session_id else None,
        "title": mask(clean(row.title)) if row.title else None,
        "cwd": mask(clean(row.cwd)) if row.cwd else None,
        "turn": hit.turn + 1,
        "time": iso(hit.time),
        "who": WHO_KEYS[hit.who],
        "snippet": snip.text,
        "matches": [list(span) for span in snip.spans],
        "score": round(hit.score, 4),
    }


def print_hits(
    hits: list[Hit],
    query: SearchQuery,
    *,
    as_json: bool,
    redact: bool = False,
    color: bool = False,
    out: TextIO | None = None,
) -> None:
    """Write `hits` to `out` (stdout): aligned columns, or one JSON object per line."""
    out = out or sys.stdout
    pattern = query.pattern
    lines = []
    for rank, hit in enumerate(hits, 1):
        mask = _masker(hit) if redact else _same
        snip = snippet(hit.body, pattern, transform=mask if redact else None)
        if as_json:
            encoded = msgspec.json.encode(hit_json(hit, rank, snip, mask)).decode()
            out.write(json_inert(encoded) + "\n")
            continue
        before, after = COLOR if color else MARK
        lines.append(
            (
                hit.session.format,
                project(mask(hit.session.cwd) if hit.session.cwd else None),
                short_time(hit.time),
                f"#{hit.turn + 1}",
                WHO_NAMES[hit.who],
                marked(snip, before, after),
                mask(clean_line(hit.session.label)),
                cells(snip.text),
            )
        )
    if as_json or not lines:
        return
    head = ("AGENT", "PROJECT", "TIME", "TURN", "WHO", "SNIPPET", "SESSION", len("SNIPPET"))
    rows = [head, *lines]
    widths = [max(cells(str(r[i])) for r in rows) for i in range(5)]
    snippet_width = max(r[7] for r in rows)
    for row in rows:
        shown = [pad(str(row[i]), widths[i]) for i in range(5)]
        rest = " " * (snippet_width - row[7])  # the marks take no column of their own
        out.write("  ".join(shown) + "  " + str(row[5]) + rest + "  " + str(row[6]) + "\n")


def _same(text: str) -> str:
    return text


def _masker(hit: Hit) -> Callable[[str], str]:
    from pivotal.export.redact import redact, users_in

    row = hit.session
    users = users_in(row.path, row.cwd, str(Path.home()), os.environ.get("HOME"))
    return partial(redact, users=users)
