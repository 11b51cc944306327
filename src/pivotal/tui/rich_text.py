"""Untrusted session text as Rich renderables: colour kept, control never passed on.

Everything here goes through `pivotal.text.safe`: `safe_text` builds a
`rich.text.Text` span by span from `sgr_spans`, so a tool's SGR colours (Claude
Code's `/context` bar, coloured test output) survive as Rich styles while every
other escape is shown as visible characters. It never calls `Text.from_markup`
(session text is full of `[brackets]`) nor `Text.from_ansi` on raw input (Rich's
ANSI decoder is built for trusted program output, not for hostile text). Markdown
is shown as written, styled, by `markdown_source`.

May import Rich, never Textual: the CLI's human-readable output uses it too.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color as RichColor
from rich.style import Style
from rich.text import Text

from pivotal.text.safe import clean, truncation_marker
from pivotal.text.sgr import Color, SgrStyle, sgr_spans

__all__ = ["rich_style", "safe_text"]


def _rich_color(color: Color | None) -> RichColor | None:
    if color is None:
        return None
    if isinstance(color, int):
        return RichColor.from_ansi(color)
    return RichColor.from_rgb(*color)


@lru_cache(maxsize=1024)
def rich_style(sgr: SgrStyle) -> Style:
    """The Rich style for one SGR state (only attributes that are on are set)."""
    return Style(
        color=_rich_color(sgr.fg),
        bgcolor=_rich_color(sgr.bg),
        bold=sgr.bold or None,
        dim=sgr.dim or None,
        italic=sgr.italic or None,
        underline=sgr.underline or None,
        blink=sgr.blink or None,
        reverse=sgr.reverse or None,
        strike=sgr.strike or None,
    )


def safe_text(
    text: str, *, style: str | Style = "", keep_colour: bool = True, max_len: int | None = None
) -> Text:
    """A `Text` showing `text` literally, with its SGR colours as styles when `keep_colour`.

    `style` is the base style of the whole text; `max_len` cuts long text (see `clean`).
    """
    more = ""
    if max_len is not None and len(text) > max_len:
        more = truncation_marker(len(text) - max_len)
        text = text[:max_len]
    if not keep_colour:
        result = Text(clean(text), style=style, end="")
    else:
        result = Text(style=style, end="")
        for chunk, sgr in sgr_spans(text):
            result.append(chunk, None if sgr.plain else rich_style(sgr))
    if more:
        result.append(more, "dim")
    return result
