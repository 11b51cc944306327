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
from collections.abc import Callable
from pathlib import Path

from pivotal.export.common import ExportInput
from pivotal.model import Session, SessionRef

FORMATS = ("md", "html", "json", "cast")
SUFFIX = {"md": ".md", "html": ".html", "json": ".json", "cast": ".cast"}

__all__ = ["FORMATS", "SUFFIX", "ExportInput", "build_input", "render"]


def build_input(
    ref: SessionRef, session: Session, *, sensitivity: str = "normal", with_notes: bool = True
) -> ExportInput:
    """Detect the session's pivots and load its marks (if the notes store can be opened)."""
    from pivotal.detect import PivotConfig, detect_pivots

    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(sensitivity))
    data = ExportInput(ref, session, list(pivots))
    if with_notes:
        _load_marks(data)
    return data


def _load_marks(data: ExportInput) -> None:
    """Marks from the notes store, if there is one (an export never creates it)."""
    import sqlite3

    from pivotal.catalog.notes import FILE_NAME, NoteStore, data_dir

    path = data_dir() / FILE_NAME
    if not path.exists():
        return
    try:
        with NoteStore(path, readonly=True) as store:
            if store.notice:
                data.notices.append(store.notice)
            data.marks = store.marks_for(data.session)
    except (OSError, sqlite3.Error) as exc:
        data.notices.append(f"notes left out: cannot open the notes store ({exc})")


def _renderer(fmt: str, cast_version: int = 2) -> Callable[[ExportInput], str]:
    if fmt == "md":
        from pivotal.export.markdown import render_markdown

        return render_markdown
    if fmt == "html":
        from pivotal.export.html import render_html

        return render_html
    if fmt == "json":
        from pivotal.export.jsonout import render_json

        return render_json
    if fmt == "cast":
        from functools import partial

        from pivotal.export.cast import render_cast

        return partial(render_cast, version=cast_version)
    raise ValueError(f"unknown export format {fmt!r} (choose from {', '.join(FORMATS)})")


def render(
    fmt: str,
    data: ExportInput,
    *,
    redact: bool = False,
    counts: Counter[str] | None = None,
    cast_version: int = 2,
) -> str:
    """The export of `data` in `fmt`; `counts` (when given) tallies what was redacted."""
    renderer = _renderer(fmt, cast_version)
    if not redact:
        return renderer(data)
    from pivotal.export.redact import redact as redact_text
    from pivotal.export.redact import users_in
    from pivotal.export.scrubbed import scrub

    session = data.session
    home = str(Path.home())
    users = users_in(str(data.ref.path), str(session.path), session.cwd, home)
    text = renderer(scrub(data, counts, users))
    if fmt == "json":
        return text  # every string was redacted in the model; JSON escapes nothing it could hide
    return redact_text(text, counts, users)
