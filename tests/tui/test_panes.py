"""The pivot panel can be read from the keyboard (issue 16, item 2).

Tab / Shift+Tab give the keys to the other pane (as lnav and toolong do), the
pane with the keys is marked (a thick accent edge on the panel, an accent
scrollbar), and j/k/PgDn/PgUp/Ctrl+D/Ctrl+U scroll whichever pane has them.
At 80×24 the panel's lower sections were reachable only with the mouse wheel.
"""

from __future__ import annotations

import pytest

from .conftest import make_app, replay, wait_for

NARROW = (80, 24)
WIDE = (160, 48)


def border_left(widget) -> str:  # type: ignore[no-untyped-def]
    return widget.styles.border_left[0]


@pytest.mark.parametrize("size", [NARROW, (130, 24)])  # drawer, docked
async def test_tab_gives_the_panel_the_scroll_keys(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        screen = replay(app)
        await pilot.press("right_square_bracket")  # at a pivot: the panel explains it
        panel, transcript = screen.panel, screen.transcript
        await wait_for(lambda: panel.display and panel.size.height > 0)
        assert transcript.has_focus and not panel.has_focus
        await wait_for(lambda: panel.max_scroll_y > 3)  # longer than the panel: it must scroll
        await pilot.press("tab")
        assert panel.has_focus
        before = transcript.scroll_y
        await pilot.press("j", "j")
        assert panel.scroll_y == 2
        await pilot.press("pagedown")
        assert panel.scroll_y > 2
        await pilot.press("ctrl+u", "ctrl+u", "k")
        assert panel.scroll_y == 0
        await pilot.press("ctrl+d")
        assert panel.scroll_y > 0
        assert transcript.scroll_y == before  # the transcript did not move meanwhile
        await pilot.press("shift+tab")
        assert transcript.has_focus
        await pilot.press("k")
        assert transcript.scroll_y == before - 1


async def test_the_pane_with_the_keys_is_marked() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        panel, transcript = screen.panel, screen.transcript
        await pilot.pause()
        bright = transcript.styles.scrollbar_color  # the transcript has the keys at first
        assert border_left(panel) != "thick" and panel.styles.scrollbar_color != bright
        await pilot.press("tab")
        await pilot.pause()
        assert border_left(panel) == "thick" and panel.styles.scrollbar_color == bright
        assert transcript.styles.scrollbar_color != bright
        await pilot.press("tab")
        await pilot.pause()
        assert border_left(panel) != "thick" and transcript.styles.scrollbar_color == bright


async def test_tab_opens_a_hidden_panel_and_hiding_it_gives_the_keys_back() -> None:
    app = make_app(at=5)
    async with app.run_test(size=NARROW) as pilot:
        screen = replay(app)
        assert not screen.panes.panel_shown
        await pilot.press("tab")
        assert screen.panes.panel_shown and screen.panel.has_focus
        await pilot.press("escape")  # closes the drawer
        assert not screen.panes.panel_shown and screen.transcript.has_focus
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("tab", "p")
        assert not screen.panel.display and screen.transcript.has_focus
        await pilot.press("j")  # the keys scroll the transcript, not a hidden panel
        assert screen.panel.scroll_y == 0


async def test_keys_still_mean_turns_while_the_panel_has_focus() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("tab", "l", "G")
        assert screen.panel.has_focus and screen.playback.cursor == 27
        await pilot.press("home")
        assert screen.playback.cursor == 0
