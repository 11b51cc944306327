"""Long runs without separators (a base64 blob, a data URI, a line of padding): examined once.

Python's `re` has no search for many patterns at once, so every rule walks a text on
its own, and a keyword test over a 20 MB run of letters finds most short words by
chance: a 20 MB base64 tool output cost 21 s, about a second per MB. Yet such a run
holds no separator (only letters, digits, `+/_.~-` and line breaks: `RUN_CHARS`),
and most rules need one (a quote, a space, `=`, `:`): they cannot match inside it.
So a run of `LONG` characters or more is examined once, in two parts:

- the ordinary search sees each run's first and last `EDGE` characters in place of
  the whole (`stand_in`): an assignment whose value it is (`KEY=<run>`), a key glued
  to its edge. A secret found there that stops where the middle was left out is
  masked to the run's end, as the rule would have matched on through the run;
- inside it, only the rules whose match can be made of run characters are tried (a
  provider's token, a JWT: `run_rule`), each only where its first literal occurs:
  one search of the run per literal, shared by the rules that begin with it
  (`RunIndex`, `examine`), and none for a literal with a character the run lacks.

A rule is turned on by its keywords (gitleaks' test) outside the runs and at their
edges; inside a run a rule's own first literal stands for its keyword, and a secret
found there is kept only if one of the rule's keywords is somewhere in the text.
What the whole-text search would mask is masked (`tests/export/test_redact_runs.py`).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from re import _constants as C  # noqa: N812
from re import _parser

from pivotal.export.anchor import _flatten, _starts, parsed, plan_of

RUN_CHARS = frozenset(string.ascii_letters + string.digits + "+/_.~-\n\r")
"""What a run is made of: the characters of tokens and paths, and line breaks (base64
is often wrapped at 76 columns)."""
LONG = 4096
"""A run this long (or longer) is examined once."""
EDGE = 1024
"""Characters of each end of a run the ordinary search sees: more than any bounded
rule's secret is long (the longest, PyPI's, is ~1,020)."""
JOIN = "\n"
"""What stands for a run's middle in `stand_in`: a separator every rule stops at."""

_CLASS = "A-Za-z0-9+/_.~\n\r-"
_SEPARATOR = re.compile(f"[^{_CLASS}]")
_BLOCK = LONG // 2  # a run of LONG or more holds a whole aligned block of this size
_WIDEST = 64  # a literal found inside a run is tried at this many places at most


def long_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of `LONG` or more `RUN_CHARS` in `text`, in order.

    Such a run covers a whole aligned block of `LONG // 2` characters, so the text is
    looked at once per block (a separator is usually a few characters in); from a
    block without one, the run is followed to its ends."""
    size = len(text)
    runs: list[tuple[int, int]] = []
    search = _SEPARATOR.search
    block = 0
    while block + _BLOCK <= size:
        if search(text, block, block + _BLOCK) is not None:
            block += _BLOCK
            continue
        start = max(0, block - _BLOCK)
        for separator in _SEPARATOR.finditer(text, start, block):
            start = separator.end()
        after = search(text, block + _BLOCK)
        end = size if after is None else after.start()
        if end - start >= LONG:
            runs.append((start, end))
        block = (end // _BLOCK + 1) * _BLOCK
    return runs


def stand_in(
    text: str, runs: list[tuple[int, int]]
) -> tuple[str, Callable[[int, int], tuple[int, int]]]:
    """`text` with the middle of each run left out (its ends kept, `JOIN` between
    them), and a function that maps a span of it back to `text`: a span that stops
    where a middle was left out goes on to its run's end (one that went on across
    the `JOIN`, as a private key's body does, holds the middle anyway)."""
    pieces: list[str] = []
    cuts: list[tuple[int, int, int]] = []  # (where JOIN is shown, characters left out, run end)
    position = shown = 0
    for start, end in runs:
        pieces += [text[position : start + EDGE], JOIN]
        shown += start + EDGE - position
        cuts.append((shown, end - start - 2 * EDGE - len(JOIN), end))
        shown += len(JOIN)
        position = end - EDGE
    pieces.append(text[position:])

    def where(shown: int) -> int:
        """The place in `text` of a place in the shown text."""
        return shown + sum(removed for join, removed, _ in cuts if join < shown)

    def back(first: int, last: int) -> tuple[int, int]:
        for join, _, run_end in cuts:
            if first < join == last:  # stopped at a left-out middle: on through the run
                return where(first), run_end
        return where(first), where(last)

    return "".join(pieces), back


