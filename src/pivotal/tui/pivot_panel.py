"""PivotPanel: explains the pivot at or before the cursor, with links to its evidence.

Shows kind, confidence, silence kind, the one-line reason, the state before and
after, the delegation signals and every other signal. Each evidence turn is a
link; clicking it asks the app to jump there. Content is rebuilt only when the
pivot shown changes.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from pivotal.model import Pivot, Signal, Silence, StateChange
from pivotal.tui.safe import one_line

SILENCE_NOTES = {
    Silence.EMPTY: "an empty message",
    Silence.ACK: "a bare go-on (ok / continue / yes)",
    Silence.COMPACTION: "a compaction boundary, not necessarily the person",
}


class EvidenceLink(Static):
    """One evidence turn: click to jump to it."""

    def __init__(self, turn: int, label: Text) -> None:
        super().__init__(label, classes="evidence-link")
        self.turn = turn

    def on_click(self, event: events.Click) -> None:
        self.post_message(PivotPanel.JumpRequested(self.turn))
        event.stop()


class PivotPanel(VerticalScroll, can_focus=False):
    """Side panel for the current pivot."""

    class JumpRequested(Message):
        """An evidence link was clicked: go to `turn`."""

        def __init__(self, turn: int) -> None:
            super().__init__()
            self.turn = turn

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[int, int, int] | None = None

    def on_mount(self) -> None:
        self.show_pivot(None, 0, 0)

    def show_pivot(
        self, pivot: Pivot | None, number: int, total: int, loading: bool = False
    ) -> None:
        """Show `pivot` (number `number` of `total`), or a hint when there is none."""
        key = (id(pivot), number, total * 2 + int(loading))
        if key == self._shown:
            return
        self._shown = key
        self.remove_children()
        if pivot is None:
            if loading:
                hint = "Looking for pivots…"
            elif total:
                hint = f"No pivot before this turn.\n{total} in the session: ] jumps to the next."
            else:
                hint = "No silent pivots in this session."
            self.mount(Static(Text(hint, style="dim"), classes="panel-hint"))
            return
        self.mount_all(pivot_widgets(pivot, number, total))
        self.scroll_home(animate=False)


def heading(text: str) -> Static:
    return Static(Text(text, style="bold"), classes="panel-heading")


def line(text: str, style: str = "") -> Static:
    return Static(Text(text, style=style), classes="panel-line")


def pivot_widgets(pivot: Pivot, number: int, total: int) -> list[Static]:
    kind = pivot.kind.value.replace("_", " ")
    title = f"Pivot {number}/{total} · turn #{pivot.turn + 1}"
    if pivot.candidate:
        title += " (candidate)"
    widgets: list[Static] = [
        Static(Text(title, style="bold reverse"), classes="panel-title"),
        line(f"kind        {kind}"),
        line(f"confidence  {pivot.confidence:.2f}"),
        line(f"silence     {pivot.silence.value}: {SILENCE_NOTES.get(pivot.silence, '')}"),
    ]
    if pivot.reason:
        widgets.append(line(one_line(pivot.reason, 400), "italic"))
    widgets += state_widgets(pivot.state)
    if pivot.delegation:
        widgets.append(heading("Delegation"))
        for signal in pivot.delegation:
            widgets += signal_widgets(signal)
    if pivot.signals:
        widgets.append(heading("Evidence"))
        for signal in pivot.signals:
            widgets += signal_widgets(signal)
    if len(pivot.cluster) > 1:
        widgets.append(heading("Silent cluster"))
        widgets += [
            EvidenceLink(i, Text(f"  → turn #{i + 1}", style="underline")) for i in pivot.cluster
        ]
    return widgets


def state_widgets(state: StateChange) -> list[Static]:
    rows: list[Static] = []
    pairs = [
        ("phase", state.phase_before, state.phase_after),
        ("initiative", state.initiative_before, state.initiative_after),
    ]
    for label, before, after in pairs:
        if before or after:
            rows.append(
                line(f"{label:<11} {one_line(before, 60) or '?'} → {one_line(after, 60) or '?'}")
            )
    if state.attempts_failed or state.attempts_succeeded:
        rows.append(
            line(f"attempts    {state.attempts_failed} failed, {state.attempts_succeeded} ok")
        )
    for label, items in (
        ("figures before", state.figures_before),
        ("figures after", state.figures_after),
    ):
        if items:
            rows.append(line(f"{label}: " + "; ".join(one_line(x, 60) for x in items[:6]), "dim"))
    for thread in state.open_threads[:6]:
        rows.append(line(f"open: {one_line(thread, 80)}", "dim"))
    for task in state.tasks[:8]:
        change = f"{task.before or '–'} → {task.after or '–'}"
        rows.append(line(f"task {one_line(task.item, 50)}: {change} (#{task.turn + 1})", "dim"))
    if rows:
        rows.insert(0, heading("Before → after"))
    return rows


def signal_widgets(signal: Signal) -> list[Static]:
    weight = f" {signal.weight:+.2f}" if signal.weight else ""
    head = Text(f"• {one_line(signal.name, 60)}", style="bold")
    head.append(f"{weight} [{signal.side}]", style="dim")
    rows: list[Static] = [Static(head, classes="panel-signal")]
    if signal.detail:
        rows.append(line(f"  {one_line(signal.detail, 300)}", "dim"))
    for n, turn in enumerate(signal.turns[:12]):
        quote = signal.quotes[n] if n < len(signal.quotes) else ""
        label = Text(f"  → turn #{turn + 1}", style="underline")
        if quote:
            label.append(f"  “{one_line(quote, 80)}”", style="dim")
        rows.append(EvidenceLink(turn, label))
    return rows
