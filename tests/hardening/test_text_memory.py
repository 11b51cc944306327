"""Cleaning a huge text costs about its result, whatever the text holds (issue 34).

A regex substitution keeps one object per piece it cuts before joining them; on
a tool output of a few MB dense with colour escapes, stray variation selectors or
zero-width characters that was 6 to 30 times the text, for every export and every
cleaned field. The text is now worked on in pieces, and the pieces must join
exactly where they were cut.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

from pivotal.text.safe import clean, json_inert

ESC = "\x1b"


def bound(result_bytes: int) -> int:
    """The result twice (its pieces, then them joined) and one piece's work (64 Ki characters
    with a match every few: a few MB)."""
    return 2 * result_bytes + 3_000_000


def peak_of(work: Callable[[str], str], text: str) -> tuple[str, int]:
    tracemalloc.start()
    try:
        result = work(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_dense_colour_escapes_are_dropped_in_pieces_that_join_exactly() -> None:
    # sequences of varied length, so some straddle every place a piece could end
    words = [f"w{n}" + "x" * (n % 7) for n in range(100_000)]
    text = "".join(f"{ESC}[{n % 108};{n % 256}m{word} " for n, word in enumerate(words))
    result, peak = peak_of(clean, text)
    assert result == "".join(f"{word} " for word in words)
    assert peak <= 1.5 * len(text), f"peak {peak / len(text):.1f} times the text"


def test_stray_selectors_are_shown_in_pieces_judged_with_their_neighbours() -> None:
    # a selector after a letter is shown; after an emoji it stays; pieces must not
    # lose the character before a selector that starts one of them
    unit = "a\ufe0f\u2764\ufe0f"
    text = unit * 100_000
    result, peak = peak_of(clean, text)
    assert result == "a⟨U+FE0F⟩\u2764\ufe0f" * 100_000
    assert peak <= bound(2 * len(result)), f"peak {peak / (2 * len(result)):.1f} times the result"


def test_json_inert_escapes_invisible_characters_in_pieces() -> None:
    text = '{"t": "' + "ab\u200b" * 300_000 + '"}'
    result, peak = peak_of(json_inert, text)
    assert result == '{"t": "' + "ab\\u200b" * 300_000 + '"}'
    assert peak <= bound(len(result)), f"peak {peak / len(result):.1f} times the result"
