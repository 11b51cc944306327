"""Sub-agents whose parent's file is there but never names them (text written for the
tests, in the shapes Codex and Gemini CLI write), beside one it does name.

Codex (`write_codex`): the person asks for every endpoint in `endpoints.csv` to be
checked for a missing auth decorator. The agent runs `spawn_agents_on_csv` (one worker
per row; its result is the job's summary, no thread id), then `spawn_agent` in v2's
shape (its result names the task, `/root/docs_audit`; the `sub_agent_activity` event that
would give the thread is not in the rollout), then a v1 `spawn_agent` whose result names
Quill's thread. Each child's `session_meta` names the parent (`thread_spawn`). Only Quill
is reached through the parent: the CSV worker (Wren) and the docs auditor (Sable) are
sessions of their own.

Gemini CLI (`write_gemini`): `gemini_subagent_home`'s session and its two agents' chats,
and a third chat in the session's folder that started after both agent calls (its call
was never written: the session stopped while it ran), so it is tied to no call.
"""

from __future__ import annotations

import json
from pathlib import Path

from readers import codex_subagent_home as codex
from readers import gemini_subagent_home as gemini
from readers.codex_builders import Rollout

PARENT = "019b0e11-7a20-7c01-9d10-6e7f8a9b0c11"
QUILL = "019b0e11-9c31-7d12-8e21-7f8a9b0c1d12"
WREN = "019b0e12-1d42-7e23-9f32-8a9b0c1d2e13"
SABLE = "019b0e12-5e53-7f34-8a43-9b0c1d2e3f14"

ASK = "Check every endpoint in endpoints.csv for a missing @requires_auth, one worker a row."
ROW_TASK = "Check /billing/export in api/billing.py for @requires_auth; answer yes or no."
DOCS_TASK = "Audit docs/auth.md against the decorators actually used."
QUILL_TASK = "List the endpoints the CSV does not mention."
WREN_SAW = 'api/billing.py:41:@app.route("/billing/export")  # no auth decorator'
"""What only the CSV worker saw."""
SABLE_SAW = "docs/auth.md:12: every route under /admin needs @requires_role"
"""What only the docs auditor saw."""
QUILL_SAW = "api/health.py:7:@app.route('/healthz')"
"""What only Quill (named by its spawn) saw."""

UNTIED = "r4t8z2"
"""The Gemini CLI chat tied to no call."""
UNTIED_SAW = "grammar/lexer.py:203: EMPTY_CELL = re.compile"
"""What only that chat saw."""


def _rollout(thread: str, start: str, parent: str | None, depth: int = 1) -> Rollout:
    r = Rollout(start=start, session_id=thread)
    if parent is None:
        codex._meta(r, "cli", {"thread_source": "user"})
    else:
        codex._meta(r, *codex._spawned_by(parent, depth, None, None))  # type: ignore[arg-type]
    return r


def parent() -> Rollout:
    r = _rollout(PARENT, "2026-12-01T14:00:00.000", None)
    codex._person(r, ASK)
    job = {"csv_path": "endpoints.csv", "instruction": "Check {route} in {module} for "
           "@requires_auth; answer yes or no.", "id_column": "route"}  # fmt: skip
    summary = {"job_id": "job-7f2c", "status": "completed", "output_csv_path":
               "endpoints.results.csv", "total_items": 1, "completed_items": 1,
               "failed_items": 0}  # fmt: skip
    codex._call(r, "call_csv", "spawn_agents_on_csv", job, json.dumps(summary))
    codex._tokens(r, 800)
    v2 = {"message": DOCS_TASK, "task_name": "docs_audit"}
    codex._call(r, "call_docs", "spawn_agent", v2, json.dumps({"task_name": "/root/docs_audit"}))
    codex._spawn(r, "call_quill", QUILL_TASK, "explorer", QUILL, "Quill")
    codex._say(r, "One endpoint lacks the decorator: /billing/export.")
    codex._tokens(r, 900)
    return r


def quill() -> Rollout:
    r = _rollout(QUILL, "2026-12-01T14:00:20.000", PARENT)
    codex._prompted(r, QUILL_TASK)
    codex._shell(r, "call_quill_rg", "rg -n '@app.route' api", QUILL_SAW)
    codex._say(r, "/healthz is not in the CSV.")
    codex._tokens(r, 300)
    return r


def wren() -> Rollout:
    """A CSV worker: its first input is the instruction filled in for its row."""
    r = _rollout(WREN, "2026-12-01T14:00:03.000", PARENT)
    codex._prompted(r, ROW_TASK)
    codex._shell(r, "call_wren_rg", "rg -n -B2 'billing/export' api/billing.py", WREN_SAW)
    report = {"job_id": "job-7f2c", "item_id": "/billing/export", "result": {"auth": "no"}}
    codex._call(r, "call_wren_report", "report_agent_job_result", report, '{"ok":true}')
    codex._tokens(r, 350)
    return r


def sable() -> Rollout:
    """v2: the child knows its task path; the parent's rollout never learnt its thread."""
    r = Rollout(start="2026-12-01T14:00:12.000", session_id=SABLE)
    spawn = {"parent_thread_id": PARENT, "depth": 1, "agent_path": "/root/docs_audit",
             "agent_nickname": None, "agent_role": None}  # fmt: skip
    codex._meta(r, {"subagent": {"thread_spawn": spawn}})
    codex._prompted(r, DOCS_TASK)
    codex._shell(r, "call_sable_sed", "sed -n 1,20p docs/auth.md", SABLE_SAW)
    codex._tokens(r, 450)
    return r


def write_codex(root: Path) -> dict[str, Path]:
    """The parent and its three children's rollouts under `root/.codex/sessions/`."""
    return {r.session_id: r.write(root) for r in (parent(), quill(), wren(), sable())}


def untied_records() -> list[dict[str, object]]:
    read = gemini._call(
        "grep_search__dd44",
        "grep_search",
        {"pattern": "EMPTY_CELL", "dir_path": "grammar"},
        f"Found 1 match\n{UNTIED_SAW}",
        125.0,
        "Found 1 match",
    )
    return [
        gemini._header(UNTIED, "subagent", 120.0),
        gemini._user("s3-u1", 120.1, "Find where the lexer decides a cell is empty."),
        gemini._gemini("s3-g1", 125.0, "", 900, [read]),
    ]


def write_gemini(root: Path) -> dict[str, Path]:
    """`gemini_subagent_home`'s session and agents, and the chat tied to no call."""
    session = gemini.write_home(root)
    untied = gemini._write(gemini.agent_file(root, UNTIED), untied_records())
    return {"session": session, "untied": untied}
