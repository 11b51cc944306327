"""A tool's own colours (SGR) survive in its expanded output; no escape reaches the screen.

docs/errors.md promises it: a test run's red FAILED and green passed read as the tool printed
them, while every other sequence (a window title, a clipboard write) is shown visibly.
"""

from __future__ import annotations

from pathlib import Path

from rich.color import Color
from rich.style import Style

from pivotal.model import Part, PartKind, Role, Session, ToolCall, Turn, TurnFlag
from pivotal.tui.app import ReplayerApp
from pivotal.tui.render import coloured_output

from .conftest import replay

OUTPUT = "\x1b[1;31mFAILED\x1b[0m test_a \x1b[32m3 passed\x1b[0m\x1b]0;pwned\x07 done"


def test_the_colours_become_styles_and_the_rest_is_shown_as_text() -> None:
    text, chars, lines = coloured_output(OUTPUT, Style())
    assert "\x1b" not in text.plain and "\x07" not in text.plain
    assert text.plain.startswith("FAILED test_a 3 passed") and "]0;pwned" in text.plain
    styles = {text.plain[s.start : s.end]: s.style for s in text.spans}
    red, green = styles["FAILED"], styles["3 passed"]
    assert isinstance(red, Style) and red.bold and red.color == Color.from_ansi(1)
    assert isinstance(green, Style) and green.color == Color.from_ansi(2)
    assert (chars, lines) == (0, 0)


def test_a_long_output_is_cut_in_shown_characters_not_in_escapes() -> None:
    long = "\n".join(f"\x1b[33mline {n}\x1b[0m" for n in range(500))
    text, _, lines = coloured_output(long, Style())
    assert lines > 0 and "\x1b" not in text.plain
    assert text.plain.splitlines()[0] == "line 0"
    assert text.spans and all(s.style == Style(color=Color.from_ansi(3)) for s in text.spans)


def session() -> Session:
    call = ToolCall("c1", "Bash", {"command": "pytest -q"}, output=OUTPUT, exit_code=1)
    turns = [
        Turn(0, Role.USER, TurnFlag.HUMAN, preview="go", _parts=[Part(PartKind.TEXT, "go")]),
        Turn(1, Role.ASSISTANT, preview="run", _parts=[Part(PartKind.TOOL, tool=call)]),
    ]
    return Session(format="x", path=Path("/x"), turns=turns)


async def test_the_expanded_call_shows_the_tools_red() -> None:
    app = ReplayerApp(session=session(), pivots=[])
    async with app.run_test(size=(100, 30)) as pilot:
        screen = replay(app)
        await pilot.press("G")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        strips = screen.transcript.rendered(screen.playback.cursor).strips
        line = next(s for s in strips if "FAILED test_a" in s.text)
        assert "\x1b" not in line.text and "]0;pwned" in line.text
        seg = next(seg for seg in line if seg.text.startswith("FAILED"))
        assert seg.style is not None and seg.style.color is not None
        r, g, b = seg.style.color.get_truecolor()
        assert r > g + 40 and r > b + 40  # red (made readable on the background, still red)
