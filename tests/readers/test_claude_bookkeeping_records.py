"""Claude Code's bookkeeping records are nobody speaking.

Claude Code 2.1 writes records that are no message: a `queue-operation` for a prompt typed
into its queue (`enqueue` with the prompt's text, then `dequeue`, before the real user
record with the same text), `mode` and `permission-mode` records when a session starts or
the mode is switched, and a `system` record of subtype `model_refusal_fallback` when the
model's safeguards refused and Claude Code carried on with another model. None of them is
the person: the prompt is one turn of the person's, and the agent's run after a go-on goes
on past them to the person's next message. Text written for the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Role, Session, SessionRef
from pivotal.readers import read_session
from surfaces import through_cli

from . import claude_builders as cb

ASKED = "The nightly export job times out on big ledgers; find out why."
PROPOSAL = (
    "The export loads every row into memory before it writes anything. I can stream the rows "
    "in batches of 5,000 instead. Shall I?"
)
NEXT = "thanks, now the import side"


def _mode() -> dict:
    return {"type": "mode", "mode": "normal", "sessionId": cb.SESSION}


def _refusal_fallback(uuid: str, parent: str, second: int) -> dict:
    record = cb.system(
        uuid,
        parent,
        second,
        "model_refusal_fallback",
        "Fable 5's safeguards flagged this request. Switched to Opus 4.8 for this session.",
    )
    record.update(
        level="warning",
        originalModel="claude-fable-5",
        fallbackModel="claude-opus-4-8",
        apiRefusalCategory="cyber",
    )
    return record


def _session(bookkeeping: bool, dequeued: bool = True) -> list[dict]:
    """The agent proposes a change, the person says "ok" (typed into the queue), and the agent
    carries it out over three calls, its model switched after a refusal on the way."""
    queue = [cb.queue_operation(40, "enqueue", "ok")]
    if dequeued:
        queue.append(cb.queue_operation(40, "dequeue"))
    records: list[dict] = [
        cb.user("u1", None, 0, ASKED),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "time python -m ledger.export --all"),
        cb.tool_result("r1", "a1", 847, "call_1", "real\t14m02.118s"),
        cb.said("a2", "r1", 850, "msg_2", PROPOSAL),
        *(queue if bookkeeping else []),
        cb.user("u2", "a2", 900, "ok"),
        *([_mode(), cb.permission_mode()] if bookkeeping else []),
        cb.tool_use("a3", "u2", 910, "msg_3", "call_2", "python tools/stream_rows.py --batch 5000"),
        cb.tool_result("r3", "a3", 915, "call_2", "rewrote ledger/export.py"),
    ]
    if bookkeeping:
        records.append(_refusal_fallback("f1", "r3", 916))
    fallback = cb.tool_use("a4", "f1" if bookkeeping else "r3", 930, "msg_4", "call_3", "pytest -q")
    fallback["message"]["model"] = "claude-opus-4-8"
    return records + [
        fallback,
        cb.tool_result("r4", "a4", 950, "call_3", "9 passed in 3.10s"),
        cb.tool_use("a5", "r4", 960, "msg_5", "call_4", "git commit -qam 'stream export rows'"),
        cb.tool_result("r5", "a5", 961, "call_4", ""),
        cb.said(
            "a6", "r5", 1100, "msg_6", "The export streams its rows now: 2m10s on the big one."
        ),
        cb.user("u3", "a6", 1500, NEXT),
    ]


def _read(path: Path) -> Session:
    return read_session(SessionRef("claude-code", path))


def _pivots(session: Session) -> list[tuple[str, str, str, float, str]]:
    found = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    return [
        (session.turns[p.turn].text, p.kind.value, p.silence.value, p.confidence, p.summary)
        for p in found
    ]


@pytest.mark.parametrize("dequeued", [True, False], ids=["enqueue-dequeue", "enqueue"])
def test_a_prompt_typed_into_the_queue_is_one_turn_of_the_person(
    tmp_path: Path, dequeued: bool
) -> None:
    path = cb.home(tmp_path, _session(bookkeeping=True, dequeued=dequeued))
    session = _read(path)
    assert [t.text for t in session.turns if t.is_human] == [ASKED, "ok", NEXT]
    assert session.skipped == [] and session.branches == [] and session.notices == []
    cli = through_cli(path)
    assert cli.person == [ASKED, "ok", NEXT]
    assert not cli.export["notices"]


def test_mode_records_and_a_model_refusal_fallback_are_nobody_speaking(tmp_path: Path) -> None:
    full = _read(cb.write(tmp_path / "full.jsonl", _session(bookkeeping=True)))
    plain = _read(cb.write(tmp_path / "plain.jsonl", _session(bookkeeping=False)))
    assert [t.text for t in full.turns if t.is_human] == [ASKED, "ok", NEXT]
    assert full.branches == [] and full.notices == []
    # the same turns on the person's side as without those records
    assert [(t.flags, t.text) for t in full.turns if t.role is Role.USER] == [
        (t.flags, t.text) for t in plain.turns if t.role is Role.USER
    ]
    # the "ok" is a go-on, and the agent's run after it reaches the person's next message
    pivots = _pivots(full)
    assert pivots == _pivots(plain)
    ((anchor, _, silence, _, summary),) = pivots
    assert (anchor, silence) == ("ok", "ack")
    assert "(3 calls)" in summary
