"""Text from a path or an exception reaches the person as text, never as Textual markup.

A session folder named `[@click=app.quit]` or `a[/x]` once made a toast quit the
app on a click or crash it with a markup error (issue 18, item 3).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets._toast import Toast

from pivotal.model import SessionRef
from pivotal.tui.app import ReplayerApp
from pivotal.tui.messages import ReadFailed

from .conftest import make_app, replay

HOSTILE = [
    "[@click=app.quit]CLICK[/]",
    "[@click=app.screenshot('pwned.svg','/tmp')]x[/]",
    "a[/x]",
    "[bold red]loud[/] \x1b]0;title\x07",
]


async def wait_for_toast(app: ReplayerApp, pilot) -> Toast:  # type: ignore[no-untyped-def]
    for _ in range(200):
        toasts = list(app.screen.query(Toast))
        if toasts:
            return toasts[0]
        await pilot.pause()
    raise AssertionError("no notification appeared")


@pytest.mark.parametrize("name", HOSTILE)
async def test_a_hostile_folder_name_in_a_read_failure_is_shown_literally(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name / "a-folder.jsonl"  # "[/]" makes part of the name a folder
    path.mkdir(parents=True)  # a folder where a session file should be: reading fails
    app = ReplayerApp(SessionRef("claude-code", path))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        toast = await wait_for_toast(app, pilot)
        shown = toast.render()
        assert name.split("\x1b")[0] in shown.plain  # every bracket shown as typed
        assert not any("@click" in str(span.style) for span in shown.spans)
        assert "\x1b" not in shown.plain and "\x07" not in shown.plain
        await pilot.click(Toast)
        await pilot.pause()
        assert app.is_running and app.return_code is None  # a click did not quit
        status = replay(app).status  # what the status line shows (cut to fit it)
        assert "\x1b" not in status and "a-folder.jsonl" in status


async def test_an_exception_message_with_markup_is_shown_literally() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.post_message(ReadFailed("reading x failed: ValueError('a[/x] [@click=app.quit]q')"))
        toast = await wait_for_toast(app, pilot)
        assert "a[/x] [@click=app.quit]q" in toast.render().plain
        await pilot.click(Toast)
        await pilot.pause()
        assert app.is_running
