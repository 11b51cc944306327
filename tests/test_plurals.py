"""One of a thing is one thing (issue 35: 11): "1 pivots" and "1 delegations" in the
exports, the cast and stats read as a bug. One session with one pivot, a delegation
after a dead end, through every surface that counts."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_helpers import invoke

ROOT = Path(__file__).resolve().parents[1]
ONE = ROOT / "sample_sessions" / "claude" / "seed_dead_end.jsonl"
"""One pivot, a delegation after a dead end."""
WRONG = re.compile(r"(?<![-\d.])1 (pivots|delegations|sessions|turns|runs|calls|silent pivots)\b")


def test_stats_says_one_session_one_pivot_one_delegation_one_run() -> None:
    out = invoke("stats", ONE).stdout
    assert "1 session (0 unreadable)" in out and "1 silent pivot in 1 session" in out
    assert "(1 delegation)" in out and " in 1 run " in out
    assert not WRONG.search(out), WRONG.findall(out)


def test_the_cast_and_the_export_line_say_one_pivot(tmp_path: Path) -> None:
    target = tmp_path / "one.cast"
    result = invoke("export", ONE, "--to", "cast", "-o", target)
    assert "cast, 1 pivot)" in result.stderr and not WRONG.search(result.stderr)
    frames = [json.loads(line) for line in target.read_text().splitlines()[1:]]
    intro = frames[0][2]
    assert "· 1 pivot" in intro and not WRONG.search(intro)


def test_markdown_and_html_never_say_one_pivots() -> None:
    for kind in ("md", "html"):
        out = invoke("export", ONE, "--to", kind).stdout
        assert not WRONG.search(out), (kind, WRONG.findall(out))


def test_scan_header_of_a_one_turn_session(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(ROOT / "tests"))
    from tail.claude_lines import ClaudeStream

    path = tmp_path / "5e55104c.jsonl"
    path.write_bytes(ClaudeStream().human("Only this."))
    out = invoke("scan", path).stdout
    assert "(claude-code, 1 turn, id" in out
