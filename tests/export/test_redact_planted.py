"""A planted example of every redaction rule leaks in no export format (issue 17.3).

One Claude Code session carries one fake example of each of gitleaks' rules and
of our own (`planted.py`), one per agent turn, and the person's notes carry them
all again (the Markdown report shows excerpts around pivots, and every note in
full). Without `--redact` every secret is visible in every format — so the check
can fail —; with it, none is left in what a reader sees (`planted.decoded`,
whitespace ignored), and the rule scanners find nothing in that text either. The
redacted resume command is run by a shell and lands in the session's folder.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog.notes import NoteStore
from pivotal.export.redact import _secret_spans
from pivotal.export.ruleset import findings, gitleaks
from pivotal.readers import find_sessions, read_session

from .planted import OWN, decoded, gitleaks_examples, leaks

FORMATS = ["md", "html", "json", "cast"]
CWD = "/home/maralind/my app/src"
SESSION_ID = "0f6f3c2e-4b7a-4d1e-9a55-3c1d2e4f5a6b"


def _record(n: int, kind: str, message: dict) -> str:
    return json.dumps(
        {
            "parentUuid": f"u{n - 1}" if n else None,
            "isSidechain": False,
            "userType": "external",
            "cwd": CWD,
            "sessionId": SESSION_ID,
            "version": "2.1.197",
            "type": kind,
            "message": message,
            "uuid": f"u{n}",
            "timestamp": f"2026-11-30T10:{n // 60:02d}:{n % 60:02d}.000Z",
        }
    )


@pytest.fixture(scope="module")
def planted() -> list[tuple[str, str, str]]:
    examples, missing = gitleaks_examples()
    assert not missing, f"no example could be written for {missing}"
    own = [(kind, f"Found while debugging:\n{text}\n", secret) for kind, text, secret in OWN]
    return examples + own


@pytest.fixture()
def session_file(tmp_path: Path, planted, monkeypatch) -> Path:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "planted.jsonl"
    lines = [_record(0, "user", {"role": "user", "content": "Go through the debug logs"})]
    for n, (_, text, _) in enumerate(planted, 1):
        message = {
            "id": f"msg_{n}",
            "type": "message",
            "role": "assistant",
            "model": "claude-opus-4-8",
            "content": [{"type": "text", "text": text}],
        }
        lines.append(_record(n, "assistant", message))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    session = read_session(find_sessions([path]).refs[0])
    with NoteStore() as store:
        for start in range(0, len(planted), 10):
            turn = session.turns[1 + start]
            store.set_note(session, turn, "\n".join(t for _, t, _ in planted[start : start + 10]))
    return path


def _export(path: Path, fmt: str, *extra: str) -> str:
    result = invoke("export", path, "--to", fmt, *extra)
    assert result.exit_code == 0, result.output
    return decoded(fmt, result.stdout)


def test_every_rule_has_a_planted_example_its_rule_finds(planted) -> None:
    from pivotal.export.redact import OWN_RULES
    from pivotal.export.ruleset import gitleaks

    kinds = {kind for kind, _, _ in planted}
    assert {r.id for r in gitleaks().rules} <= kinds
    assert {kind for kind, _, _, _ in OWN_RULES} | {"home-path"} <= kinds
    for kind, text, _ in planted:
        if kind in {k for k, _, _, _ in OWN_RULES}:
            assert kind in {k for _, _, k in _secret_spans(text)}, (kind, text)


def test_a_keyword_far_from_its_secret_still_gets_it_masked() -> None:
    # A rule is tried only where its pattern's own words occur, but whether it is tried
    # at all is gitleaks' keyword test over the whole text: a keyword 20 KB before the
    # secret (the example planted without the keyword beside it) still counts.
    from pivotal.export.redact import redact

    filler = "Reading the logs line by line, nothing found yet.\n" * 400
    examples, missing = gitleaks_examples()
    assert not missing
    for rule_id, text, secret in examples:
        keyword = next(r for r in gitleaks().rules if r.id == rule_id).keywords[0]
        far = f"{keyword} comes up first.\n{filler}{text.replace(f' ({keyword})', '')}"
        assert far.index(secret) - far.index(keyword) > 20_000
        assert secret not in redact(far), rule_id
        near = [k for s, e, k in findings(far) if far[s:e] == secret]
        assert rule_id in near, rule_id


@pytest.mark.parametrize("fmt", FORMATS)
def test_without_redaction_every_planted_secret_is_visible(session_file, planted, fmt) -> None:
    text = _export(session_file, fmt)
    secrets = [secret for _, _, secret in planted]
    assert leaks(text, secrets) == secrets


@pytest.mark.parametrize("fmt", FORMATS)
def test_redacted_exports_leak_no_planted_secret(session_file, planted, fmt) -> None:
    text = _export(session_file, fmt, "--redact")
    assert leaks(text, [secret for _, _, secret in planted]) == []
    assert "[REDACTED:" in text


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_rule_scanners_find_nothing_in_a_redacted_export(session_file, fmt) -> None:
    text = _export(session_file, fmt, "--redact")
    found = [(kind, text[s:e]) for s, e, kind in _secret_spans(text)]
    assert found == []


def test_scan_json_redact_masks_quotes_and_paths(tmp_path) -> None:
    path = tmp_path / "s.jsonl"
    secret = "ghp_" + "R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
    lines = [
        _record(0, "user", {"role": "user", "content": f"my token is {secret}, use it"}),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    plain = invoke("scan", "--json", path)
    assert plain.exit_code == 0
    redacted = invoke("scan", "--json", "--redact", path)
    assert redacted.exit_code == 0, redacted.output
    data = json.loads(redacted.stdout)
    assert secret not in redacted.stdout
    assert data["turns"] == json.loads(plain.stdout)["turns"]


def test_the_redacted_resume_command_runs(session_file, tmp_path) -> None:
    home = tmp_path / "home"
    (home / "my app" / "src").mkdir(parents=True)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "claude"
    fake.write_text('#!/bin/sh\necho "ran in $(pwd) with $*"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    out = json.loads(invoke("export", session_file, "--to", "json", "--redact").stdout)
    line = out["resume"]["display"]
    assert "maralind" not in line and line.startswith("cd ~/'my app/src' && claude --resume")
    env = {**os.environ, "HOME": str(home), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    ran = subprocess.run(
        ["/bin/sh", "-c", line], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == f"ran in {home / 'my app' / 'src'} with --resume {SESSION_ID}"
    md = invoke("export", session_file, "--to", "md", "--redact").stdout
    assert f"`{line}`" in md  # a code span: copied from the raw file, it runs as well
