"""Why a go-on with no agent turn before it is no pivot, said truly on every surface.

A daily user's audit of real sessions found "the session had only just begun: nothing to pivot
from" on go-ons deep into sessions: the person had asked for something, Claude Code wrote
"Claude AI usage limit reached" instead of a reply, and the person said "continue" once the
limit was over. Nothing to pivot from is right; "only just begun" is not. `scan --explain`,
the replayer's line on the turn and the panel's list of silences that are no pivot must say
that the agent had done nothing since the person's last message (only an error came), and
keep "only just begun" for a go-on that opens a session. Claude Code files in the shape it
writes (the limit is a `<synthetic>` reply flagged `isApiErrorMessage`), text written here.
"""

from __future__ import annotations

from pathlib import Path

from cli_helpers import invoke
from pivotal.detect import PivotConfig, PivotTracker
from pivotal.detect.evaluate import Rejection
from pivotal.readers import find_sessions, read_session
from pivotal.tui.pivot_story import no_pivot_text, rejection_text
from readers import claude_builders as cb
from surfaces import in_replayer

START = "the session had only just begun: nothing to pivot from"
NO_REPLY = "the agent had done nothing since your last message (only an error came)"
LIMIT = "Claude AI usage limit reached|1765000000"


def _limit(uuid: str, parent: str, second: int) -> dict:
    record = cb.harness_reply(uuid, parent, second, LIMIT)
    record["isApiErrorMessage"] = True
    return record


def _after_a_limit() -> list[dict]:
    """Eight rounds of work, a request the usage limit cut off, then "continue"."""
    records: list[dict] = []
    parent: str | None = None
    for n in range(8):
        second = 60 * n
        records += [
            cb.user(f"u{n}", parent, second, f"Port the ledger's module {n} to the new API"),
            cb.tool_use(f"a{n}", f"u{n}", second + 5, f"msg_{n}", f"call_{n}", f"pytest -q m{n}"),
            cb.tool_result(f"r{n}", f"a{n}", second + 9, f"call_{n}", f"{n + 2} passed"),
            cb.said(f"d{n}", f"r{n}", second + 12, f"msg_{n}b", f"Module {n} is ported."),
        ]
        parent = f"d{n}"
    records += [
        cb.user("ask", parent, 600, "Now port the exporter and its tests"),
        _limit("limit", "ask", 601),
        cb.user("go", "limit", 1800, "continue"),
        cb.tool_use("a9", "go", 1805, "msg_9", "call_9", "sed -n 1,40p ledger/export.py"),
        cb.tool_result("r9", "a9", 1806, "call_9", "def export(rows):\n    ..."),
        cb.said("d9", "r9", 1810, "msg_9b", "Which format should the exporter write?"),
        cb.user("u10", "d9", 1900, "CSV, like the importer"),
    ]
    return records


def _first_message() -> list[dict]:
    """A session whose first message is a go-on (the person picks up where a /clear left)."""
    return [
        cb.user("go", None, 0, "continue"),
        cb.said("d1", "go", 4, "msg_1", "What should I continue with? I have no earlier context."),
        cb.user("u2", "d1", 60, "The ledger's CSV exporter"),
    ]


def _rejected(path: Path) -> tuple[int, list[Rejection]]:
    """The go-on's turn and every silence turned down (at sensitivity 1: whatever the bar)."""
    session = read_session(find_sessions([path]).refs[0])
    (go,) = [t.index for t in session.turns if t.source.record_id == "go"]
    tracker = PivotTracker(PivotConfig.for_sensitivity(1.0))
    tracker.update(session.turns)
    return go, tracker.rejections()


def test_explain_says_the_agent_did_nothing_after_a_usage_limit(tmp_path: Path) -> None:
    path = cb.home(tmp_path, _after_a_limit())
    go, _ = _rejected(path)
    assert go > 20  # deep into the session
    result = invoke("scan", "--explain", "--sensitivity", "1", path)
    assert result.exit_code == 0, result.output
    (line,) = [ln for ln in result.stdout.splitlines() if ln.strip().startswith(f"#{go + 1},")]
    assert line.endswith(f"ack, confidence 0.00 — no reply: {NO_REPLY}: nothing to pivot from")
    assert "only just begun" not in result.stdout and "session start" not in result.stdout


def test_explain_keeps_only_just_begun_for_a_go_on_that_opens_the_session(
    tmp_path: Path,
) -> None:
    path = cb.home(tmp_path, _first_message())
    result = invoke("scan", "--explain", "--sensitivity", "1", path)
    assert result.exit_code == 0, result.output
    (line,) = [ln for ln in result.stdout.splitlines() if ln.strip().startswith("#1,")]
    assert line.endswith(f"ack, confidence 0.00 — session start: {START}")
    assert "done nothing since" not in result.stdout


def test_the_panel_says_the_agent_did_nothing_after_a_usage_limit(tmp_path: Path) -> None:
    go, rejections = _rejected(cb.home(tmp_path, _after_a_limit()))
    listed = no_pivot_text(0, 0, rejections, False).plain
    assert f"→ turn #{go + 1} a bare go-on: {NO_REPLY}: nothing to pivot from" in listed
    (here,) = [r for r in rejections if r.turn == go]
    explained = rejection_text(here).plain
    assert f"\n{NO_REPLY}: nothing to pivot from." in explained
    assert "only just begun" not in listed + explained


def test_the_panel_keeps_only_just_begun_for_a_go_on_that_opens_the_session(
    tmp_path: Path,
) -> None:
    go, rejections = _rejected(cb.home(tmp_path, _first_message()))
    listed = no_pivot_text(0, 0, rejections, False).plain
    assert f"→ turn #{go + 1} a bare go-on: {START}" in listed


async def test_the_replayer_line_on_the_go_on_says_the_agent_did_nothing(
    tmp_path: Path,
) -> None:
    path = cb.home(tmp_path, _after_a_limit())
    go, _ = _rejected(path)
    shown = await in_replayer(path)
    assert f"· no pivot here: {NO_REPLY}: nothing to pivot from" in shown.turns[go]
    assert not any("only just begun" in turn for turn in shown.turns)


async def test_the_replayer_line_keeps_only_just_begun_at_the_start(tmp_path: Path) -> None:
    path = cb.home(tmp_path, _first_message())
    shown = await in_replayer(path)
    assert f"· no pivot here: {START}" in shown.turns[0]
