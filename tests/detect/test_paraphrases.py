"""Pivots and non-pivots phrased differently from the essays (no FAILED, no tables ...)."""

from __future__ import annotations

from pivotal.detect import detect_pivots
from pivotal.model import PivotKind, Silence

from .helpers import EVERY, B, bash, edit, judge_one, read, tool


def kinds(b: B) -> list[tuple[int, PivotKind, Silence]]:
    return [(p.turn, p.kind, p.silence) for p in detect_pivots(b.turns, EVERY)]


def test_dead_end_from_exit_codes_only() -> None:
    b = B()
    b.human("Get the Go service to build on the new runner image.")
    b.agent("", bash("go build ./...", "# runtime/cgo\ngcc: not found", 2))
    b.agent("Installing gcc.", bash("apk add gcc musl-dev", "OK: 212 MiB in 40 packages"))
    b.agent("", bash("go build ./...", "ld: cannot find -lssl", 1))
    b.agent("", bash("CGO_ENABLED=0 go build ./...", "undefined: sqlite3.Open", 2))
    b.agent(
        "Three build attempts, three different link problems. I'm not sure which route is right."
    )
    anchor = b.human("k")
    b.agent("", bash("go list -deps ./... | grep sqlite", "github.com/mattn/go-sqlite3"))
    b.agent("Switching to the pure-Go driver.", edit("go.mod"), edit("db/open.go"))
    b.agent("", bash("CGO_ENABLED=0 go build ./...", ""))
    assert kinds(b) == [(anchor, PivotKind.DELEGATION_AFTER_DEAD_END, Silence.ACK)]


def test_milestone_without_tables() -> None:
    b = B()
    b.human("Cut the p99 latency of the search endpoint.")
    b.agent("", edit("search/cache.py"), bash("pytest -q", "214 passed in 12.0s"))
    b.agent("", bash("k6 run load.js", "p(99)=38ms"))
    b.agent("All green: 214 passed, and p99 is down to 38 ms from 120 ms under the same load.")
    anchor = b.human("")
    b.agent("", read("deploy/staging.yaml"), edit("deploy/staging.yaml"))
    b.agent("", bash("kubectl apply -f deploy/staging.yaml", "deployment configured"))
    assert kinds(b) == [(anchor, PivotKind.CONTINUE_AFTER_MILESTONE, Silence.EMPTY)]


def test_agent_plan_then_thumbs_up() -> None:
    b = B()
    b.human("The nightly export job keeps timing out.")
    b.agent("", read("jobs/export.py"), bash("grep -c SELECT jobs/export.py", "14"))
    b.agent(
        "The job runs 14 queries one table at a time. Plan: 1. batch the queries, 2. stream rows "
        "to the file, 3. raise the job timeout to 2 h. Want me to go ahead?"
    )
    anchor = b.human("👍")
    b.agent("", edit("jobs/export.py"), edit("jobs/config.yaml"))
    b.agent("", bash("python -m jobs.export --dry-run", "exported 1.2M rows in 9 min"))
    assert kinds(b) == [(anchor, PivotKind.IMPLICIT_APPROVAL, Silence.ACK)]


def test_person_wonders_agent_researches_then_sure() -> None:
    b = B()
    b.human("I wonder if we could drop Celery and use plain asyncio tasks for the mailer.")
    b.agent("", tool("Grep", {"pattern": "@shared_task"}, "mailer/tasks.py:12\nmailer/tasks.py:40"))
    b.agent("", read("mailer/tasks.py"))
    b.agent(
        "Two tasks, no retries or beat schedule in use. Replacing them is small: an asyncio "
        "queue in the app plus a retry wrapper. Risk: no persistence across restarts."
    )
    anchor = b.human("sure")
    b.agent("", edit("mailer/tasks.py"), edit("requirements.txt"))
    b.agent("", bash("pytest -q tests/test_mailer.py", "9 passed"))
    assert kinds(b) == [(anchor, PivotKind.IMPLICIT_APPROVAL, Silence.ACK)]


def test_recap_that_ends_in_a_question_is_not_a_pivot() -> None:
    b = B()
    b.human("Try the three caching strategies from the doc.")
    b.agent("", bash("python bench.py --cache lru", "Traceback\nMemoryError", 1))
    b.agent("", bash("python bench.py --cache ttl", "Traceback\nKeyError: 'ttl'", 1))
    b.agent("Both crashed.")
    b.human("")
    b.agent(
        "## Status\n- LRU: MemoryError\n- TTL: KeyError\n\n## Next steps\n1. fix TTL\n"
        "2. shard LRU\n\nWhich of these would you like me to do?"
    )
    assert kinds(b) == []


