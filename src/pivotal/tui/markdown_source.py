"""Markdown shown as written: every character kept, styled by what Markdown makes of it.

The replayer showed an agent's Markdown through Rich's renderer, which drops what
it parses: `{{7*7}}` lost its asterisks to emphasis, `C:\\Users\\me\\_cfg` a
backslash to an escape, `&amp;` became `&`, a reference definition
(`[1]: https://…`) vanished, link targets were rewritten and single line breaks
were joined (issue 34). A replayer shows what the agent wrote, as every export
does, so the text here is the source itself and Markdown only adds style:
headings, strong, emphasis and struck text with their markers, code spans with
their backticks, fenced code highlighted between its fences, list and quote
markers, links and rules. A guess that styles too much (`2*3*4` is not
emphasis here, but Markdown would say it is) costs a style, never a character.

The caller cleans the text first (`safe.clean`); nothing here interprets markup.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rich.style import Style
from rich.text import Span, Text

__all__ = ["markdown_text"]

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?=\s|$)")
_QUOTE = re.compile(r"^ {0,3}(?:> ?)+")
_ITEM = re.compile(r"^\s*(?:([-*+])|(\d{1,9}[.)]))(?=\s)")
_RULE = re.compile(r"^ {0,3}([-*_])(?: *\1){2,} *$")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")
_INLINE = [
    # strong, then emphasis: a marker opens at the start of a word and closes at its end,
    # so `2*3*4`, `{{7*7}}` and snake_case stay unstyled
    (re.compile(r"(?<![\w*])\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*(?![\w*])"), "markdown.strong"),
    (re.compile(r"(?<![\w_])__(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])"), "markdown.strong"),
    (re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"), "markdown.em"),
    (re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])"), "markdown.em"),
    (re.compile(r"(?<!~)~~(?=\S)(.+?)(?<=\S)~~(?!~)"), "markdown.s"),
    (re.compile(r"!?\[[^\]\n]*\]\([^)\n]*\)"), "markdown.link"),
    (re.compile(r"<(?:https?|ftp|mailto):[^>\s]*>"), "markdown.link_url"),
]
_MARKER = Style(dim=True)


def markdown_text(source: str, *, code_theme: str = "monokai", style: str | Style = "") -> Text:
    """`source` as a `Text` with exactly its characters, styled as Markdown reads them."""
    text = Text(source, style=style, end="")
    spans = text.spans
    lines = source.split("\n")
    offset = 0
    fence: tuple[str, int, str] | None = None  # (character, length, language) of an open fence
    code: list[str] = []
    code_start = 0
    for line in lines:
        end = offset + len(line)
        if fence is not None:
            closing = _FENCE.match(line)
            char, length, language = fence
            if closing and closing.group(2)[0] == char and len(closing.group(2)) >= length:
                if not closing.group(3).strip():
                    _code(spans, "\n".join(code), code_start, language, code_theme)
                    spans.append(Span(offset, end, _MARKER))
                    fence, code = None, []
                    offset = end + 1
                    continue
            code.append(line)
            offset = end + 1
            continue
        opening = _FENCE.match(line)
        if opening and not (opening.group(2)[0] == "`" and "`" in opening.group(3)):
            info = opening.group(3).strip().split()
            fence = (opening.group(2)[0], len(opening.group(2)), info[0] if info else "")
            spans.append(Span(offset, end, _MARKER))
            code_start = end + 1
            offset = end + 1
            continue
        _line(spans, line, offset)
        offset = end + 1
    if fence is not None and code:  # a fence left open runs to the end, as in Markdown
        _code(spans, "\n".join(code), code_start, fence[2], code_theme)
    return text


def _line(spans: list[Span], line: str, offset: int) -> None:
    """Block markers of one line outside code, then its inline styles."""
    if _RULE.match(line):
        spans.append(Span(offset, offset + len(line), "markdown.hr"))
        return
    heading = _HEADING.match(line)
    if heading:
        level = len(heading.group(1))
        spans.append(Span(offset, offset + len(line), f"markdown.h{level}"))
        spans.append(Span(offset, offset + heading.end(), _MARKER))
        _inline(spans, line, offset, heading.end())
        return
    start = 0
    quote = _QUOTE.match(line)
    if quote:
        spans.append(Span(offset, offset + quote.end(), "markdown.block_quote"))
        start = quote.end()
    item = _ITEM.match(line, start)
    if item:
        kind = "markdown.item.bullet" if item.group(1) else "markdown.item.number"
        spans.append(Span(offset + item.start(item.lastindex), offset + item.end(), kind))
        start = item.end()
    _inline(spans, line, offset, start)


def _inline(spans: list[Span], line: str, offset: int, start: int) -> None:
    """Code spans, then strong, emphasis, struck text and links in the text between them."""
    position = start
    for match in _CODE_SPAN.finditer(line, start):
        _styles(spans, line[position : match.start()], offset + position)
        spans.append(Span(offset + match.start(), offset + match.end(), "markdown.code"))
        position = match.end()
    _styles(spans, line[position:], offset + position)


def _styles(spans: list[Span], piece: str, offset: int) -> None:
    if not piece:
        return
    for pattern, style in _INLINE:
        for match in pattern.finditer(piece):
            spans.append(Span(offset + match.start(), offset + match.end(), style))


def _code(spans: list[Span], code: str, offset: int, language: str, theme: str) -> None:
    """Fenced code highlighted by its language (Pygments), or in the code block style."""
    highlighted = _highlighter(language, theme)
    if highlighted is None:
        spans.append(Span(offset, offset + len(code), "markdown.code_block"))
        return
    for span in highlighted(code).spans:
        if span.start < len(code):
            spans.append(Span(offset + span.start, offset + min(span.end, len(code)), span.style))


@lru_cache(maxsize=64)
def _highlighter(language: str, theme: str):  # type: ignore[no-untyped-def]
    """`Syntax.highlight` for a fence's language, or None when Pygments does not know it."""
    if not language:
        return None
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    from rich.syntax import Syntax

    try:
        lexer = get_lexer_by_name(language)
    except ClassNotFound:
        return None
    syntax = Syntax("", lexer, theme=theme, background_color="default")
    return syntax.highlight
