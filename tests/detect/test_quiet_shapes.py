"""Silences real sessions are full of that are no pivot, each beside the pivot it resembles.

The shapes: a message the client never sent (aider's bare Enter); a small offer answered
("want me to commit it?" - "yes"); a re-send after an API error or a "continue" after the
person's interrupt, with the same work resuming; an automatic compaction in the middle of
the agent's call loop. A hard gate of PIVOTS.md names itself; the others are the fitted
weights' call, so these tests hold that the telling signal is measured, that the silence
is no pivot at the shipped bar, and that it scores under the pivot it resembles.
Conversations are written for these tests.
"""

from __future__ import annotations

import msgspec

from pivotal.detect import PivotConfig, PivotTracker, detect_pivots
from pivotal.model import Pivot, PivotKind

from .helpers import DUMP, EVERY, B, bash, edit, judge_one, read, tool


def at(pivots: list[Pivot], turn: int) -> Pivot | None:
    return next((p for p in pivots if p.turn == turn), None)


def signal_at_high(b: B, turn: int, name: str) -> tuple[float, str]:
    """(weight, detail) of a signal measured at the silence at `turn`, whatever the bar."""
    p = judge_one(b.turns, turn)
    found = [(s.weight, s.detail) for s in p.signals if s.name == name]
    assert found, [s.name for s in p.signals]
    return found[0]


def gate_of(b: B, turn: int) -> str:
    tracker = PivotTracker(PivotConfig())
    tracker.update(b.turns, 0)
    found = [r.gate for r in tracker.rejections() if r.turn == turn]
    assert found, f"turn {turn} was not turned down"
    return found[0]


def _dead_end(b: B) -> None:
    b.human("Get the PDF worker to render the 300-page report.")
    b.agent("", bash("python -m worker.render big.pdf", "MemoryError", 1))
    b.agent("", bash("python -m worker.render big.pdf --pages 1-100", "Killed", 137))
    b.agent("Both runs died on memory and I have no other idea right now.")


def _recovery(b: B) -> None:
    b.agent(DUMP)
    b.agent("Trying page streaming instead.", edit("worker/render.py"))
    b.agent("", bash("python -m worker.render big.pdf --stream", "rendered 300 pages"))


def test_a_message_never_sent_is_never_a_pivot() -> None:
    b = B()
    _dead_end(b)
    anchor = b.unsent()
    b.human("try streaming the pages")  # the person typed again: the blank reached no one
    _recovery(b)
    assert at(detect_pivots(b.turns), anchor) is None
    assert gate_of(b, anchor) == "unsent"


def test_the_same_silence_sent_is_a_pivot() -> None:
    b = B()
    _dead_end(b)
    anchor = b.human("")
    _recovery(b)
    p = at(detect_pivots(b.turns, EVERY), anchor)
    assert p is not None and p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_a_go_on_after_an_unsent_blank_is_judged_on_its_own() -> None:
    b = B()
    _dead_end(b)
    b.unsent()
    anchor = b.human("ok")
    _recovery(b)
    assert at(detect_pivots(b.turns, EVERY), anchor) is not None


def _finished_change(b: B) -> None:
    b.human("The CSV export drops the last row, fix it.")
    b.agent("", read("export/csv.py"))
    b.agent("Off by one in the loop bound.", edit("export/csv.py"))
    b.agent("", bash("pytest tests/test_csv.py -q", "6 passed"))


def test_a_small_offer_answered_is_no_pivot() -> None:
    b = B()
    _finished_change(b)
    b.agent("Fixed: the loop stopped one row early. Want me to commit and push it?")
    anchor = b.human("yes")
    b.agent("", bash("git commit -am 'csv: keep the last row' && git push", "main -> main"))
    b.agent("Committed and pushed.")
    b.human("thanks, now the XLSX export")
    assert at(detect_pivots(b.turns), anchor) is None
    small = judge_one(b.turns, anchor)
    assert "follow-up offer" in {s.name for s in small.signals}  # after the fix it offers more
    assert small.confidence < _new_phase_offer()[0].confidence


