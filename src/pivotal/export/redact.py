"""Mask secrets and personal details before a session leaves the machine in an export.

Agent sessions are full of things people would not paste into a bug report:
API keys echoed by `env`, tokens in curl commands, private keys `cat`-ed by
mistake, e-mail addresses in git logs, and the user name in every path. Each
pattern is specific (a provider's key prefix, a header name, a PEM armour
line) so ordinary prose and code pass through unchanged.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any

_PEM = r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
_PEM_END = r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"

# (kind, pattern, group to mask (0 = the whole match), needles). Most specific first.
# A rule runs only when one of its needles occurs in the (lower-cased) text: a plain
# substring search is far cheaper than a regex scan, and most strings hold no needle.
_RULES: list[tuple[str, re.Pattern[str], int, tuple[str, ...]]] = [
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
    (
        "stripe-key",
        re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"),
        0,
        ("k_live_", "k_test_"),
    ),
    ("stripe-webhook-secret", re.compile(r"\bwhsec_[A-Za-z0-9]{20,}"), 0, ("whsec_",)),
    (
        "github-token",
        re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"),
        0,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    ("github-token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}"), 0, ("github_pat_",)),
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
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), 0, ("aiza",)),
    ("slack-token", re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}"), 0, ("xox",)),
    ("slack-token", re.compile(r"\bxapp-[0-9]-[A-Za-z0-9-]{10,}"), 0, ("xapp-",)),
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
        "email",
        re.compile(
            r"(?<![A-Za-z0-9._%+-])(?!git@)[A-Za-z0-9._%+-]{1,64}@"
            r"(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}\b"
        ),
        0,
        ("@",),
    ),
]

_NEEDLES = re.compile(
    "|".join(re.escape(n) for n in sorted({n for r in _RULES for n in r[3]}, key=len, reverse=True))
)
_HOME = re.compile(r"(?<![\w.~-])/(?:home|Users)/(?!\.\.?(?:/|\b))[^/\s\"'`<>|:;,()\[\]{}\\]+")
# Claude Code names project folders after the cwd: ~/.claude/projects/-home-mara-src-app/
_SLUG_HOME = re.compile(r"(?<=projects/)-(?:home|Users)-[^-/\s]+(?=-|/)")
_WINDOWS_HOME = re.compile(r"(?i:\b[A-Z]:\\Users\\)[^\\\s\"'`<>|:;,()\[\]{}]+")


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


def redact(text: str, counts: Counter[str] | None = None, users: tuple[str, ...] = ()) -> str:
    """`text` with every secret, e-mail address and home-directory prefix masked.

    `users` are names known to own a home directory here (from the session's
    own paths): `/home/<user>` is masked for them even inside a longer path.
    """
    folded = text.lower()
    present = set(_NEEDLES.findall(folded))
    if present:
        for kind, pattern, group, needles in _RULES:
            if not present.isdisjoint(needles):
                text = pattern.sub(_replacer(kind, group, counts), text)
    if "/home/" in text or "/Users/" in text:
        seen: set[str] = set()
        text = _HOME.sub(_home(counts, seen=seen), text)
        if seen:  # a name seen at a path's start is masked deeper in too
            users = tuple(sorted(set(users) | {u for u in seen if _USER.fullmatch(u)}))
    if "projects/-" in text:
        text = _SLUG_HOME.sub(_home(counts, "-~"), text)
    if ":\\users\\" in folded:
        text = _WINDOWS_HOME.sub(_home(counts), text)
    known = _known_users(users) if users else None
    if known is not None and ("/home/" in text or "/Users/" in text):
        text = known.sub(_home(counts, "/~"), text)
    return text


def _replacer(kind: str, group: int, counts: Counter[str] | None):  # type: ignore[no-untyped-def]
    def replace(match: re.Match[str]) -> str:
        if counts is not None:
            counts[kind] += 1
        if group == 0:
            return mask(kind)
        whole = match.group(0)
        start, end = match.start(group) - match.start(0), match.end(group) - match.start(0)
        return whole[:start] + mask(kind) + whole[end:]

    return replace


def _home(  # type: ignore[no-untyped-def]
    counts: Counter[str] | None, mask: str = "~", seen: set[str] | None = None
):
    def replace(match: re.Match[str]) -> str:
        if counts is not None:
            counts["home-path"] += 1
        if seen is not None:
            seen.add(match.group(0).split("/")[2])
        return mask

    return replace


def redact_data(value: Any, counts: Counter[str] | None = None, users: tuple[str, ...] = ()) -> Any:
    """Redact every string (keys included) inside JSON-like data."""
    if isinstance(value, str):
        return redact(value, counts, users)
    if isinstance(value, dict):
        return {
            (redact(k, counts, users) if isinstance(k, str) else k): redact_data(v, counts, users)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact_data(v, counts, users) for v in value]
    return value
