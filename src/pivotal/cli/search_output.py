"""Search hits as a table or JSON lines: what `pivotal search` prints.

One hit per line: agent, project, when, turn (as the replayer numbers it), who
wrote the text that matched, a one-line snippet with the matches marked, and
the session (the name `pivotal sessions` prints, which every command takes), then,
for a hit in a sub-agent, which one and the turn there (the turn column is then
the session's turn whose call ran it).
Piped, every line is whole (scripts read it); on a terminal the hits fit its width as
`pivotal sessions` fits its rows: the session goes on a line of its own under its row,
whole, and the snippet takes the room the columns leave (a line of its own too, when
that is less than `SNIPPET_MIN` cells). Every piece of session text is cleaned for the
terminal; with `redact`, secrets and home paths are masked before the snippet is cut
(`export.redact`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TextIO

import msgspec

from pivotal.catalog.search_query import (
    SNIPPET_WIDTH,
    Hit,
    SearchQuery,
    Snippet,
    marked,
    snippet,
    subagent_title,
)
from pivotal.catalog.search_text import WHO_KEYS, WHO_NAMES, WHO_STABLE
from pivotal.scan.report import iso, short_time
from pivotal.text.fit import cells, clip, clip_start, pad
from pivotal.text.project import project_cell
from pivotal.text.safe import clean, clean_line, json_inert

MARK = ("«", "»")
"""Around a match off a terminal (and with NO_COLOR)."""
COLOR = ("\x1b[1;31m", "\x1b[0m")
"""Around a match on a terminal: bold red, as grep and ripgrep print matches."""
PROJECT = 28
PROJECT_MIN = 12
"""On a narrow terminal the project gives way first, down to this many cells (its end kept)."""
SNIPPET_MIN = 40
"""A snippet with less room than this beside its row goes on a line of its own under it."""
UNDER = "    "
"""What starts a line of its own under a row (the snippet, the session)."""
TITLE = 40
"""Cells of a sub-agent's title shown after its session's name."""


def _same(text: str) -> str:
    return text


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
        "who": WHO_STABLE[hit.who],
        "what": WHO_KEYS[hit.who],
        "snippet": snip.text,
        "matches": [list(span) for span in snip.spans],
        "score": round(hit.score, 4),
        "subagent": _subagent_json(hit, mask),
    }


def _subagent_json(hit: Hit, mask: Callable[[str], str]) -> dict[str, object] | None:
    """Where in a sub-agent the hit is (None: in the session's own turns): the sub-agent's
    own file and key, id, title, the turn there, and how deep (1: the session ran it)."""
    sub = hit.subagent
    if sub is None:
        return None
    row = sub.row
    path, key = row.where
    return {
        "path": mask(clean(path)),
        "key": mask(clean(key)) if key else None,
        "session_id": clean(row.session_id) if row.session_id else None,
        "title": mask(clean(row.title)) if row.title else None,
        "turn": sub.turn + 1,
        "depth": len(sub.chain),
    }


def session_cell(hit: Hit, mask: Callable[[str], str] = _same) -> str:
    """The session's name as every command takes it, then, for a hit in a sub-agent, which
    one (`subagent_cell`)."""
    name = mask(clean_line(hit.session.label))
    return f"{name} {subagent_cell(hit, mask)}" if hit.subagent is not None else name


def subagent_cell(hit: Hit, mask: Callable[[str], str] = _same) -> str:
    """`› sub-agent "Explore the parser" #3`: the sub-agent a hit is in (its title, or its
    id) and the turn there, as its transcript numbers it ("" for the session's own turns)."""
    sub = hit.subagent
    if sub is None:
        return ""
    steps = [f'sub-agent "{clip(mask(clean_line(subagent_title(r))), TITLE)}"' for r in sub.chain]
    return f"› {' › '.join(steps)} #{sub.turn + 1}"


def print_hits(
    hits: list[Hit],
    query: SearchQuery,
    *,
    as_json: bool,
    redact: bool = False,
    color: bool = False,
    out: TextIO | None = None,
    width: int | None = None,
) -> None:
    """Write `hits` to `out` (stdout): aligned columns, or one JSON object per line.

    `width`: a terminal that wide (None: a pipe, every line whole). The project is cut
    from its start down to `PROJECT_MIN` cells; the session goes under its row when the
    line cannot hold it, the snippet too when it would have less than `SNIPPET_MIN` cells.
    """
    out = out or sys.stdout
    pattern = query.pattern
    masks = [_masker(hit) if redact else _same for hit in hits]
    if as_json:
        for rank, (hit, mask) in enumerate(zip(hits, masks, strict=True), 1):
            snip = snippet(hit.body, pattern, transform=mask if redact else None)
            encoded = msgspec.json.encode(hit_json(hit, rank, snip, mask)).decode()
            out.write(json_inert(encoded) + "\n")
        return
    if not hits:
        return
    head = ("AGENT", "PROJECT", "TIME", "TURN", "WHO")
    rows = [head] + [
        (
            hit.session.format,
            project(mask(hit.session.cwd) if hit.session.cwd else None),
            short_time(hit.time),
            f"#{hit.turn + 1}",
            WHO_NAMES[hit.who],
        )
        for hit, mask in zip(hits, masks, strict=True)
    ]
    sessions = ["SESSION"] + [
        session_cell(hit, mask) for hit, mask in zip(hits, masks, strict=True)
    ]
    widths = [max(cells(r[i]) for r in rows) for i in range(len(head))]
    room, beside = _snippet_room(widths, width)
    before, after = COLOR if color else MARK
    texts, sizes = ["SNIPPET"], [len("SNIPPET")]
    for hit, mask in zip(hits, masks, strict=True):
        transform = mask if redact else None
        snip = snippet(hit.body, pattern, room, transform=transform)
        text = marked(snip, before, after)
        size = cells(snip.text) if color else cells(text)  # colour takes no cell, « » do
        if width is not None and size > room:  # the marks too, inside the room
            snip = snippet(hit.body, pattern, 2 * room - size, transform=transform)
            text = marked(snip, before, after)
            size = cells(text)
        texts.append(text)
        sizes.append(size)
    snippet_width = max(sizes)
    session_beside = width is None or (
        beside and _span(widths) + 2 + snippet_width + 2 + max(map(cells, sessions)) <= width
    )
    for n, row in enumerate(rows):
        line = "  ".join(pad(clip_start(row[i], widths[i]), widths[i]) for i in range(len(row)))
        if beside and session_beside:
            rest = " " * (snippet_width - sizes[n])
            out.write(f"{line}  {texts[n]}{rest}  {sessions[n]}\n")
            continue
        if beside:
            out.write(f"{line}  {texts[n]}".rstrip() + "\n")
        else:
            out.write(line.rstrip() + "\n")
            if n:
                out.write(UNDER + texts[n] + "\n")
        if n:
            _session_under(out, hits[n - 1], masks[n - 1], sessions[n], width)


def _session_under(
    out: TextIO, hit: Hit, mask: Callable[[str], str], cell: str, width: int | None
) -> None:
    """The session under its row, whole; a sub-agent's part after it when the line holds
    both, else on a line of its own, cut to the width."""
    if hit.subagent is None or width is None or cells(UNDER + cell) <= width:
        out.write(UNDER + cell + "\n")
        return
    out.write(UNDER + mask(clean_line(hit.session.label)) + "\n")
    out.write(UNDER + clip(subagent_cell(hit, mask), width - len(UNDER)) + "\n")


def _snippet_room(widths: list[int], width: int | None) -> tuple[int, bool]:
    """The snippet's cells and whether it goes beside its row (else under it). The project's
    width in `widths` is cut, to no less than `PROJECT_MIN`, for a snippet beside it that
    would have less than `SNIPPET_MIN` cells, or for a row wider than the terminal."""
    if width is None:
        return SNIPPET_WIDTH, True
    natural = widths[1]
    least = min(PROJECT_MIN, natural)
    room = width - _span(widths) - 2
    widths[1] = max(natural - max(SNIPPET_MIN - room, 0), least)
    room = width - _span(widths) - 2
    if room >= SNIPPET_MIN:
        return min(room, SNIPPET_WIDTH), True
    widths[1] = natural
    widths[1] = max(natural - max(_span(widths) - width, 0), least)
    return min(SNIPPET_WIDTH, width - len(UNDER)), False


def _span(widths: list[int]) -> int:
    """Cells the columns of `widths` take, two between each."""
    return sum(widths) + 2 * (len(widths) - 1)


def _masker(hit: Hit) -> Callable[[str], str]:
    from pivotal.export.redact import redact, users_in

    row = hit.session
    users = users_in(row.path, row.cwd, str(Path.home()), os.environ.get("HOME"))
    return partial(redact, users=users)