def _new_phase_offer() -> tuple[Pivot, B, int]:
    b = B()
    _finished_change(b)
    b.agent("Fixed, 6 tests pass. Shall I look at the other exporters for the same bug?")
    anchor = b.human("yes")
    b.agent("Next phase: auditing every exporter.", tool("TodoWrite", {"todos": []}))
    for name in ("xlsx", "json", "parquet", "xml"):
        b.agent("", read(f"export/{name}.py"))
    b.agent("", edit("export/xlsx.py"), bash("pytest -q", "31 passed"))
    b.agent("Two more exporters had it; fixed both.")
    b.human("great")
    return judge_one(b.turns, anchor), b, anchor


def test_an_offer_that_opens_a_new_phase_is_still_a_pivot() -> None:
    p, _, _ = _new_phase_offer()
    assert "new phase announced" in {s.name for s in p.signals}


def _hunt(b: B) -> None:
    b.human("Find what prints the banner on every shell command.")
    b.agent("", read("/home/me/.bashrc"))
    b.agent("", bash("bash -x -ic true 2>&1 | grep -n banner", "bash: banner.sh: crashed", 2))
    b.agent("", bash("grep -rl banner /etc/profile.d", "", 1))
    b.agent("Not there either; the hook still fails.", bash("grep -rl banner ~/.config", "", 1))


def test_a_re_send_after_an_api_error_resumes_the_same_work() -> None:
    b = B()
    _hunt(b)
    b.api_error()
    anchor = b.human("retry")
    b.agent("", bash("grep -rl banner ~/.local/bin", "", 1))
    b.agent("", read("/home/me/.profile"))
    b.agent("Still looking: not in the profile files.")
    assert at(detect_pivots(b.turns), anchor) is None
    _, detail = signal_at_high(b, anchor, "resumed after interruption")
    assert "API error" in detail
    assert {"stopped by an error", "resume word"} <= {
        s.name for s in judge_one(b.turns, anchor).signals
    }


def test_continue_after_an_interrupt_that_changes_course_is_a_pivot() -> None:
    # the person stopped a fruitless search; after "continue" the agent drops it and builds
    b = B()
    _hunt(b)
    b.agent("", bash("grep -rl banner /opt", "", 1))
    b.interrupt()
    anchor = b.human("continue")
    b.agent("Writing a PROMPT_COMMAND guard instead of searching further.", edit("shell/quiet.sh"))
    b.agent("", bash("bash -ic 'source shell/quiet.sh; ls'", "file.txt"))
    b.agent("", tool("Write", {"file_path": "shell/README.md"}, "ok"))
    p = at(detect_pivots(b.turns, EVERY), anchor)
    assert p is not None and p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_continue_after_an_interrupt_into_the_same_restart_is_no_pivot() -> None:
    b = B()
    b.human("Bring the tunnel service up.")
    b.agent("", bash("sudo systemctl restart tunnel", "Job failed: timeout", 1))
    b.agent("", edit("/etc/systemd/system/tunnel.service"))
    b.agent("Raised the start timeout.", bash("sudo systemctl restart tunnel", "", None))
    b.interrupt()
    anchor = b.human("continue")
    b.agent("", bash("sudo systemctl daemon-reload && sudo systemctl restart tunnel", "", 1))
    b.agent("", bash("sudo systemctl status tunnel", "activating (start)", 3))
    assert at(detect_pivots(b.turns), anchor) is None
    names = {s.name for s in judge_one(b.turns, anchor).signals}
    assert {"interrupted", "resumed after interruption", "resume word"} <= names


def _long_job(b: B) -> None:
    b.human("Migrate the image store to the new bucket layout.")
    b.agent("", read("store/layout.py"), read("store/bucket_config.yaml"))
    for n in range(3):
        b.agent("", bash(f"python migrate.py --shard {n} --dest images_v2", f"shard {n}: moved"))


def test_a_compaction_in_the_middle_of_a_call_loop_is_no_pivot() -> None:
    b = B()
    _long_job(b)
    b.agent("", bash("python migrate.py --shard 3", "Traceback ...\nTimeoutError", 1))
    b.agent("Shard 3 timed out; retrying it with a longer timeout.")
    b.agent("", bash("python migrate.py --shard 3 --timeout 600", "shard 3: moved"))
    anchor = b.boundary()  # mid-loop: the call came back fine and the agent had said nothing
    b.summary("Summary:\n- shards 0-3 moved\n\nOptional Next Step:\nMove shards 4-9.")
    b.agent("", bash("python migrate.py --shard 4", "shard 4: 1200 moved"))
    b.agent("", bash("python migrate.py --shard 5", "shard 5: 1200 moved"))
    b.agent("", tool("Write", {"file_path": "docs/migration.md"}, "ok"))
    assert at(detect_pivots(b.turns), anchor) is None
    weight, detail = signal_at_high(b, anchor, "mid-task")
    assert weight < 0 and "compaction" in detail


