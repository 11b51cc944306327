"""The picker's row list: rows made only when on screen, a cursor the keys and the mouse move."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace
from textual.app import App, ComposeResult

from pivotal.model import SessionRef
from pivotal.tui import picker
from pivotal.tui.app import ReplayerApp
from pivotal.tui.picker import PickerScreen
from pivotal.tui.session_list import SessionList

from .conftest import wait_for

MANY = [
    SessionRef(
        "codex",
        Path(f"/h/.codex/sessions/rollout-{n:04}.jsonl"),
        updated=float(10_000 - n),
        turns=n,
        pivots=0,
    )
    for n in range(2000)
]


class OneList(App[None]):
    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count
        self.made: list[int] = []
        self.chosen: list[int] = []
        self.renamed: dict[int, str] = {}

    def compose(self) -> ComposeResult:
        yield SessionList()

    def on_mount(self) -> None:
        self.query_one(SessionList).set_rows(self.count, self.text)
        self.query_one(SessionList).focus()

    def text(self, row: int):  # type: ignore[no-untyped-def]
        from rich.text import Text

        self.made.append(row)
        return Text(self.renamed.get(row, f"row {row}"))

    def on_session_list_chosen(self, message: SessionList.Chosen) -> None:
        self.chosen.append(message.row)


def drawn(shown: SessionList) -> list[str]:
    return [
        shown.render_line(y).text.strip() for y in range(shown.scrollable_content_region.height)
    ]


async def test_only_the_rows_on_screen_are_made() -> None:
    app = ReplayerApp(None, refs=list(MANY))
    made: list[str] = []
    label = picker.ref_label

    def counted(ref, counting=True, cols=picker.WIDE):  # type: ignore[no-untyped-def]
        made.append(str(ref.path))
        return label(ref, counting, cols)

    picker.ref_label = counted
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PickerScreen)
            assert len(made) <= 30  # not 2000
            await pilot.press(*"rollout-1999")
            await pilot.pause()
            shown = app.screen.query_one(SessionList)
            assert shown.count == 1 and "rollout-1999" in drawn(shown)[0]
            assert len(made) <= 30 * (1 + len("rollout-1999"))  # a screenful per key typed
    finally:
        picker.ref_label = label


async def test_keys_move_the_cursor_and_the_view_follows() -> None:
    app = OneList(500)
    async with app.run_test(size=(40, 12)) as pilot:  # 10 rows inside the border
        shown = app.query_one(SessionList)
        await pilot.pause()
        assert shown.highlighted == 0 and drawn(shown)[0] == "row 0"
        await pilot.press("down", "down")
        assert shown.highlighted == 2
        await pilot.press("pagedown")
        assert shown.highlighted == 11
        await pilot.pause()
        assert "row 11" in drawn(shown)  # scrolled so the cursor shows
        await pilot.press("end")
        await pilot.pause()
        assert shown.highlighted == 499 and drawn(shown)[-1] == "row 499"
        await pilot.press("home", "up")
        assert shown.highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.chosen == [0]
        assert all(row < 25 or row >= 485 for row in app.made)  # rows never on screen: never made


async def test_a_click_chooses_the_row_under_it() -> None:
    app = OneList(5)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.click(SessionList, offset=(4, 3))  # border, row 0, row 1, row 2
        await pilot.pause()
        assert app.chosen == [2] and app.query_one(SessionList).highlighted == 2


async def test_a_row_told_to_forget_is_drawn_again_with_its_new_text() -> None:
    app = ReplayerApp(None, refs=list(MANY[:3]))
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PickerScreen)
        shown = screen.query_one(SessionList)
        screen.refs[1] = replace(MANY[1], title="Fresh title")
        await pilot.pause()
        assert "Fresh title" not in drawn(shown)[1]  # kept as drawn until told
        shown.forget(screen.row_of[1])
        await wait_for(lambda: "Fresh title" in drawn(shown)[1])


def background(shown: SessionList, y: int):  # type: ignore[no-untyped-def]
    return {seg.style.bgcolor for seg in shown.render_line(y) if seg.style and seg.text.strip()}


async def test_the_row_under_the_mouse_is_drawn_lighter_and_the_cursor_wins() -> None:
    app = OneList(5)
    async with app.run_test(size=(40, 12)) as pilot:
        shown = app.query_one(SessionList)
        await pilot.pause()
        plain = background(shown, 1)
        await pilot.hover(SessionList, offset=(4, 3))  # border, row 0, row 1, row 2
        await pilot.pause()
        assert shown.hovered == 2
        assert background(shown, 2) != plain and background(shown, 1) == plain
        await pilot.hover(SessionList, offset=(4, 1))  # onto the cursor's row
        await pilot.pause()
        assert shown.hovered == 0 and background(shown, 2) == plain
        assert background(shown, 0) not in (plain, background(shown, 2))
        assert app.chosen == []  # hovering chooses nothing


class Terminal:
    """The lines a terminal was sent (what a person sees), from the app's partial updates."""

    def __init__(self, app: App[None]) -> None:
        self.lines: dict[int, str] = {}
        display = app._display

        def sent(screen, renderable) -> None:  # type: ignore[no-untyped-def]
            display(screen, renderable)
            if hasattr(renderable, "spans"):  # a partial update: some lines changed
                for y, _, _ in renderable.spans:
                    chop = renderable.chops[y]
                    self.lines[y] = "".join(s.text for s in chop.values() if s is not None)
            elif hasattr(renderable, "lines"):  # a whole screen
                for y, strip in enumerate(renderable.lines):
                    self.lines[y] = strip.text

        app._display = sent  # type: ignore[method-assign]

    def showing(self, text: str) -> bool:
        return any(text in line for line in self.lines.values())


async def test_a_changed_row_is_redrawn_when_the_list_is_scrolled() -> None:
    """A row whose text changed (its counts arrived) reaches the screen wherever the list is
    scrolled to; the redraw named a line as far above as the view was scrolled."""
    app = OneList(200)
    terminal = Terminal(app)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("end")  # the cursor on the last row: the list scrolls to it
        shown = app.query_one(SessionList)
        await wait_for(lambda: shown.scroll_offset.y > 100)
        row = int(shown.scroll_offset.y) + 3  # on screen, away from the cursor
        await wait_for(lambda: terminal.showing(f"row {row}"))
        app.renamed[row] = "counted now"
        shown.forget(row)
        await wait_for(lambda: terminal.showing("counted now"))
