"""A slash command reads as the person typed it, and its output without its tags.

Claude Code writes a slash command as an injected user record of tags:
`<command-name>/model</command-name>` then, on indented lines, `<command-message>model
</command-message>` and `<command-args>opus</command-args>` (a skill's or custom command's
record puts the message first; 1.0 wrote "init is analyzing your codebase…" as the
message). What it printed follows in `<local-command-stdout>` (or `-stderr`), with the
terminal's bold around the model's name. Claude Code 2.1 writes some local commands
(`/memory`, `/mcp`, `/model` with no change) as `system` records of subtype
`local_command` with the same text in `content`. The replayer showed the tags as they are.
A command now reads `/model opus` and its output "Set model to opus (…)": still injected
(never the person, never a silence), the detector's reading of it unchanged. Text written
for the test in the shapes of the real files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import invoke
from pivotal.catalog.search_text import COMMAND, turn_texts
from pivotal.detect import PivotConfig
from pivotal.detect.silence import classify_turn
from pivotal.model import Role, Session, TurnFlag
from pivotal.readers import find_sessions, read_session
from surfaces import in_replayer, through_cli

from . import claude_builders as cb

ASKED = "Summarise what changed in the ledger schema since v3"
NEXT = "good, now the same for the API"
INDENT = "\n            "


def command(name: str, args: str = "") -> str:
    """A command's record as Claude Code 2.x writes a built-in command."""
    return (
        f"<command-name>/{name}</command-name>{INDENT}<command-message>{name}"
        f"</command-message>{INDENT}<command-args>{args}</command-args>"
    )


def stdout(text: str) -> str:
    return f"<local-command-stdout>{text}</local-command-stdout>"


def local_command(uuid: str, parent: str, second: int, content: str) -> dict:
    """A `local_command` system record in Claude Code 2.1's key order."""
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": cb.CWD,
        "sessionId": cb.SESSION,
        "version": "2.1.240",
        "gitBranch": "main",
        "type": "system",
        "subtype": "local_command",
        "content": content,
        "level": "info",
        "timestamp": cb.stamp(second),
        "uuid": uuid,
        "isMeta": False,
    }


REVIEW = (
    "<command-message>review</command-message>\n<command-name>/review</command-name>\n"
    "<command-args>https://git.example.org/ledger/pull/41</command-args>"
)
SET_MODEL = stdout("Set model to \x1b[1mopus (claude-opus-4-8)\x1b[22m")
MEMORY = "Opened the project memory in $EDITOR: ./CLAUDE.md"

RECORDS: list[dict[str, Any]] = [
    cb.user("u1", None, 0, ASKED),
    cb.said("a1", "u1", 30, "msg_1", "v4 split the ledger table and renamed two columns."),
    cb.user("k1", "a1", 40, cb.LOCAL_CAVEAT, isMeta=True),
    cb.user("c1", "k1", 41, command("model", "opus")),
    cb.user("o1", "c1", 41, SET_MODEL),
    cb.user("c2", "o1", 50, command("clear")),
    cb.user("o2", "c2", 50, stdout("")),
    cb.user("c3", "o2", 60, REVIEW),
    cb.user("o3", "c3", 61, "<local-command-stderr>Error: review needs gh</local-command-stderr>"),
    local_command("s1", "o3", 70, command("memory")),
    local_command("s2", "s1", 70, stdout(MEMORY)),
    local_command("s3", "s2", 75, command("mcp")),
    local_command("s4", "s3", 75, stdout("")),
    cb.user("u2", "s4", 90, NEXT),
]
INJECTED = [
    "/model opus",
    "Set model to opus (claude-opus-4-8)",
    "/clear",
    "(no output)",
    "/review https://git.example.org/ledger/pull/41",
    "Error: review needs gh",
]
COMMANDS = ["/model opus", "/clear", "/review https://git.example.org/ledger/pull/41"]


def _read(path: Path) -> Session:
    return read_session(find_sessions([path]).refs[0])


def _injected(session: Session) -> list[str]:
    return [
        t.text
        for t in session.turns
        if t.role is Role.USER and t.is_synthetic and not t.flags & TurnFlag.META
    ]


async def test_a_command_reads_as_typed_and_its_output_without_tags(tmp_path: Path) -> None:
    path = cb.home(tmp_path, RECORDS)
    session = _read(path)
    assert session.skipped == []
    assert _injected(session) == INJECTED
    system = [t.text for t in session.turns if t.role is Role.SYSTEM]
    assert system == ["/memory", MEMORY, "/mcp"]  # an empty output says nothing
    cli = through_cli(path)
    assert cli.person == [ASKED, NEXT]
    shown = await in_replayer(path)
    assert not any("<command-" in drawn or "\x1b" in drawn for drawn in shown.turns)
    for turn in session.turns:
        if turn.text in COMMANDS:
            drawn = shown.turns[turn.index]
            assert "○ injected" in drawn.splitlines()[0] and turn.text in drawn
            assert turn.index not in shown.human


def test_a_command_is_still_injected_never_the_person_nor_a_silence(tmp_path: Path) -> None:
    """Only the words change: the flags the detector reads stay those of an injection."""
    session = _read(cb.home(tmp_path, RECORDS))
    by_record = {t.source.record_id: t for t in session.turns}
    said = []
    for record in ("c1", "o1", "c2", "o2", "c3", "o3"):
        turn = by_record[record]
        assert (turn.role, turn.flags) == (Role.USER, TurnFlag.SYNTHETIC)
        assert classify_turn(turn, PivotConfig()) is None
        said.append(turn.text)
    assert said == INJECTED
    assert [t.text for t in session.turns if t.is_human] == [ASKED, NEXT]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        pytest.param(
            "<command-message>init is analyzing your codebase…</command-message>\n"
            "<command-name>/init</command-name>",
            "/init",
            id="1.0-message-first",
        ),
        pytest.param(
            "<command-name>compact</command-name>\n          <command-message>compact"
            "</command-message>\n          <command-args></command-args>",
            "/compact",
            id="1.0.2x-no-slash",
        ),
        pytest.param(
            "<command-message>orchestrator is running…</command-message>\n"
            "<command-name>/orchestrator</command-name>\n"
            "<command-args>bring  CLAUDE.md\nup to date</command-args>",
            "/orchestrator bring  CLAUDE.md\nup to date",
            id="1.0-args-kept-as-typed",
        ),
    ],
)
def test_claude_code_1_0_commands_read_as_typed(tmp_path: Path, content: str, said: str) -> None:
    records = [
        cb.in_v1(cb.user("u1", None, 0, ASKED)),
        cb.in_v1(cb.said("a1", "u1", 30, "msg_1", "v4 split the ledger table.")),
        cb.in_v1(cb.user("c1", "a1", 40, content)),
        cb.in_v1(cb.user("u2", "c1", 90, NEXT)),
    ]
    session = _read(cb.write(tmp_path / "s.jsonl", records))
    (turn,) = [t for t in session.turns if t.source.record_id == "c1"]
    assert (turn.text, turn.preview, turn.flags) == (said, said[:200], TurnFlag.SYNTHETIC)


def test_search_finds_a_command_as_the_persons_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    session = _read(cb.home(tmp_path, RECORDS))
    (turn,) = [t for t in session.turns if t.text == "/model opus"]
    assert turn_texts(turn) == [(COMMAND, "/model opus")]
    result = invoke("search", "opus", "--root", tmp_path, "--json")
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["who"], r["snippet"]) for r in rows if r["who"] == "command"] == [
        ("command", "/model opus")
    ]
