"""Every secret form of issue 34.4, in every field, leaks from no export and no `scan --redact`.

The forms: Redis's empty-user URL (`redis://:password@host`), `mysql -pPASSWORD`,
`docker login -p …`, `sshpass -p …`, a Telegram bot token inside its API URL, a
Mailgun or New Relic key after a label of any spelling; a provider's token inside a
file path or the working directory, followed by `.env`, `.txt` or `/` (a path has no
quote or space after it); and a key that a length cut would halve (the JSON export's
`preview`, a title the text report cuts to 80 characters). One Claude Code session
carries them in the person's prompt, the agent's text, a command, its output, a file
path, the working directory, the title and a note. Without `--redact` each is visible
(so the check can fail); with it, not even ten characters in a row of any is left in
what a reader sees (`planted.decoded`), in md, html, json and cast, nor in
`scan --redact` as JSON or as the explained text report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.catalog.notes import NoteStore
from pivotal.export.ruleset import findings
from pivotal.readers import find_sessions, read_session

from .planted import decoded, gitleaks_examples

FORMATS = ["md", "html", "json", "cast"]
GITHUB = "ghp_R8mN2qW5eT9yU1iO4pA7sD0fG3hJ6kL8zX2c"
MAILGUN = "key-3f9a8c7e1b2d4f6a0c5e9b8d7a6f1e2c"
NEW_RELIC = "NRAK-7KQ2M9X4VB1ZP8R3T6W0YJ5HDLC"
TELEGRAM = "7142385960:AAH3kZ9qLmN4pR7sT1vW8xY2bC5dF6gJ0eA"

# (the form as an agent or a person writes it, the secret in it)
FORMS = [
    ("redis-cli -u redis://:{}@cache.internal:6379/0 ping", "s3cretRedisPa55"),
    ("REDIS_URL=rediss://:{}@cache.internal:6380", "R3disTlsPa55word"),
    ("mysql -h db.internal -u root -p{} app_db < dump.sql", "S3cr3tMysqlPa55"),
    ("mysqldump -uroot -p'{}' app_db > dump.sql", "Dump Pa55 w0rd"),
    ("mariadb -u app -p{} -e 'select 1'", "M4riaDbPa55"),
    ("docker login -u mara -p {} registry.example.com", "D0ckerHubPa55word"),
    ("docker login --password {} --username mara ghcr.io", "ghcrPa55w0rdX"),
    ("podman login -p={} quay.io", "P0dmanPa55"),
    ("sshpass -p {} ssh deploy@10.0.0.5 uptime", "Sshp4ssW0rdQ"),
    ("sshpass -p{} scp build.tgz deploy@10.0.0.5:/srv", "Sshp4ssGlued9"),
    ("sshpass -f ~/.pw -p '{}' ssh deploy@10.0.0.5", "Sshp4ss Quoted7"),
    ("curl -s https://api.telegram.org/bot{}/sendMessage -d chat_id=42", TELEGRAM),
    ("Mailgun key - {}", MAILGUN),
    ("mailgun key {} (sandbox)", "key-0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b"),
    (
        "Our Mailgun private API key for the production server: {}",
        "pubkey-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
    ),
    ("New Relic key {}", NEW_RELIC),
    ("newrelic user key: {}", "NRAK-Z9Y8X7W6V5U4T3S2R1Q0P9O8N7M"),
    ("New Relic browser key ({})", "NRJS-0a1b2c3d4e5f6a7b8c9"),
]
TAILS = [".env", ".txt", "/"]
TITLE_PAD = "Release checklist for the billing service, step three, then "  # 61 characters


def _secrets() -> list[str]:
    return [secret for _, secret in FORMS]


def _lines() -> list[str]:
    return [form.format(secret) for form, secret in FORMS]


def _path_tokens() -> list[tuple[str, str]]:
    """(rule id, secret) of every gitleaks rule whose secret alone, as a word, is found."""
    examples, missing = gitleaks_examples()
    assert not missing
    found = []
    for rule_id, _, secret in examples:
        alone = f"the token {secret} here"
        if any(kind == rule_id and alone[s:e] == secret for s, e, kind in findings(alone)):
            found.append((rule_id, secret))
    return found


def _paths(tokens: list[tuple[str, str]]) -> list[str]:
    return [f"/srv/keys/{secret}{tail}" for _, secret in tokens for tail in TAILS]


def _record(n: int, kind: str, message: dict, cwd: str) -> str:
    return json.dumps(
        {
            "parentUuid": f"u{n - 1}" if n else None,
            "isSidechain": False,
            "userType": "external",
            "cwd": cwd,
            "sessionId": "5b1f0c2e-4b7a-4d1e-9a55-3c1d2e4f5a6b",
            "version": "2.1.197",
            "gitBranch": "main",
            "type": kind,
            "message": message,
            "uuid": f"u{n}",
            "timestamp": f"2026-11-30T10:{n // 60:02d}:{n % 60:02d}.000Z",
        }
    )


def _assistant(n: int, content: list[dict], cwd: str) -> str:
    message = {
        "id": f"msg_{n}",
        "type": "message",
        "role": "assistant",
        "model": "claude-opus-4-8",
        "content": content,
        "stop_reason": "tool_use" if content[-1]["type"] == "tool_use" else "end_turn",
    }
    return _record(n, "assistant", message, cwd)


def _result(n: int, tool_id: str, output: str, cwd: str) -> str:
    content = [{"type": "tool_result", "tool_use_id": tool_id, "content": output}]
    return _record(n, "user", {"role": "user", "content": content}, cwd)


def _session(path: Path, tokens: list[tuple[str, str]]) -> None:
    lines, paths = _lines(), _paths(tokens)
    # the working directory: one folder per token, each followed by its tail
    folders = [f"{secret}{tail.rstrip('/')}" for _, secret in tokens for tail in TAILS]
    cwd = "/srv/" + "/".join(folders)
    text = "\n".join(lines)
    # a preview is the first 200 characters: this 40-character key starts at 170
    prompt = f"{'Deploy the billing service today. ' * 5}{GITHUB} then:\n{text}\n"
    prompt += "\n".join(paths)
    assert prompt.index(GITHUB) == 170
    records = [
        json.dumps({"type": "ai-title", "aiTitle": f"{TITLE_PAD}{GITHUB}", "sessionId": "x"}),
        _record(0, "user", {"role": "user", "content": prompt}, cwd),
        _assistant(1, [{"type": "text", "text": f"I will run these:\n{text}"}], cwd),
    ]
    n = 2
    commands = [*lines, "ls -la " + " ".join(paths)]
    for number, command in enumerate(commands):
        tool = f"toolu_{number:03d}"
        use = {"type": "tool_use", "id": tool, "name": "Bash", "input": {"command": command}}
        records.append(_assistant(n, [use], cwd))
        records.append(_result(n + 1, tool, f"$ {command}\n{text}\n" + "\n".join(paths), cwd))
        n += 2
    for number, file in enumerate(paths):
        tool = f"toolu_r{number:03d}"
        use = {"type": "tool_use", "id": tool, "name": "Read", "input": {"file_path": file}}
        records.append(_assistant(n, [use], cwd))
        records.append(_result(n + 1, tool, f"     1\tTOKEN read from {file}", cwd))
        n += 2
    # an agent that asks, a person who only says go on, and an agent that goes on
    ask = f"Shall I log in with `{lines[5]}` and run `{lines[8]}` now?"
    records.append(_assistant(n, [{"type": "text", "text": ask}], cwd))
    records.append(_record(n + 1, "user", {"role": "user", "content": "go on"}, cwd))
    use = {"type": "tool_use", "id": "toolu_go", "name": "Bash", "input": {"command": lines[8]}}
    records.append(_assistant(n + 2, [use], cwd))
    records.append(_result(n + 3, "toolu_go", "up 3 days", cwd))
    path.write_text("\n".join(records) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def tokens() -> list[tuple[str, str]]:
    found = _path_tokens()
    assert len(found) > 100  # the provider tokens that name themselves
    return found


@pytest.fixture()
def session_file(tmp_path: Path, tokens, monkeypatch) -> Path:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    path = tmp_path / "forms.jsonl"
    _session(path, tokens)
    session = read_session(find_sessions([path]).refs[0])
    with NoteStore() as store:
        store.set_note(session, session.turns[1], "\n".join(_lines()))
    return path


def _pieces(secret: str, size: int = 10) -> list[str]:
    if len(secret) <= size:
        return [secret]
    return [secret[i : i + size] for i in range(len(secret) - size + 1)]


def _left(text: str, secrets: list[str]) -> list[str]:
    """The secrets of which ten characters in a row are still in `text`."""
    return [s for s in secrets if any(piece in text for piece in _pieces(s))]


def _export(path: Path, fmt: str, *extra: str) -> str:
    result = invoke("export", path, "--to", fmt, *extra)
    assert result.exit_code == 0, result.output
    return decoded(fmt, result.stdout)


@pytest.mark.parametrize("fmt", FORMATS)
def test_without_redaction_every_form_is_visible(session_file, tokens, fmt) -> None:
    text = _export(session_file, fmt)
    assert _left(text, _secrets()) == _secrets()
    assert GITHUB in text
    visible = [s for _, s in tokens if s in text]
    # a cast cuts a tool's line to the terminal's width: the long tokens are cut off
    assert len(visible) == len(tokens) if fmt != "cast" else len(visible) > len(tokens) * 3 // 4


@pytest.mark.parametrize("fmt", FORMATS)
def test_no_form_leaks_from_a_redacted_export(session_file, tokens, fmt) -> None:
    text = _export(session_file, fmt, "--redact")
    assert _left(text, _secrets()) == []
    assert _left(text, [GITHUB]) == []
    assert [rule for rule, s in tokens if s in text] == []


def test_the_working_directory_and_paths_keep_their_shape(session_file, tokens) -> None:
    data = json.loads(invoke("export", session_file, "--to", "json", "--redact").stdout)
    # every folder is a mask, most keep their `.env` / `.txt`: a token whose characters
    # include `/` (Authress's) or `.` (PlanetScale's) takes what follows along, no more
    folders = data["cwd"].split("/")
    assert folders[:2] == ["", "srv"]
    assert all(re.fullmatch(r"\[REDACTED:[a-z0-9-]+\](\.env|\.txt)?", f) for f in folders[2:])
    assert len(folders[2:]) >= len(tokens) * 3 - 3
    assert sum(f.endswith(".env") for f in folders) >= len(tokens) * 9 // 10
    reads = [
        part["tool"]["input"]["file_path"]
        for turn in data["transcript"]
        for part in turn["parts"]
        if part.get("tool") and part["tool"]["name"] == "Read"
    ]
    assert len(reads) == len(tokens) * 3
    assert all(p.startswith("/srv/keys/[REDACTED:") for p in reads)
    assert {p.rsplit("]", 1)[1] for p in reads} >= {".env", ".txt", "/"}


def test_the_preview_is_cut_from_the_redacted_text(session_file) -> None:
    plain = json.loads(invoke("export", session_file, "--to", "json").stdout)
    assert plain["transcript"][0]["preview"].endswith(GITHUB[:30])  # cut inside the key
    data = json.loads(invoke("export", session_file, "--to", "json", "--redact").stdout)
    preview = data["transcript"][0]["preview"]
    assert preview.startswith("Deploy the billing service today.")
    assert "[REDACTED:github-pat]" in preview
    assert _left(preview, [GITHUB]) == []


def test_scan_shows_the_forms_without_redaction(session_file) -> None:
    # the checks below can fail: the scan quotes the agent's question and the title
    text = invoke("scan", "--explain", session_file).stdout
    assert _left(text, [GITHUB, *_secrets()[5:9]])


@pytest.mark.parametrize("how", [("--json",), ("--explain",), ()])
def test_no_form_leaks_from_scan_redact(session_file, tokens, how) -> None:
    result = invoke("scan", *how, "--redact", session_file)
    assert result.exit_code == 0, result.output
    text = result.stdout
    if how == ("--json",):
        text = decoded("json", text)
    assert _left(text, [GITHUB, *_secrets()]) == []
    assert [rule for rule, s in tokens if s in text] == []


@pytest.mark.parametrize("how", [("--json",), ()])
def test_scan_follow_redact_masks_what_it_prints(session_file, monkeypatch, how) -> None:
    # `scan --follow --redact` printed every pivot unredacted: the option was not passed on
    from pivotal.scan import follow as follow_module
    from pivotal.scan.follow import pivot_line

    async def follow(ref, *, as_json, out, config, **rest):  # type: ignore[no-untyped-def]
        session = read_session(ref)
        from pivotal.detect import PivotConfig, detect_pivots

        for pivot in detect_pivots(session.turns, PivotConfig.for_sensitivity("high")):
            out.write(pivot_line(session, pivot, as_json) + "\n")
        for line in _lines():  # as the pivot's evidence would quote them
            out.write(f"#351  2026-11-30 10:11:00  other  ack  0.50  {line}\n")
        return 1

    monkeypatch.setattr(follow_module, "scan_follow", follow)
    plain = invoke("scan", "--follow", *how, session_file)
    assert plain.exit_code == 0, plain.output
    assert _left(plain.stdout, _secrets()) == _secrets()
    redacted = invoke("scan", "--follow", "--redact", *how, session_file)
    assert redacted.exit_code == 0, redacted.output
    assert _left(redacted.stdout, [GITHUB, *_secrets()]) == []
    assert "[REDACTED:" in redacted.stdout


# secrets a tool call's input names by its members: the rule needs the name ("password")
MEMBERS = {
    "password": "hunter2hunter2",
    "client_secret": "Zq81ka0sd9f8a7s6d5f4",
    "DB_PASSWORD": "Tr0ub4dor-and-3",
    "auth_token": "5b9e0c7d1a2f4e6b8c3d",
}


@pytest.fixture()
def members_file(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    cwd = "/home/ann/billing"
    use = {
        "type": "tool_use",
        "id": "toolu_db",
        "name": "mcp__postgres__connect",
        "input": {"host": "db.internal", "port": 5432, "options": {**MEMBERS}, **MEMBERS},
    }
    records = [
        _record(0, "user", {"role": "user", "content": "Connect to the staging database."}, cwd),
        _assistant(1, [use], cwd),
        _result(2, "toolu_db", "connected", cwd),
    ]
    path = tmp_path / "members.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_secret_named_by_its_member_in_a_tool_input_is_masked(members_file, fmt) -> None:
    secrets = list(MEMBERS.values())
    shown = _export(members_file, fmt)
    if fmt in ("json", "html"):  # md and cast show a call by its key argument only
        assert _left(shown, secrets) == secrets
    assert _left(_export(members_file, fmt, "--redact"), secrets) == []


def test_a_key_a_terminal_colour_splits_is_masked_in_every_format(tmp_path, monkeypatch) -> None:
    """`grep --color=always` wraps the match in escapes: the key is in pieces until they go."""
    monkeypatch.setenv("PIVOTAL_DATA_DIR", str(tmp_path / "data"))
    cwd = "/home/ann/billing"
    coloured = f"{GITHUB[:10]}\x1b[01;31m\x1b[K{GITHUB[10:20]}\x1b[m\x1b[K{GITHUB[20:]}"
    use = {"type": "tool_use", "id": "toolu_g", "name": "Bash", "input": {"command": "grep -r ."}}
    records = [
        _record(0, "user", {"role": "user", "content": "Where is the token set?"}, cwd),
        _assistant(1, [use], cwd),
        _result(2, "toolu_g", f"./.env:GITHUB_TOKEN={coloured}\n", cwd),
    ]
    path = tmp_path / "coloured.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    for fmt in FORMATS:
        if fmt in ("json", "html"):  # md and cast do not show this output
            assert GITHUB[20:] in _export(path, fmt)  # the pieces are there without --redact
        assert (
            _left(_export(path, fmt, "--redact"), [GITHUB[:10], GITHUB[10:20], GITHUB[20:]]) == []
        )
