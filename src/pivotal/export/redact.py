"""Mask secrets and personal details before a session leaves the machine in an export.

Agent sessions are full of things people would not paste into a bug report:
API keys echoed by `env`, tokens in curl commands, private keys `cat`-ed by
mistake, e-mail addresses in git logs, and the user name in every path.

Two rule sets find them. The maintained one is gitleaks' published ruleset,
read as data (`pivotal.export.ruleset`, `rules/gitleaks.toml`): ~220 provider
rules kept up to date by the gitleaks project. Ours (`OWN_RULES`, below) covers
what it lacks: today's OpenAI and Anthropic key shapes (gitleaks wants markers
that current keys do not carry), `*_PASSWORD=` / `*_SECRET=` / `*_TOKEN=` values
and `x-api-key:` headers whatever their entropy, any `Authorization:` header
and bearer token, credentials in URLs (`postgres://user:pass@host`, Redis's
`redis://:pass@host`), passwords on command lines (`mysql -pPASS`, `docker
login -p`, `sshpass -p`), Mailgun, New Relic and Telegram bot keys after any
label (gitleaks knows them only after its own spellings of one), AWS key ids
outside gitleaks' alphabet, private keys cut short or JSON-escaped, a key cut
in half where a quote was shortened ("…"), e-mail addresses, and
home-directory paths (`/home/<user>`, `/Users/<user>`, `C:\\Users\\<user>`,
`~user`, Claude Code's project slugs). Each of ours says where its shape comes
from beside it.

Every finding of both is collected on the original text first; overlapping
findings are masked as one (the first one's kind names it), so one rule can
never see another's half-masked text. A long run without separators (a base64
blob) is examined once, not by every rule (`pivotal.export.runs`).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any

from pivotal.export.anchor import Subject, finditer, literals_of, needed
from pivotal.export.keywords import Keywords, lowered, tokenish
from pivotal.export.ruleset import RULE_FLAGS, Rule, gitleaks, rule_source, secret_in
from pivotal.export.runs import RunIndex, RunRule, examine, long_runs, run_rule, stand_in

_PEM = r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_SECRET_NAME = (
    r"(?i:\b[a-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey"
    r"|private[_-]?key|access[_-]?key|credentials?|_pwd))"  # MYSQL_PWD, DB_PWD
)
# A password given on a command line: quoted, or up to the next space or shell operator;
# never a variable (`-p"$DB_PASS"` names it, it does not hold it).
_ARGUMENT = r"""(?!['"]?\$)('[^'\n]+'|"[^"\n]+"|[^\s'"`;|&()<>]+)"""
_SAME_COMMAND = r"[^\n;|&]{0,200}?"
_CUT_PIECE = r"(?=[A-Za-z_+/=-]*\d)(?=[\d_+/=-]*[A-Za-z])[\w+/=-]{6,}"

# (kind, pattern, group to mask (0 = the whole match), needles). A rule runs only when
# one of its needles occurs in the (lower-cased) text: they are looked for together with
# gitleaks' keywords (`_words`), and most strings hold none.
OWN_RULES: list[tuple[str, re.Pattern[str], int, tuple[str, ...]]] = [
    (
        "private-key",
        re.compile(rf"{_PEM}(?:[\s\S]*?{_PEM_END}|(?:[A-Za-z0-9+/=\s:-]|\\n)*)"),
        0,
        ("private key",),
    ),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}"), 0, ("sk-ant-",)),
    (
        "openai-key",
        re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"),
        0,
        ("sk-",),
    ),
    ("aws-access-key-id", re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b"), 0, ("akia", "asia")),
    (
        "aws-secret-key",
        re.compile(
            r"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)"
            r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        1,
        ("secret",),
    ),
    (
        "url-credentials",  # scheme://user:password@host (redis://:password@host), or a token
        re.compile(
            r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://"
            r"([^\s:/@\"'`<>]*:[^\s/@\"'`<>]+|[A-Za-z0-9_.~-]{20,})@"
        ),
        1,
        ("://",),
    ),
    (
        "authorization",
        re.compile(
            r"(?i:\bauthorization\b[\"']?\s*[:=]\s*[\"']?(?:bearer|basic|token)\s+)"
            r"([A-Za-z0-9._~+/=-]{8,})"
        ),
        1,
        ("authorization",),
    ),
    ("bearer-token", re.compile(r"(?i:\bbearer\s+)([A-Za-z0-9._~+/-]{20,}=*)"), 1, ("bearer",)),
    (
        "secret-value",  # NAME_PASSWORD=value, "api_key": "value", x-api-key: value
        re.compile(
            _SECRET_NAME + r"\b[\"']?\s*(?::|=|:=)\s*[\"']?"
            r"(?![$%{<(\[])([^\s\"'`,;)}\]]{4,})"
        ),
        1,
        ("pass", "secret", "token", "key", "credential", "_pwd"),
    ),
    # Passwords on command lines, from each tool's documented options: MySQL and MariaDB
    # clients take `-pPASSWORD` (attached: `-p NAME` prompts, and NAME is a database),
    # `docker login` (and podman, nerdctl, buildah, skopeo) `-p`/`--password`, sshpass `-p`.
    (
        "mysql-password",
        re.compile(
            r"\b(?:mysql(?:dump|admin|import|check|show|pump|sh|slap|binlog)?|mariadb(?:-[a-z]+)?)"
            r"\b" + _SAME_COMMAND + r"\s-p" + _ARGUMENT
        ),
        1,
        ("mysql", "mariadb"),
    ),
    (
        "login-password",
        re.compile(
            r"\b(?:docker|podman|nerdctl|buildah|skopeo)\s+login\b"
            + _SAME_COMMAND
            + r"\s(?:-p(?:=|\s+)?|--password(?:=|\s+))"
            + _ARGUMENT
        ),
        1,
        ("login",),
    ),
    (
        "sshpass-password",
        re.compile(r"\bsshpass(?:\s+-(?:[fdP]\s*[^\s-]\S*|[evhV]+))*\s+-p\s*" + _ARGUMENT),
        1,
        ("sshpass",),
    ),
    # Keys gitleaks finds only after a label of its own spelling (`mailgun_key = …`,
    # `new_relic… = …`): their shapes are gitleaks' (`key-`/`pubkey-` and 32 hex digits;
    # `NRAK-`, `NRJS-`, `NRII-`), found after any label, or none. A Mailgun key's shape
    # is common enough that the text must name Mailgun somewhere, as gitleaks asks.
    (
        "mailgun-key",
        re.compile(r"\b((?:pub)?key-[a-f0-9]{32})(?![\w-])"),
        1,
        ("mailgun",),
    ),
    (
        "new-relic-key",
        re.compile(
            r"(?i:\b(NRAK-[a-z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[a-z0-9-]{32}))(?![\w-])", re.ASCII
        ),
        1,
        ("nrak-", "nrjs-", "nrii-"),
    ),
    # A Telegram bot token (digits, `:`, `A` and 34 more: gitleaks' shape) anywhere the
    # text says "bot" or "telegram", the API's URL included (`…/bot<token>/sendMessage`).
    (
        "telegram-bot-token",
        re.compile(r"(?:(?<=bot)|(?<![\w-]))(\d{5,16}:A[\w-]{34})(?![\w-])", re.ASCII),
        1,
        ("telegram", "bot"),
    ),
    # Quotes the detector keeps are cut to a length first and end (or begin) with "…": a
    # key cut there is no longer the shape any rule knows. A token-like piece of six or
    # more characters touching the cut, with a digit and a letter in it, may be the
    # rest of one. (A preview is cut after redaction instead: `scrubbed`.) One pattern for
    # each side of the "…", each found from it (`anchor`; one alternation of both, with the
    # "…" in look-arounds, was tried at every position of the text).
    (
        "cut-token",
        re.compile(rf"(?<![\w+/=-])({_CUT_PIECE})…", re.ASCII),
        1,
        ("…",),
    ),
    ("cut-token", re.compile(rf"…({_CUT_PIECE})(?![\w+/=-])", re.ASCII), 1, ("…",)),
    (
        "email",
        re.compile(
            r"(?:(?<=mailto:)|(?<![A-Za-z0-9._%+:-]))(?!git@)[A-Za-z0-9._%+-]{1,64}@"
            r"(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}\b"
        ),
        0,
        ("@",),
    ),
]

