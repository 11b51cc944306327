"""What an agent wrote reaches the reader of an export as written (issue 34, item 6).

Text that Markdown would take for markup (`{{7*7}}`, an escape in a Windows path,
an entity, a reference definition) must read the same in the HTML report in a
browser and in the Markdown report once a Markdown viewer has rendered it: the
characters the author wrote are all there.
"""

from __future__ import annotations

import html
import re

import markdown_it
import pytest

from pivotal.export import render
from pivotal.export.common import ExportInput
from pivotal.model import (
    Part,
    PartKind,
    Pivot,
    PivotKind,
    Role,
    Session,
    SessionRef,
    Silence,
    Turn,
    TurnFlag,
)

AS_WRITTEN = [
    "{{7*7}} and {{8*8}}",
    "2*3*4 = 24, snake_case_name and _private_",
    r"C:\Users\me\_cfg and \* and \\server",
    "&amp; &lt;b&gt; &copy; &#42;",
    "**not bold** ~~kept~~ `ticks`",
    '[docs](https://docs.invalid/a_b "Title") <https://auto.invalid>',
]
REFERENCE = "[1]: https://ref.invalid/x"
TITLE = r"{{7*7}} &amp; C:\Users\me\_cfg **x**"


def _input() -> ExportInput:
    agent = "\n".join([*AS_WRITTEN, "", REFERENCE])
    turns = [
        Turn(0, Role.USER, TurnFlag.HUMAN, 1.0e9, _parts=[Part(PartKind.TEXT, "fix it")]),
        Turn(1, Role.ASSISTANT, timestamp=1.0e9 + 5, _parts=[Part(PartKind.TEXT, agent)]),
        Turn(2, Role.USER, TurnFlag.HUMAN, 1.0e9 + 9, _parts=[Part(PartKind.TEXT, "ok")]),
    ]
    for turn in turns:
        turn.preview = turn.text[:200]
    session = Session("claude-code", SessionRef("claude-code", "/x/s.jsonl").path, title=TITLE)
    session.turns = turns
    reason = "bare go-on after " + " | ".join(AS_WRITTEN)
    pivot = Pivot(2, PivotKind.OTHER, Silence.ACK, 0.5, cluster=[2], reason=reason)
    return ExportInput(SessionRef("claude-code", session.path), session, [pivot])


def _read_in_a_browser(page: str) -> str:
    """The text a browser shows of an HTML page (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]*>", "", page))


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_every_character_written_survives_the_report(fmt: str) -> None:
    out = render(fmt, _input())
    page = out if fmt == "html" else markdown_it.MarkdownIt("commonmark").render(out)
    shown = _read_in_a_browser(page)
    assert TITLE in shown
    for written in AS_WRITTEN:
        assert shown.count(written) >= 2, (fmt, written)  # the pivot's reason, the excerpt
    assert REFERENCE in shown
