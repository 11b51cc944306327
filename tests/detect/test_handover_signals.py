"""The signals that tell a hand-over from a resume, a gate or a small offer answered.

One paraphrase each where the signal must fire and a hard negative where it must not, in
domains of their own (none is a line of a labelled session). They test what is measured,
whatever the fitted weights: `judge_one` judges with every bar at 0.
"""

from __future__ import annotations

from pivotal.model import Pivot, Signal

from .helpers import DUMP, B, bash, edit, judge_one, read, tool


def names(p: Pivot) -> set[str]:
    return {s.name for s in p.signals}


def sig(p: Pivot, name: str) -> Signal:
    found = [s for s in p.signals if s.name == name]
    assert found, f"{name} not in {sorted(names(p))}"
    return found[0]


_PLAN = (
    "I read the three handlers. Here is what I would change:\n"
    "1. Move the retry loop into `queue/retry.py`.\n"
    "2. Give each handler a timeout.\n"
    "3. Log the dropped messages with their ids.\n"
    "4. Add a test for a handler that hangs.\n"
    "Shall I go ahead?"
)


def _asked(b: B) -> None:
    b.human("The queue workers hang now and then. Look at the handlers and tell me what to do.")
    b.agent("", read("queue/handlers.py"), read("queue/worker.py"))


def _carry_out(b: B, calls: int = 8) -> None:
    b.agent("Moving the retry loop first.", edit("queue/retry.py"))
    for n in range(calls - 1):
        b.agent("", edit(f"queue/handler_{n}.py"))
    b.agent("", bash("pytest tests/queue -q", "18 passed"))


def test_a_plan_with_nothing_done_before_and_code_changed_after_is_an_approved_plan() -> None:
    b = B()
    _asked(b)
    plan = b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b)
    p = judge_one(b.turns, anchor)
    assert sig(p, "plan laid out").turns == [plan] and sig(p, "plan laid out").value > 0.5
    assert "offer to go ahead" in names(p) and "nothing carried out" in names(p)
    assert "small offer" not in names(p) and "follow-up offer" not in names(p)
    approved = sig(p, "approved plan")
    assert plan in approved.turns and approved.value == sig(p, "code changed").value > 0


def test_the_same_plan_after_the_agent_had_already_changed_code_is_a_follow_up_offer() -> None:
    b = B()
    _asked(b)
    b.agent("Fixed the first hang while reading.", edit("queue/handlers.py"))
    b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b)
    p = judge_one(b.turns, anchor)
    assert "follow-up offer" in names(p)
    assert not names(p) & {"plan laid out", "offer to go ahead", "approved plan"}


def test_a_one_line_offer_is_a_small_offer() -> None:
    b = B()
    _asked(b)
    b.agent("The worker sets no timeout. Want me to add one?")
    anchor = b.human("yes")
    b.agent("", edit("queue/worker.py"))
    b.agent("Added a 30 s timeout.")
    b.human("thanks")
    p = judge_one(b.turns, anchor)
    assert "small offer" in names(p) and "asked again" not in names(p)


def test_the_run_that_ends_with_the_next_offer_asked_again() -> None:
    b = B()
    _asked(b)
    b.agent("The worker sets no timeout. Want me to add one?")
    anchor = b.human("yes")
    b.agent("", edit("queue/worker.py"))
    ask = b.agent("Added a 30 s timeout. Should I also add one to the scheduler?")
    b.human("no")
    p = judge_one(b.turns, anchor)
    assert sig(p, "asked again").turns == [ask]


def test_a_run_that_ends_in_a_report_did_not_ask_again() -> None:
    b = B()
    _asked(b)
    b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b)
    b.agent("Done: retries moved, timeouts set, a hanging-handler test added.")
    b.human("good, now the scheduler")
    assert "asked again" not in names(judge_one(b.turns, anchor))


def test_a_workflow_step_gate() -> None:
    b = B()
    b.human("Run the release checklist with me, one step at a time.")
    b.agent("", bash("git status --short", ""))
    b.agent("Step 1 done: the tree is clean. Continue to step 2? (y/n)")
    anchor = b.human("y")
    b.agent("", bash("make changelog", "CHANGELOG.md updated"))
    b.agent("Step 2 done. Continue to step 3? (y/n)")
    assert "step gate" in names(judge_one(b.turns, anchor))


def test_an_ordinary_question_is_no_step_gate() -> None:
    b = B()
    _asked(b)
    b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b)
    assert "step gate" not in names(judge_one(b.turns, anchor))


def test_a_go_on_among_go_ons_keeps_a_cadence() -> None:
    b = B()
    b.human("Translate the strings file, one section at a time.")
    gone = []
    for section in ("menus", "dialogs", "errors"):
        b.agent(f"Translated {section}.", edit(f"i18n/fr/{section}.po"))
        gone.append(b.human("ok"))
    b.agent("Translated tooltips.", edit("i18n/fr/tooltips.po"))
    anchor = b.human("ok")
    b.agent("", edit("i18n/fr/help.po"))
    cadence = sig(judge_one(b.turns, anchor), "go-on cadence")
    assert cadence.turns == gone and cadence.value == 0.75  # 3 of the last 4 messages


def test_a_first_go_on_after_directions_has_no_cadence() -> None:
    b = B()
    b.human("Translate the menus.")
    b.agent("", edit("i18n/fr/menus.po"))
    b.human("Now the dialogs, and keep the accelerator keys.")
    b.agent("Dialogs done. The errors next?")
    anchor = b.human("ok")
    b.agent("", edit("i18n/fr/errors.po"))
    assert "go-on cadence" not in names(judge_one(b.turns, anchor))


