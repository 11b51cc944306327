"""Redaction: realistic secrets in tool output and prompts are masked; ordinary text is not."""

from __future__ import annotations

from collections import Counter

import pytest

from pivotal.export.redact import redact, redact_data, users_in

# Shaped like the real thing (right prefixes, lengths and alphabets); none is a live credential.
OPENAI = "sk-proj-4fQ9xZ2mW7vB1nK8pL3sT6yH0cR5dJ9eA2gU7iO4wX1zV8bN3mQ6kP0tY5rE2uI9oL4aS7dF1gH3jK6l"
OPENAI_LEGACY = "sk-" + "Ab3De6Gh9Jk2Mn5Pq8St1Vw4Yz7Bc0Ef3Hi6Kl9No2Qr5Tu8W"
ANTHROPIC = "sk-ant-api03-Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa0Sd9Fg8Hj7Kl6Zx5Cv4Bn3Mq2We1Rt0Yu-Io9PaSdAA"
GITHUB = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
GITHUB_PAT = "github_pat_11ABCDEFG0aBcDeFgHiJkL_MnOpQrStUvWxYz0123456789" + (
    "AbCdEfGhIjKlMnOpQrStUvWxAb3Cd5Ef7Gh9Ij"
)
AWS_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
GOOGLE = "AIzaSyD3f9Gk2Lm5Np8Qr1St4Uv7Wx0Yz3Ab6Cd"
SLACK = "xoxb-2048136921-5093726140-Qm3Xr7Vt1Zp9Lk4Hd8Fs2Jw6"
STRIPE = "sk_live_51H8bQ2LkT9xVw3mN7pR4sY6uZ0aC5dE8fG1hJ"
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV"
)
PEM = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACDx9Yc3n1fK0uR5sG2nQp8ZbW7yVtLhJ3kXmA4dE6cF0wAAAJgV3vqXFd76\n"
    "-----END OPENSSH PRIVATE KEY-----"
)

ENV_DUMP = f"""$ env | sort
HOME=/home/mara
OPENAI_API_KEY={OPENAI}
ANTHROPIC_API_KEY={ANTHROPIC}
GITHUB_TOKEN={GITHUB}
AWS_ACCESS_KEY_ID={AWS_ID}
AWS_SECRET_ACCESS_KEY={AWS_SECRET}
SLACK_BOT_TOKEN={SLACK}
PATH=/home/mara/.local/bin:/usr/bin
"""


def test_an_env_dump_in_tool_output_keeps_its_names_and_loses_its_values():
    counts: Counter[str] = Counter()
    out = redact(ENV_DUMP, counts)
    for secret in (OPENAI, ANTHROPIC, GITHUB, AWS_ID, AWS_SECRET, SLACK, "/home/mara"):
        assert secret not in out
    assert "OPENAI_API_KEY=[REDACTED:openai-key]" in out
    assert "ANTHROPIC_API_KEY=[REDACTED:anthropic-key]" in out
    assert "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]" in out
    assert "HOME=~\n" in out and "PATH=~/.local/bin:/usr/bin" in out
    assert counts["anthropic-key"] == 1 and counts["openai-key"] == 1
    assert counts["home-path"] == 2


