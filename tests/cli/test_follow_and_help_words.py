"""`scan --follow` says what it watches and prints the plain sentence; `--help` says what a
silent pivot is (issue 35: 11), and `--key` names the argument the command has."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_helpers import invoke
from pivotal.model import Pivot, PivotKind, Session, Silence
from pivotal.scan.follow import pivot_line

ROOT = Path(__file__).resolve().parents[2]


def test_help_says_what_a_silent_pivot_is() -> None:
    out = invoke("--help").stdout
    assert "A silent pivot is a moment where you said next to nothing" in out
    assert "the context was compacted" in out


def test_a_followed_pivot_is_the_plain_sentence_not_the_detectors_reason() -> None:
    pivot = Pivot(
        turn=4,
        kind=PivotKind.DELEGATION_AFTER_DEAD_END,
        silence=Silence.ACK,
        confidence=0.75,
        cluster=[4],
        reason="gate passed: failed_attempts=2, status_summary",
        summary="You said '.' after 2 failed attempts; it went on by itself (3 calls).",
    )
    line = pivot_line(Session("claude-code", Path("s.jsonl")), pivot, as_json=False)
    assert line.endswith(
        "0.75  You said '.' after 2 failed attempts; it went on by itself (3 calls)."
    )
    assert "gate passed" not in line


def test_scan_follow_says_what_it_watches(monkeypatch: pytest.MonkeyPatch) -> None:
    from pivotal.scan import follow as follow_module

    async def fake_follow(ref, **kwargs):  # type: ignore[no-untyped-def]
        return 0

    monkeypatch.setattr(follow_module, "scan_follow", fake_follow)
    session = ROOT / "sample_sessions" / "claude" / "demo.jsonl"
    result = invoke("scan", "--follow", session)
    assert result.exit_code == 0 and result.stdout == ""
    assert result.stderr.startswith(f"pivotal: watching {session}: each pivot is printed")


def test_key_help_names_the_argument_each_command_has() -> None:
    """`replay`, `follow` and `scan` take PATH, yet their `--key` spoke of SESSION."""
    from pivotal.cli.commands import command_parser

    for command in ("replay", "follow", "scan", "export", "notes"):
        parser = command_parser(command)
        (argument,) = [a.metavar for a in parser._actions if not a.option_strings]
        (key,) = [a for a in parser._actions if "--key" in a.option_strings]
        assert f"{argument} holds several" in str(key.help), (command, key.help)
