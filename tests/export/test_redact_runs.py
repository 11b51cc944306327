"""Long runs without separators are examined once, and nothing is lost by it (issue 34.5).

A 20 MB base64 tool output or a 40 MB aider line is one run of letters, digits
and `+/_.~-`. The ordinary rule search sees only each run's two ends
(`pivotal.export.runs.stand_in`); inside it, the rules that can match there are
tried where their literal occurs. What matters is that this finds what searching
the whole text finds: every planted example, glued inside a run, at its edges or
beside it, is masked, and what the shortcut masks beyond the whole-text search
(a match that reached a run's left-out middle goes on to the run's end) is inside
that run. Speed is `bench/bench_redact.py`'s business; here only that the ordinary
search is not handed a run's middle.
"""

from __future__ import annotations

import base64
import random

import pytest

from pivotal.export import redact as module
from pivotal.export.redact import redact
from pivotal.export.ruleset import gitleaks
from pivotal.export.runs import EDGE, LONG, RUN_CHARS, long_runs

from .planted import OWN, gitleaks_examples


def _reference_runs(text: str) -> list[tuple[int, int]]:
    runs, i = [], 0
    while i < len(text):
        if text[i] not in RUN_CHARS:
            i += 1
            continue
        j = i
        while j < len(text) and text[j] in RUN_CHARS:
            j += 1
        if j - i >= LONG:
            runs.append((i, j))
        i = j
    return runs


def test_long_runs_are_found_exactly() -> None:
    rng = random.Random(34)
    lengths = [0, 1, 7, LONG // 2 - 1, LONG // 2, LONG - 1, LONG, LONG + 1, 2 * LONG + 3, 5 * LONG]
    separators = [" ", "\t", "=", '"', ":", "é", "…", "\x00", "]["]
    for _ in range(300):
        pieces = []
        for _ in range(rng.randint(1, 6)):
            size = rng.choice(lengths)
            pieces.append("".join(rng.choices("ab+/_.~-09XZ\n", k=size)))
            pieces.append(rng.choice(separators) * rng.randint(0, 3))
        text = "".join(pieces)
        assert long_runs(text) == _reference_runs(text), [len(p) for p in pieces]


def _filler(rng: random.Random, size: int) -> str:
    """Run characters that spell no keyword (digits, `+` and `/`): a rule is turned on
    here only by the words planted with it."""
    return "".join(rng.choices("0123456789+/", k=size))


def _examples() -> list[tuple[str, str, str, str]]:
    """(kind, planted text, secret, a keyword of its rule) for every rule of both sets."""
    examples, missing = gitleaks_examples()
    assert not missing
    keyword = {rule.id: rule.keywords[0] for rule in gitleaks().rules}
    out = [(rule_id, text, secret, keyword[rule_id]) for rule_id, text, secret in examples]
    out += [(kind, f"Found:\n{text}\n", secret, "") for kind, text, secret in OWN]
    return [e for e in out if e[0] != "home-path"]  # masked after the secrets, not by rules


def _variants(rng: random.Random, text: str, secret: str, keyword: str) -> dict[str, str]:
    def fill(size: int = 5000) -> str:
        return _filler(rng, size)

    def wrapped() -> str:
        line = fill()
        return "\n".join(line[i : i + 76] for i in range(0, len(line), 76))

    return {
        "between two runs": fill() + text + fill(),
        "glued inside a run": f"{keyword} {fill()}{secret}{fill()}",
        "between slashes inside a run": f"{keyword} {fill()}/{secret}/{fill()}",
        "inside a run of x": f"{keyword} {'x' * 5000}.{secret}.{'x' * 5000}",
        "on a line of wrapped base64": f"{keyword} {wrapped()}\n{secret}\n{wrapped()}",
        "at a run's start": f"{keyword} {secret}{fill(9000)}",
        "at a run's end": f"{keyword} {fill(9000)}{secret}",
    }


def _covered(spans: list[tuple[int, int, str]]) -> set[int]:
    return {i for start, end, _ in spans for i in range(start, end)}


def test_runs_lose_nothing_the_whole_text_search_finds() -> None:
    rng = random.Random(5)
    tried = masked = 0
    for kind, text, secret, keyword in _examples():
        for name, planted in _variants(rng, text, secret, keyword).items():
            runs = long_runs(planted)
            assert runs, (kind, name)
            inside = {i for start, end in runs for i in range(start, end)}
            spans = module._secret_spans(planted)
            whole = _covered(spans)
            shortcut = _covered(module._spans_with_runs(planted, runs))
            assert whole <= shortcut, (kind, name)  # nothing the full search masks is left
            assert shortcut - whole <= inside, (kind, name)  # more only inside a run
            if secret not in module._mask(planted, spans, None):
                masked += 1
                assert secret not in redact(planted), (kind, name)
            tried += 1
    # most are found by both (a key glued to a digit is none to a rule that wants a word
    # boundary before it, with or without the shortcut)
    assert masked > tried * 4 // 10


def test_a_secret_deep_inside_a_base64_run_is_masked() -> None:
    rng = random.Random(7)
    blob = base64.b64encode(rng.randbytes(750_000)).decode()
    github = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
    aws = "AKIAIOSFODNN7EXAMPL3"
    text = f"{blob[:400_000]}/{github}+{blob[400_000:700_000]}/{aws}+{blob[700_000:]}"
    out = redact(text)
    assert github not in out and aws not in out
    assert out == text.replace(github, "[REDACTED:github-pat]").replace(
        aws, "[REDACTED:aws-access-key-id]"
    )


@pytest.mark.parametrize(
    ("unit", "secret"),
    [
        # a literal found everywhere in its run: its rules are searched by `re` there
        ("ey", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36P"),
        ("SK", "SK" + "0123456789abcdef" * 2),
    ],
)
def test_a_run_made_of_a_literal_is_searched_whole(unit: str, secret: str) -> None:
    filler = unit * 40_000
    text = f"{filler}+{secret}+{filler}"
    runs = long_runs(text)
    assert runs == [(0, len(text))]
    whole = _covered(module._secret_spans(text))
    shortcut = _covered(module._spans_with_runs(text, runs))
    assert whole and whole <= shortcut
    assert secret not in redact(text)


def test_the_ordinary_search_sees_only_the_ends_of_a_run(monkeypatch) -> None:
    seen: list[int] = []
    search = module._secret_spans

    def spy(text: str, subject=None):  # type: ignore[no-untyped-def]
        seen.append(len(text))
        return search(text, subject)

    monkeypatch.setattr(module, "_secret_spans", spy)
    blob = base64.b64encode(random.Random(3).randbytes(3_000_000)).decode()
    text = f"OPENAI_API_KEY=sk-proj-{'Ab3De6' * 5} and then\n{blob}\nand after it"
    out = redact(text)
    assert seen and max(seen) <= 2 * EDGE + 100
    assert out.startswith("OPENAI_API_KEY=[REDACTED:openai-key] and then\n")
    assert out.endswith(f"{blob}\nand after it")
