"""Make untrusted session text safe to print: text, never terminal control.

Session text is written by models and shells. It carries colour (SGR), cursor
moves, window-title and clipboard writes (OSC 0 / OSC 52), hyperlinks (OSC 8),
DCS strings, C0/C1 controls, bidi overrides and invisible characters. Printed
raw, any of these can drive the user's terminal or hide what the text says.

`clean()` turns every such character into something visible and inert: SGR
colour is dropped (`sgr_spans()` keeps it as data instead), every other escape
is shown with its ESC as `␛`, C0 controls as control pictures (U+2400 block),
C1 controls and invisible / bidi characters as `⟨U+XXXX⟩`. Pure Python, no
Rich or Textual: the core and the CLI use it too.

Speed: one regex search decides whether a string needs any work, so the common
case (plain text, 1 MB of it) costs one C-level scan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

__all__ = [
    "Color",
    "SgrStyle",
    "apply_sgr",
    "clean",
    "needs_cleaning",
    "sgr_spans",
    "truncation_marker",
    "visible_char",
]

# Characters that must never reach a terminal as themselves.
_C0 = "\x00-\x08\x0b-\x1f"  # all C0 except \t (0x09) and \n (0x0a); includes \r and ESC
_C1 = "\x7f-\x9f"  # DEL and the C1 block (U+009B is an 8-bit CSI, U+009D an 8-bit OSC)
_INVISIBLE = (
    "\u061c"  # arabic letter mark (bidi)
    "\u180e"  # mongolian vowel separator (zero width)
    "\u200b-\u200f"  # zero width space / non-joiner / joiner, LRM, RLM
    "\u2028-\u202e"  # line / paragraph separator, bidi embeddings and overrides
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u2069"  # bidi isolates
    "\ufeff"  # zero width no-break space / BOM
    "\ufff9-\ufffb"  # interlinear annotation controls
    "\U000e0000-\U000e007f"  # tag characters ("ASCII smuggling" of hidden prompts)
)
_SURROGATES = "\ud800-\udfff"
_UNSAFE = re.compile(f"[{_C0}{_C1}{_INVISIBLE}{_SURROGATES}]")

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
    ranges = [(0x00, 0x1F), (0x7F, 0x9F), (0x061C, 0x061C), (0x180E, 0x180E)]
    ranges += [(0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x2069)]
    ranges += [(0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0xD800, 0xDFFF), (0xE0000, 0xE007F)]
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
    return text.translate(_TABLE)


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


def truncation_marker(more: int) -> str:
    """The marker `clean` appends when it cuts `more` characters."""
    return _TRUNCATION.format(f"{more:,}")


# -- SGR colour as data ------------------------------------------------------

Color = int | tuple[int, int, int]
"""An 8-bit palette index (0-255; 0-15 are the standard and bright colours) or an RGB triple."""


@dataclass(frozen=True, slots=True)
class SgrStyle:
    """The text attributes an SGR sequence stream leaves in effect."""

    fg: Color | None = None
    bg: Color | None = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    blink: bool = False
    reverse: bool = False
    strike: bool = False

    @property
    def plain(self) -> bool:
        return self == _PLAIN


_PLAIN = SgrStyle()

_SET = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 5: "blink", 6: "blink"}
_SET |= {7: "reverse", 9: "strike", 21: "underline"}
_UNSET = {22: ("bold", "dim"), 23: ("italic",), 24: ("underline",), 25: ("blink",)}
_UNSET |= {27: ("reverse",), 29: ("strike",)}


def _extended_color(params: list[list[int]], index: int) -> tuple[Color | None, int]:
    """Parse a 38/48 colour starting at `params[index]`; return (colour, next index)."""
    head = params[index]
    if len(head) > 1:  # colon form: 38:5:n or 38:2:[cs]:r:g:b, all in one parameter
        sub = head[1:]
        if sub[0] == 5 and len(sub) >= 2:
            return _index_color(sub[1]), index + 1
        if sub[0] == 2 and len(sub) >= 4:
            rgb = sub[-3:]
            return _rgb(rgb[0], rgb[1], rgb[2]), index + 1
        return None, index + 1
    # semicolon form: 38;5;n or 38;2;r;g;b spread over the following parameters
    rest = [p[0] if p else 0 for p in params[index + 1 : index + 5]]
    if rest[:1] == [5] and len(rest) >= 2:
        return _index_color(rest[1]), index + 3
    if rest[:1] == [2] and len(rest) >= 4:
        return _rgb(rest[1], rest[2], rest[3]), index + 5
    return None, len(params)  # malformed: ignore the rest of this sequence


def _index_color(value: int) -> Color | None:
    return value if 0 <= value <= 255 else None


def _rgb(red: int, green: int, blue: int) -> Color | None:
    if all(0 <= v <= 255 for v in (red, green, blue)):
        return (red, green, blue)
    return None


def _parse_params(raw: str) -> list[list[int]]:
    """'1;38:2::255:0:0' -> [[1], [38, 2, 0, 255, 0, 0]]; empty parameters mean 0."""
    params: list[list[int]] = []
    for param in raw.split(";"):
        values = []
        for piece in param.split(":"):
            values.append(int(piece[:6]) if piece else 0)
        params.append(values)
    return params


@lru_cache(maxsize=4096)
def apply_sgr(style: SgrStyle, raw_params: str) -> SgrStyle:
    """The style after the SGR sequence with parameters `raw_params` (e.g. '1;31').

    Cached: coloured output repeats the same few sequences thousands of times.
    """
    params = _parse_params(raw_params)
    index = 0
    while index < len(params):
        code = params[index][0]
        if code == 0:
            style = _PLAIN
        elif code in (38, 48):
            color, index = _extended_color(params, index)
            if color is not None:
                style = replace(style, fg=color) if code == 38 else replace(style, bg=color)
            continue
        elif code == 4 and len(params[index]) > 1:  # 4:0 none, 4:1..5 underline styles
            style = replace(style, underline=params[index][1] != 0)
        elif code in _SET:
            style = replace(style, **{_SET[code]: True})
        elif code in _UNSET:
            style = replace(style, **dict.fromkeys(_UNSET[code], False))
        elif 30 <= code <= 37:
            style = replace(style, fg=code - 30)
        elif 90 <= code <= 97:
            style = replace(style, fg=code - 90 + 8)
        elif code == 39:
            style = replace(style, fg=None)
        elif 40 <= code <= 47:
            style = replace(style, bg=code - 40)
        elif 100 <= code <= 107:
            style = replace(style, bg=code - 100 + 8)
        elif code == 49:
            style = replace(style, bg=None)
        index += 1
    return style


def sgr_spans(text: str) -> list[tuple[str, SgrStyle]]:
    """Split `text` into cleaned runs with the SGR style each one carries.

    SGR sequences become styles (16, 256 and truecolour; bold, dim, italic,
    underline, blink, reverse, strike); every other character is cleaned as by
    `clean()`. Adjacent runs with the same style are merged; empty runs dropped.
    """
    if _UNSAFE.search(text) is None:
        return [(text, _PLAIN)] if text else []
    if "\x1b" not in text:
        return [(_clean_controls(text), _PLAIN)]
    runs: list[tuple[list[str], SgrStyle]] = []
    style = _PLAIN
    position = 0
    for match in _SGR.finditer(text):
        _add_run(runs, text[position : match.start()], style)
        style = apply_sgr(style, match.group(1))
        position = match.end()
    _add_run(runs, text[position:], style)
    return [(_clean_controls("".join(pieces)), run_style) for pieces, run_style in runs]


def _add_run(runs: list[tuple[list[str], SgrStyle]], chunk: str, style: SgrStyle) -> None:
    """Append raw `chunk` to the last run if it has the same style (no quadratic concat)."""
    if not chunk:
        return
    if runs and runs[-1][1] == style:
        runs[-1][0].append(chunk)
    else:
        runs.append(([chunk], style))


# In JSON, these may only appear inside strings, so escaping them keeps the JSON valid
# and equal while no raw C1 control or bidi/invisible character reaches a terminal.
_JSON_UNSAFE = re.compile(f"[{_C1}{_INVISIBLE}]")


def json_inert(encoded: str) -> str:
    """Escape C1 controls and invisible/bidi characters in already-encoded JSON text."""
    if _JSON_UNSAFE.search(encoded) is None:
        return encoded
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)
