"""Anchored search finds exactly what `re.finditer` finds, for every rule that has an anchor.

`pivotal.export.anchor` tries a rule's pattern only near its literal words; that
is a speed-up only if no match is lost or changed. Each anchored pattern (gitleaks'
and ours) is run both ways on texts made to trip it: examples written from the
rule's own pattern (`planted.example_for`), the same upper-cased and case-swapped,
several glued together with keywords and name characters between them, long runs
of the prefix's characters before the literal (the run is read backwards), and
the non-ASCII letters Unicode case-insensitive matching equates with ASCII ones
('ſ' matches 's', 'K' 'k', 'İ' and 'ı' 'i'). Spans and groups must agree.
"""

from __future__ import annotations

import random
import re

import pytest

from pivotal.export import anchor
from pivotal.export.anchor import Plan, Subject, finditer, plan
from pivotal.export.redact import OWN_RULES
from pivotal.export.ruleset import gitleaks

from .planted import OWN, example_for

GLUE = [
    " ",
    "\n",
    "key=",
    "monkey_token.",
    "API_KEY = '",
    "-" * 55,
    "x" * 70,
    "ſecret=",
    "İ",
    "ı",
    "K",
    "é",
    "\\n",
    '"',
    ": ",
]


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    rules = [(r.id, r.pattern, r.regex) for r in gitleaks().rules]
    found = [(rid, p) for rid, p, _ in rules if plan(p) is not None]
    found += [(kind, p) for kind, p, _, _ in OWN_RULES if plan(p) is not None]
    return found


def _texts(rng: random.Random) -> list[str]:
    examples = []
    for rule in gitleaks().rules:
        examples.append(example_for(rule.regex, rule.id, 0))
    examples += [
        "DB_PASSWORD=hunter2hunter2",
        "ſecret_token: s3cr3tV4lu3x",
        "Authorization: Bearer abcdefghijklmnop1234",
        "mailto:mara@ledgerly.example and x@y.io",
        "postgres://mara:pa55@db:5432/app",
        *(text for _, text, _ in OWN),
    ]
    texts = list(examples)
    texts += [e.upper() for e in examples] + [e.swapcase() for e in examples]
    for _ in range(150):
        parts = rng.sample(examples, 3)
        glue = [rng.choice(GLUE) + rng.choice(GLUE) for _ in range(4)]
        texts.append("".join(g + p for g, p in zip(glue, parts, strict=False)) + glue[3])
    return texts


@pytest.fixture(scope="module")
def texts() -> list[str]:
    return _texts(random.Random(17))


def _all(matches) -> list[tuple]:  # type: ignore[no-untyped-def]
    return [(m.span(), m.groups()) for m in matches]


def test_the_expensive_rules_are_anchored():
    # the speed-up is there (else the comparison below would compare re with re)
    by_id = {r.id: r for r in gitleaks().rules}
    generic = plan(by_id["generic-api-key"].pattern)
    assert generic is not None and generic.longest == 50 and generic.run is not None
    assert {"key", "token", "secret", "api"} <= set(generic.literals)
    own = {kind: p for kind, p, _, _ in OWN_RULES}
    assert plan(own["secret-value"]) is not None
    assert len(_patterns()) > 120  # 124 of gitleaks, 4 of ours today


def test_anchored_search_finds_what_re_finds(texts):
    for name, pattern in _patterns():
        for text in texts:
            expected = _all(pattern.finditer(text))
            assert _all(finditer(pattern, Subject(text))) == expected, (name, text)


def test_the_same_with_the_words_found_in_the_text(texts):
    from pivotal.export.redact import _words

    words = _words()
    for name, pattern in _patterns():
        for text in texts[::7]:
            low = text.lower()
            subject = Subject(text, low, words.present(low), words.vocabulary)
            assert _all(finditer(pattern, subject)) == _all(pattern.finditer(text)), name


def test_a_wrong_plan_would_be_caught(monkeypatch):
    # the comparison can fail: a plan that claims too short a prefix loses the match
    pattern = re.compile(r"[\w.-]{0,50}?(?:key)\s*=\s*(\w{8,})")
    text = "the my_service.key = abcdefgh12345"
    honest = plan(pattern)
    assert honest is not None and honest.longest == 50
    assert _all(finditer(pattern, text)) == _all(pattern.finditer(text))
    monkeypatch.setattr(anchor, "plan", lambda p: Plan(honest.literals, 0, 3, None))
    assert _all(finditer(pattern, text)) != _all(pattern.finditer(text))


def test_what_follows_the_literal_is_tried_once_per_literal():
    # the generic rule's `key` with no `=` after it: its 50 start positions are not tried
    by_id = {r.id: r for r in gitleaks().rules}
    generic = plan(by_id["generic-api-key"].pattern)
    assert generic is not None and generic.rest is not None
    assert generic.rest.match("key = 'abcdefgh12345678'") is not None
    assert generic.rest.match("key of the dict") is None
    text = "the " + "monkey_" * 6 + "key of the dict, and " + "x" * 40 + "token: abcdefgh12345678"
    assert anchor._starts_in(generic, Subject(text)) is not None
    assert _all(finditer(by_id["generic-api-key"].pattern, text)) == _all(
        by_id["generic-api-key"].pattern.finditer(text)
    )


