"""The plain first line of a pivot: what happened, said to the person, from the evidence."""

from __future__ import annotations

import re

from pivotal.detect import detect_pivots
from pivotal.model import Pivot
from pivotal.spend.run import Run, measure, run_end

from .helpers import DUMP, EVERY, B, bash, edit, read, tool


def only(b: B) -> Pivot:
    pivots = detect_pivots(b.turns, EVERY)
    assert len(pivots) == 1, [(p.turn, p.kind.value) for p in pivots]
    return pivots[0]


def test_an_approved_plan_says_who_said_what_and_what_the_agent_did() -> None:
    b = B()
    b.human("Add rate limiting to the public API.")
    b.agent("", read("api/app.py"), read("api/settings.py"))
    b.agent(
        "The plan:\n1. a token bucket in `api/limits.py`\n2. middleware in `api/app.py`\n"
        "3. per-key limits in `api/settings.py`\n4. a test hitting the limit\n\nShall I go ahead?"
    )
    b.human("yes")
    b.agent("", edit("api/limits.py"), edit("api/app.py"), edit("api/settings.py"))
    b.agent("", bash("pytest tests/test_limits.py -q", "3 passed"))
    assert only(b).summary == (
        "You said 'yes' after the agent laid out a 4-step plan and asked for a go-ahead; "
        "it then carried it out on its own (4 calls)."
    )


def test_a_dead_end_names_the_failures_and_the_re_orientation() -> None:
    b = B()
    b.human("Get the nightly build green again.")
    b.agent("", bash("make nightly", "error: linker OOM", 2))
    b.agent("", bash("make nightly -j2", "error: linker OOM", 2))
    b.agent("Both builds ran out of memory at link time.")
    b.human("")
    b.agent(DUMP)
    b.agent("", edit("Makefile"), bash("make nightly LDFLAGS=-Wl,--no-keep-memory", "ok"))
    p = only(b)
    # the two failed builds; the agent's own word on them is no third attempt
    assert p.summary.startswith("You sent an empty message after 2 failed attempts in a row;")
    assert "re-oriented with a status summary, then acted on its own (2 calls)" in p.summary


def _compacted(trigger: str | None) -> Pivot:
    b = B()
    b.human("Rebuild the search index and report the sizes.")
    b.agent("", bash("python -m index.build --all --shards 4", "built 4 shards"))
    b.agent("", bash("python -m index.stats --all", "shard_0 310MB shard_1 298MB"))
    b.agent("Index rebuilt: it works, 4 shards, 1.2 GB, queries at 38 ms p95.")
    b.boundary(trigger)
    b.summary("Summary: index rebuilt.\n\nNext steps: none pending.")
    b.agent("Next phase: the mobile client's offline cache.", read("mobile/cache/store.kt"))
    b.agent("", edit("mobile/cache/store.kt"), edit("mobile/cache/Eviction.kt"))
    b.agent("", bash("./gradlew :mobile:testDebugUnitTest", "BUILD SUCCESSFUL"))
    return only(b)


def _words(p: Pivot) -> str:
    return "\n".join([p.summary, p.reason, *(s.detail for s in [*p.signals, *p.delegation])])


def test_an_automatic_compaction_says_it_was_the_tool_not_the_person() -> None:
    p = _compacted("auto")
    assert p.summary.startswith("The tool compacted the context (not you) after the agent")
    assert p.summary.split("; ")[1].startswith("the agent ")
    assert p.reason.startswith("Automatic compaction (the tool's, not the person's) after")


def test_a_compaction_the_person_asked_for_is_theirs() -> None:
    """`/compact` (trigger `manual`): the person compacted, and the sentence says so; "not
    you" beside a signal saying the person asked was the audit's first finding."""
    p = _compacted("manual")
    assert p.summary.startswith("You compacted the context after the agent reported a milestone")
    assert p.reason.startswith("Compaction the person asked for after a milestone")
    assert "not you" not in _words(p) and "not necessarily" not in _words(p)


def test_a_compaction_of_unknown_trigger_names_nobody() -> None:
    """Most formats do not say whether the person asked (Codex and opencode compact on
    /compact too): the sentence then says what happened and not who did it."""
    p = _compacted(None)
    assert p.summary.startswith("The context was compacted after the agent")
    assert "not you" not in p.summary
    assert "not necessarily the person" in p.reason


def test_a_compaction_is_no_go_on() -> None:
    """What followed a compaction is said to follow the compaction: no message was sent."""
    for trigger in ("manual", "auto", None):
        p = _compacted(trigger)
        assert "go-on" not in _words(p), trigger
        details = {s.name: s.detail for s in p.signals}
        assert details["time on its own"].endswith("min on its own after the compaction")
        assert "calls after the compaction changed the work" in details["code changed"]


def test_an_empty_message_is_said_as_one() -> None:
    b = B()
    b.human("Get the nightly build green again.")
    b.agent("", bash("make nightly", "error: linker OOM", 2))
    b.agent("", bash("make nightly -j2", "error: linker OOM", 2))
    b.agent("Both builds ran out of memory at link time.")
    b.human("")
    b.agent(DUMP)
    b.agent("", edit("Makefile"), bash("make nightly LDFLAGS=-Wl,--no-keep-memory", "ok"))
    b.agent("", bash("make nightly", "ok"))
    p = only(b)
    details = {s.name: s.detail for s in p.signals}
    assert details["time on its own"].endswith("min on its own after your empty message")
    assert "call after your empty message changed the work" in details["code changed"]
    assert "go-on" not in _words(p)


