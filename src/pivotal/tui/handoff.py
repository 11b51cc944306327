"""Leaving the replay: back to the agent (r) and a screenshot of the screen (S).

`Handoff` belongs to one `ReplayScreen`, which creates it with the widget it
works through (the app's clipboard and screenshot, notifications) and `say`,
which puts a line on the status bar. The resume command comes from
`pivotal.catalog.resume` (it validates the session id and quotes and cleans the
display form); it is shown in a notification with markup off and copied with
OSC 52, which many terminals honour and some ignore, so the message says both.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from textual.notifications import Notification, Notify
from textual.widget import Widget

from pivotal.catalog.notes import data_dir
from pivotal.catalog.resume import ResumeCommand, resume_command
from pivotal.model import Session
from pivotal.private import private_file, private_folder
from pivotal.readers.files import SessionFiles
from pivotal.tui.safe import clean

SCREENSHOT_DIR_ENV = "PIVOTAL_SCREENSHOT_DIR"


def screenshot_dir() -> Path:
    """`$PIVOTAL_SCREENSHOT_DIR`, else `screenshots/` in pivotal's data dir.

    Never the current directory: that is often a git checkout, where a stray SVG
    ends up committed.
    """
    explicit = os.environ.get(SCREENSHOT_DIR_ENV)
    return Path(explicit).expanduser() if explicit else data_dir() / "screenshots"


def shown_path(path: Path | str) -> str:
    """`path` with the home folder as `~` (shorter on the status line)."""
    text, home = str(path), str(Path.home())
    if home not in ("", "/") and (text == home or text.startswith(home + os.sep)):
        text = "~" + text[len(home) :]
    return clean(text)


def screenshot_name(turn: int | None, now: float | None = None) -> str:
    """`pivotal-turn12-20261130-051500.svg`: no session text in a file name."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    where = f"-turn{turn + 1}" if turn is not None else ""
    return f"pivotal{where}-{stamp}.svg"


def resume_message(command: ResumeCommand, copied: bool) -> str:
    """What the notification says: the command, where to run it, why, and the clipboard."""
    if not command.available:
        return f"Cannot resume this session: {clean(command.note)}"
    lines = [command.display]
    lines.append(f"run in: {clean(command.cwd)}" if command.cwd else "run it in any directory")
    if command.note:
        lines.append(clean(command.note))
    if copied:
        lines.append("Sent to the clipboard with OSC 52 (some terminals ignore it: copy it here)")
    return "\n".join(lines)


class Handoff:
    """The resume (r) and screenshot (S) keys of one screen."""

    def __init__(self, owner: Widget, say: Callable[[str], None]) -> None:
        self.owner = owner
        self.say = say
        self.box: Notification | None = None
        """The resume box on screen (a notification), for Esc to close before its timeout."""

    def resume(self, session: Session | None) -> None:
        """Show and copy the command that resumes `session` (None: its id is still unknown)."""
        if session is None:
            self._show(
                Notification(
                    "The session is still being read; try again in a moment.",
                    timeout=4,
                    markup=False,
                )
            )
            return
        command = resume_command(session)
        if command.available:
            self.owner.app.copy_to_clipboard(command.display)
        self._show(
            Notification(
                resume_message(command, command.available),
                title="Back to the agent",
                severity="information" if command.available else "warning",
                timeout=8,
                markup=False,
            )
        )
        self.say(
            "resume command shown (sent to the clipboard, if the terminal allows)"
            if command.available
            else "cannot resume"
        )

    def _show(self, box: Notification) -> None:
        """`notify`, keeping the notification: Esc closes it (`close_box`)."""
        self.box = box
        self.owner.app.post_message(Notify(box))

    def close_box(self) -> bool:
        """Esc: close the resume box if it is still up; whether there was one to close.

        Textual's public way to take a notification down takes them all down: any other
        message on screen goes with the box, as Esc would close it too."""
        box, self.box = self.box, None
        if box is None or box.has_expired:
            return False
        self.owner.app.clear_notifications()
        return True

    def screenshot(self, turn: int | None, session: SessionFiles | None = None) -> None:
        """Save the screen as SVG, named for `turn` (the cursor; None before any turn),
        never into the files of `session` (the one on screen)."""
        folder = screenshot_dir()
        name = screenshot_name(turn)
        claimed = session.claims(folder / name) if session is not None else None
        if claimed is not None:
            self.owner.notify(
                clean(f"Screenshot not saved: {folder} is part of the session on screen"),
                severity="error",
                markup=False,
            )
            self.say("screenshot not saved (see the message)")
            return
        try:
            if not os.environ.get(SCREENSHOT_DIR_ENV):  # screenshots/ in pivotal's data folder
                private_folder(data_dir())
            private_folder(folder)
            private_file(folder / name)  # the transcript as drawn: for this user alone
            path = self.owner.app.save_screenshot(name, str(folder))
        except OSError as exc:
            self.owner.notify(clean(f"Screenshot not saved: {exc}"), severity="error", markup=False)
            self.say("screenshot not saved (see the message)")
            return
        # the status line says where (it fits 80 columns under the default data dir); a
        # toast would cover that very line
        self.say(f"saved {shown_path(path)}")
