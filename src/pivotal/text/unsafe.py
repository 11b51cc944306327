"""Which characters must never reach a terminal as themselves, and what is shown instead.

The tables of `pivotal.text.safe`: the character classes (C0 / C1 controls,
invisible, bidi and filler characters, lone surrogates, stray variation
selectors), the regexes that find them in text and in encoded JSON, the SGR
pattern, and the visible, inert stand-in of each unsafe character. Kept apart
from the functions that apply them so the list can be read (and reviewed) as
one thing.
"""

from __future__ import annotations

import re

__all__ = [
    "EMOJI_PUNCTUATION",
    "JSON_UNSAFE",
    "KEYCAP",
    "SELECTOR",
    "SGR",
    "UNSAFE",
    "build_table",
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
# emoji base; anywhere else they are invisible filler and are shown (`pivotal.text.safe`).
_PRESENTATION = "\ufe0e\ufe0f"
UNSAFE = re.compile(f"[{_C0}{_C1}{_INVISIBLE}{_SURROGATES}{_PRESENTATION}]")
SELECTOR = re.compile(f"[{_PRESENTATION}]")
KEYCAP = "\u20e3"
EMOJI_PUNCTUATION = frozenset("\u203c\u2049\u3030\u303d")  # ‼ ⁉ 〰 〽 take VS16 too

# SGR: ESC [ params m, params digits with ';' or ':' (ITU T.416 sub-parameters).
SGR = re.compile(r"\x1b\[([0-9;:]*)m")

_DEL_PICTURE = "\u2421"  # ␡
_REPLACEMENT = "\ufffd"


def visible_char(char: str) -> str:
    """The inert, visible stand-in for one unsafe character (the character itself if safe)."""
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ␁ … ␛ … ␟
    if code == 0x7F:
        return _DEL_PICTURE
    if 0xD800 <= code <= 0xDFFF:
        return _REPLACEMENT
    if UNSAFE.match(char):
        return f"⟨U+{code:04X}⟩"
    return char


def build_table() -> dict[int, str]:
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


# In JSON, these may only appear inside strings, so escaping them keeps the JSON valid
# and equal while no raw C1 control or bidi/invisible character reaches a terminal.
JSON_UNSAFE = re.compile(f"[{_C1}{_INVISIBLE}{_PRESENTATION}]")
