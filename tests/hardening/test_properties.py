"""Properties of clean() over arbitrary strings (hypothesis)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.text.safe import clean
from pivotal.text.sgr import sgr_spans

FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)

# Text biased towards the interesting characters, plus anything at all.
_INTERESTING = st.sampled_from(
    list("\x1b\x07\x00\r\n\t\x9b\x9d\x9c\u202e\u2066\u200b\ufeff\ud800\udc00[]m;:0123456789PX\\]")
)
ANY_TEXT = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec=None)),
    st.lists(st.one_of(_INTERESTING, st.characters())).map("".join),
    st.lists(
        st.sampled_from(
            ["\x1b[", "\x1b]", "31", "38;5;", "38;2;", ":", ";", "m", "\x07", "a", "\r"]
        )
    ).map("".join),
)


@settings(max_examples=500, deadline=None)
@given(ANY_TEXT)
def test_clean_output_has_no_control_or_bidi(text: str) -> None:
    out = clean(text)
    assert FORBIDDEN.search(out) is None


@settings(max_examples=500, deadline=None)
@given(ANY_TEXT)
def test_clean_is_idempotent(text: str) -> None:
    once = clean(text)
    assert clean(once) == once


@settings(max_examples=300, deadline=None)
@given(ANY_TEXT)
def test_sgr_spans_is_clean_and_agrees_with_clean(text: str) -> None:
    spans = sgr_spans(text)
    joined = "".join(chunk for chunk, _ in spans)
    assert FORBIDDEN.search(joined) is None
    assert all(chunk for chunk, _ in spans)
    # Only where runs split a \r\n pair can the two differ.
    if "\r" not in text:
        assert joined == clean(text)


@settings(max_examples=200, deadline=None)
@given(ANY_TEXT, st.integers(min_value=0, max_value=50))
def test_max_len_bounds_the_source_kept(text: str, max_len: int) -> None:
    out = clean(text, max_len=max_len)
    assert FORBIDDEN.search(out) is None
    if len(text) > max_len:
        more = len(text) - max_len
        assert out.endswith(f"… ({more:,} more character{'s' if more != 1 else ''})")
    else:
        assert out == clean(text)
