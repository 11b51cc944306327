"""KeyBar: the replay screen's footer, one line fitted to the width it has.

Textual's Footer lays its keys out left to right and cuts what does not fit,
and its keys come and go with the screen's state: at 80 columns `? Help` and
`q Quit` fell off the end. This bar keeps `keys.FOOTER`'s order, shortens the
labels when narrow and then drops the lowest-ranked keys, so the essential ones
stay. It is one `Text` (no widget per key, nothing to recompose); a click on a
key runs its action.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from pivotal.tui.keys import FOOTER

GAP = "  "


def fitted(width: int, enabled: frozenset[str]) -> list[tuple[str, str, str]]:
    """(key, label, action) of the keys shown in `width` cells, given the enabled actions."""
    rows = [row for row in FOOTER if row[3] in enabled]

    def length(items: list[tuple[str, str, str]]) -> int:
        return sum(len(key) + 1 + len(label) for key, label, _ in items) + len(GAP) * (
            len(items) - 1
        )

    full = [(key, label, action) for key, label, _, action, _ in rows]
    if length(full) <= width:
        return full
    kept = [row for row in rows if row[2]]  # narrow: keys without a short label go
    while kept:
        short = [(key, short, action) for key, _, short, action, _ in kept]
        if length(short) <= width:
            return short
        kept.remove(min(kept, key=lambda row: row[4]))
    return []


class KeyBar(Widget):
    """The footer: the screen's most useful keys, the essential ones always shown."""

    COMPONENT_CLASSES = {"keybar--key", "keybar--label"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.enabled: frozenset[str] = frozenset(row[3] for row in FOOTER)

    def set_enabled(self, enabled: frozenset[str]) -> None:
        """Show only these actions (n appears once there is a search, e once there are failures)."""
        if enabled != self.enabled:
            self.enabled = enabled
            self.refresh()

    def shown(self) -> list[tuple[str, str, str]]:
        return fitted(max(self.size.width, 1), self.enabled)

    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        label_style = self.get_component_rich_style("keybar--label")
        text = Text(no_wrap=True, overflow="crop")
        for n, (key, label, action) in enumerate(self.shown()):
            if n:
                text.append(GAP)
            click = action if action.startswith("app.") else f"screen.{action}"
            meta = Style.from_meta({"@click": click})
            text.append(key, key_style + meta)
            text.append(f" {label}", label_style + meta)
        return text
