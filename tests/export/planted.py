"""Planted secrets: one fake example of every redaction rule, and how to find them again.

For each of gitleaks' ~220 rules an example is written by walking the rule's
own pattern (`example_for`): every repeat, class and alternative is filled from
a seeded random choice, so the example has the shape the rule describes with
made-up characters (a fake token: nothing here was ever a credential). An
example counts only if the rule itself then finds it in the text it is planted
in, entropy floor and allowlists included; a rule no example can be written for
fails the test that uses it. Our own rules get hand-written examples (`OWN`).

`decoded` turns an export back into the text a reader sees (HTML entities,
Markdown escapes, JSON strings, the cast's output events), and `leaks` says
which planted secrets are still in it, with all whitespace removed first so a
secret wrapped over two lines of a cast is still found.
"""

from __future__ import annotations

import html
import json
import random
import re
import string
from re import _constants as C  # noqa: N812
from re import _parser

from pivotal.export.ruleset import findings, gitleaks, go_regex

SAFE = string.ascii_letters + string.digits
PRINTABLE = SAFE + "-_./+=:@"

# Our own rules (pivotal.export.redact.OWN_RULES): (kind, where it sits, the secret).
_OWN = [
    ("private-key", "-----BEGIN EC PRIVATE KEY-----\n{}\n", "MHcCAQEEIPq2vR7mLx9KjT4wZs8nB3cF"),
    ("anthropic-key", "ANTHROPIC={}", "sk-ant-api03-fakeQ9xZ2mW7vB1nK8pL3sT6yH0"),
    ("openai-key", "key: {}", "sk-proj-fake4fQ9xZ2mW7vB1nK8pL3sT6yH0cR5dJ"),
    ("aws-access-key-id", "id {} in the log", "AKIA0FAKEEXAMPLE1234"),
    ("aws-secret-key", "aws_secret_access_key = {}", "fAk3/sEcReT+kEy0123456789abcdefGHIJKLMNO"),
    ("url-credentials", "DATABASE_URL=postgres://{}@db.internal:5432/app", "mara:pa55w0rdQ"),
    ("url-credentials", "git push https://{}@git.example.com/r", "fakeTokenAsUser0123456789"),
    ("authorization", "Authorization: Basic {}", "bWFyYTpodW50ZXIy"),
    ("bearer-token", "send it as bearer {}", "fAkEbEaReR0123456789abcd"),
    ("secret-value", "DB_PASSWORD={}", "hunter2hunter2"),
    ("secret-value", "export APP_SECRET='{}'", "s3cr3tV4lu3"),
    ("secret-value", "curl -H 'x-api-key: {}' https://api.example.com", "k3yF4k3v4lu3"),
    ("secret-value", '{{"aws_session_token": "{}"}}', "FQoGZXIvYXdzEFakeSessionToken0123"),
    ("url-credentials", "REDIS_URL=redis://:{}@cache.internal:6379/0", "s3cretRedisPa55"),
    ("mysql-password", "mysql -h db -u root -p{} app_db", "S3cr3tMysqlPa55"),
    ("login-password", "docker login -u mara -p {} registry.example.com", "D0ckerHubPa55word"),
    ("sshpass-password", "sshpass -p {} ssh deploy@10.0.0.5", "Sshp4ssW0rdQ"),
    ("mailgun-key", "Mailgun key - {}", "key-3f9a8c7e1b2d4f6a0c5e9b8d7a6f1e2c"),
    ("new-relic-key", "New Relic: {}", "NRAK-7KQ2M9X4VB1ZP8R3T6W0YJ5HDLC"),
    (
        "telegram-bot-token",
        "curl https://api.telegram.org/bot{}/getMe",
        "7142385960:AAH3kZ9qLmN4pR7sT1vW8xY2bC5dF6gJ0eA",
    ),
    ("cut-token", "the agent said: export it as {}…", "ghp_R8mN2qW5eT9yU1iO4"),
    ("email", "Author: Mara Lind <{}>", "mara.lind@ledgerly.example"),
    ("home-path", "cd {}/src/app && make", "/home/maralind"),
    ("home-path", "open {}/Desktop/notes.txt", "/Users/priyaraman"),
    ("home-path", "cp {}/.bashrc .", "~maralind"),
    ("home-path", "dir {}\\src", "C:\\Users\\PriyaRaman"),
]
OWN: list[tuple[str, str, str]] = [(kind, where.format(s), s) for kind, where, s in _OWN]


def _class_chars(items: list, rng: random.Random) -> str:  # type: ignore[type-arg]
    allowed: list[str] = []
    negate = False
    for op, value in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            allowed.append(chr(value))
        elif op is C.RANGE:
            low, high = value
            allowed.extend(chr(c) for c in range(low, min(high, low + 200) + 1))
        elif op is C.CATEGORY:
            allowed.extend(_category(value))
    if negate:
        allowed = [c for c in PRINTABLE if c not in allowed]
    printable = [c for c in allowed if c.isprintable() or c == "\n"]
    safe = [c for c in printable if c in SAFE]
    return rng.choice(safe or printable or ["x"])