def test_a_compaction_after_the_work_was_done_and_nothing_pending_can_be_a_pivot() -> None:
    b = B()
    _long_job(b)
    b.agent("All shards moved: 3,600 images, 0 errors.", bash("python migrate.py --verify", "OK"))
    anchor = b.boundary()
    b.summary(
        "Summary:\n- all shards moved and verified\n\n"
        "Optional Next Step:\nNo immediate next step: the migration asked for is complete."
    )
    b.agent("Cleaning up the old bucket next.", bash("aws s3 ls s3://legacy-imgs", "PRE a/"))
    b.agent("", bash("aws s3 rm s3://legacy-imgs --recursive --dryrun", "delete: 3600"))
    b.agent("", tool("Write", {"file_path": "ops/cleanup_legacy.sh"}, "ok"))
    b.agent("", bash("bash ops/cleanup_legacy.sh", "removed 3600 objects"))
    p = at(detect_pivots(b.turns, EVERY), anchor)
    assert p is not None and p.kind is PivotKind.CONTINUE_AFTER_MILESTONE


def test_every_silence_turned_down_names_its_gate_and_score() -> None:
    b = B()
    _finished_change(b)
    b.agent("Fixed. Want me to commit it?")
    b.human("yes")
    b.agent("", bash("git commit -am fix", "[main 1a2b] fix"))
    b.agent("Committed.")
    b.human("ok thanks")
    tracker = PivotTracker(PivotConfig())
    tracker.update(b.turns, 0)
    rejected = tracker.rejections()
    assert [r.turn for r in rejected] == [5, 8]
    assert all(r.gate and r.reason for r in rejected)
    assert rejected[0].confidence > 0
    # under the bar, the reason is the strongest counter-signal in its own plain words
    offer = rejected[0]
    assert offer.gate == "below the bar" and "offered more" in offer.reason
    assert not any(ch.isdigit() for ch in offer.reason)
    assert "follow-up offer" in {s.name for s in offer.signals if s.weight < 0}


def _why(b: B, answer: str) -> int:
    b.human("Why did last night's import stop halfway?")
    b.agent("", bash("journalctl -u importer --since yesterday | tail -3", "OOM killed"))
    b.agent("", read("importer/batch.py"))
    b.agent(answer)
    return b.human("ok")


_ANSWER = (
    "It stopped because the batch loader keeps every parsed row of a file in memory: the "
    "4 GB export from the billing system pushed it past the container limit and the kernel "
    "killed it at row 3.1 million. Smaller files never got near the limit."
)


def test_an_answered_why_then_unasked_changes_is_a_pivot_of_its_own_kind() -> None:
    b = B()
    anchor = _why(b, _ANSWER)
    b.agent("I'll make the loader stream rows in chunks.", edit("importer/batch.py"))
    b.agent("", bash("pytest tests/test_batch.py -q", "8 passed"))
    b.agent("", bash("python -m importer --file big.csv --dry-run", "3,900,112 rows ok"))
    p = judge_one(b.turns, anchor)
    assert "initiative after an answer" in {s.name for s in p.signals}
    # the person asked why: the answer put no proposal on the table to approve
    assert p.kind is not PivotKind.IMPLICIT_APPROVAL


def test_an_answered_why_after_which_the_agent_only_looks_around_is_no_pivot() -> None:
    b = B()
    anchor = _why(b, _ANSWER)
    b.agent("", read("importer/config.py"))
    b.agent("", bash("ls -la exports/", "big.csv 4.1G"))
    b.agent("The config has no chunk size setting today.")
    b.human("thanks")
    assert at(detect_pivots(b.turns), anchor) is None


def test_a_request_phrased_as_a_question_is_not_a_why() -> None:
    from pivotal.detect.answers import WHY

    assert WHY.search("Why did the deploy roll back?") and WHY.search("pourquoi ça plante ?")
    assert not WHY.search("Can you make the loader stream rows?")


