"""Make untrusted session text safe to put on screen.

Session text can carry ANSI / OSC escape sequences, carriage returns and other
control characters that would move the cursor or retitle the terminal. Every
piece of session text the replayer shows goes through `clean()` first, and is
then rendered as `rich.text.Text` or by Rich's Markdown, never as markup.

Uses `pivotal.safetext` when it is there; until then a local fallback strips
C0/C1 controls (keeping newline and tab) and escape sequences.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_ESCAPES = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL/ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS / SOS / PM / APC strings
    r"|\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b[@-Z\\-_]"  # other two-byte escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _fallback(text: str) -> str:
    text = _ESCAPES.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROLS.sub("", text)


def _pick() -> Callable[[str], str]:
    try:
        from pivotal import safetext
    except ImportError:
        return _fallback
    for name in ("clean", "sanitize", "neutralize", "neutralise", "safe_text"):
        func = getattr(safetext, name, None)
        if callable(func):
            return func
    return _fallback


_clean = _pick()


def clean(text: str | None) -> str:
    """`text` with every escape sequence and control character neutralised."""
    if not text:
        return ""
    return _clean(text)


def one_line(text: str | None, limit: int = 200) -> str:
    """A cleaned single line (newlines and tabs become spaces), cut to `limit` chars."""
    flat = " ".join(clean(text)[: limit * 4].split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
