"""Marks and notes on the replay screen: the keys (m, a, u, U) and the note editor.

`MarkActions` is mixed into `ReplayScreen`; it owns a `MarkBook`, learns the
session's identity when the screen mounts (from the in-memory session, or by
reading the head of the file in a thread) and loads its marks. The screen's
`sync()` asks the book for the marks to draw and the cursor turn's note.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static, TextArea

from pivotal.model import Session, SessionRef
from pivotal.tui.marks import MarkBook, identify
from pivotal.tui.rich_text import safe_markdown
from pivotal.tui.screen_mixin import ScreenMixin


class NoteScreen(ModalScreen[str | None]):
    """A small Markdown editor for one turn's note: Ctrl+S saves, Esc leaves it unchanged."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, title: str, text: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="note-box"):
            yield Static(Text(self.title_text), id="note-title")
            yield TextArea(self.text, id="note-text", soft_wrap=True, tab_behavior="indent")
        yield Footer()

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    @property
    def value(self) -> str:
        return self.query_one(TextArea).text

    def action_save(self) -> None:
        self.dismiss(self.value.strip("\n"))

    def action_cancel(self) -> None:
        self.dismiss(None)


def fallback_identity(ref: SessionRef) -> Session:
    """What the listing knew, for a file whose head cannot be read."""
    return Session(ref.format, ref.path, id=ref.session_id, key=ref.key, cwd=ref.cwd)


class MarkActions(ScreenMixin):
    """Mixin for `ReplayScreen`: the mark and note keys and the session identity they need."""

    marks: MarkBook

    def init_marks(self) -> None:
        self.marks = MarkBook()
        self.identity: Session | None = None
        """The session's header (id, cwd, ...): marks and the resume command need it."""

    # -- learning which session this is ----------------------------------------------
    def on_mount(self) -> None:
        session = getattr(self.app, "session", None)
        if isinstance(session, Session):
            self.identified(session)
            return
        ref = self.live.ref
        if ref is not None:
            self.reidentify(ref)

    def reidentify(self, ref: SessionRef) -> None:
        """Learn (in a thread) which session `ref` is, then load its marks."""
        self.identity = None
        self.run_worker(
            lambda: self._identify(ref),
            name="identify",
            group="identify",
            thread=True,
            exclusive=True,
            exit_on_error=False,
            description="Reading the session's id",
        )

    def _identify(self, ref: SessionRef) -> None:
        try:
            session = identify(ref)
        except Exception:  # noqa: BLE001 - an unreadable head still gets a (path-based) identity
            session = fallback_identity(ref)
        try:
            self.app.call_from_thread(self.identified, session)
        except RuntimeError:  # the app closed while the head was being read
            pass

    def identified(self, session: Session) -> None:
        """The session is known: load its marks and show them."""
        self.identity = session
        notice = self.marks.attach(session)
        if notice:
            self.notify(notice, severity="warning", timeout=8, markup=False)
        self.sync(follow=False)

    def on_unmount(self) -> None:
        self.marks.close()

    # -- keys ------------------------------------------------------------------------
    def _current(self) -> int | None:
        pb = self.playback
        if not pb.turns:
            self.say("no turn to mark yet")
            return None
        if self.marks.session is None:
            self.say("marks are still loading")
            return None
        return pb.cursor

    def say(self, status: str) -> None:
        self.status = status
        self.sync(follow=False)

    def action_mark(self) -> None:
        index = self._current()
        if index is None:
            return
        marked = self.marks.toggle(self.playback.turns[index])
        if marked is None:
            self.say(self.marks.problem)
        else:
            self.say(f"{'marked' if marked else 'unmarked'} turn #{index + 1}")

    def action_note(self) -> None:
        index = self._current()
        if index is None:
            return
        turn = self.playback.turns[index]

        def done(value: str | None) -> None:
            if value is None:
                self.say("note unchanged")
            elif self.marks.set_note(turn, value):
                self.say(f"note saved on turn #{index + 1}")
            else:
                self.say(self.marks.problem)

        title = f"Note on turn #{index + 1} (Markdown) · Ctrl+S saves · Esc cancels"
        self.app.push_screen(NoteScreen(title, self.marks.note_at(index) or ""), done)

    def action_next_mark(self) -> None:
        target = self.marks.next_after(self.playback.cursor)
        self.moved(None if target is None else self.playback.goto(target), "no later mark")

    def action_prev_mark(self) -> None:
        target = self.marks.prev_before(self.playback.cursor)
        self.moved(None if target is None else self.playback.goto(target), "no earlier mark")

    # -- what sync shows -------------------------------------------------------------
    def marked_turns(self) -> tuple[int, ...]:
        """Marked turn indices for the timeline (resolving against the current turns)."""
        self.marks.resolve(self.playback.turns)
        return tuple(self.marks.indices)

    def cursor_note(self) -> tuple[int, str] | None:
        """(cursor, its note: "" when marked without one), None when the cursor turn is unmarked."""
        self.marks.resolve(self.playback.turns)
        note = self.marks.note_at(self.playback.cursor)
        return None if note is None else (self.playback.cursor, note)


def note_block(index: int, note: str) -> RenderableType:
    """The panel's section for a marked turn: its note as safe Markdown (no links, no escapes)."""
    title = Text(f"✎ Note · turn #{index + 1}", style="bold reverse")
    if not note.strip():
        hint = Text("Marked. a adds a note; m unmarks.", style="dim")
        return Group(title, hint, Text(""))
    return Group(title, safe_markdown(note), Text(""))
