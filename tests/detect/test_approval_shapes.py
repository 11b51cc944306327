"""Implicit approval as real sessions show it, and the offers that only look like it.

Real pivots are mostly implicit approvals: asked for something, the agent looked around,
laid out what it would do (in the person's language, with or without a question) and
waited; a bare yes and it carried it out. Their hard negatives: the fix the agent offers
right after a check failed (a fix loop), and "shall I do the same to X?" once the work is
already under way. Every conversation here is written for the test, in a domain of its own.
The tests hold what is measured, the kind, and which of a pair scores higher: whether a
silence clears the bar is the fitted weights' call, measured by `bench/eval_detector.py`.
"""

from __future__ import annotations

from pivotal.detect import detect_pivots
from pivotal.detect.activity import carries_out, changes_code, tool_kind
from pivotal.detect.view import ToolView
from pivotal.model import Pivot, PivotKind

from .helpers import B, bash, certain, edit, judge_one, read, tool


def at(pivots: list[Pivot], turn: int) -> Pivot | None:
    return next((p for p in pivots if p.turn == turn), None)


def names(pivot: Pivot) -> set[str]:
    return {s.name for s in pivot.signals}


def _french_plan(b: B) -> int:
    b.human("Ajoute un export CSV au tableau de bord des ventes.")
    b.agent("Je regarde comment le tableau est construit.", read("web/dashboard/sales.tsx"))
    b.agent("", read("api/routes/sales.py"))
    b.agent(
        "Voici ce que je propose :\n\n"
        "1. Ajouter une route `GET /sales/export.csv` dans `api/routes/sales.py`.\n"
        "2. Un bouton « Exporter » dans `sales.tsx` qui appelle cette route.\n"
        "3. Un test de la route avec deux lignes de ventes.\n\n"
        "Voulez-vous que je commence ?"
    )
    return b.human("oui")


def test_a_plan_asked_about_in_french_and_answered_oui_is_implicit_approval() -> None:
    b = B()
    anchor = _french_plan(b)
    b.agent("J'ajoute la route.", edit("api/routes/sales.py"))
    b.agent("", edit("web/dashboard/sales.tsx"))
    b.agent("", tool("Write", {"file_path": "tests/test_sales_export.py"}, "created"))
    b.agent("", bash("pytest tests/test_sales_export.py -q", "2 passed"))
    p = judge_one(b.turns, anchor)
    assert p.kind is PivotKind.IMPLICIT_APPROVAL
    assert {"proposal pending", "plan laid out", "offer to go ahead", "approved plan"} <= names(p)


def test_an_offer_ending_if_ok_i_go_on_in_japanese_is_a_go_ahead_question() -> None:
    b = B()
    b.human("変更をまとめてリリースノートを作ってください。")
    b.agent("", bash("git log --oneline v1.4..HEAD", "a1 fix\nb2 feat"))
    b.agent(
        "次の内容でまとめます:\n- 追加: エクスポート機能\n- 修正: ログイン時のタイムアウト\n\n"
        "OKならそのまま CHANGELOG.md を更新してタグを作成まで進めます。"
    )
    anchor = b.human("はい")
    b.agent("", edit("CHANGELOG.md"))
    b.agent("", bash("git commit -am 'release notes' && git tag v1.5", "[main c3] release notes"))
    b.agent("", bash("git push --tags", "* [new tag] v1.5"))
    p = judge_one(b.turns, anchor)
    assert p.kind is PivotKind.IMPLICIT_APPROVAL and "offer to go ahead" in names(p)


def test_a_plan_laid_out_without_a_question_awaits_a_go_ahead() -> None:
    # some agents stop after the plan without asking (aider in ask mode): a yes approves it
    b = B()
    b.human("Set up the billing module: an invoice model, a tax helper and a PDF renderer.")
    b.agent(
        "Here's how I'll approach it:\n\n"
        "1. `billing/models.py`: the Invoice and Line models.\n"
        "2. `billing/tax.py`: rates per country, rounding per line.\n"
        "3. `billing/pdf.py`: one template, rendered with the line totals.\n"
    )
    anchor = b.human("go ahead")
    b.agent("", edit("billing/models.py"), edit("billing/tax.py"), edit("billing/pdf.py"))
    b.agent("", bash("pytest billing -q", "14 passed"))
    p = judge_one(b.turns, anchor)
    assert p.kind is PivotKind.IMPLICIT_APPROVAL and "plan laid out" in names(p)
    proposal = next(s for s in p.signals if s.name == "proposal pending")
    assert "3-step plan" in proposal.detail


def test_shall_i_do_the_same_there_after_changing_code_is_not_a_plan() -> None:
    b = B()
    b.human("The image resize is slow on the upload page, make it faster.")
    b.agent("", read("upload/resize.py"))
    b.agent("Switching to the SIMD path.", edit("upload/resize.py"))
    b.agent(
        "Done in `upload/resize.py`:\n1. SIMD resize\n2. no double decode\n\n"
        "Do you want me to apply the same change to the avatar page too?"
    )
    anchor = b.human("yes")
    b.agent("", edit("avatar/resize.py"))
    b.agent("Same change applied to the avatar page.")
    p = at(detect_pivots(b.turns, possible=True), anchor)
    assert p is None or "proposal pending" not in names(p)


