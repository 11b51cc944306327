"""The shapes the independent synthetic set missed or mistook (issue 15, item 5), each in a
conversation written here: a whitespace message right after a finished-backfill table; a
bare ack after green runs; an automatic compaction right after a string of failures; acks
while the agent works through the same step."""

from __future__ import annotations

from pivotal.detect import detect_pivots
from pivotal.model import Pivot, PivotKind, Silence

from .helpers import DUMP, EVERY, B, bash, edit, read, tool


def at(b: B, turn: int) -> Pivot | None:
    return next((p for p in detect_pivots(b.turns, EVERY) if p.turn == turn), None)


def test_whitespace_after_a_backfill_complete_table_then_a_new_phase() -> None:
    b = B()
    b.human("Backfill the sessions table for 2025 from the raw events.")
    b.agent("", bash("python -m jobs.backfill --year 2025 --workers 8", "365/365 days done"))
    b.agent("", bash("python -m jobs.verify --year 2025", "0 mismatched days"))
    b.agent(
        "Backfill complete:\n\n| metric | value |\n|---|---|\n| days | 365 |\n"
        "| rows | 44,210,118 |\n| mismatches | 0 |\n| wall time | 3 h 12 min |"
    )
    anchor = b.human("  ")
    b.agent("With the history in place, next is the dashboard.", read("dash/sessions.json"))
    b.agent("", edit("dash/sessions.json"))
    b.agent("", tool("Write", {"file_path": "dags/daily_sessions.py"}, "ok"))
    b.agent("", bash("airflow dags test daily_sessions 2026-01-02", "success"))
    p = at(b, anchor)
    assert p is not None and p.silence is Silence.EMPTY
    assert p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_a_bare_ack_after_green_runs_then_new_work() -> None:
    b = B()
    b.human("Make the integration suite pass on the new runner.")
    b.agent("", bash("pytest tests/integration -q", "3 failed, 57 passed", 1))
    b.agent("", edit("tests/integration/conftest.py"))
    b.agent("", bash("pytest tests/integration -q", "60 passed in 41.2s"))
    b.agent("All green now: 60/60 integration tests pass on the new runner (41 s, was 3 min).")
    anchor = b.human("ok")
    b.agent("Next: moving the nightly job to the new runner.", read(".ci/nightly.yml"))
    b.agent("", edit(".ci/nightly.yml"))
    b.agent("", bash("gh workflow run nightly", "created"))
    b.agent("", bash("gh run watch", "completed success"))
    p = at(b, anchor)
    assert p is not None and p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_a_compaction_right_after_failures_is_a_dead_end_compaction() -> None:
    b = B()
    b.human("Get the ARM image to boot in QEMU.")
    b.agent("", bash("qemu-system-aarch64 -M virt -kernel Image", "Kernel panic - VFS", 1))
    b.agent("", bash("qemu-system-aarch64 -M virt -kernel Image -append root=/dev/vda", "panic", 1))
    b.agent("", bash("qemu-system-aarch64 -M virt -drive file=r.img", "timed out after 300 s", 124))
    anchor = b.boundary()
    b.summary("Summary: three boots panicked or timed out.\n\nNext steps: check the kernel config.")
    b.agent(DUMP)
    b.agent("Different approach: virtio built into the kernel.", edit("kconfig/arm64.config"))
    b.agent("", bash("make -j8 Image", "Kernel: arch/arm64/boot/Image is ready"))
    b.agent("", bash("qemu-system-aarch64 -M virt -drive file=r.img", "login:"))
    p = at(b, anchor)
    assert p is not None and p.silence is Silence.COMPACTION
    assert p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_acks_while_the_agent_works_through_the_same_step_are_no_pivots() -> None:
    b = B()
    b.human("Translate every string in src/views to en.json, one folder at a time.")
    b.agent("", read("src/views/cart/index.tsx"), edit("src/views/cart/index.tsx"))
    b.agent("", bash("npx vitest run src/views/cart", "12 passed"))
    b.agent("Cart done. Next folder: checkout.")
    b.human("ok")
    b.agent("", read("src/views/checkout/index.tsx"), edit("src/views/checkout/index.tsx"))
    b.agent("", bash("npx vitest run src/views/checkout", "9 passed"))
    b.agent("Checkout done. Next: profile.")
    b.human("ok")
    b.agent("", read("src/views/profile/index.tsx"), edit("src/views/profile/index.tsx"))
    b.agent("", bash("npx vitest run src/views/profile", "7 passed"))
    b.agent("Profile done.")
    b.human("thanks")
    assert detect_pivots(b.turns) == []