def test_questions_in_a_list_are_questions_not_a_plan() -> None:
    """Three numbered questions to the person read "asked you 3 questions", never "a 3-step
    plan" (issue 35, item 4); the plan beside it keeps its steps."""
    b = B()
    b.human("Set up the nightly export of the billing tables.")
    b.agent("", read("jobs/export.py"), read("jobs/schedule.yaml"))
    b.agent(
        "Before I write it, a few things to settle:\n1. Which bucket should the files go to?\n"
        "2. Do you want CSV or Parquet?\n3. Should old exports be deleted after 30 days?"
    )
    b.human("ok")
    b.agent("", edit("jobs/export.py"), edit("jobs/schedule.yaml"))
    b.agent("", bash("pytest tests/test_export.py -q", "5 passed"))
    judged = detect_pivots(b.turns, EVERY, possible=True)
    assert judged, "the go-on after the questions should be judged a pivot or a possible one"
    words = " ".join([judged[0].summary, *(s.detail for s in judged[0].signals)])
    assert "step plan" not in words and "steps or items" not in words
    assert "3 questions" in words


CALLS = re.compile(
    r"\((\d+) calls?(?: in its first (\d+) turns?)?(?:, plus (\d+) to its to-do list)?\)\.$"
)
"""The count at the end of a summary: calls, the turns read when fewer than the run's, and
the calls to the agent's to-do list (which the count leaves out)."""


def _said_and_run(b: B) -> tuple[re.Match[str], Run]:
    p = only(b)
    said = CALLS.search(p.summary)
    assert said is not None, p.summary
    return said, measure(b.turns, p.turn, run_end(b.turns, p))


def test_the_calls_said_add_up_to_the_run_a_line_below() -> None:
    """The panel says "…acted on its own (N calls)." and a line later "the agent worked 20
    min on its own: 13 turns, 15 calls": to-do list updates are no action to the detector
    but calls to the run, and the sentence says them apart so that the two add up."""
    b = B()
    b.human("Get the nightly build green again.")
    b.agent("", bash("make nightly", "error: linker OOM", 2))
    b.agent("", bash("make nightly -j2", "error: linker OOM", 2))
    b.agent("Both builds ran out of memory at link time.")
    b.human("")
    b.agent(DUMP)
    todo = {"todos": [{"content": "cap link memory", "status": "in_progress"}]}
    b.agent("", tool("TodoWrite", todo, "ok"), edit("Makefile"))
    b.agent("", bash("make nightly LDFLAGS=-Wl,--no-keep-memory", "ok"), tool("TodoWrite", todo))
    said, run = _said_and_run(b)
    assert said.group(0) == "(2 calls, plus 2 to its to-do list)."
    assert int(said.group(1)) + int(said.group(3)) == run.calls == 4


def test_a_count_over_fewer_turns_than_the_run_says_how_many() -> None:
    """The detector reads 20 turns after the silence; the run goes on to the person's next
    message. A count over the first turns only says so, never passes for the run's."""
    b = B()
    b.human("Port the remaining handlers to the new router.")
    b.agent("The plan:\n1. port the handlers\n2. run the tests\n\nShall I go ahead?")
    b.human("yes")
    for n in range(30):
        b.agent("", edit(f"api/handlers/h{n}.py"))
    said, run = _said_and_run(b)
    assert said.group(2) is not None, said.group(0)
    assert int(said.group(1)) < run.calls == 30
    assert said.group(0) == f"({said.group(1)} calls in its first {said.group(2)} turns)."


def test_a_list_of_files_is_said_as_items_not_a_plan() -> None:
    """The agent listed the files it found and offered to change them: "a list of 5 items",
    not "a 5-step plan"; the signal's own words say items. The detector's decision is the
    plan's (the same signal, the same value), only the words follow what the list is."""
    b = B()
    b.human("Get the services off the old HTTP client.")
    b.agent("", bash("grep -rl 'from legacy_http' src tests", "src/billing/invoice.py"))
    b.agent(
        "These still import the old client:\n- src/billing/invoice.py\n- src/billing/tax.py\n"
        "- src/jobs/nightly.py\n- src/jobs/report.py\n- tests/conftest.py\n\n"
        "Shall I switch them all to the new one?"
    )
    b.human("yes")
    b.agent("", edit("src/billing/invoice.py"), edit("src/billing/tax.py"))
    b.agent("", edit("src/jobs/nightly.py"), edit("src/jobs/report.py"))
    b.agent("", bash("pytest -q", "41 passed"))
    p = only(b)
    assert p.summary.startswith(
        "You said 'yes' after the agent laid out a list of 5 items and asked for a go-ahead;"
    ), p.summary
    plan = next(s for s in p.signals if s.name == "plan laid out")
    assert plan.detail == "the agent's last message lists 5 items"
    assert "step" not in p.summary