def test_continue_asks_to_resume_and_yes_does_not() -> None:
    for text, resumes in (("continue", True), ("继续", True), ("keep going", True), ("yes", False)):
        b = B()
        _asked(b)
        b.agent(_PLAN)
        anchor = b.human(text)
        _carry_out(b)
        assert ("resume word" in names(judge_one(b.turns, anchor))) is resumes, text


def test_a_wordless_go_on_reads_as_empty_and_a_word_does_not() -> None:
    for text, wordless in ((".", True), ("👍", True), ("ok", False)):
        b = B()
        _asked(b)
        b.agent(_PLAN)
        anchor = b.human(text)
        _carry_out(b)
        assert ("wordless" in names(judge_one(b.turns, anchor))) is wordless, text


def test_an_api_error_just_before_is_named_and_a_normal_reply_is_not() -> None:
    b = B()
    _asked(b)
    b.agent("", bash("pytest tests/queue -q", "2 failed", 1))
    error = b.api_error("API Error: 529 Overloaded")
    anchor = b.human("continue")
    _carry_out(b, 3)
    assert sig(judge_one(b.turns, anchor), "stopped by an error").turns == [error]
    b2 = B()
    _asked(b2)
    b2.agent(_PLAN)
    anchor2 = b2.human("continue")
    _carry_out(b2, 3)
    assert "stopped by an error" not in names(judge_one(b2.turns, anchor2))


def test_the_compaction_trigger_is_named_when_the_file_says_it() -> None:
    for trigger in ("auto", "manual", None):
        b = B()
        _asked(b)
        _carry_out(b, 3)
        anchor = b.boundary()
        if trigger is not None:
            b.turns[anchor].extra = {"trigger": trigger}
        b.summary("Summary: retries moved.\nNext steps: timeouts.")
        _carry_out(b, 3)
        found = names(judge_one(b.turns, anchor)) & {"auto compaction", "manual compaction"}
        assert found == ({f"{trigger} compaction"} if trigger else set()), trigger


def test_a_long_run_is_measured_against_the_persons_usual_rhythm() -> None:
    b = B()
    for n in range(3):  # three exchanges of one agent step each
        b.human(f"Rename field {n}.")
        b.agent("", edit(f"model/field_{n}.py"))
    b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b, 12)
    run = sig(judge_one(b.turns, anchor), "long run")
    assert run.value > 0.5
    assert "13+ steps" in run.detail and "took 1 between" in run.detail


def test_a_run_as_long_as_usual_is_no_long_run() -> None:
    b = B()
    for n in range(3):  # the person's usual exchange: nine agent steps
        b.human(f"Port module {n}.")
        for k in range(9):
            b.agent("", edit(f"port/m{n}_{k}.py"))
    b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b, 8)
    assert "long run" not in names(judge_one(b.turns, anchor))


def test_time_on_its_own_counts_minutes_and_a_quick_reply_none() -> None:
    b = B()
    _asked(b)
    b.agent(_PLAN)
    anchor = b.human("yes")
    _carry_out(b, 8)
    p = judge_one(b.turns, anchor)  # the builder spaces turns 40 s apart: 9 turns, 6 min
    assert "6 min" in sig(p, "time on its own").detail
    b2 = B()
    _asked(b2)
    b2.agent("The worker sets no timeout. Want me to add one?")
    anchor2 = b2.human("yes")
    b2.agent("", edit("queue/worker.py"))
    b2.human("thanks")
    assert "time on its own" not in names(judge_one(b2.turns, anchor2))


def test_a_dead_end_handed_over_needs_both_halves() -> None:
    b = B()
    b.human("Get the ARM image to build.")
    b.agent("", bash("docker buildx build --platform linux/arm64 .", "exec format error", 1))
    b.agent("", bash("docker buildx build --platform linux/arm64 --no-cache .", "exec format", 1))
    b.agent("Both builds fail the same way and I have no further idea.")
    anchor = b.human("")
    b.agent(DUMP, read("Dockerfile"))
    b.agent("Trying a cross-compiling stage.", edit("Dockerfile"))
    b.agent("", bash("docker buildx build --platform linux/arm64 .", "naming to app:arm64"))
    p = judge_one(b.turns, anchor)
    assert "dead end handed over" in names(p)
    assert "next phase taken up" not in names(p)
    # the same failures, then only a look around without any re-orientation: one half only
    b2 = B()
    b2.turns = b.turns[: anchor + 1]
    b2.agent("", read("Dockerfile"))
    b2.agent("", bash("uname -m", "x86_64"))
    assert "dead end handed over" not in names(judge_one(b2.turns, anchor))


def test_a_next_phase_taken_up_after_a_milestone() -> None:
    b = B()
    b.human("Get the model serving and measure it.")
    b.agent("", bash("python serve.py &", "listening on :8000"))
    b.agent("It works: 812 tok/s at batch 64, p50 41 ms.")
    anchor = b.human("ok")
    b.agent(
        "Next phase: making it faster.",
        tool("TodoWrite", {"todos": [{"content": "profile kernels", "status": "in_progress"}]}),
    )
    b.agent("", bash("nsys profile python bench.py", "report written"))
    assert "next phase taken up" in names(judge_one(b.turns, anchor))