def _category(value: object) -> str:
    if value is C.CATEGORY_DIGIT:
        return string.digits
    if value is C.CATEGORY_WORD:
        return SAFE + "_"
    if value is C.CATEGORY_SPACE:
        return " "
    if value is C.CATEGORY_NOT_SPACE or value is C.CATEGORY_NOT_DIGIT:
        return string.ascii_letters
    return SAFE


def _walk(tokens, rng: random.Random, out: list[str]) -> None:  # type: ignore[no-untyped-def]
    for op, value in tokens:
        if op is C.LITERAL:
            out.append(chr(value))
        elif op is C.NOT_LITERAL:
            out.append(rng.choice([c for c in SAFE if ord(c) != value]))
        elif op is C.ANY:  # in these patterns `.` is often a dot nobody escaped: try both
            out.append("." if rng.random() < 0.5 else rng.choice(SAFE))
        elif op is C.IN:
            out.append(_class_chars(value, rng))
        elif op is C.CATEGORY:
            out.append(rng.choice(_category(value)))
        elif op is C.BRANCH:
            _walk(rng.choice(value[1]), rng, out)
        elif op is C.SUBPATTERN:
            _walk(value[-1], rng, out)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            low, high, sub = value
            top = low + 6 if high is C.MAXREPEAT else min(high, low + 6)
            for _ in range(rng.randint(low, max(low, top))):
                _walk(sub, rng, out)
        elif op is C.ATOMIC_GROUP:
            _walk(value, rng, out)
        # AT (anchors, \b), ASSERT / ASSERT_NOT (lookarounds), GROUPREF: nothing to write


def example_for(pattern: str, seed: str, attempt: int) -> str:
    """A string shaped by `pattern` (a gitleaks rule's Go pattern), chosen by `seed`."""
    rng = random.Random(f"{seed}/{attempt}")
    parsed = _parser.parse(go_regex(pattern), re.ASCII)
    out: list[str] = []
    _walk(parsed, rng, out)
    return "".join(out)


def plant(text: str, keyword: str = "") -> str:
    """The line an example is planted in (the words around it are no secret). A rule may
    want a keyword its pattern does not contain (`airtable` before `pat…`): it is named."""
    about = f" ({keyword})" if keyword else ""
    return f"Found while debugging{about}:\n{text}\n"


def gitleaks_examples(attempts: int = 60) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(rule id, planted text, secret) for every gitleaks rule, and the rules without one."""
    examples, missing = [], []
    for rule in gitleaks().rules:
        for attempt in range(attempts):
            text = plant(example_for(rule.regex, rule.id, attempt), rule.keywords[0])
            found = [(s, e) for s, e, rid in findings(text) if rid == rule.id]
            if found:
                start, end = found[0]
                examples.append((rule.id, text, text[start:end]))
                break
        else:
            missing.append(rule.id)
    return examples, missing


# -- reading an export back ---------------------------------------------------------

_SGR = re.compile(r"\x1b\[[0-9;]*m")
_MD_ESCAPE = re.compile(r"\\([\\`*_\[\]<>|~])")
_TAG = re.compile(r"<[^>]*>")


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def decoded(fmt: str, output: str) -> str:
    """The text a reader of the export sees, as plain text."""
    if fmt == "json":
        return "\n".join(_strings(json.loads(output)))
    if fmt == "html":
        return html.unescape(_TAG.sub("\n", output))
    if fmt == "md":
        return _MD_ESCAPE.sub(r"\1", output)
    if fmt == "cast":
        events = [json.loads(line) for line in output.splitlines()[1:]]
        text = "".join(data for _, code, data in events if code in ("o", "m"))
        return _SGR.sub("", text).replace("\r", "")
    raise ValueError(fmt)


_SPACE = re.compile(r"\s+")


def leaks(text: str, secrets: list[str]) -> list[str]:
    """The secrets still in `text`, whitespace ignored (wrapped lines, indents)."""
    flat = _SPACE.sub("", text)
    return [s for s in secrets if _SPACE.sub("", s) in flat]


def claude_record(
    n: int, kind: str, message: dict, *, uuid: str | None = None, chained: bool = True
) -> str:  # type: ignore[type-arg]
    """Line `n` of a Claude Code session file as the CLI writes it (`chained`: its
    parentUuid names line n - 1)."""
    return json.dumps(
        {
            "parentUuid": f"u{n - 1}" if chained and n else None,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/srv/app",
            "sessionId": "0f6f3c2e-4b7a-4d1e-9a55-3c1d2e4f5a6b",
            "version": "2.1.197",
            "type": kind,
            "message": message,
            "uuid": uuid or f"u{n}",
            "timestamp": f"2026-11-30T10:00:{n:02d}.000Z",
        }
    )