# Each of these begins with its first character, and a look-behind after it checks the
# one before: `re` then finds the places to try with its fast search for a literal (a
# look-behind first makes it try every position).
_HOME = re.compile(r"/(?<![\w.~-]/)(?:home|Users)/(?!\.\.?(?:/|\b))[^/\s\"'`<>|:;,()\[\]{}\\]+")
_HOME_SPLIT = re.compile(f"({_HOME.pattern})")
# Claude Code names project folders after the cwd: ~/.claude/projects/-home-mara-src-app/
_SLUG_HOME = re.compile(r"-(?<=projects/-)(?:home|Users)-[^-/\s]+(?=-|/)")
_WINDOWS_HOME = re.compile(r"(?i:\b[A-Z]:\\Users\\)[^\\\s\"'`<>|:;,()\[\]{}]+")
# `~mara/src`: another way of naming /home/mara (not `~/`, which names nobody)
_TILDE_USER = re.compile(r"~(?<![\w~/.-]~)[A-Za-z_][A-Za-z0-9._-]{0,31}(?=/|\b(?![.~-]))")


_MASK = re.compile(r"\[REDACTED:[a-z0-9-]+\]")


def mask(kind: str) -> str:
    """The placeholder a secret of `kind` becomes (plain ASCII: safe in Markdown and HTML)."""
    return f"[REDACTED:{kind}]"


