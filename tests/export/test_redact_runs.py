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

An HTML, Markdown or asciicast export shows at most so many characters of one text
(`export._shown`, checked against each format): only that much and a margin is
redacted, and what it shows is what redacting the whole text would show.
"""

from __future__ import annotations

import base64
import json
import random
import re

import pytest

from cli_helpers import invoke
from pivotal.export import redact as module
from pivotal.export.redact import redact
from pivotal.export.ruleset import gitleaks
from pivotal.export.runs import EDGE, LONG, RUN_CHARS, long_runs

from .planted import OWN, decoded, gitleaks_examples


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

    def spy(text: str, subject=None, present=None):  # type: ignore[no-untyped-def]
        seen.append(len(text))
        return search(text, subject, present)

    monkeypatch.setattr(module, "_secret_spans", spy)
    blob = base64.b64encode(random.Random(3).randbytes(3_000_000)).decode()
    text = f"OPENAI_API_KEY=sk-proj-{'Ab3De6' * 5} and then\n{blob}\nand after it"
    out = redact(text)
    assert seen and max(seen) <= 2 * EDGE + 100
    assert out.startswith("OPENAI_API_KEY=[REDACTED:openai-key] and then\n")
    assert out.endswith(f"{blob}\nand after it")


# -- what a format never shows is not redacted -------------------------------------


def _big_session(path, output: str, text: str) -> None:  # type: ignore[no-untyped-def]
    def record(n: int, kind: str, message: dict) -> str:
        return json.dumps(
            {
                "parentUuid": f"u{n - 1}" if n else None,
                "isSidechain": False,
                "userType": "external",
                "cwd": "/srv/app",
                "sessionId": "7c1f0c2e-4b7a-4d1e-9a55-3c1d2e4f5a6b",
                "version": "2.1.197",
                "type": kind,
                "message": message,
                "uuid": f"u{n}",
                "timestamp": f"2026-11-30T10:00:{n:02d}.000Z",
            }
        )

    use = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": text}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": output}
    ask = {"type": "text", "text": f"{text}\n\nShall I encode it now?"}
    lines = [
        record(0, "user", {"role": "user", "content": "Encode the screenshot, please."}),
        record(1, "assistant", _message(1, [ask])),
        record(2, "user", {"role": "user", "content": "go on"}),
        record(3, "assistant", _message(3, [use])),
        record(4, "user", {"role": "user", "content": [result]}),
        record(5, "assistant", _message(5, [{"type": "text", "text": "Done."}])),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _message(n: int, content: list[dict]) -> dict:
    return {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": content,
    }


def _render(path, fmt: str, whole: bool, monkeypatch) -> str:  # type: ignore[no-untyped-def]
    from pivotal import export
    from pivotal.readers import find_sessions, read_session

    ref = find_sessions([path]).refs[0]
    # every silence a pivot, so the Markdown shows the excerpt around this one
    data = export.build_input(ref, read_session(ref), with_notes=False, sensitivity="1.0")
    with monkeypatch.context() as patch:
        if whole:
            patch.setattr(export, "_shown", lambda fmt: None)
        return export.render(fmt, data, redact=True)


@pytest.mark.parametrize("fmt", ["md", "html", "cast"])
def test_a_format_shows_no_more_of_a_text_than_it_says(tmp_path, fmt) -> None:
    # `export._shown` tells how much of one text each format shows: checked here against
    # the format itself, so that a renderer showing more cannot show unredacted text
    from pivotal import export

    counter = "".join(f"{i:07d}|" for i in range(40_000))  # every 8 characters unique
    path = tmp_path / "big.jsonl"
    _big_session(path, counter, counter)
    result = invoke("export", path, "--to", fmt, "--no-notes", "--sensitivity", "1")
    assert result.exit_code == 0, result.output
    shown = decoded(fmt, result.stdout).replace("\n", "")
    longest = max((len(m.group(0)) for m in re.finditer(r"(?:\d{7}\|)+", shown)), default=0)
    assert 0 < longest <= export._shown(fmt)  # type: ignore[operator]


@pytest.mark.parametrize("fmt", ["md", "html", "cast"])
def test_redacting_what_a_format_shows_shows_what_redacting_all_would(
    tmp_path, fmt, monkeypatch
) -> None:
    from pivotal import export

    github = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
    cut = export._shown(fmt)
    assert cut is not None
    blob = base64.b64encode(random.Random(9).randbytes(300_000)).decode()
    # keys before the cut, across it, and across where the redacted part ends
    places = [10, cut - 20, cut + 65_536 - 20]
    output = blob
    for at in sorted(places, reverse=True):
        output = f"{output[:at]} {github} {output[at:]}"
    text = f"use {github} and\n" + output[:150_000]
    path = tmp_path / "big.jsonl"
    _big_session(path, output, text)
    part = _render(path, fmt, whole=False, monkeypatch=monkeypatch)
    whole = _render(path, fmt, whole=True, monkeypatch=monkeypatch)
    assert github not in part and github[:20] not in part
    assert "[REDACTED:github-pat]" in part
    assert _without_counts(part) == _without_counts(whole)


def _without_counts(text: str) -> str:
    return re.sub(r"\(\d[\d,]* more characters\)", "(N more characters)", text)


def test_a_text_redacted_again_whole_counts_its_findings_once() -> None:
    # masks shortened the redacted head by more than half the margin (one private key
    # across the cut), so the whole text is redacted: the head's findings are not kept
    from collections import Counter

    from pivotal.export.scrubbed import MARGIN, _shown

    body = "".join(f"{base64.b64encode(bytes([n % 256]) * 48).decode()}\n" for n in range(3000))
    key = f"-----BEGIN RSA PRIVATE KEY-----\n{body}-----END RSA PRIVATE KEY-----\n"
    text = f"cat id_rsa\n{key}done, and mail mara@ledgerly.example\n" + "z " * MARGIN
    assert len(text) > 100 + MARGIN and len(key) > MARGIN
    counts: Counter[str] = Counter()
    shown = _shown(text, counts, (), 100)
    whole: Counter[str] = Counter()
    assert shown == redact(text, whole)
    assert counts == whole == Counter({"private-key": 1, "email": 1})
