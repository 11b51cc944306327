"""S (and the command palette) saves the screen as an SVG file and says where."""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.tui import keys

from .conftest import make_app, replay

SIZE = (120, 40)


def saved(folder: Path) -> Path:
    (path,) = folder.glob("*.svg")
    return path


async def test_s_writes_an_svg_into_the_screenshot_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "shots"
    monkeypatch.setenv("PIVOTAL_SCREENSHOT_DIR", str(folder))
    app = make_app(at=6)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        path = saved(folder)
        assert path.name.startswith("pivotal-turn7-")
        text = path.read_text(encoding="utf-8")
        assert text.lstrip().startswith("<svg") and text.rstrip().endswith("</svg>")
        assert "Doing&#160;it&#160;now." in text  # the transcript is in the picture
        assert replay(app).status == f"saved {path}"


async def test_without_the_variable_it_goes_into_the_data_dir_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PIVOTAL_SCREENSHOT_DIR", raising=False)
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    monkeypatch.chdir(checkout)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        path = saved(tmp_path / "data" / "screenshots")
        assert path.stat().st_size > 1000
        assert not list(checkout.iterdir())  # nothing dropped into the current folder
        assert str(path) in replay(app).status  # the status line says where


async def test_an_unwritable_folder_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("PIVOTAL_SCREENSHOT_DIR", str(blocker / "shots"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        assert any(n.message.startswith("Screenshot not saved") for n in app._notifications)


def test_the_palette_offers_it() -> None:
    assert ("Save a screenshot (SVG)", "screenshot") in keys.PALETTE