def users_in(*paths: str | None) -> tuple[str, ...]:
    """User names that appear as `/home/<user>` or `/Users/<user>` in these paths."""
    names = {m.group(0).split("/")[2] for p in paths if p for m in _HOME.finditer(p)}
    return tuple(sorted(n for n in names if _USER.fullmatch(n)))


_USER = re.compile(r"[A-Za-z0-9._-]{2,64}")


@lru_cache(maxsize=32)
def _known_users(users: tuple[str, ...]) -> re.Pattern[str] | None:
    names = [re.escape(u) for u in users if _USER.fullmatch(u)]
    if not names:
        return None
    return re.compile(r"/(?:home|Users)/(?:" + "|".join(names) + r")(?![A-Za-z0-9._-])")


# Short texts recur (tool names, models, statuses, a command run again): their results
# are kept, with what they counted, up to a bound on the characters kept.
_SHORT = 256
_KEPT_CHARACTERS = 1 << 22
_kept: dict[tuple[str, tuple[str, ...]], tuple[str, tuple[tuple[str, int], ...]]] = {}
_kept_size = [0]


def redact(text: str, counts: Counter[str] | None = None, users: tuple[str, ...] = ()) -> str:
    """`text` with every secret, e-mail address and home-directory prefix masked.

    `users` are names known to own a home directory here (from the session's
    own paths): `/home/<user>` is masked for them even inside a longer path.
    """
    if len(text) > _SHORT:
        return _redact(text, counts, users, noting=False)[0]
    key = (text, users)
    kept = _kept.get(key)
    if kept is None:
        found: Counter[str] = Counter()
        kept = (_redact(text, found, users, noting=False)[0], tuple(found.items()))
        if _kept_size[0] > _KEPT_CHARACTERS:
            _kept.clear()
            _kept_size[0] = 0
        _kept[key] = kept
        _kept_size[0] += 2 * len(text) + 64
    if counts is not None:
        for kind, times in kept[1]:
            counts[kind] += times
    return kept[0]


def redact_noting(
    text: str,
    counts: Counter[str] | None = None,
    users: tuple[str, ...] = (),
    also: frozenset[str] = frozenset(),
) -> tuple[str, frozenset[str] | None]:
    """`redact` (without the memory of short texts), and the words that chose the rules
    tried on `text`: `_words()`' words in it, and `also`, words of the text around it
    that choose rules as its own do (gitleaks' keyword test is over a whole text). None:
    no one set of words chose them (a text with long runs, `pivotal.export.runs`)."""
    return _redact(text, counts, users, also)


