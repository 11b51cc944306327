"""Codex IDE context: the person's words under the editor's notes.

The Codex VS Code extension sends what the editor shows above what the person typed,
all as one user message (both the response copy and the event copy):

    # Context from my IDE setup:

    ## Active file: src/app.ts

    ## Active selection of the file:
    <the selected lines>
    ## Open tabs:
    - app.ts: src/app.ts

    ## My request for Codex:
    <what the person typed>

(`# Files mentioned by the user:` heads the same shape when files or images are attached.)
Codex itself takes what follows the first `## My request for Codex:` as the message's
words (`strip_user_message_prefix` in codex-rs's thread metadata). The words are the
person's turn; the notes above them are injected context, as Claude Code's
`<ide_opened_file>` notes are (`pivotal.readers.claude_parts`).
"""

from __future__ import annotations

import re

MARKER = "## My request for Codex:"
_MARKER_LINE = re.compile(r"^## My request for Codex:[ \t]*\r?$", re.MULTILINE)


def ide_request(text: str) -> tuple[str, str] | None:
    """(the IDE's notes, the person's words) if `text` is wrapped by the extension, else None.

    The wrapper opens with a `# ` heading and holds the marker on a line of its own;
    a message that only mentions the marker is the person's, whole. Cheap for every
    other message: one substring test.
    """
    if MARKER not in text or not text.lstrip().startswith("# "):
        return None
    found = _MARKER_LINE.search(text)
    if found is None:
        return None
    return text[: found.start()].rstrip(), text[found.end() :].strip()
