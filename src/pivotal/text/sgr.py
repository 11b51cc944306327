"""SGR colour as data: which colours and attributes a tool's escape sequences set.

`sgr_spans()` splits text into cleaned runs, each with the `SgrStyle` its SGR
sequences left in effect (16, 256 and truecolour; bold, dim, italic,
underline, blink, reverse, strike), so the replayer can show a tool's colours
without ever sending its escapes to the terminal. Everything that is not SGR is
cleaned exactly as `pivotal.text.safe.clean()` does. Kept apart from `safe`
because only the replayer needs it (its dataclass would cost every scan ~1 ms).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from pivotal.text.safe import _clean_controls, needs_cleaning
from pivotal.text.unsafe import SGR

__all__ = ["Color", "SgrStyle", "apply_sgr", "sgr_spans"]

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
    if not needs_cleaning(text):
        return [(text, _PLAIN)] if text else []
    if "\x1b" not in text:
        return [(_clean_controls(text), _PLAIN)]
    runs: list[tuple[list[str], SgrStyle]] = []
    style = _PLAIN
    position = 0
    for match in SGR.finditer(text):
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
