"""Qwen Code's older chats (before 0.5): one JSON document per chat, rewritten whole.

Qwen Code began as a fork of Gemini CLI and kept its whole-file chat recording until 0.5
moved to JSONL: `~/.qwen/tmp/<sha256 of the project root>/chats/session-<time>-<id8>.json`,
`{sessionId, projectHash, startTime, lastUpdated, messages}`, the model's messages typed
`"qwen"` instead of `"gemini"`. So the Gemini reader's message handling reads them, with
two differences:

* Before each prompt the CLI puts its reminders (`<system-reminder>…</system-reminder>`:
  the sub-agents on offer, plan mode) and the recording keeps the joined text, so every
  user message starts with them. They become an injected turn before the person's; an
  `@path` prompt's file contents after it likewise (`qwen.split_prompt`).
* One run, several files: the CLI starts a new file, with the same session id and a new
  time in its name, whenever it starts a new chat inside one run (a compression, `/clear`,
  a change of model). Each file is read as its own session: it holds a history of its own
  (the summary a compression carried over is in neither file) and is listed, scanned and
  resumed as the CLI wrote it. A notice names the other files of the run, in order.
"""

from __future__ import annotations

import re
from pathlib import Path

from pivotal.model import Turn
from pivotal.readers.gemini import GeminiJsonReader
from pivotal.readers.qwen_prompts import prompt_turns

_ID = re.compile(rb'"sessionId"\s*:\s*"([^"\\]{1,200})"')
_SHORT_ID = re.compile(r"[0-9A-Za-z-]{8}")


class QwenJsonReader(GeminiJsonReader):
    format = "qwen"

    _siblings: list[str] | None = None

    def build(self, doc: object) -> list[Turn] | None:
        built = super().build(doc)
        if built is None:
            return None
        turns: list[Turn] = []
        for turn in built:
            if turn.is_human:
                turns.extend(_split(turn))
            else:
                turns.append(turn)
        for index, turn in enumerate(turns):
            turn.index = index
        self._note_siblings()
        return turns

    def _note_siblings(self) -> None:
        """Once: the other files of this run, named in a notice (none when it has one file)."""
        ident = self.session.id
        if self._siblings is not None or not ident:
            return
        self._siblings = names = run_files(self.ref.path, ident)
        if len(names) > 1 and self.ref.path.name in names:
            mine = names.index(self.ref.path.name) + 1
            others = ", ".join(name for name in names if name != self.ref.path.name)
            self.session.notices.append(
                f"Qwen Code saved this run (session {ident}) in {len(names)} files; this is"
                f" file {mine} of {len(names)} (it starts a new file when it compresses the"
                f" chat, on /clear and on a model change); the others: {others}"
            )


def _split(turn: Turn) -> list[Turn]:
    """A person's turn without the CLI's reminders and expansions (see `prompt_turns`)."""
    parts = turn.parts
    text = parts[0].text if parts else ""
    pieces = prompt_turns({}, turn.source, text, parts[1:])
    for piece in pieces:
        piece.timestamp = turn.timestamp
    return pieces


def run_files(path: Path, ident: str) -> list[str]:
    """Names of the chat files beside `path` that hold session `ident`, oldest first
    (`path`'s among them; none when `path` is not named as the CLI names its files).

    The CLI names each `session-<time>-<first 8 of the id>.json`; a file is counted only
    when its own `sessionId` says so (read from its first kilobyte).
    """
    short = ident[:8]
    name = path.name
    if _SHORT_ID.fullmatch(short) is None or not name.endswith(f"-{short}.json"):
        return []
    names = []
    try:
        candidates = sorted(path.parent.glob(f"session-*-{short}.json"))
    except OSError:
        return []
    for candidate in candidates:
        if candidate.name == name:
            names.append(name)
            continue
        if not candidate.is_file():  # never open a pipe or a device
            continue
        try:
            with open(candidate, "rb") as handle:
                head = handle.read(1024)
        except OSError:
            continue
        found = _ID.search(head)
        if found is not None and found.group(1).decode("utf-8", "replace") == ident:
            names.append(candidate.name)
    return names
