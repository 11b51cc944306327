"""Failures are visible where `e` lands: the outcome leads the tool header, in the error colour.

`e`/`E`, the timeline's failure ticks and the ✗ in the transcript all come from
`ToolCall.failed`; these tests hold them to the same turns.
"""

from __future__ import annotations

from pathlib import Path

from pivotal.model import Part, PartKind, Role, Session, ToolCall, Turn, TurnFlag
from pivotal.tui.app import ReplayerApp
from pivotal.tui.render import Palette, tool_header

from .conftest import replay

LONG = "pytest -q tests/very/long/path/to/a/test_module.py::TestClass::test_case " * 4


def call(n: int, **fields: object) -> ToolCall:
    return ToolCall(f"c{n}", "Bash", {"command": f"step {n}: {LONG}"}, **fields)  # type: ignore[arg-type]


CALLS = [
    call(0, output="ok", exit_code=0, duration_ms=44),  # ok
    call(1, output="boom", exit_code=1, duration_ms=44),  # failed: exit 1
    call(2, output="denied", is_error=True),  # failed: the source's error flag, no exit code
    call(3, output="", status="timeout"),  # failed: a timeout status
    call(4, output="done"),  # unknown exit code, no error flag: not a failure
    call(5),  # no result yet
]


def session() -> Session:
    turns = [Turn(0, Role.USER, TurnFlag.HUMAN, preview="go", _parts=[Part(PartKind.TEXT, "go")])]
    for n, tool in enumerate(CALLS, start=1):
        parts = [Part(PartKind.TEXT, f"running step {n - 1}"), Part(PartKind.TOOL, tool=tool)]
        turns.append(Turn(n, Role.ASSISTANT, preview="running", _parts=parts))
    return Session(format="x", path=Path("/x"), turns=turns)


def test_the_outcome_leads_the_header() -> None:
    palette = Palette()
    heads = [tool_header(c, False, palette).plain for c in CALLS]
    assert heads[0].startswith("▸ ✓ exit 0 · 44 ms  Bash  step 0")
    assert heads[1].startswith("▸ ✗ exit 1 · 44 ms  Bash  step 1")
    assert heads[2].startswith("▸ ✗ error  Bash")
    assert heads[3].startswith("▸ ✗ timeout  Bash")
    assert heads[4].startswith("▸ ✓  Bash")
    assert heads[5].startswith("▸ … no result yet  Bash")


async def test_e_lands_on_every_failed_call_and_shows_it_in_the_error_colour() -> None:
    app = ReplayerApp(session=session(), pivots=[])
    async with app.run_test(size=(80, 30)) as pilot:
        screen = replay(app)
        view = screen.transcript
        failed_turns = [n for n, c in enumerate(CALLS, start=1) if c.failed]
        assert failed_turns == [2, 3, 4]
        assert screen.playback.failures == failed_turns
        assert screen.timeline.state.failures == tuple(failed_turns)
        error = app.get_css_variables()["error"]
        landed = []
        for _ in failed_turns:
            await pilot.press("e")
            await pilot.pause()
            landed.append(screen.playback.cursor)
            strips = view.rendered(screen.playback.cursor).strips
            header = next(s for s in strips if "✗" in s.text)
            # never cut off at 80 columns: the command is what the ellipsis shortens
            assert header.text.lstrip("┃▏ ").startswith("▸ ✗ ")
            assert header.text.rstrip().endswith("…")
            mark = next(seg for seg in header if "✗" in seg.text)
            assert mark.style is not None and mark.style.color is not None
            assert mark.style.color.get_truecolor().hex.lower() == error.lower()
        assert landed == failed_turns
        await pilot.press("e")
        await pilot.pause()
        assert screen.playback.cursor == failed_turns[-1]  # no later failure
        assert "no later failure" in screen.timeline.status().plain
        await pilot.press("E")
        await pilot.pause()
        assert screen.playback.cursor == failed_turns[-2]