def _failing_run(b: B) -> None:
    b.human("Run the test suite.")
    b.agent("", bash("pytest -q", "ModuleNotFoundError: No module named 'httpx'", 4))
    b.agent("", bash("python -m pytest -q", "ModuleNotFoundError: No module named 'httpx'", 4))


def test_the_fix_offered_right_after_a_failed_check_is_a_fix_loop_not_a_pivot() -> None:
    b = B()
    _failing_run(b)
    b.agent("The tests cannot start: `httpx` is missing.\n\nShall I install the dev extras first?")
    anchor = b.human("ok")
    b.agent("", bash("pip install -e '.[dev]'", "Successfully installed httpx"))
    b.agent("", bash("pytest -q", "1 failed, 40 passed", 1))
    b.agent("", edit("tests/test_client.py"), bash("pytest -q", "41 passed"))
    b.agent("All 41 tests pass now.")
    assert not certain(b.turns, anchor)
    p = judge_one(b.turns, anchor)
    assert "next step named" in names(p) and p.kind is not PivotKind.DELEGATION_AFTER_DEAD_END
    assert p.confidence < _dead_end_confidence()


def test_a_recommendation_in_chinese_after_a_failure_is_a_named_next_step() -> None:
    b = B()
    _failing_run(b)
    b.agent("测试无法启动：缺少 `httpx`。\n\n建议：\n1) 安装开发依赖\n2) 重新运行测试")
    anchor = b.human("继续")
    b.agent("", bash("pip install -e '.[dev]'", "Successfully installed httpx"))
    b.agent("", bash("pytest -q", "41 passed"))
    b.agent("测试全部通过。")
    assert at(detect_pivots(b.turns, possible=True), anchor) is None


def _dead_end() -> tuple[B, int]:
    b = B()
    _failing_run(b)
    b.agent("", bash("pip install httpx && pytest -q", "Segmentation fault (core dumped)", 139))
    b.agent("Every attempt crashes the interpreter now, and I do not know why.")
    anchor = b.human("")
    b.agent("Checking whether the crash comes from the C extension build.", bash("pip list", "x"))
    b.agent("", bash("python -X faulthandler -c 'import httpx'", "Fatal Python error"))
    b.agent("", edit("pyproject.toml"), bash("pip install -e . && pytest -q", "41 passed"))
    return b, anchor


def _dead_end_confidence() -> float:
    b, anchor = _dead_end()
    return judge_one(b.turns, anchor).confidence


def test_failures_with_no_next_step_are_still_a_dead_end() -> None:
    # the control: the same failures, but the agent has nothing left to try
    b, anchor = _dead_end()
    p = judge_one(b.turns, anchor)
    assert p.kind is PivotKind.DELEGATION_AFTER_DEAD_END
    assert "next step named" not in names(p)


def _shell(command: str) -> ToolView:
    return ToolView("Bash", {"command": command}, command, "", True, False, 0, None)


def test_redirects_and_paths_do_not_make_a_read_a_write() -> None:
    assert tool_kind(_shell("ls ../schemas/ 2>/dev/null | head")) == "read"
    assert tool_kind(_shell("cat deploy/install.sh")) == "read"
    assert tool_kind(_shell("cat /srv/checkout-api/app.py")) == "read"
    assert tool_kind(_shell("ls -la 2>&1")) == "read"
    assert tool_kind(_shell("cat a.txt > b.txt")) == "edit"


def test_a_patch_that_only_adds_notes_carries_nothing_out() -> None:
    notes = _shell("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: notes/findings.md\n+x\n")
    code = _shell("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: app/api.py\n+x\n")
    assert not carries_out(notes) and carries_out(code)
    assert changes_code(_shell("git commit -m 'fix' && git push")) is True
    assert changes_code(_shell("git status")) is False


def test_a_single_concrete_offer_before_anything_was_done_is_a_plan_of_one_step() -> None:
    b = B()
    b.human("Free up space on the staging database.")
    b.agent("", bash("psql -c '\\\\dt+' | sort -k4 -h | tail -3", "audit_log | 180 GB"))
    b.agent("", bash("psql -c 'select min(ts) from audit_log'", "2021-02-01"))
    b.agent(
        "`audit_log` holds 180 GB, most of it older than a year. Drop the partitions older "
        "than 12 months?"
    )
    anchor = b.human("yes")
    b.agent("", tool("Write", {"file_path": "migrations/0042_drop_old_audit.sql"}, "ok"))
    b.agent("", bash("psql -f migrations/0042_drop_old_audit.sql", "DROP TABLE x 14"))
    b.agent(
        "", bash("psql -c 'select pg_size_pretty(pg_database_size(current_database()))'", "41 GB")
    )
    b.agent("Done: the database went from 221 GB to 41 GB.")
    p = judge_one(b.turns, anchor)
    assert p.kind is PivotKind.IMPLICIT_APPROVAL and "offer to go ahead" in names(p)


