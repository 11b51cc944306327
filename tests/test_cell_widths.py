"""Fixed-width columns are counted in terminal cells, not characters: a Chinese, Japanese or
Korean character takes two cells, so a row whose project is `…자동화 도구/safeAutoTest` pushed
every column after it out of line (the picker by 2 cells, `pivotal stats` by 5). One measure
(`pivotal.text.fit.cells`, the one `pivotal sessions` already lined up with) and one way to
cut: in cells, never through a wide character, never wider than the column.
"""

from __future__ import annotations

import unicodedata

import pytest
from rich.cells import cell_len

from pivotal.text.fit import cells, clip, clip_start, pad
from pivotal.text.project import project_cell
from pivotal.text.safe import clean_line

KOREAN = "/Users/mina/Desktop/16. 자동화 도구/safeAutoTest"
"""A project two folders of which are Korean (28 cells, 23 characters, once shortened)."""

SCRIPTS = [
    "16. 자동화 도구/safeAutoTest",
    unicodedata.normalize("NFD", "16. 자동화 도구/safeAutoTest"),  # as macOS names folders
    "修复登录页面的布局问题",
    "テストを書く",
    "ﾃｽﾄ ｶﾀｶﾅ",  # half-width katakana: one cell each
    "ＡＢＣ１２３",  # full-width Latin: two each
    "café cafe\u0301 naïve",  # a combining accent takes no cell
    "✅ done 🚀",
    "𠀀𠀁 (plane 2)",
]


@pytest.mark.parametrize("text", SCRIPTS)
def test_cells_counts_what_the_screen_draws(text: str) -> None:
    """The same count as Rich (which draws the replayer): decomposed Hangul (a jamo vowel or
    final consonant joins the syllable before it) takes 2 cells a syllable, not 3."""
    shown = clean_line(text)
    assert cells(shown) == cell_len(shown)


def test_a_korean_project_is_cut_to_its_column_keeping_its_end() -> None:
    cell = project_cell(KOREAN, 24)
    assert cell == "…동화 도구/safeAutoTest"  # 23 cells: the next 자 would make 25
    assert cells(cell) == 23
    assert project_cell(KOREAN, 40) == "16. 자동화 도구/safeAutoTest"  # 28 cells fit


@pytest.mark.parametrize("width", range(1, 30))
def test_a_cut_never_splits_a_wide_character_or_passes_its_width(width: int) -> None:
    for text in [*SCRIPTS, KOREAN]:
        for cut in (clip(text, width), clip_start(text, width), project_cell(text, width)):
            assert cells(cut) <= width, (cut, width)
            full = min(width, cells(text))  # short of it by at most half a wide character
            assert cells(cut) >= full - 1, (cut, width)
        assert clip(text, width) == text or clip(text, width).endswith("…")
        assert text.startswith(clip(text, width).removesuffix("…"))
        assert text.endswith(clip_start(text, width).removeprefix("…"))


def test_clip_and_pad() -> None:
    assert clip("修复登录页面", 7) == "修复登…"
    assert clip("修复登录页面", 6) == "修复…"  # 5 cells: a half 登 is not drawn
    assert clip_start("修复登录页面", 6) == "…页面" and clip_start("修复登录页面", 4) == "…面"
    assert clip("abc", 3) == "abc" and clip("abcd", 3) == "ab…" and clip("abcd", 0) == ""
    assert pad("修复", 6) == "修复  " and pad("修复", 6, right=True) == "  修复"
    assert pad("修复登录", 6) == "修复登录"  # pad never cuts: clip does
