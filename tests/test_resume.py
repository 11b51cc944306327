"""Resume commands per agent, built from the real clients' session files."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from pivotal.catalog.resume import resume_command
from pivotal.model import Session
from pivotal.readers import find_sessions, read_session

REAL = Path(__file__).resolve().parent / "fixtures" / "realclients"


def _read(path: Path) -> Session:
    found = find_sessions([path])
    assert found.refs, found.problems
    return read_session(found.refs[0])


@pytest.mark.parametrize(
    ("fixture", "argv", "cwd"),
    [
        (
            "claude-short",
            ["claude", "--resume", "9bff2a97-be17-49dd-82a0-730bb832af0b"],
            "/home/dev/work/claude-short",
        ),
        (
            "codex-short",
            ["codex", "resume", "01a22a93-c1c4-76a1-aa85-bcac234eef3f"],
            "/home/dev/work/codex-short",
        ),
        (
            "opencode-short",
            ["opencode", "--session", "ses_dd56d6bd6ffeh6ChL7dECWk7KX"],
            "/home/dev/work/opencode-short",
        ),
        (  # the workspace its <session_context> names
            "gemini-short",
            ["gemini", "--resume", "5b2c8740-00e4-4481-94e9-939d81e710c3"],
            "/home/dev/work/gemini-short",
        ),
    ],
)
def test_resume_by_id_for_each_agent(fixture, argv, cwd):
    command = resume_command(_read(REAL / fixture))
    assert command.argv == argv
    assert command.cwd == cwd
    assert command.available and command.note
    expected = shlex.join(argv) if cwd is None else f"cd {cwd} && {shlex.join(argv)}"
    assert command.display == expected


def test_aider_restores_the_history_of_its_repository():
    history = REAL / "aider-short" / ".aider.chat.history.md"
    command = resume_command(_read(history))
    assert command.argv == ["aider", "--restore-chat-history"]
    assert command.cwd == str(history.parent)
    assert "no session ids" in command.note


def test_aider_with_a_custom_history_file_names_it(tmp_path):
    custom = tmp_path / "my repo" / "chat.md"
    custom.parent.mkdir()
    custom.write_bytes((REAL / "aider-short" / ".aider.chat.history.md").read_bytes())
    session = read_session(find_sessions([custom]).refs[0])
    command = resume_command(session)
    assert command.argv == ["aider", "--restore-chat-history", "--chat-history-file", "chat.md"]
    assert command.display == f"cd '{custom.parent}' && " + shlex.join(command.argv)


def test_gemini_without_an_id_resumes_latest():
    session = Session("gemini", Path("/x/session.jsonl"), id=None, cwd="/work/app")
    command = resume_command(session)
    assert command.argv == ["gemini", "--resume", "latest"]
    assert command.display == "cd /work/app && gemini --resume latest"


def test_hostile_ids_and_paths_never_reach_a_command_line():
    evil = Session("claude-code", Path("/x.jsonl"), id="abc; rm -rf ~ \x1b]0;pwned\x07", cwd="/w")
    command = resume_command(evil)
    assert not command.available and command.display == ""
    odd_cwd = Session("codex", Path("/x.jsonl"), id="0199a", cwd="/tmp/$(reboot)\x1b[2J")
    shown = resume_command(odd_cwd).display
    assert "\x1b" not in shown
    assert shown.startswith("cd '/tmp/$(reboot)")  # quoted: the shell would not expand it


def test_formats_without_an_agent_say_so():
    command = resume_command(Session("generic", Path("/x.jsonl"), id="1"))
    assert not command.available
    assert "no agent" in command.note
    missing = resume_command(Session("codex", Path("/x.jsonl"), id=None))
    assert not missing.available and "codex resume" in missing.note
