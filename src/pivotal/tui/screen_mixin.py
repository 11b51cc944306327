"""The base the replay screen's mixins type-check against (plain `object` at run time).

Mixins (`MarkActions`, `HandoffActions`) keep their features out of
`replay_screen.py`; this tells the type checker which of the screen's
attributes they use, without an import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen

    from pivotal.model import Session
    from pivotal.tui.live import LiveFollow
    from pivotal.tui.playback import Playback

    class ScreenMixin(Screen[None]):
        playback: Playback
        status: str
        live: LiveFollow
        identity: Session | None

        def sync(self, *, follow: bool = True) -> None: ...

        def moved(self, target: int | None, what: str = "") -> None: ...

else:
    ScreenMixin = object
