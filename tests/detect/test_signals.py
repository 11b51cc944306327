"""One test per signal: it fires on its evidence and points at the right turns."""

from __future__ import annotations

from pivotal.detect import detect_pivots
from pivotal.model import Pivot, Role, Signal

from .helpers import DUMP, B, bash, edit, judge_one, read, rejected_one, tool


def only(pivots: list[Pivot]) -> Pivot:
    assert len(pivots) == 1, [(p.turn, p.kind) for p in pivots]
    return pivots[0]


def sig(pivot: Pivot, name: str) -> Signal:
    found = [s for s in pivot.signals if s.name == name]
    assert found, f"{name} not in {[s.name for s in pivot.signals]}"
    return found[0]


def names(pivot: Pivot) -> set[str]:
    return {s.name for s in pivot.signals}


def base(b: B) -> None:
    b.human("Get the training script running on the cluster.")
    b.agent("Looking at the repo.", read("train.py"))


def test_failure_streak_counts_errors_exit_codes_and_narrative() -> None:
    b = B()
    base(b)
    f1 = b.agent("", bash("python train.py", "Traceback (most recent call last):\nKeyError: 12", 1))
    f2 = b.agent(
        "", tool("Bash", {"command": "python train.py --bs 8"}, "CUDA out of memory", error=True)
    )
    # the agent's own words count when no failed call is what they describe
    f3 = b.agent(
        "The patched run crashed again with the same error.",
        bash("python train.py --bs 4 --patched", "started", 0),
    )
    anchor = b.human("")
    b.agent("Trying a smaller batch.", edit("train.py"), bash("python train.py --bs 2", "ok"))
    p = judge_one(b.turns)
    s = sig(p, "failure streak")
    assert s.turns == [f1, f2, f3]
    assert s.side == "before" and 0 < s.value < 1  # three of the five that count fully
    assert p.turn == anchor
    assert p.state.attempts_failed == 3


def test_saying_the_call_failed_is_not_a_second_failure() -> None:
    b = B()
    base(b)
    f1 = b.agent("", bash("python train.py", "Traceback (most recent call last):\nKeyError: 12", 1))
    b.agent("The training run failed with a KeyError.")  # its account of f1, not a new attempt
    b.human("")
    b.agent("Trying a smaller batch.", edit("train.py"), bash("python train.py --bs 2", "ok"))
    p = judge_one(b.turns)
    assert sig(p, "failure streak").turns == [f1]
    assert p.state.attempts_failed == 1


def test_a_plan_that_names_failure_handling_is_no_failure() -> None:
    """ "Add failure handling", "the failure modes" in a plan name work to do; the same plan
    after "the upload failed" still has that failure behind it."""
    for said, failed in (("", False), ("The upload failed again. ", True)):
        b = B()
        base(b)
        b.agent(
            said + "Plan:\n1. Add failure handling to the upload\n2. Retry three times "
            "with a backoff\n3. Document the failure modes\n\nShall I go ahead?"
        )
        b.human("ok")
        b.agent("Adding it.", edit("upload.py"), bash("pytest -q", "9 passed", 0))
        p = judge_one(b.turns)
        assert ("failure streak" in names(p)) is failed, said


def test_success_resets_the_failure_streak() -> None:
    b = B()
    base(b)
    b.agent("", bash("pytest -q", "FAILED test_a.py::test_x", 1))
    b.agent("", edit("a.py"), bash("pytest -q", "12 passed in 0.5s", 0))
    b.agent("Fixed it: all tests pass now.")
    b.human("")
    b.agent("", bash("git diff", "..."), edit("README.md"))
    p = judge_one(b.turns)
    assert "failure streak" not in names(p)
    assert "milestone" in names(p)


def test_inconclusive_ending_on_timed_out_poll() -> None:
    b = B()
    base(b)
    b.agent("", bash("python -m sglang.launch_server &", "started"))
    poll = b.agent("", bash("sleep 300; curl localhost:30000/health", "timed out waiting", 124))
    b.human("")
    b.agent("", bash("tail server.log", "loading weights 40%"))
    p = judge_one(b.turns)
    s = sig(p, "inconclusive ending")
    assert s.turns == [poll]
    assert any("no verdict" in t for t in p.state.open_threads)


def test_inconclusive_ending_on_call_without_result() -> None:
    b = B()
    base(b)
    b.agent("", bash("python -m sglang.launch_server &", "", exit_code=None, pending=True))
    b.human("")
    b.agent("", bash("tail server.log", "loading"))
    p = judge_one(b.turns)
    assert "inconclusive ending" in names(p)


