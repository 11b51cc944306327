"""clean() and sgr_spans(): every control shown as text, colour kept only as data."""

from __future__ import annotations

import time

import pytest

from pivotal.text.safe import clean, needs_cleaning
from pivotal.text.sgr import SgrStyle, apply_sgr, sgr_spans

from .conftest import C1_RE, HOSTILE


@pytest.mark.parametrize(("name", "text", "visible"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_sequence_is_visible_and_inert(name: str, text: str, visible: str) -> None:
    out = clean(text)
    assert "\x1b" not in out
    assert "\x07" not in out
    assert "\x00" not in out
    assert C1_RE.search(out) is None
    assert visible in out


def test_plain_text_is_returned_unchanged() -> None:
    text = "def f(x):\n\treturn [bold]x[/bold]  # ünïcødé 🎉\n"
    assert clean(text) == text
    assert not needs_cleaning(text)


def test_sgr_is_removed_not_shown() -> None:
    assert clean("\x1b[1;31merror\x1b[0m: \x1b[38;5;208mx\x1b[m") == "error: x"


def test_crlf_becomes_newline_but_lone_cr_is_visible() -> None:
    assert clean("a\r\nb\rc\n") == "a\nb␍c\n"


def test_tab_and_newline_are_kept() -> None:
    assert clean("a\tb\nc\x0bd\x0ce") == "a\tb\nc␋d␌e"


def test_rich_markup_brackets_are_left_as_text() -> None:
    text = "[bold red]x[/] [link=https://e.example]y[/link]"
    assert clean(text) == text


def test_max_len_cuts_and_says_how_much() -> None:
    out = clean("a" * 1000, max_len=10)
    assert out == "a" * 10 + "… (990 more characters)"
    assert clean("abc", max_len=10) == "abc"


def test_max_len_cut_inside_an_escape_leaves_it_visible() -> None:
    out = clean("ab\x1b]0;title\x07", max_len=4)
    assert "\x1b" not in out and out.startswith("ab␛]")


def test_sgr_spans_basic_colours() -> None:
    spans = sgr_spans("\x1b[31mred\x1b[0m plain \x1b[1;92mbright\x1b[22m not bold")
    assert spans == [
        ("red", SgrStyle(fg=1)),
        (" plain ", SgrStyle()),
        ("bright", SgrStyle(fg=10, bold=True)),
        (" not bold", SgrStyle(fg=10)),
    ]


def test_sgr_spans_256_and_truecolour_both_syntaxes() -> None:
    spans = sgr_spans(
        "\x1b[38;5;208ma\x1b[48;2;1;2;3mb\x1b[38:2::4:5:6mc\x1b[38:5:99md\x1b[39;49me"
    )
    assert spans == [
        ("a", SgrStyle(fg=208)),
        ("b", SgrStyle(fg=208, bg=(1, 2, 3))),
        ("c", SgrStyle(fg=(4, 5, 6), bg=(1, 2, 3))),
        ("d", SgrStyle(fg=99, bg=(1, 2, 3))),
        ("e", SgrStyle()),
    ]


def test_sgr_spans_attributes_and_resets() -> None:
    style = apply_sgr(SgrStyle(), "1;2;3;4;5;7;9")
    assert style == SgrStyle(
        bold=True, dim=True, italic=True, underline=True, blink=True, reverse=True, strike=True
    )
    assert apply_sgr(style, "22;23;24;25;27;29") == SgrStyle()
    assert apply_sgr(style, "") == SgrStyle()
    assert apply_sgr(SgrStyle(), "4:3") == SgrStyle(underline=True)
    assert apply_sgr(SgrStyle(underline=True), "4:0") == SgrStyle()


def test_sgr_spans_malformed_colours_are_ignored() -> None:
    assert apply_sgr(SgrStyle(), "38;5;999") == SgrStyle()
    assert apply_sgr(SgrStyle(), "38;2;1") == SgrStyle()
    assert apply_sgr(SgrStyle(), "38;5") == SgrStyle()
    assert apply_sgr(SgrStyle(), "38:2") == SgrStyle()
    assert apply_sgr(SgrStyle(), "38;9;1;31") == SgrStyle()
    assert apply_sgr(SgrStyle(), "99999999999999999999") == SgrStyle()


def test_sgr_spans_clean_everything_else() -> None:
    spans = sgr_spans("\x1b[32mok\x1b]0;pwned\x07\x1b[2J\u202e\x1b[0m")
    assert spans == [("ok␛]0;pwned␇␛[2J⟨U+202E⟩", SgrStyle(fg=2))]


def test_sgr_spans_merges_runs_and_drops_empty() -> None:
    assert sgr_spans("\x1b[31m\x1b[0ma\x1b[0mb\x1b[31m") == [("ab", SgrStyle())]
    assert sgr_spans("") == []
    assert sgr_spans("plain") == [("plain", SgrStyle())]


def test_claude_code_context_bar_keeps_its_colours() -> None:
    # Shape of Claude Code's /context output: coloured block glyphs, one colour per category.
    bar = (
        "\x1b[38;2;136;136;136m⛁ \x1b[38;2;153;153;153m⛁ ⛁ \x1b[39m\x1b[38;2;215;119;87m⛀ "
        "\x1b[39m\x1b[38;2;153;153;153m⛶ ⛶ \x1b[39m  \x1b[1mContext Usage\x1b[22m"
    )
    spans = sgr_spans(bar)
    assert "".join(chunk for chunk, _ in spans) == "⛁ ⛁ ⛁ ⛀ ⛶ ⛶   Context Usage"
    colours = [style.fg for _, style in spans]
    assert (136, 136, 136) in colours and (215, 119, 87) in colours
    assert ("Context Usage", SgrStyle(bold=True)) in spans


def test_megabyte_of_plain_text_is_fast() -> None:
    text = ("The quick brown fox jumps over the lazy dog. " * 25_000)[: 1 << 20]
    start = time.perf_counter()
    for _ in range(5):
        assert clean(text) is text
        assert sgr_spans(text) == [(text, SgrStyle())]
    assert time.perf_counter() - start < 1.0


def test_megabyte_of_hostile_text_is_bounded() -> None:
    text = ("\x1b[31mred\x1b[0m \x1b]0;t\x07 \u202e\x00 é " * 30_000)[: 1 << 20]
    start = time.perf_counter()
    out = clean(text)
    spans = sgr_spans(text)
    assert time.perf_counter() - start < 3.0
    assert "\x1b" not in out and all("\x1b" not in chunk for chunk, _ in spans)
