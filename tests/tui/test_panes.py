"""The pivot panel can be read from the keyboard (issue 16, item 2).

Tab / Shift+Tab give the scroll keys to the other pane (as lnav and toolong
do), the panel is marked while it has them (a thick accent edge, an accent
scrollbar; dim otherwise), and j/k/PgDn/PgUp/Ctrl+D/Ctrl+U scroll whichever
pane has them. At 80×24 the panel's lower sections were reachable only with
the mouse wheel.
"""

from __future__ import annotations

import pytest

from .conftest import make_app, replay, screen_text, wait_for

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
        panel, transcript, panes = screen.panel, screen.transcript, screen.panes
        await wait_for(lambda: panel.display and panel.size.height > 0)
        assert not panes.panel_has_keys
        await wait_for(lambda: panel.max_scroll_y > 3)  # longer than the panel: it must scroll
        await pilot.press("tab")
        assert panes.panel_has_keys
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
        assert not panes.panel_has_keys
        await pilot.press("k")
        assert transcript.scroll_y == before - 1


async def test_the_panel_is_marked_while_it_has_the_keys() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        panel = replay(app).panel
        await pilot.pause()
        dim = panel.styles.scrollbar_color
        assert border_left(panel) != "thick"
        await pilot.press("tab")
        await pilot.pause()
        assert border_left(panel) == "thick" and panel.styles.scrollbar_color != dim
        await pilot.press("tab")
        await pilot.pause()
        assert border_left(panel) != "thick" and panel.styles.scrollbar_color == dim


async def test_a_click_gives_the_keys_to_the_pane_clicked() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.click(screen.panel, offset=(20, screen.panel.size.height - 2))
        assert screen.panes.panel_has_keys
        await pilot.click(screen.transcript, offset=(20, 1))
        assert not screen.panes.panel_has_keys


async def test_tab_opens_a_hidden_panel_and_hiding_it_gives_the_keys_back() -> None:
    app = make_app(at=5)
    async with app.run_test(size=NARROW) as pilot:
        screen = replay(app)
        assert not screen.panes.panel_shown
        await pilot.press("tab")
        assert screen.panes.panel_shown and screen.panes.panel_has_keys
        await pilot.press("escape")  # closes the drawer
        assert not screen.panes.panel_shown and not screen.panes.panel_has_keys
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("tab", "p")
        assert not screen.panel.display and not screen.panes.panel_has_keys
        await pilot.press("j")  # the keys scroll the transcript, not a hidden panel
        assert screen.panel.scroll_y == 0


async def test_keys_still_mean_turns_while_the_panel_has_them() -> None:
    app = make_app(at=5)
    async with app.run_test(size=WIDE) as pilot:
        screen = replay(app)
        await pilot.press("tab", "l", "G")
        assert screen.panes.panel_has_keys and screen.playback.cursor == 27
        await pilot.press("home")
        assert screen.playback.cursor == 0


@pytest.mark.parametrize("key", ["p", "t"])  # the panel hidden (a wider transcript); reasoning
async def test_a_layout_toggled_back_is_laid_out_as_before(key: str) -> None:
    app = make_app(at=20)
    async with app.run_test(size=WIDE) as pilot:
        transcript = replay(app).transcript
        await pilot.pause()
        before = (list(transcript._offsets), transcript.virtual_size, transcript.scroll_y)
        await pilot.press(key)
        await pilot.pause()
        changed = transcript.virtual_size.width > before[1].width or transcript.reasoning
        assert changed  # a wider transcript, or reasoning shown
        await pilot.press(key)
        await pilot.pause()
        assert (list(transcript._offsets), transcript.virtual_size, transcript.scroll_y) == before


@pytest.mark.parametrize("step", ["right", "left", "backslash"])  # one more, one less, filtered
async def test_a_layout_toggled_back_after_the_turns_shown_changed_is_laid_out_anew(
    step: str,
) -> None:
    """The offsets a layout is left with are reused only for the same turns shown."""
    app = make_app(at=20)
    fresh = make_app(at=20)
    async with app.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press("p", step, "p")  # panel hidden, the shown turns change, panel back
        await pilot.pause()
        seen = (replay(app).playback.cursor, screen_text(app))
    async with fresh.run_test(size=WIDE) as pilot:
        await pilot.pause()
        await pilot.press(step)
        await pilot.pause()
        assert (replay(fresh).playback.cursor, screen_text(fresh)) == seen


async def test_hiding_the_docked_panel_lays_out_at_the_width_guessed_while_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pivotal.tui import transcript as transcript_module

    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = replay(app)
        view = screen.transcript
        await pilot.pause()
        await wait_for(lambda: view._spare_width and view._spare_from >= len(view.turns))
        expected = view._spare_width
        calls: list[int] = []
        real = transcript_module.estimate_height

        def counted(turn, width):  # type: ignore[no-untyped-def]
            calls.append(width)
            return real(turn, width)

        monkeypatch.setattr(transcript_module, "estimate_height", counted)
        await pilot.press("p")  # the docked panel hides: the transcript takes its columns
        await pilot.pause()
        assert not screen.panes.panel_shown
        assert view.content_width == expected  # the width the screen said it would be
        assert calls == []  # every turn's guess was there already
