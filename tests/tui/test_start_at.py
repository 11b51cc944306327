"""`replay --at N` outside the session opens at the nearest turn and says so, as `:` does.

`--at -5` and `--at 1000` were clamped to the first and last turn without a word,
while `--speed 0` and `:999` say what they did. Each case goes through the command
line (`pivotal replay PATH --at N`) into the real app, run headless, and reads the
status line once the session is read; the session given to the app directly (the
demo's path) says it too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.tui.app import ReplayerApp

from .conftest import make_app, replay, wait_for

DEMO = Path(__file__).resolve().parents[2] / "src" / "pivotal" / "_demo" / "demo.jsonl"
TURNS = 68  # the demo's
RUN = ReplayerApp.run


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))


def status(app: ReplayerApp) -> str:
    return replay(app).timeline.status().plain


def opened_with(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str]:
    """`pivotal replay DEMO ARGS`, headless: the cursor (#N) and the status line once read."""
    seen: list[tuple[int, str]] = []

    def headless(app: ReplayerApp, *_: object, **__: object) -> object:
        async def look(pilot) -> None:  # type: ignore[no-untyped-def]
            await wait_for(lambda: app.replay is not None and app.replay.analysed)
            await pilot.pause()
            seen.append((replay(app).playback.cursor + 1, status(app)))
            app.exit()

        return RUN(app, headless=True, size=(120, 40), auto_pilot=look)

    monkeypatch.setattr(ReplayerApp, "run", headless)
    monkeypatch.setenv("PIVOTAL_FORCE_TUI", "1")
    result = invoke("replay", DEMO, *args)
    assert result.exit_code == 0, result.output
    (found,) = seen
    return found


@pytest.mark.parametrize(
    ("at", "cursor", "said"),
    [
        ("-5", 1, f"turn -5 is not in 1–{TURNS}: at the first turn, #1"),
        ("0", 1, f"turn 0 is not in 1–{TURNS}: at the first turn, #1"),
        ("1000", TURNS, f"turn 1000 is not in 1–{TURNS}: at the last turn, #{TURNS}"),
    ],
)
def test_at_outside_the_session_says_where_it_opened(
    monkeypatch: pytest.MonkeyPatch, at: str, cursor: int, said: str
) -> None:
    here, line = opened_with(monkeypatch, "--at", at)
    assert here == cursor
    assert said in line, line


def test_at_inside_the_session_says_nothing_and_a_bad_speed_is_still_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    here, line = opened_with(monkeypatch, "--at", "12")
    assert here == 12 and "is not in" not in line, line
    here, line = opened_with(monkeypatch, "--at", "1000", "--speed", "0")
    assert here == TURNS
    assert "speed 0 is outside 1/16–1000: playing at 1/16" in line, line
    assert f"turn 1000 is not in 1–{TURNS}" in line, line


async def test_a_session_given_to_the_app_says_it_too() -> None:
    app = make_app(at=99)
    async with app.run_test(size=(120, 40)):
        assert replay(app).playback.cursor == 27
        assert "turn 100 is not in 1–28: at the last turn, #28" in status(app)
