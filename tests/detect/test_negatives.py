"""The non-pivots of PIVOTS.md: each one must not come out as a pivot."""

from __future__ import annotations

from pivotal.detect import detect_pivots
from pivotal.model import Role, Silence

from .helpers import DUMP, EVERY, B, bash, edit, read


def failing(b: B) -> None:
    b.human("Get the server to start.")
    b.agent("", bash("python -m server", "RuntimeError: CUDA error", 1))
    b.agent("", bash("python -m server", "RuntimeError: CUDA error", 1))
    b.agent("Both launches failed with a CUDA error.")


def test_silence_at_session_start() -> None:
    b = B()
    b.human("")
    b.agent("Hello! What would you like to work on?")
    b.human("ok")
    b.agent("", read("README.md"), edit("README.md"))
    assert detect_pivots(b.turns) == []


def test_silence_followed_only_by_a_question() -> None:
    b = B()
    failing(b)
    b.human("")
    b.agent("What would you like me to do?")
    b.human("revert it")
    assert detect_pivots(b.turns) == []


def test_ack_in_routine_unchanged_work() -> None:
    b = B()
    b.human("Rename get_user to fetch_user everywhere.")
    b.agent("", bash("grep -rn get_user src", "src/a.py:3\nsrc/b.py:9"))
    b.agent("I'll update a.py next.", edit("src/a.py"))
    b.human("ok")
    b.agent("", edit("src/b.py"))
    b.agent("", bash("grep -rn get_user src", ""))
    b.human("Thanks. Now add a changelog entry.")
    assert detect_pivots(b.turns) == []


def test_synthetic_nudge_alone() -> None:
    b = B()
    failing(b)
    b.nudge()
    b.agent("", bash("dmesg | tail", "..."), edit("server.py"))
    b.meta("<system-reminder>The TodoWrite tool hasn't been used recently.</system-reminder>")
    b.agent("", bash("python -m server", "started"))
    assert detect_pivots(b.turns) == []


def test_interrupt_marker() -> None:
    b = B()
    failing(b)
    b.interrupt()
    b.agent("", bash("python -m server --safe", "started"))
    assert detect_pivots(b.turns) == []


def test_command_wrapper() -> None:
    b = B()
    failing(b)
    b.human("<command-name>/model</command-name><command-args>opus</command-args>")
    b.agent("", bash("python -m server", "started"))
    assert detect_pivots(b.turns) == []


def test_direction_is_not_silent() -> None:
    b = B()
    failing(b)
    b.human("ok, now run the tests")
    b.agent("", bash("pytest -q", "3 failed"))
    assert detect_pivots(b.turns) == []


def test_tool_results_are_not_turns_and_do_not_break_windows() -> None:
    # tool results live inside ToolCall: a conversation without any human silence has no pivot
    b = B()
    failing(b)
    b.agent("", bash("python -m server --debug", "Traceback", 1))
    assert detect_pivots(b.turns) == []


def test_cluster_counted_once_and_compaction_named_as_such() -> None:
    b = B()
    failing(b)
    anchor = b.human("")
    b.boundary()
    b.summary("This session is being continued from a previous conversation ... Goal ... Files")
    b.meta("Continue from where you left off.")
    b.human("ok")
    b.agent("", bash("dmesg | tail", "NVRM: Xid 79"), edit("server.py"))
    pivots = detect_pivots(b.turns, EVERY)
    assert [p.turn for p in pivots] == [anchor]
    assert pivots[0].cluster == list(range(anchor, anchor + 5))
    assert pivots[0].silence is Silence.EMPTY


def test_compaction_boundary_alone_says_compaction() -> None:
    b = B()
    failing(b)
    anchor = b.boundary()
    b.summary("This session is being continued ...\n## Goal\nstart the server", role=Role.USER)
    b.nudge()
    b.agent(DUMP)
    b.agent("", bash("dmesg | tail", "NVRM: Xid 79"), edit("server.py"))
    [p] = detect_pivots(b.turns, EVERY)
    assert p.turn == anchor and p.silence is Silence.COMPACTION
    assert "compaction" in p.reason.lower() and "not necessarily the person" in p.reason


def test_go_on_while_the_agent_was_mid_task() -> None:
    """An 'ok' between two ordinary tool calls: the agent had not stopped."""
    b = B()
    b.human("Measure the baseline, then profile the verify step.")
    b.agent("", bash("python -m sglang.bench_serving --max-concurrency 1", "82.1 tok/s"))
    b.agent(
        "EAGLE-3 gives 54.1 tok/s, 34% slower than the 82.1 tok/s baseline. Profiling the verify "
        "step.",
        bash("python tools/profile_verify.py", "verify forward: 30.4 ms"),
    )
    b.human("ok")
    b.agent("", read("python/sglang/srt/distributed/parallel_state.py"))
    b.agent("", edit("scripts/launch.sh"))
    b.human("Write up a plan.")
    assert detect_pivots(b.turns) == []


def test_auto_compaction_mid_experiment_with_summary_written_before_boundary() -> None:
    """Codex writes the summary reply as an assistant message, then the compacted record."""
    b = B()
    b.human("Work through the experiments in the plan.")
    b.agent("", edit("communicator.py"))
    b.agent("Quick check that the tests still pass.", bash("pytest -q", "48 passed"))
    summary = "Summary: experiments 1A failed; 1B in progress with the fusion patch."
    b.agent(summary)
    anchor = b.boundary()
    b.summary("Another language model started to solve this problem ... " + summary)
    b.agent("Launching 1B.", bash("python -m sglang.launch_server &", "[1] 52310"))
    b.agent("", bash("sleep 60; tail -3 /tmp/sglang.log", "Load weight begin"))
    pivots = detect_pivots(b.turns, possible=True)
    assert anchor not in [p.turn for p in pivots]


def test_compaction_where_the_agent_carries_straight_on() -> None:
    b = B()
    failing(b)
    b.boundary()
    b.summary("This session is being continued ...\n## Goal\nstart the server", role=Role.USER)
    b.agent("Retrying with the safe flag.", bash("python -m server --safe", "started"))
    b.agent("", bash("curl localhost:8000/health", "ok"))
    assert detect_pivots(b.turns) == []
