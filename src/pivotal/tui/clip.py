"""Copy the turn under the cursor, a command or an output (y), or read it in `$PAGER` (v).

`Clips` belongs to one `ReplayScreen`, which creates it with the widget it
works through (the app's clipboard, its `suspend`, the prompt) and `say`, which
puts a line on the status bar. A turn's pieces are the whole turn, its message,
its reasoning, and per tool call its command and its output, uncut (the
transcript cuts a long output at 200 lines); a turn of one piece is taken at
once, else a prompt asks which (Enter: the first).

Session text is untrusted: it is made inert (`safe.clean`: an escape sequence
is shown as text, never sent) before it reaches the clipboard, which gets it
with OSC 52 as `r` sends the resume command, or the pager. The pager reads a
temporary file in the system's temp folder (never beside the session), removed
once it exits; the app is suspended meanwhile, so the pager has the terminal
to itself and the replay comes back as it was, as less's `v` does.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from textual.widget import Widget

from pivotal.model import PartKind, ToolCall, Turn
from pivotal.readers.files import SessionFiles
from pivotal.text.shell import command_line, is_words, shown_argument
from pivotal.tui.render import role_label
from pivotal.tui.safe import clean, one_line

PAGERS = ("less", "more")
"""Tried in this order when `$PAGER` is not set (or not found)."""
SHOWN = 9
"""Pieces listed in the prompt (more can still be chosen by number)."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One thing of a turn that can be copied or paged: what the prompt calls it, its text."""

    label: str
    text: str
    what: str = ""
    """What the status line calls it once taken ("the command"); the label when empty."""


def command_of(call: ToolCall) -> str:
    """The command a call ran (its input when it names none), as a person would copy it."""
    value = call.input
    if isinstance(value, dict):
        command = value.get("command") or value.get("cmd")
        if isinstance(command, str) and command:
            return command
        if is_words(command):
            return command_line(command)
        return "\n".join(f"{key}: {item}" for key, item in value.items())
    return "" if value is None else str(value)


def pieces(turn: Turn) -> list[Piece]:
    """The pieces of `turn`, the whole turn first when it has more than its message."""
    try:
        parts = turn.parts
    except Exception:  # noqa: BLE001 - a turn that cannot be read still has its preview
        parts = []
    message = "\n\n".join(p.text for p in parts if p.kind is PartKind.TEXT and p.text.strip())
    reasoning = "\n\n".join(p.text for p in parts if p.kind is PartKind.REASONING and p.text)
    calls = [p.tool for p in parts if p.kind is PartKind.TOOL and p.tool is not None]
    found: list[Piece] = []
    if message or not (calls or reasoning):
        found.append(Piece("the message", message or turn.preview))
    if reasoning:
        found.append(Piece("the reasoning", reasoning))
    for call in calls:
        name = one_line(call.name, 20) or "tool"
        key = one_line(shown_argument(call), 40)
        label = f"{name} command: {key}" if key else f"{name} input"
        found.append(Piece(label, command_of(call), f"the {name} command"))
        if call.output is not None:
            label = f"{name} output ({size_words(call.output)})"
            found.append(Piece(label, call.output, f"the {name} output"))
    if len(found) > 1:
        found.insert(0, Piece("the whole turn", whole(turn, message, reasoning, calls)))
    return found


def whole(turn: Turn, message: str, reasoning: str, calls: list[ToolCall]) -> str:
    """The turn as plain text: who and when, the message, the reasoning, each call."""
    label, _ = role_label(turn)
    head = f"{label} #{turn.index + 1}"
    if turn.timestamp is not None:
        head += "  " + datetime.fromtimestamp(turn.timestamp, UTC).strftime("%Y-%m-%d %H:%M:%S")
    blocks = [head]
    if reasoning:
        blocks.append("[reasoning]\n" + reasoning)
    if message:
        blocks.append(message)
    for call in calls:
        block = f"$ {call.name}: {command_of(call)}"
        if call.output is not None:
            block += "\n" + call.output
        blocks.append(block)
    return "\n\n".join(blocks)


