"""The export keys: x writes the session on screen to a file, X the same with secrets masked.

What `pivotal export -o NAME` writes (`pivotal.export`: the session re-read from its file,
its pivots at the replay's sensitivity, the person's marks and notes), the format named by
the suffix. The prompt offers a name in the folder pivotal was started from; the person can
type any other. Unlike `-o`, a name that exists is refused (`pivotal.export.newfile`), and
so is any name inside the session's own files or folders (pivotal never writes beside a
session). The export runs in a thread; the status line says where it went.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from textual.widget import Widget

from pivotal.export import SUFFIX
from pivotal.model import SessionRef
from pivotal.text.plural import plural
from pivotal.tui.handoff import shown_path
from pivotal.tui.safe import one_line
from pivotal.tui.screens import PromptScreen

BY_SUFFIX = {suffix: fmt for fmt, suffix in SUFFIX.items()} | {".markdown": "md", ".htm": "html"}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def default_name(ref: SessionRef, redact: bool) -> str:
    """`pivotal-<the session file's stem>.html` (`-redacted` for X): the file's name, no
    session text, in characters every file system takes."""
    stem = _UNSAFE.sub("-", ref.path.stem).strip("-.")[:60] or "session"
    return f"pivotal-{stem}{'-redacted' if redact else ''}.html"


def refusal(target: Path, ref: SessionRef) -> str | None:
    """Why the export cannot go to `target` (before anything is read), or None."""
    from pivotal.readers import session_files

    fmt = BY_SUFFIX.get(target.suffix.lower())
    if fmt is None:
        return f"{target.name}: end the name with {', '.join(sorted(set(SUFFIX.values())))}"
    files = session_files(ref)
    if files.claims(target) is not None or files.beside(target) is not None:
        return "not into the session's own files or folder: choose another folder"
    if target.exists() or target.is_symlink():
        return f"{shown_path(target)} exists: choose another name (x never replaces a file)"
    if not target.parent.is_dir():
        return f"no folder {shown_path(target.parent)}"
    return None


class Exporter:
    """The x and X keys of one replay screen."""

    def __init__(
        self, owner: Widget, say: Callable[[str], None], sensitivity: Callable[[], str]
    ) -> None:
        self.owner = owner
        self.say = say
        self.sensitivity = sensitivity
        self.running = False

    def ask(self, ref: SessionRef | None, redact: bool) -> None:
        """Prompt for a file name, then export `ref` (None: a session with no file)."""
        if ref is None:
            self.say("nothing to export: this session was not read from a file")
            return
        if self.running:
            self.say("an export is still being written")
            return
        what = "Export, secrets masked, to" if redact else "Export to"
        label = f"{what} (.html .md .json .cast; Enter writes, Esc cancels)"
        name = str(Path.cwd() / default_name(ref, redact))

        def done(value: str | None) -> None:
            text = (value or "").strip()
            if text:
                self.start(ref, Path(text).expanduser(), redact)

        self.owner.app.push_screen(PromptScreen(label, "file name", name), done)

    def start(self, ref: SessionRef, target: Path, redact: bool) -> None:
        if not target.is_absolute():
            target = Path.cwd() / target
        why = refusal(target, ref)
        if why is not None:
            self.say(f"not exported: {why}")
            return
        fmt = BY_SUFFIX[target.suffix.lower()]
        self.running = True
        self.say(f"exporting to {shown_path(target)}…")
        sensitivity = self.sensitivity()
        self.owner.run_worker(
            lambda: self._write(ref, target, fmt, redact, sensitivity),
            name="export",
            group="export",
            thread=True,
            exit_on_error=False,
            description="Writing an export",
        )

    def _write(self, ref: SessionRef, target: Path, fmt: str, redact: bool, level: str) -> None:
        """In a thread: read, render and write; then say how it went (on the UI thread)."""
        from pivotal.export import build_input, render_chunks
        from pivotal.export.newfile import write_new
        from pivotal.readers import read_session

        try:
            data = build_input(ref, read_session(ref), sensitivity=level)
            write_new(target, render_chunks(fmt, data, redact=redact))
            pivots = plural(len(data.pivots), "pivot")
            said = f"wrote {shown_path(target)} ({fmt}, {pivots}{', redacted' if redact else ''})"
        except FileExistsError:
            said = f"not exported: {shown_path(target)} appeared meanwhile (not replaced)"
        except Exception as exc:  # noqa: BLE001 - a file that cannot be read: said, not raised
            said = f"not exported: {one_line(str(exc) or type(exc).__name__, 120)}"
        try:
            self.owner.app.call_from_thread(self._finished, said)
        except RuntimeError:  # the app closed while it was written
            pass

    def _finished(self, said: str) -> None:
        self.running = False
        self.say(said)
