"""The note editor (`a` on a replay screen): a small Markdown text area for one turn's note.

Its own module so that Textual's TextArea (~10 ms to import) loads when a note
is first edited, not before the replayer's first screen.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static, TextArea

from pivotal.tui.screens import close_once


class NoteScreen(ModalScreen[str | None]):
    """A small Markdown editor for one turn's note: Ctrl+S saves, Esc leaves it unchanged.

    Esc on a changed draft does not throw it away at once: the title asks (Ctrl+S saves
    it, Esc again discards it), and typing on takes the question back.
    """

    BINDINGS = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "cancel", "Cancel", priority=True),
    ]
    TAKES_TYPING = True
    """Keys typed before the editor has focus wait for it (`ReplayerApp.on_event`)."""
    closing = False
    """Ctrl+S or Esc reached it: keys behind them wait for the screen below."""
    dismissed = False
    asking = False
    """Esc was pressed on a changed draft: the title asks what to do with it."""
    ASK = "Unsaved note · Ctrl+S saves it · Esc again discards it"

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
        for area in self.query(TextArea):  # none when the app is closing under it
            area.focus()
            area.move_cursor(area.document.end)

    @property
    def value(self) -> str:
        return next((area.text for area in self.query(TextArea)), self.text)

    def action_save(self) -> None:
        # Ctrl+S is a priority binding: it runs as the key arrives, while keys typed
        # just before it (a paste, `a x y ctrl+s` in one read) may still wait in the
        # text area's queue; saving behind them keeps them ("x" was saved, not "xy")
        area = next(iter(self.query(TextArea)), None)
        if area is None:
            close_once(self, self.value.strip("\n"))
        else:
            self.closing = True  # and keys typed after it are for the replay screen
            area.call_later(self._save_now)

    def _save_now(self) -> None:
        close_once(self, self.value.strip("\n"))

    def action_cancel(self) -> None:
        if self.asking or self.value.strip("\n") == self.text.strip("\n"):
            close_once(self, None)
            return
        self.asking = True
        self.title_line(Text(self.ASK, style="bold reverse"))

    def on_text_area_changed(self) -> None:
        if self.asking:  # typing on: the draft is wanted after all
            self.asking = False
            self.title_line(Text(self.title_text))

    def title_line(self, text: Text) -> None:
        for title in self.query("#note-title"):
            if isinstance(title, Static):
                title.update(text)
