"""Which of a few hundred keywords occur in a text, at a cost near one pass over it.

A rule is tried only when one of its keywords occurs in the lower-cased text
(gitleaks' own prefilter). Looking for ~260 words at every position of the text
is most of what redaction costs, so the words are looked for in the text's
distinct *tokens* instead: every character no keyword contains becomes a space
(a byte translation of the UTF-8 text; non-ASCII characters are never part of a
keyword), the text splits into tokens, and each distinct token is scanned once.
A keyword occurs in the text exactly when it occurs inside one token, so the
answer is the same; agent sessions repeat their words, paths and identifiers,
so there are several times fewer characters to scan. Keywords with a space in
them (`private key`) are looked for directly, and so are one-character ones (`@`,
`~`): one C-level scan of the text each, where through tokens they were held by
most tokens (a path, a dotted name), each such token costing a lookup per text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate, filterfalse

# Characters tokens are made of. A word with any other character in it (`private key`,
# `<add key=`) is looked for directly. A wider alphabet makes fewer, longer tokens (paths
# and URLs whole): fewer repeat, but splitting, which costs per token, costs less.
_ALPHABET = frozenset("abcdefghijklmnopqrstuvwxyz0123456789._-~/:@=")
_REMEMBERED = 1 << 17  # tokens remembered across texts (about 10 MB of them at most)


class Keywords:
    """A set of lower-case words, and `present`: which of them occur in a text.

    Tokens seen before are remembered with the words they hold (most hold none), so
    a session's recurring vocabulary is scanned once, not once per text."""

    def __init__(self, words: Iterable[str]) -> None:
        words = sorted(set(words))
        self.words = tuple(words)
        self.vocabulary = frozenset(words)
        plain = {w for w in words if tokenish(w) and len(w) > 1}
        # a word with a space in it is looked for directly, and only when the longest
        # token-shaped piece of it ("private" of "private key") occurs; a one-character
        # word always is (`_guard` finds no piece of it)
        self.direct = [(w, _guard(w)) for w in words if w and w not in plain]
        self._extra = {g for _, g in self.direct if g} - plain  # found only as guards
        plain = sorted(plain | self._extra)
        self._table = bytes(b if chr(b) in _ALPHABET else 0x20 for b in range(256))
        every = set(plain)  # each word's prefixes that are words (in order, as `plain`)
        self._prefixes = {
            w.encode(): [w[:n] for n in range(1, len(w) + 1) if w[:n] in every] for w in plain
        }
        self._trie = re.compile(trie(plain).encode()) if plain else None
        self._clean: set[bytes] = set()  # tokens that hold no word
        self._holding: dict[bytes, list[str]] = {}  # tokens that hold some, and which

    def present(self, low: str, encoded: bytes | None = None) -> set[str]:
        """The words that occur in `low` (a lower-cased text); `encoded` is its UTF-8 (with
        surrogates passed), if known (`lowered`)."""
        found = self._tokens_hold(low, encoded) if self._trie is not None else set()
        for word, guard in self.direct:
            if (guard is None or guard in found) and word in low:
                found.add(word)
        if self._extra and not found.isdisjoint(self._extra):
            found -= self._extra
        return found

    def _tokens_hold(self, low: str, encoded: bytes | None = None) -> set[str]:
        if encoded is None:
            encoded = low.encode("utf-8", "surrogatepass")
        split = encoded.translate(self._table).split()
        # only the tokens not known to be clean are kept (most are): no set of them all
        tokens = set(filterfalse(self._clean.__contains__, split))
        if not tokens:
            return tokens
        holding = self._holding
        known = tokens & holding.keys()
        found: set[str] = set().union(*map(holding.__getitem__, known))
        if len(known) < len(tokens):
            tokens -= known
            found.update(self._scan(tokens))
        return found

    def _scan(self, tokens: set[bytes]) -> set[str]:
        """The words in tokens never seen before; each token is remembered."""
        ordered = list(tokens)
        joined = b" ".join(ordered)
        found: set[str] = set()
        starts: list[int] | None = None
        holding = self._holding
        if len(holding) > _REMEMBERED:
            holding.clear()
        # the longest word at each place one begins: searched for from the place after the
        # last (`re` skips the places no word begins at, where a look-ahead tries each)
        search = self._trie.search  # type: ignore[union-attr]
        match = search(joined)
        while match is not None:
            if starts is None:  # where each token begins in `joined`
                starts = list(accumulate(map((1).__add__, map(len, ordered)), initial=0))
            at = match.start()
            token = ordered[bisect_right(starts, at) - 1]
            words = self._prefixes[match.group()]
            holding.setdefault(token, []).extend(words)
            found.update(words)
            match = search(joined, at + 1)
        if len(self._clean) > _REMEMBERED:
            self._clean.clear()
        self._clean.update(tokens if starts is None else tokens.difference(holding))
        return found


def lowered(text: str) -> tuple[str, bytes | None]:
    """`text.lower()`, and its UTF-8 (surrogates passed) when that was made on the way.

    `str.lower` looks up every character of a text with one that is not ASCII in
    Unicode's tables (seven times the time of an ASCII text's): agent sessions are
    mostly ASCII with an arrow or an accent here and there. When each character that is
    not ASCII is its own lower case, lowering the ASCII letters of the UTF-8 bytes and
    decoding them gives the same text: the non-ASCII characters are taken out of the
    bytes (`_ASCII`, deleted: what is left is their whole UTF-8 sequences) and checked
    together. (`str.lower` depends on a neighbour only for 'Σ', which is not its own
    lower case.) Otherwise `str.lower` is asked."""
    if text.isascii():
        return text.lower(), None
    encoded = text.encode("utf-8", "surrogatepass")
    others = encoded.translate(None, _ASCII).decode("utf-8", "surrogatepass")
    if others.lower() != others:
        return text.lower(), None
    encoded = encoded.lower()
    return encoded.decode("utf-8", "surrogatepass"), encoded


_ASCII = bytes(range(128))


def _guard(word: str) -> str | None:
    """The longest piece of `word` made of token characters, if two or more long."""
    pieces = "".join(c if c in _ALPHABET else " " for c in word).split()
    longest = max(pieces, key=len, default="")
    return longest if len(longest) >= 2 else None


def tokenish(word: str) -> bool:
    """Whether `word` is made of token characters (one of two or more characters is
    found through tokens; any other is looked for directly)."""
    return bool(word) and set(word) <= _ALPHABET


def trie(words: list[str]) -> str:
    """A regex matching the longest of `words` at a position, as a character trie
    (a plain alternation of ~250 words costs Python's `re` six times as much)."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        branches = [re.escape(c) + emit(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)