def test_ok_after_a_small_routine_step_is_not_a_pivot() -> None:
    b = B()
    b.human("Add type hints to the utils module.")
    b.agent("", read("utils/strings.py"), edit("utils/strings.py"))
    b.agent("Done with strings.py; moving on to dates.py.")
    b.human("ok")
    b.agent("", read("utils/dates.py"), edit("utils/dates.py"))
    b.agent("", read("utils/paths.py"), edit("utils/paths.py"))
    assert detect_pivots(b.turns, possible=True) == []


def test_ok_after_tests_pass_in_unchanged_work_is_not_a_pivot() -> None:
    b = B()
    b.human("Port the date helpers in utils/dates.py to zoneinfo.")
    b.agent("", read("utils/dates.py"), edit("utils/dates.py"))
    b.agent("", bash("pytest -q tests/test_dates.py", "31 passed"))
    b.agent("Tests pass for utils/dates.py after the zoneinfo port.")
    b.human("ok")
    b.agent("", read("utils/dates.py"), edit("utils/dates.py"))
    b.agent("", bash("pytest -q tests/test_dates.py", "31 passed"))
    b.agent("", edit("utils/dates.py"), bash("pytest -q tests/test_dates.py", "31 passed"))
    b.human("Good, commit it.")
    assert detect_pivots(b.turns) == []
    assert "same steps" in {s.name for s in judge_one(b.turns).signals}


def test_ack_after_a_benchmark_the_turn_ended_on_is_not_mid_task() -> None:
    """The agent's turn ended on a benchmark result (no announced next step): a real stop."""
    b = B()
    b.human("Measure the new cache under load.")
    b.agent("", edit("cache/lru.py"))
    b.agent("", bash("python bench/load.py --rps 2000", "p50 12 ms, p99 41 ms, 1980 req/s"))
    anchor = b.human("great")
    b.agent("## Summary\n- p99 41 ms at 1980 req/s\n\n## Next steps\n1. roll out to staging")
    b.agent("", read("deploy/staging.yaml"), edit("deploy/staging.yaml"))
    b.agent("", bash("kubectl apply -f deploy/staging.yaml", "configured"))
    assert kinds(b) == [(anchor, PivotKind.CONTINUE_AFTER_MILESTONE, Silence.ACK)]


def test_agent_offers_options_after_failures_is_still_a_dead_end() -> None:
    b = B()
    b.human("Get the ROCm build of the kernel working.")
    b.agent("", bash("make rocm", "error: unknown target gfx1201", 2))
    b.agent(
        "", bash("make rocm ARCH=gfx1100", "hipcc: fatal error: cannot find ROCm device library", 1)
    )
    b.agent(
        "Both builds failed. Options: 1. upgrade ROCm to 6.4, 2. build in the vendor "
        "container. Which approach should I take?"
    )
    anchor = b.human("")
    b.agent("", bash("docker pull rocm/dev-ubuntu-24.04:6.4", "Status: Downloaded"))
    b.agent("", bash("docker run --rm -v $PWD:/src rocm/dev make -C /src rocm", "built"))
    assert kinds(b) == [(anchor, PivotKind.DELEGATION_AFTER_DEAD_END, Silence.EMPTY)]


def test_writing_the_plan_down_is_not_executing_it() -> None:
    b = B()
    b.human("Should we move the nightly jobs from cron to systemd timers?")
    b.agent("", bash("crontab -l", "0 2 * * * /opt/jobs/export.sh\n0 3 * * * /opt/jobs/gc.sh"))
    b.agent(
        "Two jobs. Writing the migration plan down.",
        tool("Write", {"file_path": "docs/timers-plan.md", "content": "1. units 2. timers"}, "ok"),
    )
    b.agent(
        "Plan in docs/timers-plan.md: one .service and one .timer per job, then remove the "
        "crontab lines. Risk: different environment variables."
    )
    anchor = b.human("")
    b.agent("", tool("Write", {"file_path": "/etc/systemd/system/export.service"}, "ok"))
    b.agent("", bash("systemctl daemon-reload && systemctl enable --now export.timer", ""))
    assert kinds(b) == [(anchor, PivotKind.IMPLICIT_APPROVAL, Silence.EMPTY)]
