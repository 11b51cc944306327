"""`pivotal stats`: runs after pivots, failure streaks, totals, charts, and --jobs == 1 job."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path

import pytest

import pivotal
from cli_helpers import invoke
from pivotal.catalog import stats as stats_mod
from pivotal.catalog.stats import bar, collect, histogram, pivot_run, sparkline, stats_json, totals
from pivotal.cli.exitcodes import ExitCode
from pivotal.model import (
    Part,
    PartKind,
    Pivot,
    PivotKind,
    Role,
    Session,
    Silence,
    StateChange,
    ToolCall,
    Turn,
    TurnFlag,
)
from pivotal.readers import find_sessions

ROOT = Path(__file__).resolve().parents[1]
DEMO = Path(pivotal.__file__).resolve().parent / "_demo" / "demo.jsonl"
REAL = ROOT / "tests" / "fixtures" / "realclients"
HELDOUT = ROOT / "sample_sessions" / "heldout"


def _human(i: int, t: float, text: str = "") -> Turn:
    return Turn(i, Role.USER, TurnFlag.HUMAN, timestamp=t, _parts=[Part(PartKind.TEXT, text)])


def _agent(i: int, t: float | None, *exits: int) -> Turn:
    parts = [
        Part(
            PartKind.TOOL, tool=ToolCall(f"c{i}{n}", "Bash", {"command": "make"}, "x", exit_code=e)
        )
        for n, e in enumerate(exits)
    ]
    return Turn(i, Role.ASSISTANT, timestamp=t, _parts=parts)


def _session() -> Session:
    turns = [
        _human(0, 0.0, "make the build pass"),
        _agent(1, 60.0, 0, 2),  # a success, then a failure
        _agent(2, 120.0, 0, 1, 1),  # success resets the streak; two failures in a row
        _agent(3, 180.0),  # the agent reports it is stuck (no calls)
        _human(4, 600.0),  # the silence
        Turn(5, Role.USER, TurnFlag.SYNTHETIC, timestamp=601.0),  # injected reminder
        _agent(6, 660.0, 0),
        _agent(7, 900.0, 0, 0),
        _agent(8, 1200.0),
        _human(9, 5000.0, "thanks, now the docs"),
        _agent(10, 5100.0, 1),
        _human(11, 5200.0, ""),
        _agent(12, 5260.0, 0),
        _agent(13, None),
    ]
    return Session("claude-code", Path("/s.jsonl"), id="s", turns=turns)


def _pivot(turn: int, kind: PivotKind, failed: int = 0) -> Pivot:
    return Pivot(turn, kind, Silence.EMPTY, 0.9, [turn], state=StateChange(attempts_failed=failed))


def test_the_run_after_a_pivot_lasts_until_the_person_speaks_again():
    session = _session()
    run = pivot_run(session, _pivot(4, PivotKind.DELEGATION_AFTER_DEAD_END, failed=3))
    assert run.agent_turns == 3  # turns 6, 7, 8; the injected turn 5 is not the agent's
    assert run.minutes == 10.0  # turn 4 at 600 s to turn 8 at 1200 s
    assert run.ended_by == "person"
    assert run.failed_calls == 3  # since the person last spoke (turn 0)
    assert run.trailing_failures == 2  # exit 1, exit 1, then nothing in turn 3
    assert run.failed_attempts == 3


def test_a_run_to_the_end_of_the_session():
    run = pivot_run(_session(), _pivot(11, PivotKind.OTHER))
    assert (run.agent_turns, run.ended_by) == (2, "end")
    assert run.minutes == 1.0  # the last turn has no time: turn 12 at 5260 s is the end
    assert (run.failed_calls, run.trailing_failures) == (1, 1)


def test_charts():
    assert sparkline([0, 1, 2, 4, 8]) == "▁▂▃▅█"  # value / max * 7, rounded
    assert sparkline([0, 0]) == "▁▁"
    assert bar(10, 10, width=4) == "████" and bar(5, 10, width=4) == "██"
    assert bar(1, 16, width=4) == "▎" and bar(0, 10) == ""
    assert histogram([0, 0, 0, 1, 5], buckets=6) == "█▃▁▁▁▃"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[Path]:
    """A private copy: the shared samples may be regenerated while the tests run."""
    root = tmp_path_factory.mktemp("corpus")
    shutil.copy(DEMO, root / "demo.jsonl")
    shutil.copytree(REAL, root / "real")
    if HELDOUT.is_dir():
        shutil.copytree(HELDOUT, root / "heldout")
    return [root]


def test_jobs_give_the_same_results_as_one_process(corpus):
    refs = find_sessions(corpus).refs
    assert len(refs) >= 10
    one = [asdict(s) for s in collect(refs, jobs=1)]
    many = [asdict(s) for s in collect(refs, jobs=3)]
    assert many == one
    assert sum(len(s["pivots"]) for s in one) >= 3  # the demo's pivots at least


def test_totals_add_up(corpus):
    stats = collect(find_sessions(corpus).refs)
    t = totals(stats)
    runs = [p for s in stats for p in s.pivots]
    assert t["pivots"] == len(runs) == sum(t["by_kind"].values()) == sum(t["by_silence"].values())
    assert t["sessions"] == len(stats)
    assert t["autonomy_turns"]["max"] == max(p.agent_turns for p in runs)
    data = stats_json(stats)
    assert data["totals"] == t
    assert all(sum(s["by_kind"].values()) == len(s["pivots"]) for s in data["sessions"])


def run(*args: str) -> tuple[int, str, str]:
    result = invoke(*args)
    return result.exit_code, result.stdout, result.stderr


def test_cli_json_and_jobs(corpus):
    code, out, _ = run("stats", "--json", str(corpus[0]))
    assert code == ExitCode.OK
    data = json.loads(out)
    code2, out2, _ = run("stats", "--json", "--jobs", "2", str(corpus[0]))
    assert code2 == ExitCode.OK and json.loads(out2) == data
    demo = next(s for s in data["sessions"] if s["label"] == "demo.jsonl")
    assert demo["format"] == "claude-code" and demo["pivots"]


def test_cli_table_has_rows_totals_and_charts():
    code, out, _ = run("stats", str(DEMO), str(REAL / "claude-short"))
    assert code == ExitCode.OK
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["SESSION", "PROJECT", "FORMAT", "TURNS", "PIVOTS"]
    assert lines[1].startswith("demo.jsonl") and lines[2].startswith("9bff2a97")
    # a file name says nothing of where the work was: each row names its project
    assert lines[2].split()[1] == "work/claude-short"
    assert "2 sessions (0 unreadable)" in out
    assert "By kind" in out and "█" in out
    assert any(c in out for c in "▁▂▃▄▅▆▇")


def test_cli_default_discovers_sessions_under_root():
    code, out, _ = run("stats", "--json", "--root", str(REAL / "codex-short"))
    assert code == ExitCode.OK
    assert [s["format"] for s in json.loads(out)["sessions"]] == ["codex"]
    assert [s["cwd"] for s in json.loads(out)["sessions"]] == ["/home/dev/work/codex-short"]


def test_a_long_project_keeps_its_end_and_a_missing_one_is_a_dash():
    from pivotal.catalog.stats import PROJECT_WIDTH, SessionStats, stats_table

    deep = "/home/ana/" + "x" * 40 + "/the-service-with-a-long-name"
    rows = stats_table(
        [
            SessionStats("a.jsonl", "codex", "/s/a.jsonl", cwd=deep),
            SessionStats("b.jsonl", "codex", "/s/b.jsonl"),
        ]
    ).splitlines()
    cell = rows[1].split()[1]
    assert len(cell) == PROJECT_WIDTH and cell.startswith("…")
    assert cell.endswith("/the-service-with-a-long-name"[-(PROJECT_WIDTH - 1) :])
    assert rows[2].split()[1] == "-"


def test_a_cjk_project_or_file_name_keeps_the_columns_in_line():
    """Widths in cells: `16. 자동화 도구/safeAutoTest` (28 cells, 23 characters) pushed FORMAT
    5 cells right and was not cut; a file name of wide characters passed its 44 cells."""
    from pivotal.catalog.stats import PROJECT_WIDTH, SessionStats, stats_table
    from pivotal.text.fit import cells

    wide_name = "회의록-정리-" * 6 + ".jsonl"  # 79 cells
    rows = stats_table(
        [
            SessionStats("a.jsonl", "codex", "/s/a.jsonl", cwd="/home/ana/work/shop-api"),
            SessionStats(
                "b.jsonl",
                "claude-code",
                "/s/b.jsonl",
                cwd="/Users/mina/16. 자동화 도구/safeAutoTest",
            ),
            SessionStats(wide_name, "gemini", f"/s/{wide_name}", cwd="/home/ana/수업/과제"),
        ]
    ).splitlines()[:4]
    at = [
        cells(row[: row.index(word)])
        for row, word in zip(rows, ["FORMAT", "codex", "claude-code", "gemini"], strict=True)
    ]
    assert at == [at[0]] * 4, rows
    project = rows[2].split("claude-code")[0].removeprefix("b.jsonl").strip()
    assert project.startswith("…") and project.endswith("도구/safeAutoTest")
    assert PROJECT_WIDTH - 1 <= cells(project) <= PROJECT_WIDTH
    session = rows[3].split()[0]
    assert "…" in session and cells(session) <= 44 and session.endswith(".jsonl")


def test_cli_missing_path_is_reported_with_its_exit_code(tmp_path):
    code, out, err = run("stats", str(DEMO), str(tmp_path / "nope.jsonl"))
    assert code == ExitCode.NOT_FOUND
    assert "nope.jsonl: no such file" in err
    assert out.startswith("SESSION")  # the readable session is still reported


def test_many_sessions_use_every_core_by_default_and_a_few_one_process(monkeypatch):
    from pivotal.cli import stats as stats_cli

    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1}, raising=False)
    assert stats_cli.default_jobs(stats_cli.MANY_SESSIONS) == 1
    assert stats_cli.default_jobs(stats_cli.MANY_SESSIONS + 1) == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: set(range(32)))
    assert stats_cli.default_jobs(1000) == 8
    asked: list[int] = []
    real_collect = stats_mod.collect

    def counting(refs, *, jobs=1, sensitivity="normal"):  # type: ignore[no-untyped-def]
        asked.append(jobs)
        return real_collect(refs, jobs=1, sensitivity=sensitivity)

    monkeypatch.setattr(stats_mod, "collect", counting)
    monkeypatch.setattr(stats_cli, "MANY_SESSIONS", 0)
    code, _, _ = run("stats", "--json", str(DEMO))
    code_one, _, _ = run("stats", "--json", "--jobs", "1", str(DEMO))
    assert code == code_one == ExitCode.OK and asked == [8, 1]