def _redact(
    text: str,
    counts: Counter[str] | None,
    users: tuple[str, ...],
    also: frozenset[str] = frozenset(),
    noting: bool = True,
) -> tuple[str, frozenset[str] | None]:
    """`redact_noting`; without `noting` the words are not gathered (None)."""
    if "\x1b" in text:
        # a terminal's escapes inside a key (`grep --color` splits the match out) would hide
        # it from every rule, and the formats drop or show them apart: they go first
        text = _ESCAPES.sub("", text)
    runs = long_runs(text)
    low: str | None = None
    chosen: frozenset[str] | None = None
    if runs:  # examined once (`pivotal.export.runs`); any path is looked for directly
        spans = _spans_with_runs(text, runs, also)
        found: frozenset[str] | set[str] = _PATH_WORDS
    else:
        low, encoded = lowered(text)
        words = _words()
        own = words.present(low, encoded)
        present = own | also if also else own
        # the rules' literals are looked for only if the text's own words hold them
        subject = Subject(text, low, own, words.vocabulary)
        spans = _secret_spans(text, subject, present)
        if noting:
            chosen = frozenset(present)
        # The words found in the text before masking tell which paths can be in it: a
        # mask cannot make one (`[` and `]` are in none), and "~" is the only one the
        # masks of home paths below add.
        found = present if subject.words is not None else _PATH_WORDS
    if spans:
        text = _mask(text, spans, counts)
    changed = False
    if ("/home/" in found or "/users/" in found) and ("/home/" in text or "/Users/" in text):
        pieces = _HOME_SPLIT.split(text)  # the text between home paths, and the paths
        if len(pieces) > 1:
            paths = pieces[1::2]
            text, changed = "~".join(pieces[::2]), True
            if counts is not None:
                counts["home-path"] += len(paths)
            # a name seen at a path's start is masked deeper in too
            seen = {path.split("/")[2] for path in set(paths)}
            users = tuple(sorted(set(users) | {u for u in seen if _USER.fullmatch(u)}))
    if "projects/-" in found and "projects/-" in text:
        text, done = _replace(_SLUG_HOME, "-~", text, counts)
        changed = changed or done
    # (the lower case from before the masks will do: a mask makes no `:\\users\\`; a
    # backslash is rarer than a colon, and looked for alone at memchr's speed)
    if "\\" in text and ":\\" in text and ":\\users\\" in (text.lower() if low is None else low):
        text, done = _replace(_WINDOWS_HOME, "~", text, counts)
        changed = changed or done
    if ("~" in found or changed) and "~" in text:
        text, _ = _replace(_TILDE_USER, "~", text, counts)
    if users and ("/home/" in found or "/users/" in found):
        known = _known_users(users)
        if known is not None and ("/home/" in text or "/Users/" in text):
            text, _ = _replace(known, "/~", text, counts)
    return text, chosen


_PATH_WORDS = frozenset({"/home/", "/users/", "projects/-", "~"})


def _spans_with_runs(
    text: str, runs: list[tuple[int, int]], also: frozenset[str] = frozenset()
) -> list[tuple[int, int, str]]:
    """The secrets in a text with long runs in it: the rules see it with each run's
    middle left out, and the rules that can match inside a run look there once."""
    shown, back = stand_in(text, runs)
    low = shown.lower()
    words = _words()
    present = words.present(low) | also
    subject = Subject(shown, low, present, words.vocabulary)
    spans = [(*back(s, e), kind) for s, e, kind in _secret_spans(shown, subject, present)]
    if subject.words is None:  # a lower case not one character for one: the run rules' test
        present = words.present(subject.low) | also
    whole = Subject(text).low  # one character for one, as `examine` needs

    def has_keyword(rule: RunRule) -> bool:
        return not present.isdisjoint(rule.keywords) or any(
            whole.find(word) >= 0 for word in rule.keywords
        )

    return spans + examine(text, whole, runs, _run_index(), has_keyword)


@cache
def _run_index() -> RunIndex:
    """Our rules and gitleaks' whose match can lie inside a long run."""
    found = [
        run_rule(kind, pattern, needles, partial(_group_span, group))
        for kind, pattern, group, needles in OWN_RULES
    ]
    found += [
        run_rule(rule.id, rule.pattern, rule.keywords, partial(_gitleaks_span, rule))
        for rule in gitleaks().rules
    ]
    return RunIndex([rule for rule in found if rule is not None])


def _group_span(group: int, match: re.Match[str], text: str) -> tuple[int, int] | None:
    start, end = match.span(group)
    return (start, end) if start < end else None


def _gitleaks_span(rule: Rule, match: re.Match[str], text: str) -> tuple[int, int] | None:
    return secret_in(rule, match, text)


def _replace(
    pattern: re.Pattern[str], mask: str, text: str, counts: Counter[str] | None
) -> tuple[str, bool]:
    """Every match of `pattern` in `text` made `mask` (counted as a home path), and
    whether there was one."""
    text, done = pattern.subn(mask, text)
    if done and counts is not None:
        counts["home-path"] += done
    return text, done > 0


