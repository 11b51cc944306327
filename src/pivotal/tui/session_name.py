"""The name of the session on screen: agent · project · title (or file).

The replay screen's top line and the terminal's title say which session is being
replayed, so a person who opened it from the picker (`o`), followed "the most
recently active" one (`pivotal follow`) or has several terminals open can tell.
Every piece comes from session files: it is cleaned like any session text, and the
terminal title additionally carries no control character at all (it is written
inside an escape sequence). No Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from rich.text import Text

from pivotal.model import SessionRef
from pivotal.text.fit import cells, clip
from pivotal.text.project import last_folders
from pivotal.tui.safe import one_line

AGENTS = {
    "claude-code": "Claude Code",
    "codex": "Codex",
    "gemini": "Gemini CLI",
    "qwen": "Qwen Code",
    "opencode": "opencode",
    "kilo": "Kilo Code",
    "aider": "aider",
    "kimi": "Kimi CLI",
    "vibe": "Mistral Vibe",
    "cline": "Cline",
    "continue": "Continue",
    "generic": "chat transcript",
}
"""Each format as its agent is called."""
TITLE_LIMIT = 80
TERMINAL_LIMIT = 120
SEPARATOR = " · "


def project(cwd: str | None) -> str:
    """The last two folders of the working directory: enough to recognise a project."""
    return one_line(last_folders(cwd), 60)


@dataclass(frozen=True, slots=True)
class SessionName:
    """What names a session: its agent, folder, title and file (any may be unknown)."""

    format: str = ""
    path: str = ""
    key: str | None = None
    title: str | None = None
    cwd: str | None = None

    @classmethod
    def of(cls, ref: SessionRef) -> SessionName:
        return cls(ref.format, str(ref.path), ref.key, ref.title, ref.cwd)

    def learnt(self, title: str | None, cwd: str | None) -> SessionName:
        """The same session once its reader has read its own title and folder."""
        return replace(self, title=title or self.title, cwd=cwd or self.cwd)

    @property
    def agent(self) -> str:
        return AGENTS.get(self.format, one_line(self.format, 30))

    @property
    def file(self) -> str:
        name = Path(self.path).name if self.path else ""
        return one_line(f"{name}#{self.key}" if self.key else name, 80)

    def parts(self) -> list[str]:
        """agent, project, title, file: those that are known, each cleaned to one line."""
        title = one_line(self.title, TITLE_LIMIT)
        return [p for p in (self.agent, project(self.cwd), title, self.file) if p]

    def line(self) -> str:
        """`Claude Code · work/qwen-serve · Get Qwen3-32B serving · 9bff2a97.jsonl`."""
        return SEPARATOR.join(self.parts())

    def short(self) -> str:
        """The title, or the file when there is none: what a status notice names."""
        return one_line(self.title, 60) or self.file or self.agent


SHOWN_AT_LEAST = 6
"""A part cut at the end of the top line shows this many cells of its own, or goes with its
separator: `… project · 修…` says less than ending on the project."""


def session_line(name: SessionName, width: int | None = None) -> Text:
    """The replay screen's top line: the agent in bold, the file dim, in `width` cells.

    Too long, it is cut at the right, in cells (a wide character goes whole): the part that
    reaches the edge ends in `…`, or goes, separator and all, when it would show less than
    `SHOWN_AT_LEAST` cells; the line never ends on a bare `·`. None: the whole line.
    """
    text = Text(no_wrap=True, overflow="ellipsis")
    parts = name.parts()
    room = width if width is not None else cells(SEPARATOR.join(parts))
    for n, part in enumerate(parts):
        gap = SEPARATOR if n else ""
        space = room - cells(text.plain) - len(gap)
        if cells(part) > space and n and space - 1 < SHOWN_AT_LEAST:
            break
        if n:
            text.append(gap, "dim")
        if n == 0:
            style = "bold"
        elif part == name.file and n == len(parts) - 1:
            style = "dim"
        else:
            style = ""
        text.append(clip(part, space), style)
        if cells(part) > space:
            break
    return text


def terminal_title(name: SessionName) -> str:
    """The terminal's title for `name`: `pivotal · agent · project · title`, one line of
    printable characters (no ESC, BEL or any other control: it goes inside an OSC)."""
    parts = name.parts()
    if name.title and len(parts) > 1:
        parts = parts[:-1]  # the file is on screen; the title bar keeps the title
    text = " · ".join(["pivotal", *parts])
    text = "".join(c for c in text if c.isprintable())
    return text[:TERMINAL_LIMIT]
