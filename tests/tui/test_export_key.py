"""x exports the session on screen to a file the person names; X masks secrets first.

A name that exists, a suffix that names no format and a name inside the session's own
folder are refused with a line on the status bar; nothing is written then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input

from pivotal.readers import find_sessions
from pivotal.tui.app import ReplayerApp
from pivotal.tui.screens import PromptScreen
from readers import claude_builders as cb

from .conftest import replay, wait_for

SIZE = (120, 40)
TOKEN = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"


def session_file(folder: Path) -> Path:
    """A short Claude Code session whose person pasted a token."""
    records = [
        cb.user("u1", None, 0, f"deploy with my token {TOKEN} please"),
        cb.said("a1", "u1", 5, "msg_01", "I'll set it up and run the deploy."),
        cb.tool_use("a2", "a1", 6, "msg_01", "toolu_01", "make deploy"),
        cb.tool_result("u2", "a2", 9, "toolu_01", "deployed to staging"),
        cb.said("a3", "u2", 12, "msg_02", "Deployed to staging."),
    ]
    return cb.write(folder / f"{cb.SESSION}.jsonl", records)


def app_on(path: Path) -> ReplayerApp:
    return ReplayerApp(find_sessions([path]).refs[0])


async def prompt(pilot, app: ReplayerApp, key: str) -> Input:  # type: ignore[no-untyped-def]
    """Press `key` once the session is on screen; the prompt's field."""
    await wait_for(lambda: replay(app).playback.turns != [])
    await pilot.press(key)
    await wait_for(lambda: isinstance(app.screen, PromptScreen))
    return app.screen.query_one(Input)


async def export_to(pilot, app: ReplayerApp, key: str, target: str) -> None:  # type: ignore[no-untyped-def]
    (await prompt(pilot, app, key)).value = target
    await pilot.press("enter")
    await wait_for(lambda: not isinstance(app.screen, PromptScreen))


async def test_x_writes_the_format_its_suffix_names_and_says_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = session_file(tmp_path / "sessions")
    monkeypatch.chdir(tmp_path)
    app = app_on(path)
    async with app.run_test(size=SIZE) as pilot:
        await export_to(pilot, app, "x", "out.json")
        await wait_for(lambda: replay(app).status.startswith("wrote"))
        document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
        assert document["turns"] == len(replay(app).playback.turns)
        assert TOKEN in json.dumps(document)  # x writes what the session says
        assert replay(app).status == f"wrote {tmp_path / 'out.json'} (json, 0 pivots)"
        assert sorted(p.name for p in (tmp_path / "sessions").iterdir()) == [path.name]


async def test_the_prompt_offers_a_name_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = session_file(tmp_path / "sessions")
    monkeypatch.chdir(tmp_path)
    app = app_on(path)
    async with app.run_test(size=SIZE) as pilot:
        offered = (await prompt(pilot, app, "X")).value
        assert offered == str(tmp_path / f"pivotal-{cb.SESSION}-redacted.html")
        await pilot.press("enter")
        await wait_for(lambda: replay(app).status.startswith("wrote"))
        page = Path(offered).read_text(encoding="utf-8")
        assert "<html" in page and "deploy" in page
        assert TOKEN not in page  # X masks it


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("taken.html", "exists: choose another name"),
        ("report.pdf", "end the name with .cast, .html, .json, .md"),
        ("sessions/beside.html", "not into the session's own files or folder"),
        ("nofolder/out.html", "no folder"),
    ],
)
async def test_a_name_it_cannot_take_is_refused_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, said: str
) -> None:
    path = session_file(tmp_path / "sessions")
    (tmp_path / "taken.html").write_text("keep me", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    app = app_on(path)
    async with app.run_test(size=SIZE) as pilot:
        await export_to(pilot, app, "x", name)
        await wait_for(lambda: replay(app).status.startswith("not exported"))
        assert said in replay(app).status
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "taken.html").read_text(encoding="utf-8") == "keep me"


async def test_a_session_without_a_file_says_so(tmp_path: Path) -> None:
    from .conftest import make_app

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("x")
        assert replay(app).status == "nothing to export: this session was not read from a file"
        assert not isinstance(app.screen, PromptScreen)
