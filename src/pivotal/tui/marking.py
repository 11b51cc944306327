"""Marks and notes on the replay screen: which session it is, its `MarkBook`, the note editor.

`Marking` belongs to one `ReplayScreen`, which creates it with what it works on:
the screen's `Playback` (turns and cursor), the widget it works through (a
thread worker, notifications, the note editor) and `say`, which puts a line on
the status bar. It learns the session's identity (from the in-memory session,
or by reading the head of the file in a thread, then posting `Marking.Loaded`
to that widget) and loads its marks; the screen's `sync()` asks it for the
marks to draw and the cursor turn's note.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message
from textual.widget import Widget

from pivotal.model import Session, SessionRef
from pivotal.tui.marks import MarkBook, identify
from pivotal.tui.playback import Playback
from pivotal.tui.safe import clean, one_line


def fallback_identity(ref: SessionRef) -> Session:
    """What the listing knew, for a file whose head cannot be read."""
    return Session(ref.format, ref.path, id=ref.session_id, key=ref.key, cwd=ref.cwd)


class Marking:
    """The mark and note keys of one screen, and the session identity they need."""

    class Loaded(Message):
        """The session's identity is known and its marks are loaded: draw them."""

    def __init__(self, owner: Widget, playback: Playback, say: Callable[[str], None]) -> None:
        self.owner = owner
        """The screen: runs the identity thread, shows notifications and the note editor."""
        self.playback = playback
        self.say = say
        self.book = MarkBook()
        self.identity: Session | None = None
        """The session's header (id, cwd, ...): marks and the resume command need it."""

    # -- learning which session this is ----------------------------------------------
    def open(self, session: object, ref: SessionRef | None) -> None:
        """The screen is mounting: `session` if the app holds it in memory, else read `ref`.

        An in-memory session's marks are loaded at once, for the screen's first sync.
        """
        if isinstance(session, Session):
            self.attach(session)
        elif ref is not None:
            self.identify(ref)

    def identify(self, ref: SessionRef) -> None:
        """Learn (in a thread) which session `ref` is, then load its marks."""
        self.identity = None
        self.owner.run_worker(
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
            self.owner.app.call_from_thread(self.identified, session)
        except RuntimeError:  # the app closed while the head was being read
            pass

    def identified(self, session: Session) -> None:
        """The head of the file was read (UI thread): load the marks and tell the screen."""
        self.attach(session)
        self.owner.post_message(Marking.Loaded())

    def attach(self, session: Session) -> None:
        """The session is known: load its marks (a notification says why they cannot be kept)."""
        self.identity = session
        notice = self.book.attach(session)
        if notice:
            self.owner.notify(clean(notice), severity="warning", timeout=8, markup=False)

    def close(self) -> None:
        self.book.close()

    # -- keys ------------------------------------------------------------------------
    def _current(self) -> int | None:
        pb = self.playback
        if not pb.turns:
            self.say("no turn to mark yet")
            return None
        if self.book.session is None:
            self.say("marks are still loading")
            return None
        return pb.cursor

    def toggle(self) -> None:
        """m: mark the cursor turn, or unmark it."""
        index = self._current()
        if index is None:
            return
        marked = self.book.toggle(self.playback.turns[index])
        if marked is None:
            self.not_saved("mark" if index not in self.book.by_index else "unmark")
        else:
            self.say(f"{'marked' if marked else 'unmarked'} turn #{index + 1}")

    def edit_note(self) -> None:
        """a: open the note editor on the cursor turn (saving marks it)."""
        index = self._current()
        if index is None:
            return
        self._edit(index, self.book.note_at(index) or "", "Ctrl+S saves · Esc leaves")

    def _edit(self, index: int, text: str, hint: str) -> None:
        turn = self.playback.turns[index]

        def done(value: str | None) -> None:
            if value is None:
                self.say("note unchanged")
            elif self.book.set_note(turn, value):
                self.say(f"note saved on turn #{index + 1}")
            else:  # the text stays in the editor: nothing the person typed is lost
                self.not_saved("note")
                self._edit(index, value, "NOT saved · Ctrl+S tries again · Esc discards it")

        title = f"Note on turn #{index + 1} (Markdown) · {hint}"
        from pivotal.tui.note_editor import NoteScreen  # TextArea loads when first needed

        self.owner.app.push_screen(NoteScreen(title, text), done)

    def not_saved(self, what: str) -> None:
        """The store refused a change: the reason in short on the status line, in full aside."""
        full = self.book.failure or "the notes store refused it"
        reason = full.rsplit(": ", 1)[-1]  # "cannot save to the notes store PATH: it is locked…"
        self.say(f"{what} NOT saved: {reason}")
        self.owner.notify(
            full, title=f"{what.capitalize()} not saved", severity="error", timeout=10, markup=False
        )

    def next_mark(self) -> int | None:
        """u: go to the next marked turn; where the cursor went, None when there is none."""
        target = self.book.next_after(self.playback.cursor)
        return None if target is None else self.playback.goto(target)

    def prev_mark(self) -> int | None:
        """U: go to the previous marked turn; where the cursor went, None when there is none."""
        target = self.book.prev_before(self.playback.cursor)
        return None if target is None else self.playback.goto(target)

    # -- what sync shows -------------------------------------------------------------
    def marked_turns(self) -> tuple[int, ...]:
        """Marked turn indices for the timeline (resolving against the current turns)."""
        self.book.resolve(self.playback.turns)
        return tuple(self.book.indices)

    def mark_notes(self) -> dict[int, str]:
        """Marked turn -> its note's first line ("" without a note): the transcript's ▼."""
        self.book.resolve(self.playback.turns)
        return {
            index: one_line(note.strip().split("\n", 1)[0], 60)
            for index, note in self.book.by_index.items()
        }

    def cursor_note(self) -> tuple[int, str] | None:
        """(cursor, its note: "" when marked without one), None when the cursor turn is unmarked."""
        self.book.resolve(self.playback.turns)
        note = self.book.note_at(self.playback.cursor)
        return None if note is None else (self.playback.cursor, note)
