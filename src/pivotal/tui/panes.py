"""Where the pivot panel sits on one replay screen: docked, floating, or out of the way.

`Panes` belongs to one `ReplayScreen`, which creates it with the screen whose
CSS classes it sets (`-panel-docked`, `-panel-drawer`; pivotal.tcss places
the panel from them). From `WIDE` columns on the panel is docked on the right
unless the person hid it (`p`); narrower, it opens as a drawer under the
transcript (`p`, a click on a pivot banner, an auto-pause, `]` / `[`), which
keeps the transcript's width and the current turn in view; playing and Esc
close it.

It also says which pane has the keyboard (Tab / Shift+Tab, as in lnav and
toolong): both panes are focusable, with no keys of their own, so every key
still reaches the screen, and the scroll keys move the focused one
(`scrolled`). pivotal.tcss marks the focused pane (`:focus`).
"""

from __future__ import annotations

from textual.scroll_view import ScrollView
from textual.widget import Widget

WIDE = 120
"""From this many columns on, the pivot panel is docked on the right."""


class Panes:
    """The panel's placement on one screen."""

    def __init__(self, owner: Widget) -> None:
        self.owner = owner
        self.wide = True
        self.hidden = False
        """Wide terminals: the person hid the docked panel."""
        self.open = False
        """Narrow terminals: the drawer under the transcript is open."""

    def resize(self, width: int) -> None:
        """The screen is `width` columns wide now."""
        self.wide = width >= WIDE
        self.place()

    @property
    def panel_shown(self) -> bool:
        return (self.wide and not self.hidden) or (not self.wide and self.open)

    def place(self) -> None:
        """Docked right when wide (unless hidden), a drawer under the transcript when narrow."""
        self.owner.set_class(self.wide and not self.hidden, "-panel-docked")
        self.owner.set_class(not self.wide and self.open, "-panel-drawer")
        panel = self._pane("#panel")
        if not self.panel_shown and panel is not None and panel.has_focus:
            self.focus("#transcript")  # a pane that went away gives the keys back

    # -- keyboard focus ------------------------------------------------------------
    def _pane(self, selector: str) -> ScrollView | None:
        found = self.owner.query(selector)
        widget = found.first() if found else None
        return widget if isinstance(widget, ScrollView) else None

    def focus(self, selector: str) -> None:
        pane = self._pane(selector)
        if pane is not None:
            pane.focus(scroll_visible=False)

    def cycle(self) -> str:
        """Tab / Shift+Tab: the keys go to the other pane (the panel opens if it was not shown).

        Returns which pane has them now: "panel" or "transcript".
        """
        panel = self._pane("#panel")
        if panel is not None and panel.has_focus:
            self.focus("#transcript")
            return "transcript"
        if not self.panel_shown:
            self.show()
        self.focus("#panel")
        return "panel"

    def scrolled(self) -> ScrollView | None:
        """The pane the scroll keys move: the panel when it has the keys, else the transcript."""
        panel = self._pane("#panel")
        if panel is not None and panel.has_focus and self.panel_shown:
            return panel
        return self._pane("#transcript")

    def reveal(self) -> None:
        """At a pivot (auto-pause, ] or [): a narrow screen opens the drawer to explain it."""
        if not self.wide:
            self.open = True
            self.place()

    def show(self) -> None:
        """The person asked for the panel (a click on a pivot banner)."""
        self.open, self.hidden = True, False
        self.place()

    def toggle(self) -> None:
        """p: hide or show the docked panel, or open or close the floating one."""
        if self.wide:
            self.hidden = not self.hidden
        else:
            self.open = not self.open
        self.place()

    def give_back(self) -> None:
        """Playing: a narrow screen's drawer closes (the next pivot reopens it)."""
        if self.open and not self.wide:
            self.open = False
            self.place()

    def close_overlay(self) -> bool:
        """Esc: close the floating panel; False when there was none to close."""
        if self.open and not self.wide:
            self.open = False
            self.place()
            return True
        return False