@dataclass(frozen=True, eq=False)  # compared and hashed as itself: it is looked up often
class RunRule:
    """A rule that can match inside a run: where to try it and what it finds."""

    kind: str
    pattern: re.Pattern[str]
    entries: tuple[tuple[str, int, int], ...] | None
    """(literal, shortest, longest): a match starts `shortest`..`longest` characters
    before an occurrence of `literal` (lower case). None: no literal to look for."""
    keywords: tuple[str, ...]
    secret: Callable[[re.Match[str], str], tuple[int, int] | None]
    """The span to mask of a match in a text, or None when the rule lets it pass."""


def run_rule(
    kind: str,
    pattern: re.Pattern[str],
    keywords: Iterable[str],
    secret: Callable[[re.Match[str], str], tuple[int, int] | None],
) -> RunRule | None:
    """The rule as a `RunRule`, or None when no match of it fits in a run."""
    tree = parsed(pattern)
    if tree is None:  # unreadable to us: tried everywhere a keyword of it is
        return RunRule(kind, pattern, None, tuple(keywords), secret)
    if not _fits(tree.data):
        return None
    items = _flatten(list(tree.data), tree.state.flags)
    if len(items) == 1 and items[0][0] is C.BRANCH:  # an alternation: each on its own
        alternatives = [
            [(op, av, items[0][2]) for op, av in branch.data]
            for branch in items[0][1][1]
            if _fits(branch.data)
        ]
    else:
        alternatives = [items]
    entries: list[tuple[str, int, int]] = []
    for alternative in alternatives:
        found = _entries(alternative, tree.state)
        if found is None:
            return RunRule(kind, pattern, None, tuple(keywords), secret)
        entries += found
    return RunRule(kind, pattern, tuple(sorted(set(entries))), tuple(keywords), secret)


def _entries(items: list[tuple], state: _parser.State) -> list[tuple[str, int, int]] | None:  # type: ignore[type-arg]
    """Where a match of `items` can start: at a literal it begins with (two characters
    or more), else a few places before a literal further in (`anchor.plan_of`)."""
    first = _starts(items, 8)
    if all(len(w) >= 2 for w in first):
        return [(w, 0, 0) for w in first]
    how = plan_of(items, state)
    if how is None or how.longest is None or how.longest - how.shortest > _WIDEST:
        return None
    return [(w, how.shortest, how.longest) for w in how.literals]


class RunIndex:
    """Run rules by the literal searched for them: literals that share a beginning are
    searched once by it (`sk` for `sk-ant-`, `sk-proj-`…; `zxlk` for the JWT headers)."""

    def __init__(self, rules: list[RunRule]) -> None:
        self.scanned = [r for r in rules if r.entries is None]
        entries = [
            (literal, rule, shortest, longest)
            for rule in rules
            for literal, shortest, longest in rule.entries or ()
            if set(literal) <= _LOW_RUN_CHARS
        ]
        literals = {e[0] for e in entries}
        self.groups: dict[str, list[tuple[str, RunRule, int, int]]] = {}
        for entry in entries:
            literal = entry[0]
            keys = [k for k in literals if literal.startswith(k)]
            head = literal[:4]
            if len(literal) > 4 and sum(other.startswith(head) for other in literals) > 1:
                keys.append(head)
            self.groups.setdefault(min(keys, key=len), []).append(entry)