def test_a_wrong_rest_would_be_caught(monkeypatch):
    # the comparison can fail: a rest that refuses what the whole pattern matches loses it
    pattern = re.compile(r"[\w.-]{0,50}?(?:key)\s*=\s*(\w{8,})")
    text = "the my_service.key = abcdefgh12345"
    honest = plan(pattern)
    assert honest is not None and honest.rest is not None
    x = anchor.parsed(re.compile("x"))  # what follows `key` here is never an x
    never = (anchor._flatten(list(x.data), x.state.flags), x.state)
    wrong = Plan(honest.literals, honest.shortest, honest.longest, honest.run, never)
    monkeypatch.setattr(anchor, "plan", lambda p: wrong)
    assert _all(finditer(pattern, text)) != _all(pattern.finditer(text))


def test_a_rest_that_refers_to_a_group_is_not_used():
    # the rest is compiled without the prefix's groups: a reference to one would never match
    pattern = re.compile(r"([\w.-]{0,50}?)(?:key)=(\w+)\1|x(\w)\3")
    assert anchor._refers(list(anchor.parsed(pattern).data))
    quoted = re.compile(r"(['\"])[\w.-]{0,50}?(?:key)=(\w{4,})\1")
    how = plan(quoted)
    assert how is not None and how.rest is None
    text = "see 'my.key=abcd1234' and \"key=efgh5678\""
    assert _all(finditer(quoted, text)) == _all(quoted.finditer(text))
    assert len(_all(quoted.finditer(text))) == 2


def test_long_runs_before_the_literal_are_read_back_far_enough():
    pattern = next(p for kind, p, _, _ in OWN_RULES if kind == "secret-value")
    for length in (0, 1, 255, 256, 257, 5000):
        # prose after it keeps the candidates few enough for the anchored path
        text = "see " + "a" * length + "_password=hunter2hunter2 and "
        text += "more words " * (2 * length) + "b" * length + "token: xyzw1234"
        found = _all(finditer(pattern, text))
        assert found == _all(pattern.finditer(text)) and len(found) == 2, length
        assert anchor._starts_in(plan(pattern), Subject(text)) is not None, length


def test_unanchored_patterns_fall_back_to_re():
    literal_first = re.compile(r"ghp_[0-9a-zA-Z]{36}")
    assert plan(literal_first) is None  # re's own literal search is as fast
    assert plan(re.compile(r"(?:\w*)?")) is None  # can match empty
    text = "x ghp_" + "a" * 36
    assert _all(finditer(literal_first, text)) == _all(literal_first.finditer(text))


def test_the_literals_are_read_without_compiling_a_rule():
    # the words that choose rules include every rule's literals, read from its source:
    # the same as its compiled pattern's plan gives, and no rule is compiled for them
    import subprocess
    import sys
    from re import _parser

    from pivotal.export.anchor import literals_of
    from pivotal.export.ruleset import RULE_FLAGS, rule_source

    for rule in gitleaks().rules:
        # planned afresh from the compiled pattern (not from what `plan` keeps)
        how = anchor._plan(_parser.parse(rule.pattern.pattern, rule.pattern.flags))
        expected = () if how is None else how.literals
        assert literals_of(rule_source(rule.regex), RULE_FLAGS) == expected, rule.id
        assert plan(rule.pattern) == how, rule.id
    check = (
        "from pivotal.export.redact import _words\n"
        "from pivotal.export.ruleset import gitleaks\n"
        "_words()\n"
        "print(sum(rule._compiled is not None for rule in gitleaks().rules))\n"
    )
    import os
    from pathlib import Path

    import pivotal

    here = str(Path(pivotal.__file__).parents[1])  # this checkout's pivotal, not another's
    env = {**os.environ, "PYTHONPATH": here}
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


def test_a_rule_none_of_whose_literals_the_words_hold_is_passed_over(texts):
    # redaction passes over a rule whose plan's literals are all words it looks for when
    # none is among the text's words (`redact._needs`): re finds no match there either
    from pivotal.export import redact
    from pivotal.export.ruleset import RULE_FLAGS, rule_source

    words = redact._words()
    rules = [(r.id, r.pattern, rule_source(r.regex), RULE_FLAGS) for r in gitleaks().rules]
    rules += [(kind, p, p.pattern, p.flags) for kind, p, _, _ in OWN_RULES]
    passed = 0
    for name, pattern, source, flags in rules:
        needs = redact._needs(source, flags)
        for text in texts[::5]:
            low = text.lower()
            subject = Subject(text, low, words.present(low), words.vocabulary)
            if needs is not None and subject.words is not None:
                if needs.isdisjoint(subject.words):
                    passed += 1
                    assert next(pattern.finditer(text), None) is None, (name, text)
    assert passed > 1000
    generic = next(r for r in gitleaks().rules if r.id == "generic-api-key")
    assert {"key", "token", "secret"} <= redact._needs(rule_source(generic.regex), RULE_FLAGS)


def test_the_stored_literals_are_the_rules_own():
    # redaction reads its rules' literals from rules/literals.txt rather than parse every
    # rule at its start: the file must say what parsing them says
    from pivotal.export import redact

    assert redact._stored_literals() == redact.literal_words(), (
        "rules/literals.txt is stale: run python tools/redaction_literals.py"
    )
    assert redact._words().vocabulary >= redact.literal_words()