def test_a_test_run_piped_into_tail_failed_when_its_output_says_so() -> None:
    from pivotal.detect.failures import tool_failed

    piped = ToolView(
        "exec_command",
        {"command": "pytest -q | tail -3"},
        "pytest -q | tail -3",
        "FAILED tests/test_api.py::test_list - AssertionError\n3 failed, 40 passed",
        True,
        False,
        0,
        None,
    )
    plain = ToolView(
        "exec_command",
        {"command": "python report.py"},
        "python report.py",
        "error: 0 rows had an error column",
        True,
        False,
        0,
        None,
    )
    # the stated exit 0 is tail's; a plain command's stated exit 0 stands over its words
    assert tool_failed(piped) and not tool_failed(plain)


def _greenhouse_plan(b: B) -> int:
    b.human("Where are we with the greenhouse sensor firmware? What is left?")
    b.agent("Checking the branch and the open items.", bash("git log --oneline -3", "f1 ota"))
    b.agent("", read("firmware/sensors/humidity.c"))
    b.agent(
        "Left to do:\n\n"
        "1. Debounce the humidity readings in `humidity.c`.\n"
        "2. Retry the OTA download twice before giving up.\n\n"
        "Shall I start with the debounce?"
    )
    return b.human("ok")


_RECAP = (
    "## Where things stand\n\n"
    "**Goal:** stable greenhouse sensor firmware.\n\n"
    "**Done:** OTA updates land; the temperature probe is calibrated.\n\n"
    "**Current state:** humidity readings jitter by ±4 % between two polls, so the vents\n"
    "open and close every few minutes.\n\n"
    "**Files:** `firmware/sensors/humidity.c`, `firmware/ota/download.c`.\n\n"
    "**Next steps:**\n"
    "- debounce the humidity readings\n"
    "- retry the OTA download twice\n"
)


def test_a_go_ahead_answered_only_in_words_before_the_person_speaks_again_is_no_pivot() -> None:
    """PIVOTS.md: after an implicit approval the agent executes what it laid out. A recap
    in reply, and then the person directing again, hands nothing over."""
    b = B()
    anchor = _greenhouse_plan(b)
    b.agent(_RECAP)
    b.human("Leave the OTA retry; just write the debounce, 3 samples.")
    b.agent("", edit("firmware/sensors/humidity.c"))
    assert not certain(b.turns, anchor)
    p = judge_one(b.turns, anchor)
    assert not names(p) & {"autonomous action", "code changed", "approved plan"}
    assert p.confidence < _recap_then_work().confidence


def _recap_then_work() -> Pivot:
    b = B()
    anchor = _greenhouse_plan(b)
    b.agent(_RECAP)
    b.agent("Starting with the debounce.", edit("firmware/sensors/humidity.c"))
    b.agent("", bash("make test-sensors", "12 passed"))
    b.human("Nice. Now the OTA retry.")
    return judge_one(b.turns, anchor)


def test_the_same_recap_followed_by_the_work_itself_is_implicit_approval() -> None:
    p = _recap_then_work()
    assert p.kind is PivotKind.IMPLICIT_APPROVAL and "approved plan" in names(p)


def test_a_short_numbered_plan_is_never_called_not_a_plan() -> None:
    """ "Plan: 1. … 2. … 3. …" in one line, then "ok": the small offer it measures (a short
    message, no step on a line of its own) says a short plan of 3 steps, not "a short offer
    of one step, not a plan", which the message itself contradicts. Words only: the same
    silence, judged the same."""
    b = B()
    b.human("The cart total is wrong when a coupon is applied; fix it.")
    b.agent("", read("cart/total.py"), read("cart/coupon.py"))
    b.agent("Plan: 1. survey the cart 2. find callers 3. fix. Shall I go ahead?")
    b.human("ok")
    b.agent("", edit("cart/total.py"))
    b.agent("", bash("pytest -q tests/test_cart.py", "4 passed"))
    small = next(s for s in judge_one(b.turns, 3).signals if s.name == "small offer")
    assert small.detail == "a short plan (3 steps in 66 characters): a small thing to say yes to"
    assert "not a plan" not in small.detail and "one step" not in small.detail


def test_a_short_offer_without_steps_still_reads_as_one() -> None:
    b = B()
    b.human("What would make the cart faster?")
    b.agent("", read("cart/total.py"))
    b.agent("Caching the coupon lookup would halve it. Shall I add that?")
    b.human("yes")
    b.agent("", edit("cart/total.py"))
    small = next(s for s in judge_one(b.turns, 3).signals if s.name == "small offer")
    assert small.detail == "a short offer of one step (59 characters), not a plan"
