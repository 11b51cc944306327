"""Where the pivot panel sits on one replay screen: docked, floating, or out of the way.

`Panes` belongs to one `ReplayScreen`, which creates it with the screen whose
CSS classes it sets (`-panel-docked`, `-panel-overlay`; pivotal.tcss places
the panel from them). From `WIDE` columns on the panel is docked on the right
unless the person hid it (`p`); narrower, it floats over the transcript's
right side when opened (`p`, a click on a pivot banner, an auto-pause) and
Esc closes it.
"""

from __future__ import annotations

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
        """Narrow terminals: the panel floats over the transcript."""

    def resize(self, width: int) -> None:
        """The screen is `width` columns wide now."""
        self.wide = width >= WIDE
        self.place()

    def place(self) -> None:
        """Docked right when wide (unless hidden), floating over the transcript when narrow."""
        self.owner.set_class(self.wide and not self.hidden, "-panel-docked")
        self.owner.set_class(not self.wide and self.open, "-panel-overlay")

    def reveal(self) -> None:
        """Playback stopped at a pivot: a narrow screen floats the panel open to explain it."""
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

    def close_overlay(self) -> bool:
        """Esc: close the floating panel; False when there was none to close."""
        if self.open and not self.wide:
            self.open = False
            self.place()
            return True
        return False
