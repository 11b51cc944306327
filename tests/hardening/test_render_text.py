"""safe_text / markdown_text: what reaches a real (forced) terminal is text plus SGR only."""

from __future__ import annotations

import io
import re

import pytest
from rich.color import Color
from rich.console import Console
from rich.text import Text

from pivotal.text.safe import clean
from pivotal.tui.markdown_source import markdown_text
from pivotal.tui.rich_text import safe_text

from .conftest import C1_RE, HOSTILE, SGR_RE


def render(renderable: object) -> str:
    """What a truecolour terminal would receive."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="truecolor", width=120)
    console.print(renderable)
    return out.getvalue()


def assert_only_sgr(output: str) -> None:
    """The terminal gets printable text and SGR colour, nothing else."""
    rest = SGR_RE.sub("", output)
    assert "\x1b" not in rest
    assert "\x07" not in rest
    assert C1_RE.search(rest) is None


@pytest.mark.parametrize(("name", "text", "visible"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_text_reaches_terminal_as_text(name: str, text: str, visible: str) -> None:
    for keep in (True, False):
        rendered = safe_text(text, keep_colour=keep)
        assert visible in rendered.plain
        assert_only_sgr(render(rendered))


@pytest.mark.parametrize(("name", "text", "visible"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_markdown_reaches_terminal_as_text(name: str, text: str, visible: str) -> None:
    source = clean(f"# Title\n\nsome `code` and *{text}*\n\n```python\n{text}\n```\n")
    assert "\x1b" not in source
    shown = markdown_text(source)
    assert shown.plain == source
    assert_only_sgr(render(shown))


def test_colour_is_kept_as_style() -> None:
    text = safe_text("\x1b[31merror\x1b[0m: \x1b[1;38;2;10;20;30mdeep\x1b[0m")
    assert text.plain == "error: deep"
    styles = {text.plain[span.start : span.end]: span.style for span in text.spans}
    assert styles["error"].color == Color.from_ansi(1)
    assert styles["deep"].bold is True
    assert styles["deep"].color == Color.from_rgb(10, 20, 30)
    assert ": " not in styles


def test_keep_colour_false_drops_colour() -> None:
    text = safe_text("\x1b[31merror\x1b[0m", keep_colour=False, style="bold")
    assert text.plain == "error"
    assert text.spans == []
    assert text.style == "bold"


def test_rich_markup_is_never_interpreted() -> None:
    markup = "[bold]not bold[/bold] [link=https://evil.example]x[/link] [red]"
    text = safe_text(markup)
    assert text.plain == markup
    assert text.spans == []
    output = render(text)
    assert "]8;" not in output  # no hyperlink was emitted
    assert markup in output


def test_markdown_links_show_their_target() -> None:
    output = render(markdown_text("see [the docs](https://evil.example/steal)"))
    assert "]8;" not in output
    assert "https://evil.example/steal" in SGR_RE.sub("", output)


def test_max_len_marks_the_cut() -> None:
    # max_len counts source characters: the 5-character SGR prefix is part of the budget.
    text = safe_text("\x1b[32m" + "x" * 100, max_len=10)
    assert text.plain == "x" * 5 + "… (95 more characters)"
    assert text.spans[0].style.color == Color.from_ansi(2)


def test_result_is_a_plain_text_object() -> None:
    assert isinstance(safe_text("a"), Text)
    assert re.fullmatch(r"a\n", SGR_RE.sub("", render(safe_text("a"))))
