"""Exports of a session and its pivots: Markdown, HTML, JSON and asciicast v3.

`build_input` reads what an export shows (session, pivots, the person's
marks); `render` turns it into one format. With `redact=True` the model is
redacted before rendering and the finished text is passed through the
redactor again, so no format's escaping can hide a secret from it.
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
    marks = []
    if with_notes:
        from pivotal.notes import NoteStore

        with NoteStore() as store:
            marks = store.marks_for(session)
    return ExportInput(ref, session, list(pivots), marks)


def _renderer(fmt: str) -> Callable[[ExportInput], str]:
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
        from pivotal.export.cast import render_cast

        return render_cast
    raise ValueError(f"unknown export format {fmt!r} (choose from {', '.join(FORMATS)})")


def render(
    fmt: str, data: ExportInput, *, redact: bool = False, counts: Counter[str] | None = None
) -> str:
    """The export of `data` in `fmt`; `counts` (when given) tallies what was redacted."""
    renderer = _renderer(fmt)
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
