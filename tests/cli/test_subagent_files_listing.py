"""`pivotal sessions` and `pivotal stats` on a home where Codex and Gemini CLI sessions ran
sub-agents with files of their own: each sub-agent is listed through the session that
ran it (its tokens in that session's), not as a session of its own, and counted once; a
sub-agent whose session's file is gone, or that its session's file never names, is a
session of its own (`--json` says which session ran it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import invoke
from readers import codex_subagent_home as codex
from readers import gemini_subagent_home as gemini
from readers import unreached_subagent_home as unreached

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


def test_a_sub_agent_its_session_never_names_is_listed_saying_which_session_ran_it(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    unreached.write_codex(home)
    for extra in ([], [], ["--no-cache"]):  # read, from the index, read without it
        result = invoke("sessions", "--root", home, "--json", *extra)
        assert result.exit_code == 0, result.output
        assert result.stderr == ""
        rows = {row["session_id"]: row for row in map(json.loads, result.stdout.splitlines())}
        assert set(rows) == {unreached.PARENT, unreached.WREN, unreached.SABLE}
        assert rows[unreached.WREN]["parent"] == unreached.PARENT
        assert rows[unreached.SABLE]["parent"] == unreached.PARENT
        assert rows[unreached.PARENT]["parent"] is None
        assert rows[unreached.PARENT]["tokens"] == 800 + 900 + 300  # Quill's in its session's
        assert rows[unreached.WREN]["tokens"] == 350


@pytest.mark.parametrize("where", ["--root", "a folder"])
def test_stats_counts_a_sub_agent_its_session_never_names_as_a_session(
    tmp_path: Path, where: str
) -> None:
    home = tmp_path / "home"
    unreached.write_codex(home)
    args = ["--root", home] if where == "--root" else [home]
    result = invoke("stats", *args, "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert len(stats["sessions"]) == 3  # the session, the CSV worker, the v2 task
    spend = stats["totals"]["spend"]["all"]
    assert spend["count"] == 3 + 1  # and Quill, in its session
    assert spend["tokens"] == 800 + 900 + 300 + 350 + 450
