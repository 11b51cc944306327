"""`pivotal sessions` and `pivotal stats` on a home where Codex and Gemini CLI sessions ran
sub-agents with files of their own: each sub-agent is listed through the session that
ran it (its tokens in that session's), not as a session of its own, and counted once; a
sub-agent whose session's file is gone is a session of its own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from readers import codex_subagent_home as codex
from readers import gemini_subagent_home as gemini

GEMINI_ALL = gemini.OWN_TOKENS + gemini.INVESTIGATOR_TOKENS + gemini.GENERALIST_TOKENS
CODEX_ORPHAN_TOKENS = 250
GEMINI_ORPHAN_TOKENS = 400


def _home(root: Path) -> dict[str, Path]:
    paths = {
        "codex": codex.write_home(root)[codex.PARENT],
        "codex orphan": codex.write_orphan(root),
        "gemini": gemini.write_home(root),
        "gemini orphan": gemini.write_orphan(root),
    }
    return {name: path.resolve() for name, path in paths.items()}


@pytest.mark.parametrize("cache", [True, False], ids=["with the index", "--no-cache"])
def test_sessions_lists_each_sub_agent_through_its_session(tmp_path: Path, cache: bool) -> None:
    paths = _home(tmp_path / "home")
    for _ in range(2 if cache else 1):  # the second listing comes from the index
        extra = [] if cache else ["--no-cache"]
        result = invoke("sessions", "--root", tmp_path / "home", "--json", *extra)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""  # no sub-agent's file is reported as listing nothing
        rows = {
            Path(row["path"]).resolve(): row for row in map(json.loads, result.stdout.splitlines())
        }
        assert set(rows) == set(paths.values())
        assert rows[paths["codex"]]["tokens"] == codex.ALL_TOKENS
        assert rows[paths["gemini"]]["tokens"] == GEMINI_ALL
        assert rows[paths["codex orphan"]]["session_id"] == codex.ORPHAN
        assert rows[paths["codex orphan"]]["tokens"] == CODEX_ORPHAN_TOKENS
        assert rows[paths["gemini orphan"]]["tokens"] == GEMINI_ORPHAN_TOKENS


@pytest.mark.parametrize("where", ["--root", "a folder"])
def test_stats_counts_each_sub_agent_once(tmp_path: Path, where: str) -> None:
    _home(tmp_path / "home")
    args = ["--root", tmp_path / "home"] if where == "--root" else [tmp_path / "home"]
    result = invoke("stats", *args, "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert len(stats["sessions"]) == 4
    spend = stats["totals"]["spend"]["all"]
    assert spend["count"] == 4 + 4  # the sessions, and the sub-agents they ran (Cedar in Ada's)
    assert spend["tokens"] == (
        codex.ALL_TOKENS + CODEX_ORPHAN_TOKENS + GEMINI_ALL + GEMINI_ORPHAN_TOKENS
    )