def _secret_spans(
    text: str, subject: Subject | None = None, present: set[str] | frozenset[str] | None = None
) -> list[tuple[int, int, str]]:
    """(start, end, kind) of every secret our rules and gitleaks' find in `text`; `present`
    are the words that choose the rules (by default those in `text`)."""
    if subject is None:
        low = text.lower()
        words = _words()
        subject = Subject(text, low, words.present(low), words.vocabulary)
    spans: list[tuple[int, int, str]] = []
    if present is None:
        present = subject.words if subject.words is not None else _words().present(text.lower())
    if present:
        own = subject.words  # None: not known (a rule is then tried whatever its literals)
        ours, theirs = _chosen(present)
        for kind, pattern, group, needs in ours:
            if needs is not None and own is not None and needs.isdisjoint(own):
                continue
            for match in finditer(pattern, subject):
                start, end = match.span(group)
                if start < end:
                    spans.append((start, end, kind))
        if theirs:  # gitleaks' (`findings`)
            ruleset = gitleaks()
            for rule, needs in theirs:
                if needs is not None and own is not None and needs.isdisjoint(own):
                    continue
                for match in finditer(rule.pattern, subject):
                    span = secret_in(rule, match, text, ruleset)
                    if span is not None:
                        spans.append((span[0], span[1], rule.id))
    if spans and "[REDACTED:" in text:  # a mask is no secret: masking twice changes nothing
        spans = [s for s in spans if not _MASK.fullmatch(text, s[0], s[1])]
    return spans


_Ours = tuple[tuple[str, re.Pattern[str], int, frozenset[str] | None], ...]
_Theirs = tuple[tuple[Rule, frozenset[str] | None], ...]
_CHOSEN: dict[frozenset[str], tuple[_Ours, _Theirs]] = {}


def _chosen(present: set[str] | frozenset[str]) -> tuple[_Ours, _Theirs]:
    """Our rules (kind, pattern, group) and gitleaks' that the words `present` choose, in
    order, each with the literals a text must hold for it to match there (`_needs`):
    remembered per set of the words that choose rules (a session's texts hold few)."""
    key = frozenset(present.intersection(_choosing()))
    choice = _CHOSEN.get(key)
    if choice is None:
        if len(_CHOSEN) >= 1 << 12:
            _CHOSEN.clear()
        ours = tuple(
            (kind, pattern, group, _needs(pattern.pattern, pattern.flags))
            for kind, pattern, group in _own_rules(key)
        )
        theirs = tuple(
            (rule, _needs(rule_source(rule.regex), RULE_FLAGS))
            for rule in gitleaks().candidates("", present=set(key))
        )
        choice = _CHOSEN[key] = (ours, theirs)
    return choice


def _needs(source: str, flags: int) -> frozenset[str] | None:
    """The literals one of which a text must hold for the pattern `source` (compiled with
    `flags`) to match in it, when each is a word `_words()` looks for: every match passes
    through one of them (`anchor.needed`). A text whose words hold none of them is passed
    over without the pattern being compiled or planned for it (in HTML's second pass most
    rules are chosen by the words of the blocks around a text, not its own). None: any
    text may hold a match."""
    key = (source, flags)
    try:
        return _NEEDS[key]
    except KeyError:
        literals = needed(source, flags)
        vocabulary = _words().vocabulary
        known = literals and all(word in vocabulary for word in literals)
        needs = _NEEDS[key] = frozenset(literals) if known else None
        return needs


_NEEDS: dict[tuple[str, int], frozenset[str] | None] = {}


