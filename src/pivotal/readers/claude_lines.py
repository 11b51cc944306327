"""Claude Code's own lines as a person reads them: its slash commands.

Claude Code writes much of what it shows in its transcript as data for its client to
format: a slash command as tags (`<command-name>/model</command-name>` …) and what it
printed inside `<local-command-stdout>`, with the terminal's colours. Read as they are,
they showed as the tags. Each is said here in one short line of its own, or not at all;
the flags the detector reads are the reader's, unchanged.
"""

from __future__ import annotations

import re

from pivotal.text.unsafe import SGR

_COMMAND_TAG = re.compile(r"<(command-name|command-message|command-args)>(.*?)</\1>", re.DOTALL)
_OUTPUT_TAG = re.compile(r"<(local-command-stdout|local-command-stderr)>(.*?)</\1>", re.DOTALL)
COMMAND_STARTS = ("<command-name>", "<command-message>", "<command-args>")
OUTPUT_STARTS = ("<local-command-stdout>", "<local-command-stderr>")
NO_OUTPUT = "(no output)"


def command_text(text: str) -> str | None:
    """How a slash command's records read: the command as the person typed it (`/model opus`
    from its `<command-name>` and `<command-args>`; the `<command-message>` Claude Code adds
    is left out), or what it printed without its tags and colours (`NO_OUTPUT` when it
    printed nothing). None when `text` is anything more than those tags."""
    head = text.lstrip()
    if head.startswith(COMMAND_STARTS):
        if _COMMAND_TAG.sub("", head).strip():
            return None
        tags: dict[str, str] = {}
        for found in _COMMAND_TAG.finditer(head):
            tags.setdefault(found[1], found[2].strip())
        name = tags.get("command-name", "")
        if not name:
            return None
        name = name if name.startswith("/") else f"/{name}"  # 1.0.2x wrote no slash
        args = tags.get("command-args", "")
        return f"{name} {args}" if args else name
    if head.startswith(OUTPUT_STARTS):
        if _OUTPUT_TAG.sub("", head).strip():
            return None
        printed = (SGR.sub("", found[2]).strip() for found in _OUTPUT_TAG.finditer(head))
        said = "\n".join(out for out in printed if out)
        return said or NO_OUTPUT
    return None
