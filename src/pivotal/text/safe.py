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
`⟨U+XXXX⟩`. `clean_line` also keeps the text on one line. Pure Python, no
Rich or Textual: the core and the CLI use it too.

Speed: one regex search decides whether a string needs any work, so the common
case (plain text, 1 MB of it) costs one C-level scan.
"""

from __future__ import annotations

import re

__all__ = [
    "clean",
    "clean_line",
    "json_inert",
    "needs_cleaning",
    "truncation_marker",
    "visible_char",
]

# Characters that must never reach a terminal as themselves.
_C0 = "\x00-\x08\x0b-\x1f"  # all C0 except \t (0x09) and \n (0x0a); includes \r and ESC
_C1 = "\x7f-\x9f"  # DEL and the C1 block (U+009B is an 8-bit CSI, U+009D an 8-bit OSC)
_INVISIBLE = (
    "\u00ad"  # soft hyphen (invisible unless a line breaks there)
    "\u034f"  # combining grapheme joiner
    "\u061c"  # arabic letter mark (bidi)
    "\u115f\u1160"  # Hangul choseong / jungseong fillers (blank, but take cells)
    "\u17b4\u17b5"  # Khmer inherent vowels (invisible)
    "\u180b-\u180f"  # Mongolian free variation selectors, vowel separator
    "\u200b-\u200f"  # zero width space / non-joiner / joiner, LRM, RLM
    "\u2028-\u202e"  # line / paragraph separator, bidi embeddings and overrides
    "\u2060-\u206f"  # word joiner, invisible operators, U+2065, isolates, deprecated formats
    "\u2800"  # braille pattern blank (looks like a space, is not one)
    "\u3164"  # Hangul filler
    "\ufeff"  # zero width no-break space / BOM
    "\uffa0"  # halfwidth Hangul filler
    "\ufff9-\ufffb"  # interlinear annotation controls
    "\U000e0000-\U000e007f"  # tag characters ("ASCII smuggling" of hidden prompts)
)
_SURROGATES = "\ud800-\udfff"
# Variation selectors 15/16 (text / emoji presentation) are legitimate right after an
# emoji base; anywhere else they are invisible filler and are shown (`_selectors`).
_PRESENTATION = "\ufe0e\ufe0f"
_UNSAFE = re.compile(f"[{_C0}{_C1}{_INVISIBLE}{_SURROGATES}{_PRESENTATION}]")
_SELECTOR = re.compile(f"[{_PRESENTATION}]")
_KEYCAP = "\u20e3"
_EMOJI_PUNCTUATION = frozenset("\u203c\u2049\u3030\u303d")  # ‼ ⁉ 〰 〽 take VS16 too

# SGR: ESC [ params m, params digits with ';' or ':' (ITU T.416 sub-parameters).
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")

_DEL_PICTURE = "\u2421"  # ␡
_REPLACEMENT = "\ufffd"

_TRUNCATION = "… ({} more characters)"


def visible_char(char: str) -> str:
    """The inert, visible stand-in for one unsafe character (the character itself if safe)."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ␁ … ␛ … ␟
    if code == 0x7F:
        return _DEL_PICTURE
    if 0xD800 <= code <= 0xDFFF:
        return _REPLACEMENT
    if _UNSAFE.match(char):
        return f"⟨U+{code:04X}⟩"
    return char


def _build_table() -> dict[int, str]:
    """One translate table for every unsafe code point (built once, ~2,300 entries)."""
    table: dict[int, str] = {}
    ranges = [(0x00, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x034F, 0x034F), (0x061C, 0x061C)]
    ranges += [(0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F)]
    ranges += [(0x2028, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164)]
    ranges += [(0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0xD800, 0xDFFF)]
    ranges += [(0xE0000, 0xE007F)]
    for low, high in ranges:
        for code in range(low, high + 1):
            if code in (0x09, 0x0A):
                continue
            table[code] = visible_char(chr(code))
    return table


_TABLE: dict[int, str] = {}
"""Filled by the first `_clean_controls` that needs it: most runs never do, and building costs."""


def needs_cleaning(text: str) -> bool:
    """True if `text` holds any character `clean()` would change (one regex scan)."""
    return _UNSAFE.search(text) is not None


def _clean_controls(text: str) -> str:
    """Replace every unsafe character; SGR must already be gone. `\\r\\n` becomes `\\n`."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if not _TABLE:
        _TABLE.update(_build_table())
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
    for match in _SELECTOR.finditer(text):
        index = match.start()
        base = text[index - 1] if index else ""
        keycap = base in "#*0123456789" and text[index + 1 : index + 2] == _KEYCAP
        if base and (keycap or base in _EMOJI_PUNCTUATION or unicodedata.category(base)[0] == "S"):
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
    if _UNSAFE.search(text) is not None:
        if "\x1b" in text:
            text = _SGR.sub("", text)
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


# In JSON, these may only appear inside strings, so escaping them keeps the JSON valid
# and equal while no raw C1 control or bidi/invisible character reaches a terminal.
_JSON_UNSAFE = re.compile(f"[{_C1}{_INVISIBLE}{_PRESENTATION}]")


def json_inert(encoded: str) -> str:
    """Escape C1 controls and invisible/bidi characters in already-encoded JSON text."""
    if _JSON_UNSAFE.search(encoded) is None:
        return encoded
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)