def spans_beyond(
    text: str, words: frozenset[str], tried: frozenset[str], known: frozenset[str] | None = None
) -> list[tuple[int, int, str]]:
    """(start, end, kind) of the secrets in `text` found by the rules `words` choose and
    `tried` did not: `text` was redacted with the rules of `tried`, and is now shown
    among other text whose words choose more (gitleaks' keyword test is over all of it).
    `known`, if given, holds every word of `_words()` in `text`: a rule none of whose
    literals is in it cannot match there (`anchor`), and is not tried."""
    choosing = _choosing()
    if choosing.isdisjoint(words - tried):  # (most blocks) `tried` chose all the rules
        return []
    vocabulary = _words().vocabulary

    def can_match(needs: frozenset[str] | None) -> bool:
        return known is None or needs is None or not needs.isdisjoint(known)

    more_own, more_rules = _rules_beyond(words & choosing, tried & choosing)
    own = [rule for rule in more_own if can_match(_needs(rule[1].pattern, rule[1].flags))]
    rules = [r for r in more_rules if can_match(_needs(rule_source(r.regex), RULE_FLAGS))]
    if not own and not rules:
        return []
    ruleset = gitleaks()
    low = text.lower()
    subject = Subject(text, low, None if known is None else set(known), vocabulary)
    spans: list[tuple[int, int, str]] = []
    for kind, pattern, group in own:
        for match in finditer(pattern, subject):
            start, end = match.span(group)
            if start < end:
                spans.append((start, end, kind))
    for rule in rules:
        for match in finditer(rule.pattern, subject):
            span = secret_in(rule, match, text, ruleset)
            if span is not None:
                spans.append((span[0], span[1], rule.id))
    if spans and "[REDACTED:" in text:
        spans = [s for s in spans if not _MASK.fullmatch(text, s[0], s[1])]
    return spans


@cache
def _choosing() -> frozenset[str]:
    """The words that choose rules: our needles and gitleaks' keywords."""
    return _NEEDLES | gitleaks().keyword_set


@lru_cache(maxsize=1 << 12)
def _rules_beyond(
    words: frozenset[str], tried: frozenset[str]
) -> tuple[tuple[tuple[str, re.Pattern[str], int], ...], tuple[Rule, ...]]:
    """Our rules and gitleaks' that `words` choose and `tried` do not (both narrowed to
    `_choosing()`: a session's texts hold few such sets)."""
    done = set(_own_rules(tried))
    own = tuple(rule for rule in _own_rules(words) if rule not in done)
    ruleset = gitleaks()
    before = {id(rule) for rule in ruleset.candidates("", present=set(tried))}
    rules = tuple(r for r in ruleset.candidates("", present=set(words)) if id(r) not in before)
    return own, rules


def words_in(text: str) -> frozenset[str]:
    """The words that choose rules (`_words()`) found in `text`."""
    return frozenset(_words().present(text.lower()))


def mask_spans(text: str, spans: list[tuple[int, int, str]], counts: Counter[str] | None) -> str:
    """`text` with `spans` (start, end, kind) masked, overlapping ones as one."""
    return _mask(text, spans, counts) if spans else text


def mask_words(text: str) -> frozenset[str]:
    """Words of `_words()` the masks in a redacted `text` hold, which its words before
    redaction did not choose rules by: those of their labels (`mailgun-key`). (A home
    path's `~` also makes new words with its neighbours, `q~` or `sha256~`, but the two
    rules they choose need a word character after the `~`, and a home path's mask has
    none after it: `/`, a quote, a space.)"""
    if "[REDACTED:" not in text:
        return frozenset()
    return words_in(" ".join(_MASK.findall(text)))


_NEEDLES = frozenset(n for rule in OWN_RULES for n in rule[3])
_OWN_CHOSEN: dict[frozenset[str], tuple[tuple[str, re.Pattern[str], int], ...]] = {}


def _own_rules(present: set[str]) -> tuple[tuple[str, re.Pattern[str], int], ...]:
    """(kind, pattern, group) of our rules a needle of which is in `present`, in order
    (remembered per set of needles: a session's texts hold few such sets)."""
    key = frozenset(present.intersection(_NEEDLES))
    rules = _OWN_CHOSEN.get(key)
    if rules is None:
        if len(_OWN_CHOSEN) >= 1 << 12:
            _OWN_CHOSEN.clear()
        rules = _OWN_CHOSEN[key] = tuple(
            (kind, pattern, group)
            for kind, pattern, group, needles in OWN_RULES
            if not key.isdisjoint(needles)
        )
    return rules


_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-~])")
"""A terminal's control sequences (CSI, OSC, and two-character escapes)."""


def redact_member(
    key: str, value: str, counts: Counter[str] | None = None, users: tuple[str, ...] = ()
) -> str:
    """`value`, the member `key` of a JSON object (a tool call's input), redacted, and then
    as `key=value` when its name holds a rule's keyword: a rule that needs the name before
    the secret (`{"password": "hunter2hunter2"}`) sees it, as it does in `password=...`."""
    done = redact(value, counts, users)
    if len(key) > _MEMBER_KEY or not _names_a_secret(key):
        return done
    name = redact(key)
    pair = f"{name}={done}"
    masked = redact(pair, counts, users)
    if masked != pair and masked.startswith(f"{name}="):
        return masked[len(name) + 1 :]
    return done


