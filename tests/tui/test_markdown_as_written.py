"""The replayer shows what the agent wrote, every character, Markdown only styling it (issue 34).

Rich's Markdown renderer took `{{7*7}}` for emphasis (`{{77}}` on screen), an
escape in a Windows path for an escape, `&amp;` for `&`, dropped reference
definitions and joined single line breaks. Agent text (and the person's notes
in the panel) is now the source as written, with Markdown's styles on it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.segment import Segment

from pivotal.model import Part, PartKind, Role, Session, Turn, TurnFlag
from pivotal.tui.app import ReplayerApp
from pivotal.tui.note_editor import NoteScreen

from .conftest import replay, turn_text

WRITTEN = [
    "{{7*7}} and {{8*8}}",
    "2*3*4 = 24, snake_case_name and _private_",
    r"C:\Users\me\_cfg and \* and \\server",
    "&amp; &lt;b&gt; &copy; &#42;",
    "**bold** ~~kept~~ `ticks`",
    '[docs](https://docs.invalid/a_b "Title") <https://auto.invalid>',
    "line one",
    "line two",
    "[1]: https://ref.invalid/x",
    "```python",
    "x = 7*7",
    "```",
]
SIZE = (160, 48)


@pytest.fixture(autouse=True)
def own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))


def session() -> Session:
    def turn(index: int, role: Role, text: str, flags: TurnFlag = TurnFlag.NONE) -> Turn:
        return Turn(index, role, flags, preview=text[:200], _parts=[Part(PartKind.TEXT, text)])

    turns = [
        turn(0, Role.USER, "show me the template", TurnFlag.HUMAN),
        turn(1, Role.ASSISTANT, "\n".join(WRITTEN)),
        turn(2, Role.USER, "ok", TurnFlag.HUMAN),
    ]
    return Session(format="x", path=Path("/x/s.jsonl"), turns=turns)


def squeezed(text: str) -> str:
    """`text` without whitespace: where a narrow pane wraps a line does not matter."""
    return "".join(text.split())


def styled(segments: list[Segment], text: str) -> list[Segment]:
    return [s for s in segments if text in s.text and s.style is not None]


async def test_agent_markdown_is_shown_as_written_and_styled() -> None:
    app = ReplayerApp(session=session(), pivots=[], at=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = replay(app).transcript
        lines = turn_text(view, 1).splitlines()
        for written in WRITTEN:
            assert any(written in line for line in lines), (written, lines)
        assert "{{77}}" not in "\n".join(lines)
        segments = [s for strip in view.rendered(1).strips for s in strip]
        assert any(s.style.bold for s in styled(segments, "bold"))  # still Markdown's style
        assert any(s.style.color for s in styled(segments, "7") if "{{" not in s.text)


async def test_a_note_in_the_panel_is_shown_as_written() -> None:
    note = "\n".join(WRITTEN[:6])
    app = ReplayerApp(session=session(), pivots=[], at=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, NoteScreen)
        app.screen.query_one("TextArea").insert(note)  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await pilot.pause()
        panel = replay(app).panel
        if not panel.display:
            await pilot.press("p")
            await pilot.pause()
        shown = squeezed("".join(strip.text for strip in panel.lines()))
        for written in WRITTEN[:6]:
            assert squeezed(written) in shown, (written, shown)
