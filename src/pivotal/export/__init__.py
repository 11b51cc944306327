"""Exports of a session and its pivots: Markdown, HTML, JSON and asciicast (v2 or v3).

`build_input` reads what an export shows (session, pivots, the person's
marks); `render` turns it into one format. With `redact=True` the model is
redacted before rendering and the finished text is passed through the
redactor again, so no format's escaping can hide a secret from it.

May import the model, readers, detector, `pivotal.scan.report` (the JSON
schema), `pivotal.catalog` (notes, resume, stats) and `pivotal.text`; never
Textual, Rich or the command line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from pivotal.export.common import ExportInput
from pivotal.model import Session, SessionRef

if TYPE_CHECKING:
    from pivotal.export.scrubbed import Shown

FORMATS = ("md", "html", "json", "cast")
SUFFIX = {"md": ".md", "html": ".html", "json": ".json", "cast": ".cast"}

__all__ = ["FORMATS", "SUFFIX", "ExportInput", "build_input", "render", "render_chunks"]


def build_input(
    ref: SessionRef, session: Session, *, sensitivity: str = "normal", with_notes: bool = True
) -> ExportInput:
    """Detect the session's pivots and load its marks (if the notes store can be opened)."""
    from pivotal.detect import PivotConfig, detect_pivots

    found = detect_pivots(session.turns, PivotConfig.for_sensitivity(sensitivity), possible=True)
    data = ExportInput(ref, session, [p for p in found if not p.possible])
    data.possible = [p for p in found if p.possible]
    if with_notes:
        _load_marks(data)
    return data


def _load_marks(data: ExportInput) -> None:
    """Marks from the notes store, if there is one (an export never creates it)."""
    import sqlite3

    from pivotal.catalog.notes import FILE_NAME, NoteStore, data_dir, store_is_session

    path = data_dir() / FILE_NAME
    if not path.exists():
        return
    if store_is_session(path, data.ref):
        data.notices.append(f"notes left out: the notes store {path} is a file of this session")
        return
    try:
        with NoteStore(path, readonly=True) as store:
            if store.notice:
                data.notices.append(store.notice)
            data.marks = store.marks_for(data.session)
    except (OSError, sqlite3.Error) as exc:
        data.notices.append(f"notes left out: cannot open the notes store ({exc})")


def _chunker(fmt: str, cast_version: int = 2) -> Callable[[ExportInput], Iterator[str]]:
    """The format's renderer, as an iterator of pieces (turn by turn where it has turns)."""
    if fmt == "md":
        from pivotal.export.markdown import markdown_chunks

        return markdown_chunks
    if fmt == "html":
        from pivotal.export.html import html_chunks

        return html_chunks
    if fmt == "json":
        from pivotal.export.jsonout import json_chunks

        return json_chunks
    if fmt == "cast":
        from functools import partial

        from pivotal.export.cast import cast_lines

        return partial(cast_lines, version=cast_version)
    raise ValueError(f"unknown export format {fmt!r} (choose from {', '.join(FORMATS)})")


def _shown(fmt: str) -> int | None:
    """The most characters of one text of a turn (a part's text, a tool's input or
    output) the format shows; None: all of it. What it never shows is not redacted."""
    if fmt == "html":
        from pivotal.export.html import TOOL_CHARS, TURN_CHARS

        return max(TURN_CHARS, TOOL_CHARS)
    if fmt == "md":
        from pivotal.export.markdown import EXCERPT_CHARS

        return EXCERPT_CHARS
    if fmt == "cast":
        from pivotal.export.cast import COLS
        from pivotal.export.cast import TURN_CHARS as CAST_CHARS

        return max(CAST_CHARS, 2 * COLS)
    return None


def _hidden(fmt: str) -> frozenset[str]:
    """The fields of a turn and its parts the format never shows, so never redacts: the
    ids of messages, records and tool calls (only the JSON export gives them)."""
    return frozenset() if fmt == "json" else HIDDEN


HIDDEN = frozenset({"message_id", "record_id", "call_id"})


def render_chunks(
    fmt: str,
    data: ExportInput,
    *,
    redact: bool = False,
    counts: Counter[str] | None = None,
    cast_version: int = 2,
) -> Iterator[str]:
    """The export of `data` in `fmt`, piece by piece, so it can be written as it is made.

    Memory stays the session's index plus one turn's text: a turn's parts are decoded,
    (redacted,) rendered and written before the next one is read. With `redact` each
    turn is redacted as it is rendered and every piece of text passes the redactor once
    more, so no format's escaping can hide a secret from it (JSON escapes nothing that
    could: its strings were redacted in the model).
    """
    chunks = _chunker(fmt, cast_version)
    if not redact:
        yield from chunks(data)
        return
    from pivotal.export.redact import redact as redact_text
    from pivotal.export.redact import users_in
    from pivotal.export.scrubbed import scrub

    session = data.session
    home = str(Path.home())
    users = users_in(str(data.ref.path), str(session.path), session.cwd, home)
    seen = _seen(fmt)
    pieces = chunks(scrub(data, counts, users, shown=_shown(fmt), seen=seen, hidden=_hidden(fmt)))
    if fmt == "json":
        yield from pieces
        return
    for piece in pieces:
        yield seen.redact(piece, counts, users) if seen else redact_text(piece, counts, users)


def _seen(fmt: str) -> Shown | None:
    """Where the format prints a text of a turn whole, escaped, in a block of its own, so
    that the pass over its finished text need not redact it again (`scrubbed.Shown`)."""
    if fmt != "html":
        return None
    from functools import partial
    from html import escape

    from pivotal.export.common import THINKING
    from pivotal.export.html import BLOCK, TURN_CHARS
    from pivotal.export.scrubbed import Shown

    show = partial(escape, quote=True)
    return Shown(show, BLOCK, TURN_CHARS, prefixes=(show(THINKING),))


def render(
    fmt: str,
    data: ExportInput,
    *,
    redact: bool = False,
    counts: Counter[str] | None = None,
    cast_version: int = 2,
) -> str:
    """The export of `data` in `fmt`; `counts` (when given) tallies what was redacted."""
    return "".join(
        render_chunks(fmt, data, redact=redact, counts=counts, cast_version=cast_version)
    )