_REFUSED = "npm ERR! code E403\nnpm ERR! one-time password required"
_TO_PUBLISH = "Summary:\n- 2.4.0 built and versioned\n\nOptional Next Step:\nPublish 2.4.0."
_WAS_REFUSED = "Summary:\n- 2.4.0 built; publishing refused (403)\n\nNext Step:\nPublish 2.4.0."


def _release(b: B) -> None:
    b.human("Cut the 2.4 release of the docs site and publish the package.")
    b.agent("", bash("npm run build", "built 214 pages in 9.1s"))
    b.agent("", edit("CHANGELOG.md"))
    b.agent("", bash("npm version 2.4.0", "v2.4.0"))


def _cut_after_one_refusal(b: B, summary: str) -> int:
    """The release, one refused publish, then the compaction (its anchor) and a re-orientation."""
    _release(b)
    b.agent("", bash("npm publish", _REFUSED, 1))
    anchor = b.boundary()  # the context filled before the agent answered the failure
    b.summary(summary)
    b.agent(DUMP)
    return anchor


def test_a_compaction_right_after_one_failed_call_that_is_run_again_is_no_pivot() -> None:
    b = B()
    anchor = _cut_after_one_refusal(b, _TO_PUBLISH)
    b.agent("Picking up where we were: publishing.", bash("npm publish --otp-from-env", "+ 2.4.0"))
    b.agent("", bash("git tag v2.4.0 && git push --tags", "* [new tag] v2.4.0"))
    b.agent("", bash("ls -la dist/", "docs-2.4.0.tgz"))
    assert at(detect_pivots(b.turns), anchor) is None
    assert "failed step again" in {s.name for s in judge_one(b.turns, anchor).signals}


def test_a_compaction_after_a_run_of_failures_stays_a_dead_end() -> None:
    b = B()
    _release(b)
    b.agent("", bash("npm publish", _REFUSED, 1))
    b.agent("", bash("npm publish --access public", "npm ERR! code E403\nforbidden", 1))
    b.agent("", bash("npm publish --registry https://registry.npmjs.org", "npm ERR! 403", 1))
    anchor = b.boundary()
    b.summary("Summary:\n- publishing fails with 403 three ways\n\nNext Step:\nFind out why.")
    b.agent(DUMP)
    b.agent("Checking the token's scope first.", bash("npm token list", "read-only token"))
    b.agent("", edit(".npmrc"))
    b.agent("", bash("npm publish", "+ 2.4.0"))
    p = at(detect_pivots(b.turns, EVERY), anchor)
    assert p is not None and p.kind is PivotKind.DELEGATION_AFTER_DEAD_END


def test_one_failed_call_then_other_work_after_a_compaction_is_not_this_gate() -> None:
    b = B()
    anchor = _cut_after_one_refusal(b, _WAS_REFUSED)
    b.agent("Leaving the publish for now; updating the site search index.", read("search.json"))
    b.agent("", edit("scripts/index_search.py"))
    b.agent("", bash("python scripts/index_search.py", "indexed 214 pages"))
    assert "failed step again" not in {s.name for s in judge_one(b.turns, anchor).signals}


def test_a_compaction_mid_step_is_a_candidate_until_the_step_is_run_again_live() -> None:
    b = B()
    anchor = _cut_after_one_refusal(b, _TO_PUBLISH)
    retry = b.agent("Publishing again.", bash("npm publish --otp-from-env", "+ 2.4.0"))
    b.agent("", bash("git tag v2.4.0 && git push --tags", "* [new tag] v2.4.0"))
    tracker = PivotTracker(EVERY)
    seen = []
    for n in range(1, len(b.turns) + 1):
        live = tracker.update(b.turns[:n], n - 1)
        batch = detect_pivots(b.turns[:n], EVERY)
        assert msgspec.to_builtins(live) == msgspec.to_builtins(batch), n
        found = at(live, anchor)
        seen.append(found is not None and found.candidate)
    assert not any(seen[:anchor])
    assert seen[retry - 1]  # before the retry is read: a candidate, as any silence at the edge
    assert at(detect_pivots(b.turns), anchor) is None  # the step run again: no pivot