def test_milestone_from_benchmark_figures() -> None:
    b = B()
    base(b)
    b.agent("", bash("python bench.py", "throughput 812 tok/s"))
    m = b.agent("Benchmark: 812 tok/s at batch 64, p50 latency 41 ms, 3.2x over baseline.")
    b.human("")
    b.agent("", bash("python profile_kernels.py", "..."))
    p = judge_one(b.turns)
    s = sig(p, "milestone")
    assert m in s.turns
    assert "812 tok/s" in p.state.figures_before


def test_proposal_pending_needs_no_execution_since() -> None:
    b = B()
    base(b)
    q = b.human("What about switching the attention backend to flashinfer?")
    r = b.agent("", tool("WebSearch", {"query": "flashinfer sm120"}, "supported since 0.2"))
    b.agent(
        "FlashInfer supports this GPU. The plan: rebuild, then rerun the benchmark. Risks: JIT."
    )
    b.human("")
    b.agent("", bash("pip install flashinfer-python", "Successfully installed"))
    p = judge_one(b.turns)
    s = sig(p, "proposal pending")
    assert s.turns[0] == q and r in s.turns


def test_proposal_not_pending_once_executed() -> None:
    b = B()
    base(b)
    b.human("What about switching the attention backend to flashinfer?")
    b.agent("", tool("WebSearch", {"query": "flashinfer sm120"}, "supported"))
    b.agent("Switching now.", edit("config.yaml"), bash("python -m sglang.launch_server &", "up"))
    b.agent("Done, the server runs with flashinfer.")
    b.human("")
    b.agent("", bash("python bench.py", "900 tok/s"))
    for p in detect_pivots(b.turns):
        assert "proposal pending" not in names(p)


def test_open_question() -> None:
    b = B()
    base(b)
    b.agent("", bash("python train.py", "loss 0.12, all 40 tests pass"))
    q = b.agent("Training works now. Do you want me to tune the learning rate next?")
    b.human("")
    b.agent("", bash("python sweep.py --lr 1e-4,3e-4", "..."))
    p = judge_one(b.turns)
    assert sig(p, "open question").turns == [q]


def test_hands_off_streak() -> None:
    b = B()
    d = b.human("Port the parser to msgspec.")
    for i in range(8):
        b.agent("", edit(f"src/mod{i}.py"))
    b.agent("", bash("pytest -q", "88 passed"))
    b.agent("All tests pass after the port.")
    b.human("")
    b.agent("", bash("python bench.py", "2.1x faster"))
    p = judge_one(b.turns)
    s = sig(p, "hands-off streak")
    assert s.turns == [d]
    assert "10 agent steps" in s.detail


def test_context_dump_long_structured_summary() -> None:
    b = B()
    base(b)
    b.agent("", bash("python train.py", "NCCL error", 1))
    b.agent("", bash("python train.py", "NCCL error", 1))
    b.human("")
    d = b.agent(DUMP)
    b.agent("", bash("tail -100 server.log", "..."))
    p = judge_one(b.turns)
    s = sig(p, "context dump")
    assert s.turns == [d] and s.side == "after"


def test_context_dump_marked_by_format() -> None:
    b = B()
    base(b)
    b.agent("", bash("python train.py", "NCCL error", 1))
    b.agent("", bash("python train.py", "NCCL error", 1))
    b.human("")
    s_turn = b.summary("Short summary.", role=Role.ASSISTANT)
    b.nudge()
    b.agent("", bash("tail -100 server.log", "..."))
    p = judge_one(b.turns)
    assert sig(p, "summary recorded").turns == [s_turn]
    assert "context dump" not in names(p)  # the format's summary, not the agent's own


def test_short_reply_is_not_a_context_dump() -> None:
    b = B()
    base(b)
    b.agent("", bash("python train.py", "NCCL error", 1))
    b.agent("", bash("python train.py", "NCCL error", 1))
    b.human("")
    b.agent("Looking at the log.", bash("tail -100 server.log", "..."))
    p = judge_one(b.turns)
    assert "context dump" not in names(p)


def test_autonomous_action() -> None:
    b = B()
    base(b)
    b.agent("", bash("python train.py", "Segmentation fault (core dumped)", 139))
    b.agent("", bash("python train.py", "Segmentation fault (core dumped)", 139))
    b.human("")
    a1 = b.agent("", bash("gdb -batch -ex bt python core", "#0 ..."))
    a2 = b.agent("", edit("ext/kernel.cu"))
    p = judge_one(b.turns)
    s = sig(p, "autonomous action")
    assert s.turns == [a1, a2]
    assert p.state.initiative_after == "agent-led"


