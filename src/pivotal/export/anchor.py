"""`finditer` for secret rules, run only where a match can start: near the rule's literal.

Most of gitleaks' provider rules (and our `secret-value`) begin like
`[\\w.-]{0,50}?(?:key|token|…)`: up to 50 name characters, then a word. Python's
`re` has no required-literal search, so it tries that lazy prefix at every
position of the text, up to 50 steps each: on session text this was most of the
redaction time. `plan` reads the pattern's parse tree once and finds its
*anchor*: the first part every match must pass through that begins with a
literal (the words), after a prefix with a repeat in it, of bounded width or made
of characters of known classes. A match can then only start in the run of those
characters just before an occurrence of a literal, at most the prefix's width
before it. `finditer` tries the compiled pattern there only, in ascending order,
continuing after each match: what `re.finditer` does, minus positions where no
match can start, so the matches are the same (`tests/export/test_anchor.py`
compares both on every anchored rule). What follows the prefix is also compiled on
its own (`Plan.rest`) and tried once at each literal: where it fails (`key` with no
`=` after it, most of them), no match passes through that literal and none of its up
to 50 start positions is tried. A pattern that begins with an assertion
(`\\b(?:hvs\\.|s\\.)…`, `\\bsk-ant-…`) is anchored at its literals too: `re`
finds the literal after a leading literal by itself, but not after an assertion
(it then tries every position). Patterns of another shape (a literal or a
fixed-width start: `re` tries a position in a few steps), or texts where the
shortcut would not pay, get the plain `finditer`.

The literals are looked for in a lower case of the text made one character for
one (`Subject`): `str.lower` turns 'İ' into two characters, and leaves 'ı' and 'ſ',
which Unicode case-insensitive matching equates with 'i' and 's'.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from re import _compiler, _parser
from re import _constants as C  # noqa: N812

_LONGEST = 8  # literal characters worth collecting
_MOST = 64  # literal strings worth looking for
# The characters Unicode case-insensitive matching equates with an ASCII letter that
# `str.lower` does not turn into that letter ('İ' even becomes two characters): a
# lower case in which the rules' literals can be found, one character for one.
_FOLD = {0x130: "i", 0x131: "i", 0x17F: "s"}
_ZERO_WIDTH = (C.AT, C.ASSERT, C.ASSERT_NOT)
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)
_CATEGORIES = {
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S",
}


@dataclass(frozen=True)
class Plan:
    """Where matches of one pattern can start: within `shortest`..`longest` characters
    before an occurrence of one of `literals` (lower case), over characters of `run`."""

    literals: tuple[str, ...]
    shortest: int
    longest: int | None  # None: unbounded (then `run` bounds it)
    run: re.Pattern[str] | None  # `(?:class)*+`: the prefix's characters, matched backwards
    after: tuple[list[tuple], _parser.State] | None = field(  # type: ignore[type-arg]
        default=None, compare=False, repr=False
    )
    """What follows the prefix (it begins with a literal): its items (`_flatten`) and the
    parse state they belong to."""

    @cached_property
    def rest(self) -> re.Pattern[str] | None:
        """`after` as a pattern of its own (`_after`), made on first use (most rules are
        never tried): a literal where it does not match is one no match of the whole
        pattern passes through."""
        tree = None if self.after is None else _after(*self.after)
        if tree is None:
            return None
        try:
            return _compiler.compile(tree, tree.state.flags)  # type: ignore[no-any-return]
        except Exception:  # noqa: BLE001 - the compiler's internals: every position is tried
            return None


class Subject:
    """A text that many patterns are run on, and what they share: its lower case (one
    character for one), the words known to occur in it, its reverse (made on use)."""

    __slots__ = ("text", "low", "folded", "words", "vocabulary", "_backwards")

    def __init__(
        self,
        text: str,
        low: str | None = None,
        words: set[str] | None = None,
        vocabulary: frozenset[str] = frozenset(),
    ) -> None:
        """`low` is `text.lower()`; `words` those of `vocabulary` that occur in it."""
        self.text = text
        low = text.lower() if low is None else low
        self.folded = not text.isascii() and (
            len(low) != len(text) or "\u0131" in text or "\u017f" in text
        )
        if self.folded:
            low, words = text.translate(_FOLD).lower(), None
        self.low = low
        self.words = words
        self.vocabulary = vocabulary if words is not None else frozenset()
        self._backwards: str | None = None

    @property
    def backwards(self) -> str:
        if self._backwards is None:
            self._backwards = self.text[::-1]
        return self._backwards


def parsed(pattern: re.Pattern[str]) -> _parser.SubPattern | None:
    """The parse tree of `pattern` (`re`'s own parser), None if it cannot be read."""
    return _read(pattern.pattern, pattern.flags)[0]


def plan(pattern: re.Pattern[str]) -> Plan | None:
    """The anchor of `pattern`, or None when it has none worth using."""
    return _read(pattern.pattern, pattern.flags)[1]


def literals_of(source: str, flags: int) -> tuple[str, ...]:
    """The literals of the plan of `re.compile(source, flags)`, () if it has none: read
    without compiling it (most rules are never tried, and need not be compiled)."""
    how = _read(source, flags)[1]
    return () if how is None else how.literals


def needed(source: str, flags: int) -> tuple[str, ...]:
    """Lower-case literals one of which every match of `re.compile(source, flags)` passes
    through, read without compiling it: its plan's, or for a pattern that has no plan
    those every match begins with (`re` finds a leading literal by itself, and such a
    pattern is not planned: `SK[0-9a-fA-F]{32}`); () when not known."""
    tree, how = _read(source, flags)
    if how is not None:
        return how.literals
    if tree is None or tree.getwidth()[0] == 0:
        return ()
    first = _starts(_flatten(list(tree.data), tree.state.flags), _LONGEST)
    return () if "" in first else tuple(sorted(first))


_READ: dict[tuple[str, int], tuple[_parser.SubPattern | None, Plan | None]] = {}


def _read(source: str, flags: int) -> tuple[_parser.SubPattern | None, Plan | None]:
    """The parse tree and plan of `re.compile(source, flags)`, each worked out once: kept
    under the flags given and under the pattern's own (`flags` and those it sets itself,
    which a compiled pattern's `flags` are), so that reading a rule's literals before it
    is compiled and planning its pattern once it is share them."""
    key = (source, flags)
    known = _READ.get(key)
    if known is None:
        try:
            tree = _parser.parse(source, flags)
        except Exception:  # noqa: BLE001 - the parser's internals: no plan, plain finditer
            tree = None
        known = _READ[key] = (tree, _plan(tree))
        if tree is not None:
            _READ[source, tree.state.flags] = known
    return known


def _plan(tree: _parser.SubPattern | None) -> Plan | None:
    if tree is None:
        return None
    if tree.getwidth()[0] == 0:  # an empty match would change finditer's stepping
        return None
    items = _flatten(list(tree.data), tree.state.flags)
    if len(items) == 1 and items[0][0] is C.BRANCH:
        return _either(items[0], tree.state)
    return plan_of(items, tree.state)


def _either(branch: tuple, state: _parser.State) -> Plan | None:  # type: ignore[type-arg]
    """One plan for a pattern that is an alternation (Atlassian's: a label and its value,
    or a token that names itself): every branch's literals (a branch that begins with
    one starts at it), and a window wide enough for each branch's."""
    _, (_, branches), flags = branch
    plans = []
    for alternative in branches:
        items = _flatten(list(alternative.data), flags)
        how = plan_of(items, state)
        if how is None:
            first = _starts(items, _LONGEST)
            if not all(len(w) >= 2 for w in first):
                return None
            how = Plan(tuple(sorted(first)), 0, 0, None)
        plans.append(how)
    runs = {how.run.pattern if how.run is not None else None for how in plans}
    run = plans[0].run if len(runs) == 1 else None
    longest = [how.longest for how in plans]
    if run is None and None in longest:
        return None
    literals = tuple(sorted({w for how in plans for w in how.literals}))
    shortest = min(how.shortest for how in plans)
    return Plan(literals, shortest, None if None in longest else max(longest), run)  # type: ignore[type-var]


def plan_of(items: list[tuple], state: _parser.State) -> Plan | None:  # type: ignore[type-arg]
    """`plan` for a sequence of flattened items (`_flatten`) of a pattern parsed with `state`."""

    def width(items: list[tuple]) -> tuple[int, int]:  # type: ignore[type-arg]
        return _parser.SubPattern(state, [(op, av) for op, av, _ in items]).getwidth()

    lead = 0  # zero-width items first (`\b`, a look-behind): `re` finds no literal after them
    while lead < len(items) and items[lead][0] in _ZERO_WIDTH:
        lead += 1
    if 0 < lead < len(items):
        literals = _starts(items[lead:], _LONGEST)
        if all(len(w) >= 2 or (w and not w.isalnum()) for w in literals):
            return Plan(tuple(sorted(literals)), 0, 0, None)  # a match starts at one of them
    for k in range(len(items)):
        op, _, flags = items[k]
        if k == 0 and op is C.LITERAL and not flags & re.IGNORECASE:
            return None  # a literal first: `re` finds it as fast as we would
        prefix = items[:k]
        if not any(item[0] in _REPEATS for item in prefix):
            continue  # `re` tries each position in a few steps: no faster with us
        lo, hi = width(prefix)
        run = _run_class(prefix, width)
        bounded = hi < C.MAXREPEAT
        if not bounded and run is None:
            return None
        literals = _starts(items[k:], _LONGEST)
        if all(len(w) >= 2 or (w and not w.isalnum()) for w in literals):
            after = (items[k:], state)
            return Plan(tuple(sorted(literals)), lo, hi if bounded else None, run, after)
    return None


_FLAGS = int(re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE)  # (an int: enum & is slow)
_REFERENCES = (C.GROUPREF, C.GROUPREF_EXISTS)


def _after(items: list[tuple], state: _parser.State) -> _parser.SubPattern | None:  # type: ignore[type-arg]
    """The pattern `items` (flattened, `_flatten`) make on their own, each with its flags,
    or None when that is not what they match inside the whole pattern: a reference to
    a group they do not hold.

    A match of the whole pattern that passes through a literal at `at` matches `items`
    there (from `at` on, what it matched after the prefix), so where the rest does not
    match at `at` no match can use that literal: its start positions need not be tried.
    A prefix of up to 50 characters makes up to 50 tries of the whole pattern per
    literal, mostly failing at what follows it (`key` with no `=` after it); the rest
    fails there once."""
    if _refers([(op, av) for op, av, _ in items]):
        return None
    base = int(state.flags) & _FLAGS
    data = []
    for op, av, flags in items:
        flags = int(flags)
        add, remove = flags & _FLAGS & ~base, base & ~flags & _FLAGS
        inner = _parser.SubPattern(state, [(op, av)])
        data.append((C.SUBPATTERN, (None, add, remove, inner)) if add or remove else (op, av))
    return _parser.SubPattern(state, data)


def _refers(data: list[tuple]) -> bool:  # type: ignore[type-arg]
    """Whether the (op, value) items of a parse tree refer to a group anywhere in them."""
    for op, value in data:
        if op in _REFERENCES:
            return True
        for inner in value if isinstance(value, tuple | list) else (value,):
            subs = inner if isinstance(inner, list) else [inner]
            if any(isinstance(s, _parser.SubPattern) and _refers(s.data) for s in subs):
                return True
    return False


def finditer(pattern: re.Pattern[str], subject: Subject | str) -> Iterator[re.Match[str]]:
    """The matches `pattern.finditer(text)` yields, in the same order."""
    how = plan(pattern)
    if isinstance(subject, str):
        subject = Subject(subject)
    text = subject.text
    starts = _starts_in(how, subject) if how is not None else None
    if starts is None:
        yield from pattern.finditer(text)
        return
    match = pattern.match
    position = 0
    for first, last in starts:
        start = first if first > position else position
        while start <= last:
            found = match(text, start)
            if found is None:
                start += 1
                continue
            yield found
            position = start = found.end()


def _starts_in(how: Plan, subject: Subject) -> list[tuple[int, int]] | None:
    """Where matches can start, as merged (first, last) ranges; None: search all of it."""
    low, words, vocabulary = subject.low, subject.words, subject.vocabulary
    hits: list[int] = []
    find = low.find
    for literal in how.literals:
        if words is not None and literal in vocabulary and literal not in words:
            continue
        at = find(literal)
        while at >= 0:
            hits.append(at)
            at = find(literal, at + 1)
    if not hits:
        return []
    if len(how.literals) > 1:
        hits = sorted(set(hits))
    text = subject.text
    rest = how.rest
    if rest is not None:  # a literal where what follows the prefix fails: no match passes it
        match = rest.match
        hits = [hit for hit in hits if match(text, hit) is not None]
        if not hits:  # (most literals: the text's reverse is not made for nothing)
            return []
    ranges: list[tuple[int, int]] = []
    size = len(low)
    budget = size // 8 + 64  # beyond it, re's own scan is cheaper than ours
    shortest, longest, run = how.shortest, how.longest, how.run
    backwards = subject.backwards if run is not None else ""
    previous = -1  # the last hit, and where its run starts
    previous_first = 0
    end = -1  # the last range's end
    for hit in hits:
        last = hit - shortest
        floor = 0 if longest is None else max(0, hit - longest)
        first = floor
        if run is not None:
            # the run of the prefix's characters just before `hit`, read backwards, no
            # further than the previous hit (whose run it then continues)
            stop = floor if floor > previous else previous
            first = hit - run.match(backwards, size - hit, size - stop).end() + size - hit  # type: ignore[union-attr]
            if first == stop == previous:
                first = floor if floor > previous_first else previous_first
            previous, previous_first = hit, first
        if first > last:
            continue
        if first <= end + 1 and ranges:
            budget -= last - end
            ranges[-1] = (ranges[-1][0], last)
        else:
            budget -= last - first + 1
            ranges.append((first, last))
        end = last
        if budget < 0:
            return None
    return ranges


def _flatten(data: list, flags: int) -> list[tuple]:  # type: ignore[type-arg]
    """A sequence with its groups opened into it (a concatenation either way), each item
    with the flags in force for it."""
    out: list[tuple] = []  # type: ignore[type-arg]
    for op, av in data:
        if op is C.SUBPATTERN:
            _, add, remove, sub = av
            out += _flatten(list(sub.data), (flags | add) & ~remove)
        else:
            out.append((op, av, flags))
    return out


def _starts(items: list[tuple], budget: int) -> set[str]:  # type: ignore[type-arg]
    """Lower-case strings one of which begins every match of `items` ({""}: unknown)."""
    if not items or budget <= 0:
        return {""}
    op, av, flags = items[0]
    rest = items[1:]
    if op in _ZERO_WIDTH:
        return _starts(rest, budget)
    heads: set[str] | None = None
    if op is C.LITERAL:
        heads = {chr(av).lower()}
    elif op is C.IN and all(o is C.LITERAL for o, _ in av):
        heads = {chr(a).lower() for _, a in av}
    if heads is not None:
        tails = _starts(rest, budget - 1)
        found = {h + t for h in heads for t in tails}
        return found if len(found) <= _MOST else heads
    if op is C.SUBPATTERN:
        _, add, remove, sub = av
        inner = [(o, a, (flags | add) & ~remove) for o, a in sub.data]
        return _starts(inner + rest, budget)
    if op is C.BRANCH:
        found = set()
        for branch in av[1]:
            found |= _starts([(o, a, flags) for o, a in branch.data] + rest, budget)
        return found if len(found) <= _MOST else {""}
    return {""}


def _run_class(prefix: list[tuple], width) -> re.Pattern[str] | None:  # type: ignore[type-arg,no-untyped-def]
    """`(?:C1|C2…)*+` when the prefix consumes only characters of classes C1, C2…
    (single-character items, or repeats of one); None when it consumes anything else."""
    sources = []
    for item in prefix:
        op, av, flags = item
        if width([item]) == (0, 0):
            continue
        single = (op, av)
        if op in _REPEATS:
            body = av[2].data
            if len(body) != 1:
                return None
            single = body[0]
        source = _class_source(*single)
        if source is None:
            return None
        sources.append(f"(?{_letters(flags)}:{source})" if _letters(flags) else source)
    if not sources:
        return None
    # possessive: each character is taken by the first class that has it, never retried
    # by another (an alternation of overlapping classes under `*` backtracks exponentially)
    return re.compile(f"(?:{'|'.join(sources)})*+", prefix[0][2] & re.ASCII)


def _letters(flags: int) -> str:
    return "".join(c for c, f in (("i", re.I), ("s", re.S)) if flags & f)


def _class_source(op, av) -> str | None:  # type: ignore[no-untyped-def]
    """One single-character item of a parse tree as pattern text (None: not one we write)."""
    if op is C.LITERAL:
        return re.escape(chr(av))
    if op is not C.IN:
        return None
    parts = []
    for o, a in av:
        if o is C.NEGATE:
            parts.append("^")
        elif o is C.LITERAL:
            parts.append(_in_class(chr(a)))
        elif o is C.RANGE:
            parts.append(f"{_in_class(chr(a[0]))}-{_in_class(chr(a[1]))}")
        elif o is C.CATEGORY and a in _CATEGORIES:
            parts.append(_CATEGORIES[a])
        else:
            return None
    return "[" + "".join(parts) + "]"


def _in_class(char: str) -> str:
    return "\\" + char if char in "\\]^-[" else char