@pytest.mark.parametrize(
    ("text", "secret", "kind"),
    [
        (f"use this key please: {OPENAI_LEGACY} thanks", OPENAI_LEGACY, "openai-key"),
        (f"git remote set-url origin https://{GITHUB_PAT}@github.com/o/r", GITHUB_PAT, "github"),
        (f'GEMINI_API_KEY="{GOOGLE}" npm start', GOOGLE, "gcp-api-key"),
        (f"stripe.api_key = '{STRIPE}'", STRIPE, "stripe-access-token"),
        (f'{{"SecretAccessKey": "{AWS_SECRET}", "AccessKeyId": "{AWS_ID}"}}', AWS_SECRET, "aws"),
        (
            f'curl -H "Authorization: Bearer {JWT}" https://api.example.com/v1/me',
            JWT,
            "curl-auth-header",
        ),
        (f"headers = {{'authorization': 'token {GITHUB[4:]}'}}", GITHUB[4:], "authorization"),
        (f"cat ~/.ssh/id_ed25519\n{PEM}\n$ ls", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE", "private"),
        ("Author: Mara Lind <mara.lind@ledgerly.io>\nDate: Mon", "mara.lind@ledgerly.io", "email"),
        ("cd /Users/priya/code/insights-web && npm test", "priya", "~/code/insights-web"),
        (r"C:\Users\Priya\src\app> dir", "Priya", "~"),
        (
            "/home/mara/.claude/projects/-home-mara-src-app/0b1c.jsonl",
            "mara",
            "~/.claude/projects/-~-src-app/0b1c.jsonl",
        ),
    ],
)
def test_secrets_in_prompts_and_commands_are_masked(text, secret, kind):
    out = redact(text)
    assert secret not in out
    assert kind in out


def test_a_truncated_private_key_is_still_masked():
    cut = PEM.split("-----END")[0][:150]
    out = redact("output:\n" + cut)
    assert "b3BlbnNzaC1rZXkt" not in out and "[REDACTED:private-key]" in out


def test_a_private_key_inside_json_escaped_text_is_masked():
    escaped = PEM.replace("\n", "\\n")
    out = redact('{"content": "' + escaped + '"}')
    assert "QyNTUxOQAAACDx9Yc3n1fK0uR5sG2nQp8" not in out


ORDINARY = [
    "The task-runner needs sk-learn? No: scikit-learn. Run `pip install scikit-learn`.",
    "def risk_live_total(x): return x  # sk_live is mentioned, no key follows",
    "git clone git@github.com:Textualize/textual.git",
    "@property\ndef home(self) -> Path: return Path('/home')",
    "ls /home/ && ls /Users/ && echo done",
    "Bearer tokens are sent in the Authorization header.",
    "AKIA is the prefix of AWS access key ids; AKIAshort is not one.",
    "npm i @types/node @textual/core; email me at the usual place",
    "PASSWORD_MIN_LENGTH = 12\nSHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca4959'",
    "See https://docs.python.org/3/library/re.html#re.sub for details.",
    "/var/lib/home/data and ~/notes stay as they are",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_passes_unchanged(text):
    assert redact(text) == text


def test_redact_data_walks_keys_and_values():
    data = {"path": "/home/mara/x.jsonl", "tools": [{"input": {"cmd": f"echo {SLACK}"}}], "n": 3}
    out = redact_data(data)
    assert out == {
        "path": "~/x.jsonl",
        "tools": [{"input": {"cmd": "echo [REDACTED:slack-bot-token]"}}],
        "n": 3,
    }


def test_known_users_are_masked_inside_longer_paths():
    assert users_in("/home/dev/.gemini/tmp/x.jsonl", None) == ("dev",)
    nested = "cache at /srv/x/.gemini/home/dev/work and /srv/home/devops/x"
    assert redact(nested) == nested  # nothing says "dev" is a user here
    assert redact(nested, users=("dev",)) == "cache at /srv/x/.gemini/~/work and /srv/home/devops/x"
    # a home seen at the start of a path in the same text teaches the name
    same = "cd /home/dev/app && ls /root/.gemini/home/dev/work"
    assert redact(same) == "cd ~/app && ls /root/.gemini/~/work"


def test_home_patterns_match_where_their_look_behind_first_forms_did():
    # They were written look-behind first, which makes `re` try every position; now the
    # look-behind follows the first character. Same matches on texts made of the
    # pieces that decide them (letters, separators, `/home/`, `projects/-`, `~`).
    import random
    import re

    from pivotal.export import redact as module

    before = {
        "_HOME": r"(?<![\w.~-])/(?:home|Users)/(?!\.\.?(?:/|\b))[^/\s\"'`<>|:;,()\[\]{}\\]+",
        "_SLUG_HOME": r"(?<=projects/)-(?:home|Users)-[^-/\s]+(?=-|/)",
        "_TILDE_USER": r"(?<![\w~/.-])~[A-Za-z_][A-Za-z0-9._-]{0,31}(?=/|\b(?![.~-]))",
    }
    pieces = [*"/-~.homeUsrjctpab_ 1\n\\:é", "/home/", "/Users/", "projects/", "-home-"]
    pieces += ["-Users-", "~", "x/", "/.", "/..", "~/"]
    rng = random.Random(3)
    texts = ["".join(rng.choices(pieces, k=rng.randint(1, 30))) for _ in range(20000)]
    for name, source in before.items():
        old, new = re.compile(source), getattr(module, name)
        assert old.pattern != new.pattern
        for text in texts:
            assert [m.span() for m in new.finditer(text)] == [
                m.span() for m in old.finditer(text)
            ], (name, text)


def test_short_texts_kept_count_again_when_they_come_again():
    first: Counter[str] = Counter()
    again: Counter[str] = Counter()
    text = "mail mara@ledgerly.example from /home/mara"
    assert redact(text, first) == redact(text, again) == "mail [REDACTED:email] from ~"
    assert first == again == Counter({"email": 1, "home-path": 1})


def test_go_flags_in_mid_pattern_are_scoped_as_go_scopes_them():
    # Go applies a `(?i)` to the rest of its group, `|` included; Python only at the start
    from pivotal.export.ruleset import go_regex

    assert go_regex("(?i)abc") == "(?i)abc"
    assert go_regex("a(?i)b|c") == "a(?i:b)|(?i:c)"
    assert go_regex("(x(?i)y|z)w") == "(x(?i:y)|(?i:z))w"
    assert go_regex("a(?is)b$") == r"a(?i:(?s:b\Z))"
    assert go_regex(r"\((?i)x") == r"\((?i:x)"
    assert go_regex("[(?i)]x") == "[(?i)]x"  # in a class: characters, not a flag