def examine(
    text: str,
    low: str,
    runs: list[tuple[int, int]],
    index: RunIndex,
    has_keyword: Callable[[RunRule], bool],
) -> list[tuple[int, int, str]]:
    """(start, end, kind) of the secrets the run rules find starting inside the runs.

    `low` is `text.lower()`, one character for one. Each literal is looked for once per
    run and tried for every rule that begins with it; a literal found too often (a run
    of 'eyeyey…') hands its rules to `re` for that run instead, as does a rule with no
    literal whose keyword is in the text."""
    spans: list[tuple[int, int, str]] = []
    for start, end in runs:
        have = _characters(low, start, end)
        budget = (end - start) // _WIDEST + 64
        slow: set[RunRule] = {rule for rule in index.scanned if has_keyword(rule)}
        for key, members in index.groups.items():
            live = [m for m in members if have.issuperset(m[0])]
            if not live:
                continue
            hits = []
            at = low.find(key, start, end)
            while at >= 0 and len(hits) <= budget:
                hits.append(at)
                at = low.find(key, at + 1, end)
            if len(hits) > budget:
                slow.update(rule for _, rule, _, _ in live)
                continue
            for at in hits:
                for literal, rule, shortest, longest in live:
                    if rule in slow or not low.startswith(literal, at):
                        continue
                    for place in range(max(start, at - longest), max(start, at - shortest + 1)):
                        match = rule.pattern.match(text, place)
                        if match is not None:
                            _keep(spans, rule, match, text, has_keyword)
                            break
        for rule in slow:
            for match in rule.pattern.finditer(text, start, end):
                _keep(spans, rule, match, text, has_keyword)
    return spans


_LOW_RUN_CHARS = frozenset(c.lower() for c in RUN_CHARS)
_CHUNK = 1 << 20


def _characters(low: str, start: int, end: int) -> frozenset[str]:
    """The characters in `low[start:end]` (all `RUN_CHARS`, lower case): a literal with
    any other cannot be in it (a run of 'x' holds none)."""
    have: set[str] = set()
    known = b""
    for at in range(start, end, _CHUNK):
        rest = low[at : min(end, at + _CHUNK)].encode("ascii").translate(None, known)
        if rest:
            have.update(set(rest.decode("ascii")))
            known = "".join(sorted(have)).encode("ascii")
    return frozenset(have)


def _keep(
    spans: list[tuple[int, int, str]],
    rule: RunRule,
    match: re.Match[str],
    text: str,
    has_keyword: Callable[[RunRule], bool],
) -> None:
    span = rule.secret(match, text)
    if span is not None and has_keyword(rule):
        spans.append((span[0], span[1], rule.kind))


def _fits(items: Iterable[tuple]) -> bool:  # type: ignore[type-arg]
    """Whether some match of the parsed `items` is made of `RUN_CHARS` only."""
    for op, av in items:
        if op in (C.AT, C.ASSERT_NOT):
            continue
        if op is C.ASSERT:  # what it looks at is in the run too, for a match inside it
            if not _fits(av[1].data):
                return False
            continue
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            if av[0] > 0 and not _fits(av[2].data):
                return False
        elif op is C.SUBPATTERN:
            if not _fits(av[3].data):
                return False
        elif op is C.ATOMIC_GROUP:
            if not _fits(av.data):
                return False
        elif op is C.BRANCH:
            if not any(_fits(branch.data) for branch in av[1]):
                return False
        elif not _admits(op, av):
            return False
    return True


_WORD = frozenset(string.ascii_letters + string.digits + "_")


def _admits(op, av) -> bool:  # type: ignore[no-untyped-def]
    """Whether a one-character item can match one of `RUN_CHARS`."""
    if op is C.LITERAL:
        return chr(av) in RUN_CHARS
    if op in (C.NOT_LITERAL, C.ANY):
        return True
    if op is C.CATEGORY:
        return av is not C.CATEGORY_SPACE
    if op is not C.IN:
        return True  # nothing else is written in the rules: assume it can
    chars: set[str] = set()
    negate = False
    for o, a in av:
        if o is C.NEGATE:
            negate = True
        elif o is C.LITERAL:
            chars.add(chr(a))
        elif o is C.RANGE:
            chars.update(chr(c) for c in range(a[0], min(a[1], 0x7F) + 1))
        elif o is C.CATEGORY:
            chars.update(_CATEGORY.get(a, RUN_CHARS))
    return bool(RUN_CHARS - chars) if negate else bool(RUN_CHARS & chars)


_CATEGORY = {
    C.CATEGORY_WORD: _WORD,
    C.CATEGORY_DIGIT: frozenset(string.digits),
    C.CATEGORY_NOT_SPACE: RUN_CHARS,
    C.CATEGORY_NOT_WORD: RUN_CHARS - _WORD,
    C.CATEGORY_NOT_DIGIT: RUN_CHARS - frozenset(string.digits),
    C.CATEGORY_SPACE: frozenset(),
}
