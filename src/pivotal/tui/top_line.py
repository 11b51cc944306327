"""The replay screen's top line: which session this is, made for the width it has.

Textual wraps a widget's text at spaces whatever Rich's `no_wrap` says, so in a one-row
`Static` a long name lost all that came after its last space that fitted: a Chinese
title has none, and the line read `Codex · Documents/New project ·` and nothing after.
The line is made again for the widget's width, in cells, each time it is drawn (a resize
included): `session_name.session_line`.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from pivotal.tui.session_name import SessionName, session_line


class TopLine(Widget):
    """One row: the session's name (`show`), cut to the row's width."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: SessionName | None = None

    def show(self, name: SessionName) -> None:
        self.shown = name
        self.refresh()

    def render(self) -> Text:
        if self.shown is None:
            return Text()
        return session_line(self.shown, self.content_size.width)
