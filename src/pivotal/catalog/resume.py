"""The command that takes a person from a replayed session back into the agent.

Each agent resumes by id from its own CLI; most of them look sessions up per
project, so the command also says which directory to run it in. The id comes
from the session file (untrusted), so it must look like an id before it is put
into a command line, and the display form is shell-quoted and cleaned.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from pivotal.model import Session
from pivotal.text.safe import clean

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,199}")
AIDER_DEFAULT_HISTORY = ".aider.chat.history.md"


@dataclass(frozen=True, slots=True)
class ResumeCommand:
    """`argv` to run in `cwd` (None: anywhere); empty `argv` when the session cannot be resumed."""

    argv: list[str] = field(default_factory=list)
    cwd: str | None = None
    note: str = ""

    @property
    def available(self) -> bool:
        return bool(self.argv)

    @property
    def display(self) -> str:
        """One shell line a person can paste: `cd DIR && agent …`, quoted and terminal-safe."""
        if not self.argv:
            return ""
        line = shlex.join(self.argv)
        if self.cwd:
            line = f"cd {_shell_dir(self.cwd)} && {line}"
        return clean(line)


def _shell_dir(folder: str) -> str:
    """`folder` for a shell line. A redacted home (`~/…`) keeps its `~` outside the quotes,
    where the shell expands it: `cd '~/my app'` would look for a folder named `~`."""
    if folder == "~":
        return "~"
    if folder.startswith("~/"):
        rest = folder[2:]
        return "~/" + shlex.quote(rest) if rest else "~/"
    return shlex.quote(folder)


def _usable_id(session: Session) -> str | None:
    ident = session.id
    return ident if ident and _ID.fullmatch(ident) else None


def _claude(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(note="no session id in the file; `claude --resume` opens the picker")
    return ResumeCommand(
        ["claude", "--resume", ident],
        session.cwd,
        "Claude Code lists sessions per project: run it in the session's working directory",
    )


def _codex(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(note="no session id in the rollout; `codex resume` opens the picker")
    return ResumeCommand(
        ["codex", "resume", ident],
        session.cwd,
        "codex resume finds the rollout by id; the session's directory keeps its sandbox paths",
    )


def _opencode(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(note="no session id; `opencode --continue` reopens the last session")
    return ResumeCommand(
        ["opencode", "--session", ident],
        session.cwd,
        "opencode keeps sessions per project: run it in the session's directory",
    )


def _kilo(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(note="no session id; `kilo --continue` reopens the last session")
    return ResumeCommand(
        ["kilo", "--session", ident],
        session.cwd,
        "Kilo keeps sessions per project, like opencode: run it in the session's directory",
    )


def _gemini(session: Session, ident: str | None) -> ResumeCommand:
    where = "run it in the project directory the session belongs to"
    if ident is None:
        return ResumeCommand(
            ["gemini", "--resume", "latest"],
            session.cwd,
            f"no session id in the file, so this resumes the project's latest session; {where}",
        )
    return ResumeCommand(
        ["gemini", "--resume", ident],
        session.cwd,
        f"Gemini CLI keeps sessions per project: {where}",
    )


def _qwen(session: Session, ident: str | None) -> ResumeCommand:
    where = "run it in the project directory the session belongs to"
    if ident is None:
        return ResumeCommand(
            ["qwen", "--continue"],
            session.cwd,
            f"no session id in the file, so this resumes the project's latest session; {where}",
        )
    return ResumeCommand(
        ["qwen", "--resume", ident],
        session.cwd,
        f"Qwen Code keeps sessions per project: {where}",
    )


def _continue(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(["cn", "--resume"], session.cwd, "no session id: resumes the latest")
    return ResumeCommand(
        ["cn", "--fork", ident],
        session.cwd,
        "Continue resumes only its latest session (cn --resume); --fork goes on from this"
        " one's history in a new session",
    )


def _cline(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(note="no session id in the folder; `cline` lists the sessions")
    return ResumeCommand(
        ["cline", "--id", ident],
        session.cwd,
        "cline --id reopens the session in its interactive view; run it in the session's directory",
    )


def _kimi(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(["kimi", "--continue"], session.cwd, "no session id: the latest one")
    return ResumeCommand(
        ["kimi", "--session", ident],
        session.cwd,
        "Kimi keeps sessions per work directory: run it in the session's directory",
    )


def _vibe(session: Session, ident: str | None) -> ResumeCommand:
    if ident is None:
        return ResumeCommand(["vibe", "--continue"], session.cwd, "no session id: the latest one")
    return ResumeCommand(
        ["vibe", "--resume", ident],
        session.cwd,
        "Vibe resumes a saved session by id; run it in the session's working directory",
    )


def _aider(session: Session, ident: str | None) -> ResumeCommand:
    history = Path(session.path).absolute()
    argv = ["aider", "--restore-chat-history"]
    if history.name != AIDER_DEFAULT_HISTORY:
        argv += ["--chat-history-file", history.name]
    return ResumeCommand(
        argv,
        str(history.parent),
        "aider has no session ids: it restores the history file of the repository it runs in",
    )


_BUILDERS = {
    "claude-code": _claude,
    "codex": _codex,
    "opencode": _opencode,
    "kilo": _kilo,
    "gemini": _gemini,
    "qwen": _qwen,
    "continue": _continue,
    "cline": _cline,
    "kimi": _kimi,
    "vibe": _vibe,
    "aider": _aider,
}


def resume_command(session: Session) -> ResumeCommand:
    """How to continue `session` in the agent that recorded it."""
    builder = _BUILDERS.get(session.format)
    if builder is None:
        return ResumeCommand(note=f"{session.format} sessions have no agent to resume")
    if session.id and _usable_id(session) is None:
        return ResumeCommand(note="the session id does not look like an id; not resuming")
    return builder(session, _usable_id(session))
