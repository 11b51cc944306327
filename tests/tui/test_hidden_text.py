"""Nothing in the file is hidden from the reader, and nothing shifts the rows (issue 18, item 5).

Invisible and format characters (soft hyphen, Hangul fillers, U+206A-206F, the
braille blank, a misused VS16...) are counted as zero or two cells by one side
and drawn otherwise by the terminal: left raw they shift the rest of a row, so
transcript text could be drawn over the docked panel. They are shown as
⟨U+XXXX⟩. Inline HTML and comments in the agent's Markdown, which Rich drops,
are shown as text.
"""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len

from pivotal.model import Part, PartKind, Pivot, PivotKind, Role, Session, Silence, Turn, TurnFlag
from pivotal.tui.app import ReplayerApp

from .conftest import replay

FILLERS = [
    "\u00ad", "\u034f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u206a", "\u206b", "\u206c",
    "\u206d", "\u206e", "\u206f", "\u180b", "\u17b4", "\u2800", "\u2065",
]  # fmt: skip
RUN = "".join(FILLERS) + "a\ufe0f"  # VS16 after a letter: no emoji to present


def session() -> Session:
    def turn(index: int, role: Role, text: str, flags: TurnFlag = TurnFlag.NONE) -> Turn:
        return Turn(index, role, flags, preview=text[:200], _parts=[Part(PartKind.TEXT, text)])

    html = "Inline <img src=x onerror=alert(1)> and <!-- a hidden comment --> here.\n\n"
    html += "<div>block</div>"
    turns = [
        turn(0, Role.USER, "fill " + RUN * 3 + " END", TurnFlag.HUMAN),
        turn(1, Role.ASSISTANT, ("agent " + RUN * 4 + " END\n\n") * 2 + html),
        turn(2, Role.USER, "ok", TurnFlag.HUMAN),
        turn(3, Role.ASSISTANT, "Continuing " + RUN),
    ]
    return Session(format="x", path=Path("/x"), turns=turns)


def pivots() -> list[Pivot]:
    return [Pivot(2, PivotKind.OTHER, Silence.ACK, 0.5, cluster=[2], reason="because " + RUN)]


async def test_fillers_are_shown_and_rows_keep_their_width() -> None:
    app = ReplayerApp(session=session(), pivots=pivots(), at=3)
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = replay(app)
        view, panel = screen.transcript, screen.panel
        assert panel.display  # docked: a row running long would be drawn over it
        for index in range(4):
            for strip in view.rendered(index).strips:
                assert not any(ch in strip.text for ch in FILLERS + ["\ufe0f"])
                assert strip.cell_length == view.content_width
                assert cell_len(strip.text) == strip.cell_length
        shown = "\n".join(strip.text for strip in view.rendered(1).strips)
        assert "⟨U+115F⟩" in shown and "⟨U+00AD⟩" in shown and "⟨U+FE0F⟩" in shown
        rows = [view.render_line(y) for y in range(view.size.height)]
        assert all(row.cell_length == view.scrollable_content_region.width for row in rows)
        for y in range(panel.size.height):
            line = panel.render_line(y)
            assert not any(ch in line.text for ch in FILLERS)
            assert line.cell_length == panel.scrollable_content_region.width
        assert "⟨U+2800⟩" in "".join(panel.render_line(y).text for y in range(panel.size.height))


async def test_inline_html_and_comments_in_agent_markdown_are_shown_as_text() -> None:
    app = ReplayerApp(session=session(), pivots=[], at=1)
    async with app.run_test(size=(120, 40)):
        shown = "\n".join(strip.text for strip in replay(app).transcript.rendered(1).strips)
        assert "<img src=x onerror=alert(1)>" in shown
        assert "<!-- a hidden comment -->" in shown
        assert "<div>block</div>" in shown