def pager_command() -> list[str] | None:
    """`$PAGER` split as a shell would, else less or more; None when none is installed."""
    wanted = shlex.split(os.environ.get("PAGER", "")) if os.environ.get("PAGER") else []
    if wanted and shutil.which(wanted[0]):
        return wanted
    for name in PAGERS:
        if shutil.which(name):
            return [name]
    return None


def size_words(text: str) -> str:
    lines = text.count("\n") + 1
    return f"{lines:,} line{'s' if lines != 1 else ''}"


class Clips:
    """The y and v keys of one screen."""

    def __init__(self, owner: Widget, say: Callable[[str], None]) -> None:
        self.owner = owner
        self.say = say
        self.files: Callable[[], SessionFiles | None] = lambda: None
        """The files of the session on screen (the temporary file never goes among them)."""

    def choose(self, turn: Turn, verb: str, then: Callable[[Piece], None]) -> None:
        """Ask which piece of `turn` (a prompt) unless it has one; `then` gets it."""
        found = pieces(turn)
        if len(found) == 1:
            then(found[0])
            return
        from pivotal.tui.screens import PromptScreen

        lines = [f"{n}  {piece.label}" for n, piece in enumerate(found[:SHOWN], 1)]
        if len(found) > SHOWN:
            lines.append(f"…  {len(found) - SHOWN} more, {SHOWN + 1} to {len(found)}")
        label = f"{verb} which? (number, Enter: 1)\n" + "\n".join(lines)

        def done(value: str | None) -> None:
            if value is None:
                return
            number = value.strip() or "1"
            if number.isdigit() and 1 <= int(number) <= len(found):
                then(found[int(number) - 1])
            else:
                self.say(f"no piece {one_line(number, 20)} here (1 to {len(found)})")

        self.owner.app.push_screen(PromptScreen(label, "1"), done)

    # -- y -------------------------------------------------------------------------
    def copy(self, turn: Turn) -> None:
        self.choose(turn, "Copy", self.copy_piece)

    def copy_piece(self, piece: Piece) -> None:
        text = clean(piece.text)
        self.owner.app.copy_to_clipboard(text)
        what = piece.what or piece.label
        self.say(f"copied {what}, {size_words(text)} (OSC 52: some terminals ignore it)")

    # -- v -------------------------------------------------------------------------
    def page(self, turn: Turn) -> None:
        self.choose(turn, "Read in the pager", self.page_piece)

    def page_piece(self, piece: Piece) -> None:
        """Show `piece` in the pager, the app suspended; the temporary file goes after."""
        command = pager_command()
        if command is None:
            self.say("no pager found: set $PAGER (less and more are not installed)")
            return
        folder = Path(tempfile.gettempdir())
        if self.beside_session(folder):
            self.say("not paged: the temporary folder is the session's own folder")
            return
        handle, name = tempfile.mkstemp(prefix="pivotal-", suffix=".txt", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", errors="replace") as out:
                out.write(clean(piece.text) + "\n")
            self.run(command, name)
        except OSError as exc:
            self.say(f"the pager could not run: {one_line(str(exc), 120)}")
        finally:
            try:
                os.unlink(name)
            except OSError:
                pass

    def beside_session(self, folder: Path) -> bool:
        """A file in `folder` would be part of the session on screen, or lie beside it."""
        files = self.files()
        if files is None:
            return False
        if files.claims(folder / "pivotal-page.txt") is not None:
            return True
        real = os.path.realpath(folder)
        return any(os.path.realpath(Path(file).parent) == real for file in files.files)

    def run(self, command: list[str], path: str) -> None:
        """Hand the terminal to `command path` until it exits (the app suspended)."""
        from textual.app import SuspendNotSupported

        try:
            with self.owner.app.suspend():
                result = subprocess.run([*command, path], check=False)
        except SuspendNotSupported:
            self.say("the pager cannot run here: this terminal cannot be handed over")
            return
        self.owner.app.refresh(repaint=True, layout=True)
        if result.returncode not in (0, None):
            self.say(f"{one_line(command[0], 40)} exited with {result.returncode}")
        else:
            self.say(f"back from {one_line(command[0], 40)}")
