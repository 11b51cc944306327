"""Make untrusted session text safe to put on screen (thin layer over `pivotal.text.safe`).

Session text can carry ANSI / OSC escape sequences, carriage returns and other
control characters that would move the cursor or retitle the terminal. Every
piece of session text the replayer shows goes through `clean()` first, and is
then rendered as `rich.text.Text` or by Rich's Markdown, never as markup.
"""

from __future__ import annotations

from pivotal.text import safe as safetext


def clean(text: str | None) -> str:
    """`text` with every escape sequence and control character made visible and inert."""
    if not text:
        return ""
    return safetext.clean(text)


def one_line(text: str | None, limit: int = 200) -> str:
    """A cleaned single line (newlines and tabs become spaces), cut to `limit` chars."""
    if not text:
        return ""
    flat = " ".join(clean(text[: limit * 4]).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
