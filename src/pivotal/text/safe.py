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
case (plain text, 1 MB of it) costs one C-level scan. Memory: text longer than
64 KiB is worked on a piece at a time (`_in_pieces`), so cleaning needs the
result and one piece, whatever the text holds.
"""

from __future__ import annotations

from collections.abc import Callable

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

_TRUNCATION = "… ({} more {})"

_PIECE = 1 << 16
"""Characters worked on at a time in a longer text (`_in_pieces`)."""

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


def _in_pieces(work: Callable[[str], str], text: str, cut_before: str | None) -> str:
    """`work(text)`, done on pieces of about `_PIECE` characters and joined.

    A regex substitution keeps one object for every piece it cuts until it joins
    them: over a 10 MB tool output full of colour escapes that was 6-12 times the
    text (issue 34); piece by piece it is the result and one piece's worth. A piece
    ends right before a `cut_before` character, which no match of `work` spans
    (`None`: `work` only ever changes single characters, so anywhere will do).
    """
    if len(text) <= _PIECE:
        return work(text)
    done: list[str] = []
    start = 0
    while start < len(text):
        end = start + _PIECE
        if cut_before is not None and end < len(text):
            end = text.find(cut_before, end)
            if end < 0:
                end = len(text)
        done.append(work(text[start:end]))
        start = end
    return "".join(done)


def _without_sgr(text: str) -> str:
    return SGR.sub("", text)


def _selectors(text: str) -> str:
    """Show variation selectors 15/16 that do not follow an emoji base (one after another,
    after a letter, at the start): there they only hide text or pad a row."""
    if len(text) <= _PIECE:
        return _selectors_between(text, 0, len(text))
    ends = range(_PIECE, len(text) + _PIECE, _PIECE)
    return "".join(_selectors_between(text, end - _PIECE, min(end, len(text))) for end in ends)


def _selectors_between(text: str, start: int, end: int) -> str:
    """`text[start:end]` with its stray selectors shown (judged with the whole text around)."""
    import unicodedata

    out: list[str] = []
    position = start
    for match in SELECTOR.finditer(text, start, end):
        index = match.start()
        base = text[index - 1] if index else ""
        keycap = base in "#*0123456789" and text[index + 1 : index + 2] == KEYCAP
        if base and (keycap or base in EMOJI_PUNCTUATION or unicodedata.category(base)[0] == "S"):
            continue
        out.append(text[position:index])
        out.append(f"⟨U+{ord(match.group()):04X}⟩")
        position = index + 1
    if not out:
        return text if start == 0 and end == len(text) else text[start:end]
    out.append(text[position:end])
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
            text = _in_pieces(_without_sgr, text, "\x1b")
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
    return _TRUNCATION.format(f"{more:,}", "character" if more == 1 else "characters")


def json_inert(encoded: str) -> str:
    """Escape C1 controls and invisible/bidi characters in already-encoded JSON text."""
    if JSON_UNSAFE.search(encoded) is None:
        return encoded
    return _in_pieces(_json_escaped, encoded, None)


def _json_escaped(encoded: str) -> str:
    return JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)
