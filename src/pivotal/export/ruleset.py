"""The secret rules `--redact` applies: gitleaks' published ruleset, read as data.

`rules/gitleaks.toml` is gitleaks' own default configuration (MIT licence,
`rules/LICENSE.gitleaks`; copied unmodified from gitleaks commit b58d3f10,
2026-07-22): ~220 provider rules, each a regular expression, the keywords that
must occur before it is tried, an entropy floor and allowlists. Its patterns
are Go RE2 syntax; `go_regex` translates the few constructs Python's `re` reads
differently (a `(?i)` in mid-pattern, `\\z`, `$`, POSIX classes) and every rule
is compiled with `re.ASCII`, as RE2's `\\w`, `\\d`, `\\s` and `\\b` are ASCII.
The file stays as gitleaks publishes it; one change is made as it is read
(`compile_rule`): gitleaks' usual ending, a quote or a space after the secret,
also accepts any place no word character follows, since a key inside a path
(`…/npm_….env`) has neither after it.

A rule is compiled only when one of its keywords occurs in the text, so most
strings cost one search for the keywords (`pivotal.export.keywords`); it is then
tried only where a match can start (`pivotal.export.anchor`: near its literal
words). `findings` yields the spans to mask with gitleaks' own semantics: the
secret is the rule's `secretGroup`, else its first non-empty group, else the
match; it is dropped when its Shannon entropy is at most the rule's floor or an
allowlist (the rule's or the global one) allows it.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pivotal.export.anchor import Subject, finditer
from pivotal.export.keywords import Keywords

RULES_FILE = Path(__file__).with_name("rules") / "gitleaks.toml"

_POSIX = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
    "space": r" \t\r\n\v\f",
    "word": r"\w",
}


_FLAG_GROUP = re.compile(r"\(\?([a-z]+)\)")


def go_regex(pattern: str) -> str:
    """A Go RE2 pattern as a Python `re` pattern with the same meaning.

    Go applies a `(?i)` to the rest of its group (up to the next `|` of that group
    too); Python only accepts flags at the very start, so such a flag becomes a
    scoped `(?i:…)` closed before every `|` and `)` of its group and reopened
    after each `|`. `\\z` is Python's `\\Z`; `$` (no multi-line flag) is the end of
    the text, which Python's `$` is not (it also matches before a last newline).
    """
    out: list[str] = []
    groups: list[list[str]] = [[]]  # per open group: the flags opened inside it so far
    i, n = 0, len(pattern)
    in_class = False
    class_start = 0
    while i < n:
        char = pattern[i]
        if char == "\\":
            pair = pattern[i : i + 2]
            out.append(r"\Z" if pair == r"\z" else pair)
            i += 2
            continue
        if in_class:
            if pattern.startswith("[:", i) and pattern.find(":]", i) > 0:
                end = pattern.find(":]", i)
                out.append(_POSIX.get(pattern[i + 2 : end], ""))
                i = end + 2
                continue
            if char == "[":
                out.append(r"\[")
            elif char == "]" and i > class_start:
                in_class = False
                out.append(char)
            else:
                out.append(char)
            i += 1
            continue
        if char == "[":
            in_class = True
            out.append(char)
            i += 1
            if pattern.startswith("^", i):
                out.append("^")
                i += 1
            class_start = i  # a `]` right here is a literal
            continue
        flags = _FLAG_GROUP.match(pattern, i) if char == "(" else None
        if flags and (i > 0 or groups != [[]] or out):
            for flag in flags.group(1):
                out.append(f"(?{flag}:")
                groups[-1].append(flag)
            i = flags.end()
            continue
        if char == "(":
            groups.append([])
            out.append(char)
        elif char == ")":
            out.append(")" * len(groups.pop()))
            out.append(char)
        elif char == "|":
            opened = groups[-1]
            out.append(")" * len(opened) + "|" + "".join(f"(?{f}:" for f in opened))
        elif char == "$":
            out.append(r"\Z")
        else:
            out.append(char)
        i += 1
    out.append(")" * len(groups[0]))
    return "".join(out)


def compile_go(pattern: str) -> re.Pattern[str]:
    return re.compile(go_regex(pattern), re.ASCII)


# Where a secret may end and begin. gitleaks ends most rules (151) with `_END`: the
# secret must be followed by a quote, a space, `;`, an escaped newline or the end of the
# text. A path or a URL has none of these after a secret (`…/npm_….env`, `…/ghp_…/x`,
# `<ApiKey>…</ApiKey>`, `"…"!`), so the ending also accepts any place no word
# character follows, as gitleaks' own newer rule for Perplexity keys does with `|\b`.
# Azure's client secret rule wants one of its own separators on both sides: `/` and any
# non-word character are accepted too. Each widening keeps the original alternatives
# first, so a match the original accepts is kept exactly as it was.
_END = r"""(?:[\x60'"\s;]|\\[nr]|\Z)"""
_WIDER = (
    (_END, _END[:-1] + r"|(?!\w))"),
    (r"""(?:^|[\\'"\x60\s>=:(,)])""", r"""(?:^|[\\'"\x60\s>=:(,)/])"""),
    (r"""(?:\Z|[\\'"\x60\s<),])""", r"""(?:\Z|[\\'"\x60\s<),]|(?!\w))"""),
)


def compile_rule(pattern: str) -> re.Pattern[str]:
    """A rule's Go pattern as Python's `re`, with gitleaks' separators around a secret
    widened to what a path has (`_WIDER`)."""
    return re.compile(rule_source(pattern), RULE_FLAGS)


@cache
def rule_source(pattern: str) -> str:
    """What `compile_rule` compiles (with `RULE_FLAGS`): worked out once per rule, as
    reading the rules' literals needs it before the rule is compiled."""
    source = go_regex(pattern)
    for old, new in _WIDER:
        if old in source:
            source = source.replace(old, new)
    return source


RULE_FLAGS = re.ASCII


def entropy(text: str) -> float:
    """Shannon entropy in bits per character (gitleaks' `shannonEntropy`)."""
    if not text:
        return 0.0
    counts = Counter(text)
    size = len(text)
    return -sum(c / size * math.log2(c / size) for c in counts.values())


@dataclass
class Allowlist:
    regexes: list[str] = field(default_factory=list)
    stopwords: list[str] = field(default_factory=list)
    target: str = "secret"
    all_of: bool = False
    """gitleaks' `condition = "AND"`: every check given must allow."""
    needs_path: bool = False
    """It checks file paths or commits, which a session's text has none of."""

    @property
    def compiled(self) -> list[re.Pattern[str]]:
        return _compiled_list(tuple(self.regexes))

    def allows(self, secret: str, match: str, line: str) -> bool:
        target = {"match": match, "line": line}.get(self.target, secret)
        checks = []
        if self.regexes:
            checks.append(any(r.search(target) for r in self.compiled))
        if self.stopwords:
            folded = secret.lower()
            checks.append(any(word in folded for word in self.stopwords))
        if self.needs_path:
            checks.append(False)
        if not checks:
            return False
        return all(checks) if self.all_of else any(checks)


@cache
def _compiled_list(patterns: tuple[str, ...]) -> list[re.Pattern[str]]:
    return [compile_go(p) for p in patterns]


@dataclass
class Rule:
    id: str
    regex: str
    keywords: tuple[str, ...]
    entropy: float = 0.0
    secret_group: int = 0
    allowlists: list[Allowlist] = field(default_factory=list)
    _compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = compile_rule(self.regex)
        return self._compiled


@dataclass
class Ruleset:
    rules: list[Rule]
    allowlist: Allowlist
    _keywords: Keywords | None = None
    _by_keyword: dict[str, list[int]] = field(default_factory=dict)
    _keyword_set: frozenset[str] = frozenset()
    _chosen: dict[frozenset[str], list[Rule]] = field(default_factory=dict)
    """The rules for each set of keywords seen: a session's texts hold few such sets."""

    @property
    def keywords(self) -> Keywords:
        """Every rule's keywords, looked for together (`pivotal.export.keywords`)."""
        if self._keywords is None:
            self._keywords = Keywords(self.keyword_set)
        return self._keywords

    @property
    def keyword_set(self) -> frozenset[str]:
        """Every rule's keywords (without compiling their search: redaction looks for them
        with its own words)."""
        if not self._by_keyword:
            for index, rule in enumerate(self.rules):
                for keyword in rule.keywords:
                    self._by_keyword.setdefault(keyword, []).append(index)
            self._keyword_set = frozenset(self._by_keyword)  # (a set: intersected fast)
        return self._keyword_set

    def candidates(
        self, text: str, low: str | None = None, present: set[str] | None = None
    ) -> list[Rule]:
        """The rules whose keywords occur in `text`, in file order. `low` is its lower
        case and `present` the words found in it (a superset of our keywords), if known."""
        if present is None:
            present = self.keywords.present(text.lower() if low is None else low)
        by_keyword = self._by_keyword
        key = frozenset(present.intersection(self.keyword_set))
        rules = self._chosen.get(key)
        if rules is None:
            if len(self._chosen) >= _CHOSEN:
                self._chosen.clear()
            chosen = {i for word in key for i in by_keyword[word]}
            rules = self._chosen[key] = [self.rules[i] for i in sorted(chosen)]
        return rules


_CHOSEN = 1 << 12  # sets of keywords remembered with their rules


def _allowlist(table: dict) -> Allowlist:  # type: ignore[type-arg]
    return Allowlist(
        regexes=list(table.get("regexes", ())),
        stopwords=[w.lower() for w in table.get("stopwords", ())],
        target=table.get("regexTarget", "secret"),
        all_of=str(table.get("condition", "OR")).upper() == "AND",
        needs_path=bool(table.get("paths") or table.get("commits")),
    )


@cache
def gitleaks() -> Ruleset:
    """gitleaks' rules from the vendored file (read once, compiled rule by rule on use)."""
    data = tomllib.loads(RULES_FILE.read_text(encoding="utf-8"))
    rules = []
    for item in data["rules"]:
        if "regex" not in item:  # a file-name rule (`*.p12`): nothing to find in text
            continue
        rules.append(
            Rule(
                id=item["id"],
                regex=item["regex"],
                keywords=tuple(k.lower() for k in item.get("keywords", ())),
                entropy=float(item.get("entropy", 0.0)),
                secret_group=int(item.get("secretGroup", 0)),
                allowlists=[_allowlist(a) for a in item.get("allowlists", ())],
            )
        )
    glob = data.get("allowlist", {})
    return Ruleset(rules, _allowlist({k: v for k, v in glob.items() if k != "paths"}))


def _line_of(text: str, start: int, end: int) -> str:
    first = text.rfind("\n", 0, start) + 1
    last = text.find("\n", end)
    return text[first : last if last >= 0 else len(text)]


def findings(
    text: str,
    ruleset: Ruleset | None = None,
    subject: Subject | None = None,
    present: set[str] | None = None,
) -> Iterator[tuple[int, int, str]]:
    """(start, end, rule id) of every secret in `text` by gitleaks' semantics. `subject`
    is `text` as `pivotal.export.anchor` reads it and `present` the keywords in
    `text.lower()`, if known."""
    ruleset = ruleset or gitleaks()
    rules = ruleset.candidates(text, present=present)
    if not rules:
        return
    subject = subject or Subject(text)
    for rule in rules:
        for match in finditer(rule.pattern, subject):
            span = secret_in(rule, match, text, ruleset)
            if span is not None:
                yield span[0], span[1], rule.id


def secret_in(
    rule: Rule, match: re.Match[str], text: str, ruleset: Ruleset | None = None
) -> tuple[int, int] | None:
    """The span of the secret in `match` (of `rule`, in `text`), or None when gitleaks
    lets it pass: empty, its entropy at most the rule's floor, or allowed."""
    start, end = _secret_span(rule, match)
    if start >= end:
        return None
    secret = text[start:end]
    if rule.entropy and entropy(secret) <= rule.entropy:
        return None
    whole = match.group(0)
    line = _line_of(text, match.start(), match.end())
    if any(a.allows(secret, whole, line) for a in rule.allowlists):
        return None
    if (ruleset or gitleaks()).allowlist.allows(secret, whole, line):
        return None
    return start, end


def _secret_span(rule: Rule, match: re.Match[str]) -> tuple[int, int]:
    if rule.secret_group and rule.secret_group <= (match.re.groups or 0):
        return match.span(rule.secret_group)
    for group in range(1, (match.re.groups or 0) + 1):
        if match.group(group):
            return match.span(group)
    start, end = match.span()
    whole = match.group(0)
    return start + (len(whole) - len(whole.lstrip("\n"))), end - (
        len(whole) - len(whole.rstrip("\n"))
    )
