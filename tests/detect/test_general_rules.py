"""One test per PIVOTS.md rule the first held-out set showed the detector getting wrong.

Each builds a literal conversation (not the held-out files) in a domain of its own,
so the test pins the rule, not a phrase from the set that revealed it.
"""

from __future__ import annotations

import pytest

from pivotal.detect import detect_pivots
from pivotal.detect.config import PivotConfig
from pivotal.detect.silence import classify_text
from pivotal.model import Pivot, PivotKind, Role, Signal, Silence

from .helpers import B, bash, edit, judge_one, read, tool

CFG = PivotConfig()


def only(pivots: list[Pivot]) -> Pivot:
    assert len(pivots) == 1, [(p.turn, p.kind.value) for p in pivots]
    return pivots[0]


def names(pivot: Pivot) -> set[str]:
    return {s.name for s in pivot.signals}


def sig(pivot: Pivot, name: str) -> Signal:
    found = [s for s in pivot.signals if s.name == name]
    assert found, f"{name} not in {sorted(names(pivot))}"
    return found[0]


# --- silence: "≤ 4 words, no noun phrase that names new work" ---------------------------


@pytest.mark.parametrize(
    "text", ["your call", "up to you", "you decide", "great, keep at it", "go for it", "sure, next"]
)
def test_handing_the_decision_over_is_a_go_on(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK


@pytest.mark.parametrize("text", ["push it", "call the api", "revert it", "deploy it now"])
def test_a_verb_that_names_work_is_direction(text: str) -> None:
    assert classify_text(text, CFG) is None


# --- failures and milestones are judged on the agent's prose ----------------------------


def _start(b: B) -> None:
    b.human("The nightly export job keeps timing out, find out why and fix it.")
    b.agent("Reading the job.", read("jobs/export.py"))


def test_a_failure_count_in_a_results_table_is_data_not_a_failure() -> None:
    b = B()
    _start(b)
    b.agent("", edit("jobs/export.py"), bash("pytest tests/test_export.py -q", "9 passed in 1.2s"))
    report = b.agent(
        "Fixed and verified:\n\n"
        "| run | before | after |\n|---|---|---|\n"
        "| 100 nightly replays | 23 failed (23 %) | 0 failed |\n"
        "| export time | 41 min | 6 min |\n\n"
        "The export now streams rows instead of loading the table."
    )
    b.human("")
    b.agent("Next: a nightly schedule for it.", tool("Write", {"file_path": "deploy/cron.yaml"}))
    b.agent("", bash("kubectl apply -f deploy/cron.yaml", "cronjob.batch/export created"))
    p = judge_one(b.turns)
    assert "failure streak" not in names(p)
    assert report in sig(p, "milestone").turns
    assert p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_an_applied_edit_does_not_end_a_failure_streak() -> None:
    b = B()
    _start(b)
    f1 = b.agent("", bash("python -m jobs.export --day 2024-03-31", "Killed", 137))
    f2 = b.agent("Still OOM with smaller batches; reverting that.", edit("jobs/export.py"))
    anchor = b.human("")
    b.agent(
        "## Where this stands\n**Goal**: export under 2 GB.\n**Failing**: one day.\n" + "." * 300
    )
    b.agent("", bash("python -m jobs.export --day 2024-03-31 --profile", "peak 9.1 GB"))
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert sig(p, "failure streak").turns == [f1, f2]
    assert p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_a_success_claimed_while_the_latest_check_fails_is_progress() -> None:
    b = B()
    _start(b)
    b.agent("", bash("pytest -q", "212 failed, 1690 passed", 1))
    b.agent("Trying a serializer on the base model.", edit("app/base.py"))
    b.agent("", bash("pytest -q", "51 failed, 1851 passed", 1))
    b.agent("", bash("python -c 'import app.models'", "RecursionError: maximum recursion depth", 1))
    b.agent("Where I am: down to 51 failures from 212, but the last groups are resisting.")
    b.human("")
    b.agent(
        "## Status\n**Done**: most groups.\n**Open**: two groups resist.\n"
        "**Next steps**: split the table model from the API schema.\n" + "." * 300
    )
    b.agent("", edit("app/models.py"), bash("pytest -q", "1902 passed"))
    p = judge_one(b.turns)
    assert "milestone" not in names(p)
    assert p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_a_report_headline_is_its_verdict() -> None:
    b = B()
    _start(b)
    b.agent("", bash("python -m jobs.export --all", "done: 31 days"))
    report = b.agent(
        "Export done on staging:\n\n| step | result |\n|---|---|\n| days | 31 |\n"
        "| time | 4 min 12 s |\n\nThe stuck worker from yesterday was a stale lock."
    )
    b.human("ok")
    b.agent("Export works, so the next phase is scheduling it.", tool("TodoWrite", {"todos": []}))
    b.agent("", edit("deploy/cron.yaml"), bash("kubectl apply -f deploy/cron.yaml", "configured"))
    b.agent("", bash("kubectl get cronjob export", "export  0 2 * * *"))
    p = judge_one(b.turns)
    assert sig(p, "milestone").turns == [report]
    assert p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_build_passes_is_a_success() -> None:
    b = B()
    _start(b)
    b.agent("", bash("make docs", "exit status 1", 1))
    b.agent("", bash("make docs", "INFO built in 41 s"))  # no success word in the output
    ok = b.agent("The strict build passes now, 0 warnings.")
    b.human("")
    b.agent("Looking at why the search index is so large.", bash("du -h site/index.json", "9M"))
    b.agent("", edit("mkdocs.yml"), bash("make docs", "built in 30 s"))
    p = judge_one(b.turns)
    assert "failure streak" not in names(p)
    assert ok in sig(p, "milestone").turns


def test_waiting_that_ends_in_success_is_conclusive() -> None:
    b = B()
    b.human("Move the api deployment to the new node pool.")
    b.agent("Patching.", bash("kubectl patch deploy api -p '{}'", "deployment.apps/api patched"))
    b.agent(
        "",
        bash(
            "kubectl rollout status deploy/api --timeout=5m",
            'Waiting for deployment "api" rollout to finish: 1 of 3 updated replicas...\n'
            'deployment "api" successfully rolled out',
        ),
    )
    b.human("")
    b.agent("The api is on the new pool. Now the worker.", bash("kubectl patch deploy w", "ok"))
    pivots = detect_pivots(b.turns)
    assert all("inconclusive ending" not in names(p) for p in pivots)


# --- routine: the same steps after a go-on ----------------------------------------------


def _batches(b: B, first: int, last: int) -> None:
    for n in range(first, last + 1):
        b.agent(
            f"Batch {n}.",
            bash(f"node scripts/extract.mjs src/views/v{n}.vue", f"{n * 7} strings moved"),
        )
        b.agent("", bash(f"npx eslint src/views/v{n}.vue", ""))
        b.agent("", bash("npx vitest run", "Tests  300 passed (300)"))
    b.agent(f"Batch {last} done: strings moved, 300 tests pass. More batches left.")


def test_a_go_on_between_batches_of_the_same_steps_is_routine() -> None:
    b = B()
    b.human("Move every literal in src/views into en.json, in batches.")
    _batches(b, 1, 2)
    b.human("ok")
    _batches(b, 3, 4)
    b.human("thanks, that's all for today")
    assert detect_pivots(b.turns) == []


def test_new_task_items_after_a_go_on_are_a_change() -> None:
    b = B()
    b.human("Move every literal in src/views into en.json, in batches.")
    b.agent("", tool("TodoWrite", {"todos": [{"content": "Extract strings", "status": "pending"}]}))
    _batches(b, 1, 2)
    anchor = b.human("ok")
    b.agent(
        "Found a real bug while extracting: dates render in UTC for every user.",
        tool(
            "TodoWrite",
            {
                "todos": [
                    {"content": "Extract strings", "status": "in_progress"},
                    {"content": "Fix dates rendered in UTC", "status": "in_progress"},
                ]
            },
        ),
    )
    _batches(b, 3, 3)
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert "new tasks" in names(p)
    assert "same steps" not in names(p)


def test_a_go_on_counts_only_when_the_work_after_it_changes() -> None:
    b = B()
    _start(b)
    b.agent("", bash("python -m jobs.export --day 1", "Traceback\nTimeoutError", 1))
    b.agent("", bash("python -m jobs.export --day 1 --chunk 5000", "Traceback\nTimeoutError", 1))
    b.human("k")
    b.agent("", bash("python -m jobs.export --day 1 --chunk 1000", "Traceback\nTimeoutError", 1))
    b.agent("", bash("python -m jobs.export --day 1 --chunk 500", "ok in 40 s"))
    b.human("thanks")
    assert detect_pivots(b.turns) == []


# --- context dump, open questions, proposals --------------------------------------------


def test_bold_status_labels_make_a_context_dump() -> None:
    b = B()
    _start(b)
    b.agent("", bash("python -m jobs.export", "TimeoutError", 1))
    b.agent("The index hint failed too; none of them worked.")
    b.human("")
    dump = b.agent(
        "## Picking this up again\n\n"
        "**Goal**: nightly export under 10 minutes.\n\n"
        "**What didn't work**: a bigger pool, an index hint, chunking by id.\n\n"
        "**Why**: the query sorts 40M rows before the limit.\n\n"
        "**New approach**\n1. Stream by primary key.\n2. Write parquet per chunk.\n" + "." * 200
    )
    b.agent("", edit("jobs/export.py"), bash("python -m jobs.export", "done in 6 min"))
    p = judge_one(b.turns)
    assert sig(p, "context dump").turns == [dump]


def test_a_question_in_the_last_paragraph_is_an_open_question() -> None:
    b = B()
    b.human("Add a second node group for the workers.")
    b.agent("Reading the module.", read("infra/modules/eks/groups.tf"))
    b.agent("", read("infra/envs/staging/vars.tf"))
    b.agent("", edit("infra/modules/eks/groups.tf"))
    b.agent("", bash("cd infra/envs/staging && terraform validate", "Success! valid"))
    b.agent("", bash("cd infra/envs/staging && terraform plan -out g.plan", "Plan: 1 to add"))
    ask = b.agent(
        "The change adds one group. One choice before I apply: should the group be spot "
        "or on-demand? Spot is cheaper but nodes can be reclaimed."
    )
    anchor = b.human("ok")
    b.agent("I'll take that as my call: on-demand for now, applying.", edit("capacity.auto.tfvars"))
    b.agent("", bash("kubectl get nodes -l pool=workers2", "ip-10-1-2-3 Ready"))
    b.agent("", bash("helm upgrade ingress charts/ingress --set affinity=workers2", "deployed"))
    b.agent("", bash("kubectl rollout status ds/node-exporter", "successfully rolled out"))
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert sig(p, "open question").turns == [ask]
    # a choice ("spot or on-demand?") is no plan a silence could approve
    assert p.kind is PivotKind.OTHER


def test_a_plan_ending_on_a_yes_no_question_awaits_a_go_ahead() -> None:
    b = B()
    b.human("Backfill the reports table from the raw logs since January.")
    b.agent("", bash("python -m jobs.backfill --day 2024-01-05", "1 day: 48 s, 5.1 GB"))
    b.agent(
        "One day matches the live table, so here is the plan for the full range.\n\n"
        "**Options**: 4 workers (about 3 h) or 8 workers (about 1.5 h, risk of too many parts).\n"
        "Launch with 8 workers?"
    )
    b.human("yes")
    b.agent("Launching.", bash("nohup python -m jobs.backfill --workers 8 &", "started"))
    b.agent("", bash("sleep 120; tail -3 backfill.log", "12 days done"))
    p = judge_one(b.turns)
    assert p.kind is PivotKind.IMPLICIT_APPROVAL


# --- compaction --------------------------------------------------------------------------


def test_a_compaction_after_a_reported_failure_is_not_mid_task() -> None:
    b = B()
    _start(b)
    b.agent("", bash("psql -c 'LOAD hint_plan'", "ERROR: could not access file", 1))
    b.agent(
        "No change with a partial index either; every idea so far failed. Dropping it.",
        bash("psql -c 'DROP INDEX tmp_idx'", "DROP INDEX"),
    )
    anchor = b.boundary()
    b.summary("This session is being continued from a previous conversation ...")
    b.agent(
        "## Recap\n**Goal**: export under 10 min.\n**What didn't work**: hints, indexes.\n"
        "**New approach**: stream by key.\n" + "." * 300
    )
    b.agent("", edit("jobs/export.py"), bash("python -m jobs.export", "done in 6 min"))
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert "mid-task" not in names(p)
    assert p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_a_compaction_counts_when_the_work_moves_on() -> None:
    b = B()
    b.human("Load last year's events into the sessions table.")
    b.agent("", bash("python -m jobs.load --all --workers 4", "365 days loaded"))
    b.agent("", bash("python -m jobs.verify --against live", "diff rows: 0"))
    b.agent(
        "Verified across all days:\n\n| check | result |\n|---|---|\n"
        "| days present | 365 / 365 |\n| max per-day diff | 0 |\n| table size | 1.8 GiB |"
    )
    anchor = b.boundary()
    b.summary("## Goal\nLoad last year's events ...", role=Role.ASSISTANT)
    b.agent("Next phase: point the dashboard at the new table and schedule a daily refresh.")
    b.agent("", bash("rg -n sessions_mv dashboards/sessions.json", "12: sessions_mv"))
    b.agent("", edit("dashboards/sessions.json"), tool("Write", {"file_path": "dags/refresh.py"}))
    b.agent("", bash("airflow dags test refresh_sessions 2024-01-01", "success"))
    p = judge_one(b.turns)
    assert p.turn == anchor and p.silence is Silence.COMPACTION
    assert "topic shift" in names(p)
    assert p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_a_compaction_amid_the_same_work_is_no_pivot() -> None:
    b = B()
    b.human("Load last year's events into the sessions table.")
    b.agent("", bash("python -m jobs.load --month 1", "31 days loaded"))
    b.agent("", bash("python -m jobs.verify --month 1", "diff rows: 0"))
    b.agent("January verified: 31 / 31 days, 0 diffs, 150 MB.")
    b.boundary()
    b.summary("## Goal\nLoad last year's events ...", role=Role.ASSISTANT)
    b.agent("", bash("python -m jobs.load --month 2", "28 days loaded"))
    b.agent("", bash("python -m jobs.verify --month 2", "diff rows: 0"))
    b.agent("", bash("python -m jobs.load --month 3", "31 days loaded"))
    b.human("thanks")
    assert detect_pivots(b.turns) == []


def test_a_compaction_right_after_a_silent_message_is_one_pivot() -> None:
    b = B()
    _start(b)
    b.agent("", bash("python -m jobs.export", "TimeoutError", 1))
    b.agent("", bash("python -m jobs.export --chunk 10", "TimeoutError", 1))
    anchor = b.human("")
    summary = "## Goal\nExport under 10 minutes.\n## Done\nTwo attempts.\n## Next steps\nProfile."
    b.agent(summary)  # Codex writes the model's summary reply as an assistant message ...
    b.boundary()  # ... then the compacted record
    b.summary(summary)
    b.agent("Profiling first.", bash("python -m cProfile -m jobs.export", "sort: 80 %"))
    b.agent("", edit("jobs/export.py"), bash("python -m jobs.export", "done in 6 min"))
    assert judge_one(b.turns).turn == anchor


def test_a_bare_passing_check_inside_a_step_is_mid_task() -> None:
    b = B()
    b.human("Split cli.py into a render package, one move at a time.")
    b.agent("", bash("python scripts/move.py cli.py render/csv.py && pytest -q", "20 passed"))
    b.agent("CSV moved and committed. Back to the other formats.")
    b.agent("", bash("python scripts/move.py cli.py render/pdf.py && pytest -q", "20 passed"))
    b.human("👍")
    b.agent("", bash("mypy ledger", "Found 41 errors"))
    b.agent("", bash("ruff check --fix ledger", "6 fixed"), edit("cli.py"))
    assert detect_pivots(b.turns) == []


def test_a_go_on_after_a_finding_the_agent_then_takes_up_is_a_pivot() -> None:
    b = B()
    b.human("Split the report renderers out of cli.py, one move at a time.")
    b.agent("", tool("TodoWrite", {"todos": [{"content": "Move renderers", "status": "pending"}]}))
    for name in ("table", "json", "markdown"):
        b.agent(
            "", bash(f"python scripts/move.py cli.py render/{name}.py && pytest -q", "9 passed")
        )
    b.agent(
        "Found something while moving csv that is not part of the refactor: exports stop "
        "silently at 65,535 rows (an old spreadsheet limit), so big ledgers get cut files."
    )
    anchor = b.human(".")
    b.agent(
        "Fixing the truncation first, as its own commit.",
        tool(
            "TodoWrite",
            {
                "todos": [
                    {"content": "Move renderers", "status": "in_progress"},
                    {"content": "Fix CSV export truncation", "status": "in_progress"},
                ]
            },
        ),
    )
    b.agent("", tool("Write", {"file_path": "tests/test_csv_big.py"}, "created"))
    b.agent("", bash("pytest tests/test_csv_big.py -q", "1 failed", 1))
    b.agent("", edit("render/csv.py"), bash("pytest -q", "10 passed"))
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert p.kind is PivotKind.OTHER
    assert "new tasks" in names(p)


@pytest.mark.parametrize("text", ["👍🏽", "?!", "+1", "contiune", "procede", "weiter", "好的"])
def test_wordless_typo_and_other_language_go_ons(text: str) -> None:
    assert classify_text(text, CFG) is Silence.ACK


def test_invisible_characters_are_nothing() -> None:
    assert classify_text("\u200b\ufeff", CFG) is Silence.EMPTY
    assert classify_text("ok\u200b", CFG) is Silence.ACK


@pytest.mark.parametrize("silence", ["", "."])
def test_routine_is_routine_whether_the_client_stores_empty_or_a_dot(silence: str) -> None:
    # Codex stores an empty prompt, Claude Code refuses one (people type "."): one rule for both
    b = B()
    b.human("Move every literal in src/views into en.json, in batches.")
    _batches(b, 1, 2)
    b.human(silence)
    _batches(b, 3, 4)
    b.human("thanks, that's all for today")
    assert detect_pivots(b.turns) == []


@pytest.mark.parametrize(
    "words",
    [
        "Tried a bigger pool: no measurable change.",
        "The index didn't move the needle.",
        "Same error again after the rebuild.",
    ],
)
def test_failure_in_other_words(words: str) -> None:
    b = B()
    _start(b)
    b.agent("", bash("python -m jobs.export", "TimeoutError", 1))
    # words after a call that did not fail by its own status: the agent's verdict counts
    said = b.agent(words, bash("python -m jobs.export --pool 32", "exported 0 of 9 batches", 0))
    b.human("")
    b.agent("## Where this stands\n**Goal**: export.\n**Tried**: pools, indexes.\n" + "." * 300)
    b.agent("", edit("jobs/export.py"), bash("python -m jobs.export", "done in 6 min"))
    p = judge_one(b.turns)
    assert said in sig(p, "failure streak").turns


def test_a_go_ahead_question_with_an_alternative_still_awaits_a_go_ahead() -> None:
    b = B()
    b.human("Backfill the reports table from the raw logs since January.")
    b.agent("", bash("python -m jobs.backfill --day 2024-01-05", "1 day: 48 s, 5.1 GB"))
    b.agent(
        "Plan: run all 120 days with 4 workers (about 3 h), delete-then-insert per day, "
        "resumable. Risk: the cluster is shared at night.\n\n"
        "Shall I go ahead, or would you rather review the options first?"
    )
    b.human("")
    b.agent("Launching.", bash("nohup python -m jobs.backfill --workers 4 &", "started"))
    b.agent("", bash("sleep 120; tail -3 backfill.log", "12 days done"))
    assert judge_one(b.turns).kind is PivotKind.IMPLICIT_APPROVAL


def test_an_announced_next_phase_is_a_change_even_with_the_same_tools() -> None:
    b = B()
    b.human("Get the importer working against the new API.")
    for n in range(3):
        b.agent("", read(f"importer/step{n}.py"), edit(f"importer/step{n}.py"))
        b.agent("", bash("pytest -q tests/importer", "FAILED tests/importer/test_a.py", 1))
    b.agent("", edit("importer/client.py"), bash("pytest -q tests/importer", "31 passed"))
    b.agent("The importer works: all 31 tests pass against the new API.")
    anchor = b.human("ok")
    b.agent("Now that it works, the next phase is speed: it imports one row per request.")
    b.agent("", read("importer/client.py"), edit("importer/client.py"))
    b.agent("", bash("pytest -q tests/importer", "31 passed"))
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert "new phase announced" in names(p)
    assert p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_looking_around_then_asking_what_to_do_is_no_pivot() -> None:
    b = B()
    _start(b)
    b.agent("", bash("python -m jobs.export", "TimeoutError", 1))
    b.agent("", bash("python -m jobs.export --chunk 10", "TimeoutError", 1))
    b.agent("Both attempts timed out again.")
    b.human("")
    b.agent("", read("jobs/export.py"))
    b.agent("", read("jobs/config.yaml"))
    b.agent("I see two ways: stream by key, or move the job to the replica. Which do you prefer?")
    b.human("stream by key")
    assert detect_pivots(b.turns) == []


def test_editing_files_of_one_type_before_and_after_is_not_routine_by_itself() -> None:
    b = B()
    b.human("Make the parser accept the v2 config format.")
    b.agent("", read("conf/parser.py"), edit("conf/parser.py"))
    b.agent("", read("conf/schema.py"), edit("conf/schema.py"))
    b.agent("", bash("pytest -q tests/conf", "48 passed"))
    b.agent("The v2 format works: all 48 config tests pass.")
    anchor = b.human("ok")
    b.agent("", read("cli/commands.py"), edit("cli/commands.py"))
    b.agent("", read("docs/migrating.py"), edit("cli/help_text.py"))
    b.agent("", read("plugins/loader.py"), edit("plugins/loader.py"))
    p = judge_one(b.turns)
    assert p.turn == anchor
    assert "same steps" not in names(p)