_MEMBER_KEY = 100
"""Longer member names are not names: their values are redacted on their own."""


@lru_cache(maxsize=1 << 10)
def _names_a_secret(key: str) -> bool:
    """Whether a member name holds one of the words that choose rules ("password", "key")."""
    return bool(_words().present(key.lower()))


@cache
def _words() -> Keywords:
    """Our rules' needles, gitleaks' keywords and the literals the rules are anchored at
    (`pivotal.export.anchor`): all found in one pass over a text. The literals are read
    from `LITERALS` when it is there (`literal_words`)."""
    needles = {n for rule in OWN_RULES for n in rule[3]} | _PATH_WORDS
    return Keywords(needles | gitleaks().keyword_set | (_stored_literals() or literal_words()))


LITERALS = Path(__file__).with_name("rules") / "literals.txt"
"""`literal_words()` as written by `tools/redaction_literals.py`: reading every rule's
literals means parsing all ~240 patterns (30 ms of each redacted export's start). A
literal missing from it is looked for in each text a rule of it is tried on, and a word
it has that no rule has is looked for in vain: neither changes what is found, and a test
keeps it up to date."""


def literal_words() -> set[str]:
    """The literals our rules and gitleaks' are anchored at (`anchor.literals_of`), those
    worth looking for together with the keywords: one of one character costs a direct
    search of its own (`anchor` finds it as fast as `Keywords` would)."""
    sources = [(rule[1].pattern, rule[1].flags) for rule in OWN_RULES]
    sources += [(rule_source(r.regex), RULE_FLAGS) for r in gitleaks().rules]
    literals = {w for source, flags in sources for w in literals_of(source, flags)}
    return {w for w in literals if len(w) > 1 and tokenish(w)}


def _stored_literals() -> set[str]:
    """The words of `LITERALS` (none if it cannot be read)."""
    try:
        lines = LITERALS.read_text(encoding="utf-8").splitlines()
    except OSError:
        return set()
    return {line for line in lines if line and not line.startswith("#")}


# Rules that say only "something secret-looking": a provider's own rule names it better.
GENERIC_KINDS = frozenset({"secret-value", "authorization", "bearer-token", "generic-api-key"})
# Ours that find a provider's key gitleaks also knows (after its labels): its name first.
_SHAPE_KINDS = frozenset({"mailgun-key", "new-relic-key", "telegram-bot-token"})


def _rank(kind: str) -> int:
    return 2 if kind in GENERIC_KINDS else 1 if kind in _SHAPE_KINDS else 0


def _mask(text: str, spans: list[tuple[int, int, str]], counts: Counter[str] | None) -> str:
    """Mask every span; overlapping spans become one mask, named by the first of them
    (at the same start, a provider's rule before a generic one, `_rank`)."""
    order = sorted(range(len(spans)), key=lambda i: (spans[i][0], _rank(spans[i][2]), i))
    out: list[str] = []
    position = 0
    current: list[object] | None = None  # [start, end, kind]
    for index in order:
        start, end, kind = spans[index]
        if current is not None and start < int(current[1]):  # type: ignore[arg-type]
            current[1] = max(int(current[1]), end)  # type: ignore[arg-type]
            continue
        if current is not None:
            position = _emit(text, out, position, current, counts)
        current = [start, end, kind]
    if current is not None:
        position = _emit(text, out, position, current, counts)
    out.append(text[position:])
    return "".join(out)


def _emit(text: str, out: list[str], position: int, span: list[object], counts) -> int:  # type: ignore[no-untyped-def]
    start, end, kind = int(span[0]), int(span[1]), str(span[2])  # type: ignore[call-overload]
    out.append(text[position:start])
    out.append(mask(kind))
    if counts is not None:
        counts[kind] += 1
    return end


def redact_data(value: Any, counts: Counter[str] | None = None, users: tuple[str, ...] = ()) -> Any:
    """Redact every string (keys included) inside JSON-like data."""
    if isinstance(value, str):
        return redact(value, counts, users)
    if isinstance(value, dict):
        return {
            (redact(k, counts, users) if isinstance(k, str) else k): (
                redact_member(k, v, counts, users)
                if isinstance(k, str) and isinstance(v, str)
                else redact_data(v, counts, users)
            )
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_data(v, counts, users) for v in value]
    return value
