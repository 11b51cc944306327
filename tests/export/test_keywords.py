"""Which keywords occur in a text: the token shortcut answers what `word in text` does.

`Keywords.present` looks for the words in a text's distinct tokens and remembers
tokens across texts; the answer must still be, for every word, whether it is a
substring of the lower-cased text. Checked against that definition on random
texts over an alphabet where words overlap, cross punctuation and non-ASCII
characters, and repeat from one text to the next (the remembered tokens).
"""

from __future__ import annotations

import random

from pivotal.export import keywords
from pivotal.export.keywords import Keywords, tokenish
from pivotal.export.redact import _words

WORDS = ["key", "api", "apikey", "ey", "sk-", "sk-ant-", "hf_", "s.", "q~", "://", "@"]
WORDS += ["private key", '"secret_', "|"]
PIECES = [*WORDS, *'keyapi-_.~ \n:/@"|é', "ſ"]


def _expected(words: list[str], low: str) -> set[str]:
    return {w for w in words if w in low}


def _random_texts(rng: random.Random, count: int) -> list[str]:
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40))) for _ in range(count)]


def test_present_is_substring_presence():
    finder = Keywords(WORDS)
    rng = random.Random(5)
    for text in _random_texts(rng, 4000):
        low = text.lower()
        assert finder.present(low) == _expected(WORDS, low), text


def test_remembered_tokens_give_the_same_answer_again():
    finder = Keywords(WORDS)
    texts = _random_texts(random.Random(6), 500)
    first = [finder.present(t) for t in texts]
    assert finder._clean and finder._holding  # tokens were remembered
    assert [finder.present(t) for t in texts] == first
    assert first == [_expected(WORDS, t) for t in texts]


def test_forgetting_at_the_bound_changes_no_answer(monkeypatch):
    monkeypatch.setattr(keywords, "_REMEMBERED", 8)
    finder = Keywords(WORDS)
    for text in _random_texts(random.Random(7), 2000):
        assert finder.present(text) == _expected(WORDS, text)
        assert len(finder._clean) <= 8 + 64 and len(finder._holding) <= 8 + 64


def test_the_redaction_vocabulary_on_session_like_text():
    finder = _words()
    words = list(finder.words)
    direct = [word for word, _ in finder.direct]
    assert len(words) > 250 and "private key" in direct and "key" not in direct
    assert "://" not in direct and "@" in direct and "~" in direct  # one character: directly
    text = (
        "$ curl -H 'x-api-key: k3y' https://api.example.com  # PRIVATE KEY, Sk-Ant-, hf_x\n"
        'ſecret İ Kelvin \ud800 <add key="x"> _gitlab_session=abc mailto:a@b.io\n'
    )
    low = text.lower()
    assert finder.present(low) == _expected(words, low)


def test_a_word_with_a_space_is_looked_for_where_its_longest_piece_occurs():
    finder = Keywords(["private key", "<add key=", "key"])
    assert finder.present("the private key") == {"private key", "key"}
    assert finder.present("private keys and <add key=x>") == {"private key", "<add key=", "key"}
    assert finder.present("private, key") == {"key"}  # both pieces, not the word
    assert finder.present("a key= b <add") == {"key"}  # the guard alone is no word
    assert finder.present("privat key") == {"key"}


def test_words_outside_the_token_alphabet_are_looked_for_directly():
    assert tokenish("sk-ant-") and tokenish("dp.pt.") and tokenish("://")
    assert not tokenish("private key") and not tokenish('"secret_') and not tokenish("")


def test_lowered_is_str_lower_for_every_character():
    """`lowered` lowers a text's ASCII letters in its bytes when every other character is
    its own lower case: true of `str.lower` only if no such character changes with its
    neighbours. Each code point is lowered between upper-case ASCII letters, twice (so a
    second one sees it as its neighbour), and the bytes made on the way are the lower
    case's UTF-8."""
    fast = 0
    for point in range(0x80, 0x110000):
        char = chr(point)
        text = f"AB{char}Q{char} Z"
        low, encoded = keywords.lowered(text)
        assert low == text.lower(), hex(point)
        if encoded is not None:
            fast += 1
            assert encoded == low.encode("utf-8", "surrogatepass"), hex(point)
    assert fast > 1_000_000  # most characters are their own lower case
    for text in ("ΟΔΟΣ Σ", "naïve CAFÉ", "İstanbul", "Kelvin", "ſtraße", "x\u2192Y", "ÿ"):
        assert keywords.lowered(text)[0] == text.lower(), text
