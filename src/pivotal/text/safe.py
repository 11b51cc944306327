"""Make untrusted session text safe to print: text, never terminal control.

Session text is written by models and shells. It carries colour (SGR), cursor
moves, window-title and clipboard writes (OSC 0 / OSC 52), hyperlinks (OSC 8),
DCS strings, C0/C1 controls, bidi overrides and invisible characters. Printed
raw, any of these can drive the user's terminal or hide what the text says.

`clean()` turns every such character into something visible and inert: SGR
colour is dropped (`pivotal.text.sgr.sgr_spans()` keeps it as data instead), every other escape
is shown with its ESC as `␛`, C0 controls as control pictures (U+2400 block),
C1 controls and invisible / bidi / filler characters (soft hyphen, Hangul
fillers, the braille blank, variation selectors that follow no emoji, ...) as
`⟨U+XXXX⟩`. `clean_line` also keeps the text on one line. Which characters
those are, and each one's stand-in, is `pivotal.text.unsafe`. Pure Python, no
Rich or Textual: the core and the CLI use it too.

Speed: one regex search decides whether a string needs any work, so the common
case (plain text, 1 MB of it) costs one C-level scan.
"""

from __future__ import annotations

from pivotal.text.unsafe import (
    EMOJI_PUNCTUATION,
    JSON_UNSAFE,
    KEYCAP,
    SELECTOR,
    SGR,
    UNSAFE,
    build_table,
)

__all__ = [
    "clean",
    "clean_line",
    "json_inert",
    "needs_cleaning",
    "truncation_marker",
]

_TRUNCATION = "… ({} more characters)"

_TABLE: dict[int, str] = {}
"""Filled by the first `_clean_controls` that needs it: most runs never do, and building costs."""


def needs_cleaning(text: str) -> bool:
    """True if `text` holds any character `clean()` would change (one regex scan)."""
    return UNSAFE.search(text) is not None


def _clean_controls(text: str) -> str:
    """Replace every unsafe character; SGR must already be gone. `\\r\\n` becomes `\\n`."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if not _TABLE:
        _TABLE.update(build_table())
    text = text.translate(_TABLE)
    if "\ufe0f" in text or "\ufe0e" in text:
        text = _selectors(text)
    return text


def _selectors(text: str) -> str:
    """Show variation selectors 15/16 that do not follow an emoji base (one after another,
    after a letter, at the start): there they only hide text or pad a row."""
    import unicodedata

    out: list[str] = []
    position = 0
    for match in SELECTOR.finditer(text):
        index = match.start()
        base = text[index - 1] if index else ""
        keycap = base in "#*0123456789" and text[index + 1 : index + 2] == KEYCAP
        if base and (keycap or base in EMOJI_PUNCTUATION or unicodedata.category(base)[0] == "S"):
            continue
        out.append(text[position:index])
        out.append(f"⟨U+{ord(match.group()):04X}⟩")
        position = index + 1
    if not out:
        return text
    out.append(text[position:])
    return "".join(out)


def clean(text: str, *, max_len: int | None = None) -> str:
    """Return `text` safe to print anywhere: SGR dropped, every other control made visible.

    `max_len` (source characters) cuts long text and appends "… (N more characters)";
    visible stand-ins may make the kept part a little longer than `max_len`.
    """
    more = 0
    if max_len is not None and len(text) > max_len:
        more = len(text) - max_len
        text = text[:max_len]
    if UNSAFE.search(text) is not None:
        if "\x1b" in text:
            text = SGR.sub("", text)
        text = _clean_controls(text)
    if more:
        text += truncation_marker(more)
    return text


def clean_line(text: str, *, max_len: int | None = None) -> str:
    """`clean`, and kept on one line: a newline or tab in a file name or id is shown
    (`␊`, `␉`), so it can neither forge a row of a table nor a diagnostic line."""
    text = clean(text, max_len=max_len)
    if "\n" in text or "\t" in text:
        text = text.replace("\n", "\u240a").replace("\t", "\u2409")
    return text


def truncation_marker(more: int) -> str:
    """The marker `clean` appends when it cuts `more` characters."""
    return _TRUNCATION.format(f"{more:,}")


def json_inert(encoded: str) -> str:
    """Escape C1 controls and invisible/bidi characters in already-encoded JSON text."""
    if JSON_UNSAFE.search(encoded) is None:
        return encoded
    return JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)
