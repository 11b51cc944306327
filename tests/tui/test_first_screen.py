"""The first screen: turns show while the rest of the file is still being read.

The replay screen once kept its "reading 40 %" line in an attribute named
`loading`, which is Textual's reactive for covering a widget with a spinner:
a big file showed nothing but the spinner until it was read to the end.
"""

from __future__ import annotations

from pivotal.tui.loading import Batch

from .conftest import make_app, replay, screen_text, wait_for
from .sessions import demo_turns

SIZE = (160, 48)


async def test_turns_show_while_the_rest_is_being_read() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = replay(app)
        screen.add_turns(Batch(demo_turns()[:6], 0, 1 << 20, 10 << 20, False))
        await pilot.pause()
        assert "reading 10% (1/10 MB)" in screen.timeline.status().plain
        # a spinner covering the screen kept the transcript from ever being laid out
        await wait_for(lambda: "#1" in screen_text(app))
        assert "Get the server to start" in screen_text(app)
