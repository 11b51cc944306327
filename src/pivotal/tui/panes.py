"""Where the pivot panel sits on one replay screen: docked, floating, or out of the way.

`Panes` belongs to one `ReplayScreen`, which creates it with the screen whose
CSS classes it sets (`-panel-docked`, `-panel-drawer`; pivotal.tcss places
the panel from them) and shows or hides the panel itself. From `WIDE` columns
on the panel is docked on the right unless the person hid it (`p`); narrower,
it opens as a drawer under the transcript (`p`, a click on a pivot banner, an
auto-pause, `]` / `[`), which keeps the transcript's width and the current turn
in view; playing and Esc close it.

It also says which pane has the keyboard (Tab / Shift+Tab, as in lnav and
toolong): the scroll keys move the pane that has them (`scrolled`), every
other key still means turns. Which one has them is the panel's `-keys` class
(a click on the panel gives them to it too); pivotal.tcss draws its edge
bright while it has them. Not Textual's focus: restyling the transcript on
every Tab repainted all of it (~10 ms).
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
        self.sized = False
        """The screen's width is known (the first resize sets it: nothing moved then)."""

    def resize(self, width: int) -> None:
        """The screen is `width` columns wide now: a docked panel the screen got too narrow
        for moves to the bottom (it vanished before), a drawer widened is docked."""
        wide = width >= WIDE
        if self.sized and self.wide and not wide and not self.hidden:
            self.open = True
        self.wide, self.sized = wide, True
        self.place()

    @property
    def panel_shown(self) -> bool:
        return (self.wide and not self.hidden) or (not self.wide and self.open)

    def place(self) -> None:
        """Docked right when wide (unless hidden), a drawer under the transcript when narrow.

        The screen's class says where the panel goes and changes only with the width;
        whether it is shown is the panel's own `display`: a class change on the screen
        restyles every widget on it, which made p and Tab miss a frame (~5 ms).
        """
        self.owner.set_class(self.wide, "-panel-docked")
        self.owner.set_class(not self.wide, "-panel-drawer")
        panel = self._pane("#panel")
        if panel is not None:
            panel.display = self.panel_shown
        if not self.panel_shown:
            self.keys_to("transcript")  # a pane that went away gives the keys back

    # -- which pane has the keys -------------------------------------------------------
    def _pane(self, selector: str) -> ScrollView | None:
        found = self.owner.query(selector)
        widget = found.first() if found else None
        return widget if isinstance(widget, ScrollView) else None

    @property
    def panel_has_keys(self) -> bool:
        panel = self._pane("#panel")
        return panel is not None and panel.has_class("-keys") and self.panel_shown

    def keys_to(self, pane: str) -> None:
        """Give the scroll keys to "panel" or "transcript" (the panel's edge says which)."""
        panel = self._pane("#panel")
        if panel is not None:
            panel.set_class(pane == "panel", "-keys")

    def cycle(self) -> str:
        """Tab / Shift+Tab: the keys go to the other pane (the panel opens if it was not shown).

        Returns which pane has them now: "panel" or "transcript".
        """
        if self.panel_has_keys:
            self.keys_to("transcript")
            return "transcript"
        if not self.panel_shown:
            self.show()
        self.keys_to("panel")
        return "panel"

    def scrolled(self) -> ScrollView | None:
        """The pane the scroll keys move: the panel when it has the keys, else the transcript."""
        return self._pane("#panel") if self.panel_has_keys else self._pane("#transcript")

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
