"""Patterns rewritten to fail fast match exactly what their plain forms matched.

Each plain form below is the pattern as it was before the rewrite; the rules
use the matched text, groups and positions, so all of them must agree.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.detect import asks, figures, phase

PLAIN_FIGURE = re.compile(
    r"(?<![\w.])(~|≈)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s?(" + figures._UNITS + r")(?![\w/])"
)
PLAIN_IDENT = re.compile(
    r"\b[A-Za-z][a-z0-9]*(?:[_.][A-Za-z0-9]+)+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z]{2,}[0-9]*\b"
)
PLAIN_QUESTION = re.compile(r"[^.!?。！？\n]*(?:\?(?=\s|$)|？)")
PLAIN_CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)

TEXTS = [
    "Throughput went from 54.1 tok/s to ~82 tok/s (1,234 req/s, 38%, 2.5x faster, 8x RTX).",
    "p50 30 ms / p99 120ms; 53 GB/s; 12.5 µs/step; 3 s; 5 minutes; ≈0.8 s; v1.2.3 10.0.0.1",
    "Edit src/pivotal/detect/figures.py: FIGURE, has_results() and snake_case_name in dotted.mod",
    "camelCase parseHTTPResponse HTTP2 CUDA_VISIBLE_DEVICES a.b_ foo. x.y.z. über.café ÉTÉ",
    "Shall I go ahead? Or would you like the other plan?\nWhat next?? ok.? done! why?x end?",
    "これで良いですか？はい。次は？進めますか？ 是否继续？好。¿Seguimos? oui ?",
    # other scripts' digits are digits to \d; a non-ASCII character before a number
    "٣٤ ms, x٣ ms, →12 ms, 7710→import, ≈٣.5 s, é5 ms, ~≈4 ms, 5≈3 ms, ≈ 4 ms, ~.5 ms",
    "",
]
PIECES = st.sampled_from(
    list("aAzZ09_.,~≈ ?!\n\t/%xé٣→？。！")
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
        assert asks._QUESTION.findall(text) == PLAIN_QUESTION.findall(text), text
    assert figures.figures(TEXTS[0]) == ["54.1 tok/s", "~82 tok/s", "1,234 req/s", "38%", "2.5x"]


@settings(max_examples=400, deadline=None)
@given(pieces=st.lists(PIECES, max_size=30))
def test_rewritten_patterns_agree_on_generated_text(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert _figures(text) == _plain_figures(text)
    assert phase.identifiers(text) == PLAIN_IDENT.findall(text)
    assert asks._QUESTION.findall(text) == PLAIN_QUESTION.findall(text)


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


# the word lists as they read before their leading groups were spelled out as branches
PLAIN_MILESTONE_STRONG = re.compile(
    r"\bfinally\b|\bbreakthrough\b|\bmilestone\b|\b(it|this|now|everything) works\b|"
    r"\bworks now\b|\bnow work(s|ing)\b|\b(is|now) working\b|\bworking (now|end[- ]to[- ]end)\b|"
    r"\ball (\d+ )?tests (now )?pass|\b[1-9]\d* passed\b|"
    r"\b(tests?|build|builds|check|checks|suite|ci|pipeline|lint|job|jobs|runs?) (now |all )?"
    r"(pass(es|ed|ing)?|succeed(s|ed)?|(is |are )?green)\b|"
    r"\bserver (is )?(up|running|ready|healthy|live)\b|\bup and running\b|\bis (up|live|ready)\b|"
    r"\bbenchmark results?\b|\bresults? (are in|below|so far)\b|\bsuccessfully\b|"
    r"\bgreen\b|\bunblocked\b|\b0 (failures|errors|failed)\b|\bzero (failures|errors)\b|"
    r"\bno (more|remaining) (failures|errors)\b|\bit'?s alive\b|\bsucceed(ed|s)\b|"
    r"\bachiev(ed|es)\b|\bgenerat(ing|es) coherent\b|"
    r"\bboots?\b[^\n]{0,60}\bclean|\bloads? (fine|cleanly|correctly)\b|✅|\d\s?[x×] faster\b|"
    r"\bspeed-?up (of|is)\b|\b(is|are|went|dropped|fell|now) down to\b|\bdown (to|from) [~≈]?\d|"
    r"\bimproved (from|to|by)\b|\bcut (it )?(from|to|by) [~≈]?\d|\b(reached|hit|met|beat) the "
    r"(target|goal)\b|\bunder the [\w %.]{0,20}target\b|\btarget (met|reached)\b",
    re.IGNORECASE,
)
PLAIN_FAIL_NARRATIVE = re.compile(
    r"\bFAIL(ED|S|URE)?\b|\b[A-Z]\w*(Error|Exception)\b|(?i:\bfail(ed|s|ing|ure)\b|"
    r"\b(an|the|same|this|that|with|raises?|raised|throws?|hit) errors?\b|"
    r"\berrors? (out|when|while|during|in|on)\b|\berror:|\bcrash(ed|es|ing)\b|"
    r"\btimed? ?out\b|\btime-out\b|\bOOM\b|"
    r"\bout of memory\b|\bdidn'?t (work|help)\b|\bdoesn'?t work\b|\bnot working\b|"
    r"\bstill (failing|broken|not|hangs|stuck)\b|\bno luck\b|\bdead end\b|\bbroken\b|"
    r"\bhang(s|ing)\b|\bstuck\b|\bregress(ed|ion)\b|\bworse than\b|\bslower than\b|"
    r"\bno improvement\b|\bincompatible\b|\bunsupported\b|\bnot supported\b|\babandon(ed)?\b|"
    r"\bgave up\b|\bsegfault|\bdid not (work|start)\b|\bno response\b|\bnot respond|"
    r"\bunresponsive\b|\bunclear (whether|if)\b|\bunknown whether\b|"
    r"\b(out of|no (more|other|further)) ideas\b|\bran out of\b|\brun out of\b|"
    r"\bnothing (has |I tried )?(worked|helped)\b|\bnone of (them|these|those|it) "
    r"(worked|helped)\b|\bwent nowhere\b|\bresisting\b|\bnot sure (yet )?why\b|"
    r"\bdon'?t (know|understand) why\b|\b(no|don'?t have a) (reliable |good )?way to\b|"
    r"\btried the obvious\b|\bno (measurable |real |visible )?(change|difference|effect)\b|"
    r"\bdidn'?t (budge|move the needle|make a difference|change anything)\b|"
    r"\b(no dice|no joy)\b|\bsame (error|failure|crash|result) (again|as before)\b)"
)
PLAIN_SUCCESS_OUTPUT = re.compile(
    r"\b[1-9]\d* passed\b|\ball tests pass|\bOK \(|\b(?<!un)success(ful(ly)?)?\b|"
    r"\b(?<!not )(?<!n't )(?<!never )(ready|healthy)\b|"
    r"\bBUILD SUCCESSFUL\b|\bcompleted successfully\b|\bListening on\b|\bUvicorn running\b|"
    r"\bserver (is )?(up|running|started|ready)\b|\b200 OK\b",
    re.IGNORECASE,
)
WORD_LIST_PIECES = st.sampled_from(
    "it this now everything works working is are went dropped fell down to reached hit met "
    "beat the target goal an same that with raises raised throws error errors out of no more "
    "ideas don't have a reliable way dice joy 3 x faster ✅ FAILED İt Error ready healthy "
    "FAIL FAILS FAILURE ValueError xError TimeoutException Fail É5Error _FAILED "
    "not n't never unsuccessful success successful".split()
    + [".", "\n", "-"]
)


def _word_list_spans(pattern: re.Pattern[str], text: str) -> tuple[object, ...]:
    found = pattern.search(text)
    return (found and found.span(), [m.span() for m in pattern.finditer(text)])


def test_spelled_out_word_lists_match_where_the_grouped_ones_did() -> None:
    from pivotal.detect import lexicon

    pairs = (
        (lexicon.MILESTONE_STRONG, PLAIN_MILESTONE_STRONG),
        (lexicon.FAIL_NARRATIVE, PLAIN_FAIL_NARRATIVE),
        (lexicon.SUCCESS_OUTPUT, PLAIN_SUCCESS_OUTPUT),
    )
    texts = [
        "Now it works, and everything works: the p99 is down to 30 ms. We hit the target.",
        "It raised errors again; same error as before. No dice, I'm out of ideas.",
        "There's no reliable way to tell; I don't have a good way to reproduce it.",
        "İt works now",
        "aFAIL éFAIL _FAILED 9FAILS xValueError é5Error ValueErrors FAILURE. Fail",
        "",
    ]
    # every phrase a spelled-out branch stands for, on its own and inside a sentence
    phrases = [
        f"{a} {b}"
        for a, b in [
            *[(w, "works") for w in ("it", "this", "now", "everything")],
            *[(w, "working") for w in ("is", "now")],
            *[(w, "down to") for w in ("is", "are", "went", "dropped", "fell", "now")],
            *[
                (w, f"the {g}")
                for w in ("reached", "hit", "met", "beat")
                for g in ("target", "goal")
            ],
            *[
                (w, e)
                for w in ("an", "the", "same", "this", "that", "with", "raise", "raises")
                + ("raised", "throw", "throws", "hit")
                for e in ("error", "errors")
            ],
            ("out of", "ideas"),
            *[("no", f"{w} ideas") for w in ("more", "other", "further")],
            *[
                (w, f"{r}way to")
                for w in ("no", "dont have a", "don't have a")
                for r in ("", "reliable ", "good ")
            ],
            ("no", "dice"),
            ("no", "joy"),
            *[(w, v) for w in ("a", "é", "_", "-", "x") for v in ("FAIL", "FAILED", "ValueError")],
            *[(w, s) for w in ("not", "isn't", "never", "is", "un") for s in ("ready", "healthy")],
            *[(w, "success") for w in ("un", "a", "unsuccessful", "successfully")],
        ]
    ]
    texts += phrases + [f"Well, {p.upper()} now." for p in phrases]
    for new, plain in pairs:
        for text in texts:
            assert _word_list_spans(new, text) == _word_list_spans(plain, text), text


@settings(max_examples=500, deadline=None)
@given(pieces=st.lists(WORD_LIST_PIECES, max_size=25))
def test_spelled_out_word_lists_agree_on_generated_text(pieces: list[str]) -> None:
    from pivotal.detect import lexicon

    text = " ".join(pieces)
    for new, plain in (
        (lexicon.MILESTONE_STRONG, PLAIN_MILESTONE_STRONG),
        (lexicon.FAIL_NARRATIVE, PLAIN_FAIL_NARRATIVE),
        (lexicon.SUCCESS_OUTPUT, PLAIN_SUCCESS_OUTPUT),
    ):
        assert _word_list_spans(new, text) == _word_list_spans(plain, text), text
