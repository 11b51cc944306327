"""Codex custom prompts: the person's own words inside an expanded template.

A custom prompt (`/prompts:name …`, spec-kit's `/speckit.implement …`) is a
Markdown file Codex expands before sending; the rollout keeps only the
expansion, as the `user_message`. Templates written for `$ARGUMENTS` set the
person's words apart in a section of their own, near the top:

    ## User Input

    ```text
    <what the person typed after the command, or nothing>
    ```

    (then the template's instructions, usually thousands of characters)

The words are the person's turn; the rest is injected context. A builder that
sent the file unexpanded leaves `$ARGUMENTS` itself in the block: the person
typed nothing there.
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+user input[ \t:]*\r?$", re.IGNORECASE | re.MULTILINE)
_FENCE = re.compile(r"(`{3,}|~{3,})[^`\n]*")
_UNEXPANDED = "$ARGUMENTS"
MAX_LINES_BEFORE = 4
"""Non-blank lines (a title, a note) the heading may follow, frontmatter aside."""
MIN_TEMPLATE = 200
"""Characters of instructions after the block: a template, not a message quoting one."""
HEAD = 8192
"""The heading is looked for this far in (frontmatter and a title may come first)."""


def custom_prompt(text: str) -> str | None:
    """The person's words if `text` is an expanded custom prompt, else None.

    Cheap for every other message: a few substring tests of its head.
    """
    head = text[:HEAD]
    if "ser Input" not in head and "ser input" not in head and "SER INPUT" not in head:
        return None
    heading = _HEADING.search(head)
    if heading is None or _lines_before(head[: heading.start()]) > MAX_LINES_BEFORE:
        return None
    # a template saved on Windows keeps its `\r\n` line ends through the expansion
    return _block([line.removesuffix("\r") for line in text[heading.end() :].split("\n")[1:]])


def _lines_before(text: str) -> int:
    """Non-blank lines before the heading, a leading `---` … `---` frontmatter aside."""
    lines = [line.strip() for line in text.split("\n")]
    filled = [line for line in lines if line]
    if filled and filled[0] == "---" and "---" in filled[1:]:
        filled = filled[filled.index("---", 1) + 1 :]
    return len(filled)


def _block(lines: list[str]) -> str | None:
    """The fenced block right under the heading, if the template goes on after it."""
    pos = 0
    while pos < len(lines) and not lines[pos].strip():
        pos += 1
    if pos >= len(lines):
        return None
    opening = _FENCE.fullmatch(lines[pos].strip())
    if opening is None:
        return None
    fence = opening.group(1)
    for end in range(pos + 1, len(lines)):
        stripped = lines[end].strip()
        if stripped.startswith(fence) and not stripped.strip(fence[0]):
            if len("\n".join(lines[end + 1 :]).strip()) < MIN_TEMPLATE:
                return None
            words = "\n".join(lines[pos + 1 : end]).strip("\n")
            return "" if words.strip() == _UNEXPANDED else words
    return None  # the block never closes: not a template this reader knows
