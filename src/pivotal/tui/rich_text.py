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

from collections.abc import Callable
from functools import lru_cache

from rich.color import Color as RichColor
from rich.style import Style
from rich.text import Text

from pivotal.text.safe import clean, truncation_marker
from pivotal.text.sgr import Color, SgrStyle, sgr_spans

__all__ = ["rich_style", "runs_text", "safe_text"]


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


def runs_text(
    runs: list[tuple[str, SgrStyle]],
    *,
    style: str | Style = "",
    limit: int | None = None,
    adjust: Callable[[Style], Style] | None = None,
) -> Text:
    """Cleaned SGR runs (`sgr_spans`) as a `Text`: at most `limit` characters of them, each
    run's colours as a style (`adjust`ed, e.g. made readable on a background)."""
    result = Text(style=style, end="")
    left = limit
    for chunk, sgr in runs:
        if left is not None:
            if left <= 0:
                break
            chunk = chunk[:left]
            left -= len(chunk)
        colours = None if sgr.plain else rich_style(sgr)
        if colours is not None and adjust is not None:
            colours = adjust(colours)
        result.append(chunk, colours)
    return result


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
        result = runs_text(sgr_spans(text), style=style)
    if more:
        result.append(more, "dim")
    return result