def test_a_sub_agents_calls_count_as_the_agents_own_work() -> None:
    """After the go-on the agent ran one Task whose sub-agent made 30 calls: that is 31
    calls of work on its own, not one; a Task with no count is one call."""
    values = []
    for inner in (None, 30):
        b = B()
        base(b)
        b.agent("Plan:\n1. Port the parser\n2. Update the callers\n3. Run the tests\n\nGo ahead?")
        b.human("ok")
        task = tool("Task", {"description": "Port the parser", "prompt": "Port it."}, "Ported.")
        task.inner_calls = inner
        b.agent("Handing the port to a sub-agent.", task)
        p = judge_one(b.turns)
        s = sig(p, "autonomous action")
        values.append(s.value)
        assert s.detail.startswith(("1 tool call", "31 tool calls")), s.detail
    assert values[1] > values[0]


def test_clarification_is_a_counter_signal_and_drops_the_pivot() -> None:
    b = B()
    base(b)
    b.agent("", bash("python train.py", "Segmentation fault (core dumped)", 139))
    b.agent("", bash("python train.py", "Segmentation fault (core dumped)", 139))
    b.human("")
    b.agent("What would you like me to do next: debug the segfault or revert the change?")
    assert detect_pivots(b.turns) == []
    assert rejected_one(b.turns) == "only asked"  # at any sensitivity: a hard gate


def _csv_fixed_then_silence(b: B) -> None:
    b.human("Make the CSV exporter handle unicode.")
    b.agent("", read("src/export/csv_writer.py"), edit("src/export/csv_writer.py"))
    b.agent("", bash("pytest tests/test_csv_writer.py -q", "7 passed"))
    b.agent("Unicode export works; tests pass for csv_writer and encoding_utils.")
    b.human("")


def test_topic_shift() -> None:
    b = B()
    _csv_fixed_then_silence(b)
    s1 = b.agent("", read("deploy/kubernetes/ingress.yaml"), read("deploy/helm/values.yaml"))
    b.agent("", bash("kubectl get pods -n staging", "..."))
    p = judge_one(b.turns)
    s = sig(p, "topic shift")
    assert s1 in s.turns


def test_topic_shift_quotes_names_not_fragments_of_a_script() -> None:
    b = B()
    _csv_fixed_then_silence(b)
    script = (
        "cat > deploy/render.py << 'EOF'\n"
        'print({"replicas": cfg.get("replicas"), "image": tag.strip()},)\n'
        "open(out.name, 'w').write(yaml.dump(doc))\n"
        "EOF\n"
        "python deploy/render.py"
    )
    b.agent("", bash(script, "rendered"), read("deploy/helm/values.yaml"))
    b.agent("", bash("kubectl apply -f deploy/out.yaml -n staging", "configured"))
    shift = sig(judge_one(b.turns), "topic shift")
    (quote,) = shift.quotes
    assert quote.startswith("now: ") and "kubectl" in quote and "out.yaml" in quote
    for term in quote.removeprefix("now: ").split(", "):  # not `cfg.get("replicas"),`
        assert term and not set(term) & set("\"'(){}[],;"), term


def test_task_changes_start_from_the_list_as_it_stood_before_the_window() -> None:
    b = B()
    b.human("Work through the plan.")
    todo = [
        {"content": "NCCL Tree", "status": "in_progress"},
        {"content": "Fusion", "status": "pending"},
    ]
    b.agent("", tool("TodoWrite", {"todos": todo}, "ok"))
    for i in range(25):
        b.agent("", read(f"notes/{i}.md"))
    b.agent("", bash("python -m server --nccl-algo Tree", "NCCL error", 1))
    b.agent("", bash("python -m server --nccl-algo Tree", "NCCL error", 1))
    done = [
        {"content": "NCCL Tree", "status": "failed"},
        {"content": "Fusion", "status": "pending"},
    ]
    t = b.agent("Tree failed twice.", tool("TodoWrite", {"todos": done}, "ok"))
    b.human("")
    b.agent("", edit("fusion.py"), bash("python -m server --fusion", "started"))
    p = judge_one(b.turns)
    assert [(c.item, c.before, c.after, c.turn) for c in p.state.tasks] == [
        ("NCCL Tree", "in_progress", "failed", t)
    ]
