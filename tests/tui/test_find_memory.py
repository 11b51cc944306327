"""The in-memory turns searched as one text (find.MemoryText) find exactly what the
query's pattern finds turn by turn: case, the letters `re.IGNORECASE` folds to
ASCII (İ ı ſ K), a NUL inside a turn, matches that would straddle two turns."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.model import Turn
from pivotal.tui.find import Finder, Query, turn_text

from .sessions import agent, bash, human


def indexed(turns: list[Turn]) -> list[Turn]:
    for n, turn in enumerate(turns):
        turn.index = n
    return turns


def turn_by_turn(turns: list[Turn], query: Query) -> list[int]:
    pattern = query.pattern()
    return [t.index for t in turns if pattern.search(turn_text(t))]


TURNS = [
    "The server is up: 31 tok/s.",
    "KV cache ſize too small",  # ſ (long s) matches 's' under IGNORECASE, not after lower()
    "İstanbul mirror",  # İ lower-cases to two characters
    "ends with kv",
    "cache at the start",  # 'kv cache' would straddle the turn before: no match
    "Kelvin: 300 K",  # the Kelvin sign matches 'k'
    "nul\0inside kv\0cache",
    "ASCII CASE Error",
]
NEEDLES = [
    "kv cache",
    "size",
    "istanbul",
    "İstanbul",
    "300 k",
    "Error",
    "error",
    "kv\0cache",
    "ı",
    "server is up",
    "tok/s.",
]


def sample() -> list[Turn]:
    turns = [human(TURNS[0])]
    turns += [agent(text) if n % 2 else human(text) for n, text in enumerate(TURNS[1:], 1)]
    turns.append(agent("ran it", bash("grep -rn kv cache .", "kv\ncache\nKV CACHE hit")))
    return indexed(turns)


def test_every_needle_finds_what_the_pattern_finds() -> None:
    turns = sample()
    for needle in NEEDLES:
        query = Query(needle)
        finder = Finder(turns, query, None)
        assert finder.all() == turn_by_turn(turns, query), needle
        if query.plain() is not None:
            assert finder.known is not None, needle  # the one-text path was taken


def test_the_letters_ignorecase_folds_are_decided_by_the_pattern() -> None:
    turns = sample()
    assert Finder(turns, Query("size"), None).all() == [1]  # 'ſize': lower() alone misses it
    assert Finder(turns, Query("300 k"), None).all() == [5]  # Kelvin sign
    assert Finder(turns, Query("kv cache"), None).all() == [1, 8]  # not across turns 3 and 4


alphabet = st.sampled_from(list("abkKsS iI\0") + ["\u0130", "\u0131", "\u017f", "\u212a", "é"])


@settings(max_examples=150, deadline=None)
@given(
    texts=st.lists(st.text(alphabet, max_size=12), min_size=1, max_size=8),
    needle=st.text(alphabet, min_size=1, max_size=3),
)
def test_any_texts_and_needle(texts: list[str], needle: str) -> None:
    turns = indexed([human(text) for text in texts])
    query = Query(needle)
    try:
        query.pattern()
    except re.error:  # an escaped plain text always compiles; kept for clarity
        return
    assert Finder(turns, query, None).all() == turn_by_turn(turns, query)
