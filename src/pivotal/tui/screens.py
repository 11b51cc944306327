"""Small screens around the replay: help, a one-line prompt, the session picker."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pivotal.tui.keys import HELP_GROUPS
from pivotal.tui.lines_view import LinesView


class HelpScreen(ModalScreen[None]):
    """Every key of the replayer, grouped; Esc, q or ? closes it."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "dismiss", "Close"),
        Binding("j,down", "scroll('down')", "Down", show=False),
        Binding("k,up", "scroll('up')", "Up", show=False),
        Binding("pagedown,space,ctrl+d", "scroll('page_down')", "Page down", show=False),
        Binding("pageup,ctrl+u", "scroll('page_up')", "Page up", show=False),
        Binding("g,home", "scroll('home')", "Top", show=False),
        Binding("G,end", "scroll('end')", "Bottom", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield LinesView(help_table(), "help", id="help-body")
        # one line, not a Footer: a Footer builds a widget per binding (~15 ms to open)
        yield Static(
            Text(" Esc q ? close · j k ↓ ↑ PgDn PgUp g G scroll", style="bold"), id="help-keys"
        )

    def action_scroll(self, direction: str) -> None:
        body = self.query_one("#help-body", LinesView)
        {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "page_down": body.scroll_page_down,
            "page_up": body.scroll_page_up,
            "home": body.scroll_home,
            "end": body.scroll_end,
        }[direction](animate=False)


SILENT_PIVOT = (
    "A silent pivot is a moment where you said next to nothing (an empty message, "
    "“ok”, “continue”, “.”) or the context was compacted, and the agent went on with a "
    "plan of its own: after a dead end (delegation after dead end), after a milestone "
    "(continue after milestone), taking your silence as a yes (implicit approval), or none "
    "of these (other). Replay stops there (auto-pause) and the panel says why, so you can "
    "see what the agent decided without you."
)
LEGEND = [
    ("● You", "your message"),
    ("◆ Agent", "the agent's turn"),
    ("○ injected", "text a tool wrote on your side (folded)"),
    ("■", "system turn or compaction"),
    ("✦", "a pivot (on the bar and in its banner)"),
    ("✧", "a candidate pivot: live, still being judged"),
    ("◇", "a possible pivot: just under the bar, never paused at (w / W)"),
    ("· no pivot here", "a silence the detector turned down, and why (the panel says more)"),
    ("▸ ▾", "a tool call, folded / open (Enter or a click)"),
    ("✓ ✗ …", "the call worked / failed (exit code first) / no result yet"),
    ("↳ sub-agent", "what a sub-agent the call ran did (Enter opens it, ⌫ back)"),
    ("$0.02 · in · out", "a turn's dollars and tokens (status line: spent so far of all)"),
    ("● ━ ─", "on the bar: where you are, seen, still ahead"),
    ("red", "on the bar: a turn with a failed call (e jumps there)"),
    ("▼", "a turn you marked (m)"),
    ("■ end", "the last turn: the session ends here"),
]


def help_table() -> Table:
    table = Table(title="pivotal keys", show_header=False, box=None, padding=(0, 2), expand=False)
    table.add_column("key", style="bold")
    table.add_column("action")
    table.add_row(Text("Silent pivots", style="bold underline"), "")
    table.add_row("", Text(SILENT_PIVOT))
    table.add_row("", "")
    table.add_row(Text("What the glyphs mean", style="bold underline"), "")
    for glyph, meaning in LEGEND:
        table.add_row(Text(glyph), Text(meaning))
    table.add_row("", "")
    for group, rows in HELP_GROUPS:
        table.add_row(Text(group, style="bold underline"), "")
        for keys, what in rows:
            table.add_row(keys, what)
        table.add_row("", "")
    table.add_row("Ctrl+P", "command palette: every action by name")
    table.add_row("", "")
    table.add_row(Text("Mouse", style="bold underline"), "")
    table.add_row("wheel", "scroll the transcript or the panel")
    table.add_row("click ▸ header", "expand / fold that tool call")
    table.add_row("click ✦ banner", "show the pivot panel")
    table.add_row("click → turn #N", "jump to that evidence turn (panel)")
    table.add_row("click the bar", "jump there (to the pivot under a ✦)")
    return table


def close_once(screen: ModalScreen[Any], result: object) -> None:
    """Dismiss `screen` with `result` unless it was dismissed already.

    Enter and Esc in one read (a paste, a fast typist) both reached the prompt
    before it was gone: two dismissals popped the replay screen too, leaving a
    blank one.
    """
    if not getattr(screen, "dismissed", False):
        screen.dismissed = True  # type: ignore[attr-defined]
        screen.closing = True  # type: ignore[attr-defined]
        screen.dismiss(result)


class PromptInput(Input):
    """The prompt's input: once it has seen Enter or Esc, the keys behind them are not its own.

    A terminal hands over `:17⏎q` in one read, and every key reaches the input
    before the Enter's submit runs (Textual checks bindings when a key comes back
    up): `q` was typed into the closing prompt ("17q": no jump, no quit). The
    input marks its screen `closing` on the key itself, in the order the keys
    came, and hands later ones back to the app for the screen below.
    """

    async def _on_key(self, event: events.Key) -> None:
        screen = self.screen
        if getattr(screen, "closing", False):
            event.stop()
            event.prevent_default()
            self.app.after_close(screen, event)  # type: ignore[attr-defined]
            return
        if event.key in ("enter", "escape"):
            screen.closing = True  # type: ignore[attr-defined]
        await super()._on_key(event)


class PromptScreen(ModalScreen[str | None]):
    """A one-line prompt docked at the bottom (go to turn, search)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    TAKES_TYPING = True
    """Keys typed before the input has focus wait for it (`ReplayerApp.on_event`)."""
    closing = False
    """Enter or Esc reached it: keys behind them wait for the screen below."""
    dismissed = False

    def __init__(self, label: str, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.label = label
        self.placeholder = placeholder
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box"):
            yield Static(Text(self.label), id="prompt-label")
            yield PromptInput(value=self.value, placeholder=self.placeholder, id="prompt-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        close_once(self, event.value)

    def action_cancel(self) -> None:
        close_once(self, None)
