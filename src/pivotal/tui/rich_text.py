"""Untrusted session text as Rich renderables: colour kept, control never passed on.

Everything here goes through `pivotal.text.safe`: `safe_text` builds a
`rich.text.Text` span by span from `sgr_spans`, so a tool's SGR colours (Claude
Code's `/context` bar, coloured test output) survive as Rich styles while every
other escape is shown as visible characters. It never calls `Text.from_markup`
(session text is full of `[brackets]`) nor `Text.from_ansi` on raw input (Rich's
ANSI decoder is built for trusted program output, not for hostile text).

May import Rich, never Textual: the CLI's human-readable output uses it too.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rich.color import Color as RichColor
from rich.style import Style
from rich.text import Text

from pivotal.text.safe import clean, truncation_marker
from pivotal.text.sgr import Color, SgrStyle, sgr_spans

if TYPE_CHECKING:  # Rich's own Markdown parser (a dependency of Rich, not of pivotal)
    from markdown_it.token import Token
    from rich.markdown import Markdown

__all__ = [
    "literal_html_markdown",
    "rich_style",
    "safe_markdown",
    "safe_markdown_source",
    "safe_text",
]


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


def safe_markdown_source(text: str) -> str:
    """`text` cleaned for Rich's Markdown renderer: no raw escapes, no OSC 8 links, no colour.

    Markdown does not interpret Rich markup, so brackets are left alone; SGR is
    dropped (Markdown cannot carry it) and every other control is made visible.
    """
    return clean(text)


@lru_cache(maxsize=1)
def _literal_html_markdown() -> type[Markdown]:
    """The class, made on first use: importing rich.markdown (and Pygments) costs ~25 ms,
    which the replayer's first screen (one human turn) does not need to pay."""
    from rich.markdown import Markdown

    class LiteralHtmlMarkdown(Markdown):
        """Rich `Markdown` that shows raw HTML and comments as the text they are.

        Rich drops `html_inline` and `html_block` tokens, so `<img src=x>` or a
        `<!-- comment -->` in an agent's message would be hidden from the reader:
        here an inline tag becomes plain text and a block becomes a code block.
        """

        def __init__(self, markup: str, **options: object) -> None:
            super().__init__(markup, **options)  # type: ignore[arg-type]
            _literal_html(self.parsed)

    return LiteralHtmlMarkdown


def literal_html_markdown(markup: str, **options: object) -> Markdown:
    """A Rich `Markdown` of `markup` that shows raw HTML and comments as text."""
    return _literal_html_markdown()(markup, **options)


def __getattr__(name: str) -> object:
    if name == "LiteralHtmlMarkdown":  # the class, for `isinstance` and subclasses
        return _literal_html_markdown()
    raise AttributeError(name)


def _literal_html(tokens: list[Token]) -> None:
    for token in tokens:
        if token.type == "html_block":
            token.type, token.tag, token.info = "code_block", "code", ""
        elif token.type == "html_inline":
            token.type = "text"
        if token.children:
            _literal_html(token.children)


def safe_markdown(text: str, **options: object) -> Markdown:
    """A Rich `Markdown` of untrusted `text`, with link targets shown instead of hidden.

    Rich turns Markdown links into OSC 8 terminal hyperlinks by default, so a
    session could show "docs" and link anywhere; `hyperlinks=False` prints the URL.
    """
    options.setdefault("hyperlinks", False)
    return literal_html_markdown(safe_markdown_source(text), **options)
