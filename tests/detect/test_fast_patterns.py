"""Patterns rewritten to fail fast match exactly what their plain forms matched.

Each plain form below is the pattern as it was before the rewrite; the rules
use the matched text, groups and positions, so all of them must agree.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.detect import figures, phase, signals_before

PLAIN_FIGURE = re.compile(
    r"(?<![\w.])(~|≈)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(" + figures._UNITS + r")(?![\w/])"
)
PLAIN_IDENT = re.compile(
    r"\b[A-Za-z][a-z0-9]*(?:[_.][A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z]{2,}[0-9]*\b"
)
PLAIN_QUESTION = re.compile(r"[^.!?\n]*\?(?=\s|$)")
PLAIN_CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)

TEXTS = [
    "Throughput went from 54.1 tok/s to ~82 tok/s (1,234 req/s, 38%, 2.5x faster, 8x RTX).",
    "p50 30 ms / p99 120ms; 53 GB/s; 12.5 µs/step; 3 s; 5 minutes; ≈0.8 s; v1.2.3 10.0.0.1",
    "Edit src/pivotal/detect/figures.py: FIGURE, has_results() and snake_case_name in dotted.mod",
    "camelCase parseHTTPResponse HTTP2 CUDA_VISIBLE_DEVICES a.b_ foo. x.y.z. über.café ÉTÉ",
    "Shall I go ahead? Or would you like the other plan?\nWhat next?? ok.? done! why?x end?",
    # other scripts' digits are digits to \d; a non-ASCII character before a number
    "٣٤ ms, x٣ ms, →12 ms, 7710→import, ≈٣.5 s, é5 ms, ~≈4 ms, 5≈3 ms, ≈ 4 ms, ~.5 ms",
    "",
]
PIECES = st.sampled_from(
    list("aAzZ09_.,~≈ ?!\n\t/%xé٣→")
    + ["tok/s", " ms", "GB", "1,234", "3.5", " s", "x faster", "foo.bar", "camelCase", "HTTP2"]
    + ["hello2", "HTTPServer", "a_b", "abc", " ÉTÉ", "_x"]
)


def _plain_figures(text: str) -> list[tuple[object, ...]]:
    return [
        (m.span(), (m.group(1) or "", m.group(2), m.group(3))) for m in PLAIN_FIGURE.finditer(text)
    ]


def _figures(text: str) -> list[tuple[object, ...]]:
    """What the rules read of each figure: where it is, its sign, number and unit."""
    return [(m.span(), figures.figure_parts(m)) for m in figures.FIGURE.finditer(text)]


def test_rewritten_patterns_agree_on_examples() -> None:
    for text in TEXTS:
        assert _figures(text) == _plain_figures(text), text
        assert phase.identifiers(text) == PLAIN_IDENT.findall(text), text
        assert signals_before._QUESTION.findall(text) == PLAIN_QUESTION.findall(text), text
    assert figures.figures(TEXTS[0]) == ["54.1 tok/s", "~82 tok/s", "1,234 req/s", "38%", "2.5x"]


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(PIECES, max_size=30))
def test_rewritten_patterns_agree_on_generated_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _figures(text) == _plain_figures(text)
    assert phase.identifiers(text) == PLAIN_IDENT.findall(text)
    assert signals_before._QUESTION.findall(text) == PLAIN_QUESTION.findall(text)


def test_figures_memo_gives_a_prefix_for_smaller_limits() -> None:
    text = " ".join(f"{n} ms" for n in range(1, 30)) + " 1.5 s"
    assert figures.figures(text, 12) == [f"{n} ms" for n in range(1, 13)]
    assert figures.figures(text, 4) == [f"{n} ms" for n in range(1, 5)]
    assert figures.figures(text, 40)[-1] == "1.5 s"  # beyond what is kept: found afresh


CODE_TEXTS = [
    "Run it:\n```bash\npytest -q\n```\nThen look at the output.",
    "```\nunclosed fence\n",
    "``````",
    "`````",
    "a ```b``` c ```d",
    "```\n",
    "no fences at all, `inline` only",
    "x```\n\n```\n\n```y\n",
]
FENCE_PIECES = st.sampled_from(["`", "``", "```", "\n", "a", " ", "```py\n", "\n\n"])


def test_code_blocks_are_cut_where_the_plain_pattern_cut_them() -> None:
    for text in CODE_TEXTS:
        assert figures.without_code(text) == PLAIN_CODE_BLOCK.sub("", text), text
    assert figures.without_code(CODE_TEXTS[0]) == "Run it:\n\nThen look at the output."
    assert figures.without_code(CODE_TEXTS[1]) == "\n"  # `$` stops before a final newline


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(FENCE_PIECES, max_size=20))
def test_code_blocks_agree_on_generated_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert figures.without_code(text) == PLAIN_CODE_BLOCK.sub("", text)


def test_a_question_mark_alone_is_a_proposal() -> None:
    # proposal_signal skips the search when the person's text has a "?": that holds only
    # while a bare "?" is one of PROPOSAL's branches
    from pivotal.detect import lexicon

    assert lexicon.PROPOSAL.search("so, tomorrow?") is not None
    assert lexicon.PROPOSAL.search("ship it tomorrow") is None
