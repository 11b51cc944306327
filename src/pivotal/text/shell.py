"""A command an agent ran, as a person would type it.

Codex records its shell calls as a list of words: `["bash", "-lc", "npm test"]`. Shown
as Python or JSON lists they read `['bash', '-lc', 'npm test']`, which no one types. A
shell wrapping one script (`bash -lc SCRIPT`, `sh -c`, `pwsh -NoProfile -Command`) is
shown as the script, as Codex's own terminal shows it; any other list is joined with
shell quoting (`printf '%s\\n' 'a b'`). Pure, for every surface that shows a call's input:
the search index, the replayer, exports.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from pivotal.model import KEY_ARGUMENT_NAMES, ToolCall

COMMAND_KEYS = ("command", "cmd")
"""Where a call's input holds the command it ran (a list of words, or a line)."""
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "pwsh", "powershell"})
SCRIPT_FLAGS = frozenset({"-c", "-lc", "-cl", "-ic", "-command"})
"""The flag after which a shell takes the script to run as the next word."""


def is_words(value: object) -> bool:
    """A command given as a list of words (strings only, at least one)."""
    return isinstance(value, list) and bool(value) and all(isinstance(w, str) for w in value)


def command_line(words: list[str]) -> str:
    """`words` as typed: the script a shell was given to run, else the words shell-quoted."""
    if len(words) >= 3 and _shell(words[0]) and words[-2].lower() in SCRIPT_FLAGS:
        if all(w.startswith("-") for w in words[1:-1]):
            return words[-1]
    return shlex.join(words)


def _shell(word: str) -> bool:
    name = word.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name.removesuffix(".exe") in SHELLS


def shown_input(value: Any) -> Any:
    """A call's input with a command given as words turned into its line (a dict's
    `command` or `cmd`); anything else as it is."""
    if isinstance(value, dict) and any(is_words(value.get(key)) for key in COMMAND_KEYS):
        return {
            key: command_line(item) if key in COMMAND_KEYS and is_words(item) else item
            for key, item in value.items()
        }
    return value


def input_lines(value: Any) -> str:
    """A call's input as text, one `key: value` line per argument (a command as typed)."""
    value = shown_input(value)
    if isinstance(value, dict):
        return "\n".join(f"{key}: {value_text(item)}" for key, item in value.items())
    return "" if value is None else value_text(value)


def value_text(value: Any) -> str:
    """One argument's value as text: a string as it is, anything else as JSON, as the
    transcript shows it (a to-do list reads `[{"content": "Deploy", "status": "pending"}]`,
    not Python's `[{'content': 'Deploy', …}]`), its characters as written (searchable)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError, RecursionError):  # a loop, a key JSON has no form for
        return str(value)


def shown_argument(call: ToolCall) -> str:
    """The argument that best names what the call did (`ToolCall.key_argument`), a command
    given as words as typed (`key_argument` joins them with spaces, as the detector reads
    them: `bash -lc npm test -- x` lost the quotes that made it one script)."""
    value = call.input
    if isinstance(value, dict):
        for key in KEY_ARGUMENT_NAMES:
            item = value.get(key)
            if isinstance(item, str) and item:
                break
            if is_words(item):
                return command_line(item) if key in COMMAND_KEYS else call.key_argument()
    return call.key_argument()
