"""Claude Code's model-switch records are its notices, shown as such.

Claude Code 2.1 writes a `system` record when the model's safeguards refused a request and
it retried on another model (`model_refusal_fallback`: `originalModel`, `fallbackModel`,
`apiRefusalCategory`, `refusedUserMessageUuid`, its own sentence in `content`), when the model
refused and there was no model to fall back to (`model_refusal_no_fallback`: the turn ends
there) and when the model was unavailable and another answered (`model_fallback`, with its
`trigger`). The fields are those public readers of Claude Code transcripts read; the text
is written for the test. Each is a system line in one short sentence, never the person, and
the agent's run after a go-on goes on past it as past any other notice.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Role, Session, TurnFlag
from pivotal.readers import find_sessions, read_session
from surfaces import in_replayer, through_cli

from . import claude_builders as cb

ASKED = "The nightly export job times out on big ledgers; find out why."
PROPOSAL = (
    "The export loads every row into memory before it writes anything. I can stream the rows "
    "in batches of 5,000 instead. Shall I?"
)
NEXT = "thanks, now the import side"


def _switch(uuid: str, parent: str, second: int, subtype: str, **fields: str) -> dict:
    content = {
        "model_refusal_fallback": (
            "Fable 5's safeguards flagged this request. Switched to Opus 4.8 for this session."
        ),
        "model_refusal_no_fallback": "Fable 5's safeguards flagged this request.",
        "model_fallback": "Switched to Sonnet 5 due to high demand for Fable 5",
    }[subtype]
    record = cb.system(uuid, parent, second, subtype, content)
    record.update(level="warning", **fields)
    return record


REFUSED = {
    "originalModel": "claude-fable-5",
    "fallbackModel": "claude-opus-4-8",
    "apiRefusalCategory": "cyber",
    "refusedUserMessageUuid": "u2",
}
SHAPES = [
    pytest.param(
        "model_refusal_fallback",
        REFUSED,
        "claude-fable-5 refused (cyber); Claude Code fell back to claude-opus-4-8",
        id="refusal-fallback",
    ),
    pytest.param(
        "model_refusal_no_fallback",
        {"originalModel": "claude-fable-5", "apiRefusalCategory": "bio"},
        "claude-fable-5 refused (bio); Claude Code had no model to fall back to",
        id="refusal-no-fallback",
    ),
    pytest.param(
        "model_fallback",
        {
            "trigger": "model_not_found",
            "originalModel": "claude-fable-5",
            "fallbackModel": "claude-sonnet-5",
        },
        "Claude Code switched from claude-fable-5 to claude-sonnet-5 (model not found)",
        id="model-fallback",
    ),
    pytest.param(
        "model_refusal_fallback",
        {},
        "Fable 5's safeguards flagged this request. Switched to Opus 4.8 for this session.",
        id="no-fields-its-own-words",
    ),
]


def _session(switch: dict | None, *, where: str = "mid-run") -> list[dict]:
    """The agent proposes a change, the person says "ok", and the agent carries it out over
    three calls; `switch` is written right after the "ok" or between the first two calls."""
    early = switch is not None and where == "after-go-on"
    late = switch is not None and where == "mid-run"
    records = [
        cb.user("u1", None, 0, ASKED),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "time python -m ledger.export --all"),
        cb.tool_result("r1", "a1", 847, "call_1", "real\t14m02.118s"),
        cb.said("a2", "r1", 850, "msg_2", PROPOSAL),
        cb.user("u2", "a2", 900, "ok"),
        *([switch] if early else []),
        cb.tool_use("a3", "s1" if early else "u2", 910, "msg_3", "call_2", "stream_rows.py"),
        cb.tool_result("r3", "a3", 915, "call_2", "rewrote ledger/export.py"),
        *([switch] if late else []),
        cb.tool_use("a4", "s1" if late else "r3", 930, "msg_4", "call_3", "pytest -q"),
        cb.tool_result("r4", "a4", 950, "call_3", "9 passed in 3.10s"),
        cb.tool_use("a5", "r4", 960, "msg_5", "call_4", "git commit -qam 'stream export rows'"),
        cb.tool_result("r5", "a5", 961, "call_4", ""),
        cb.said("a6", "r5", 1100, "msg_6", "The export streams its rows now."),
        cb.user("u3", "a6", 1500, NEXT),
    ]
    return records


def _read(path: Path) -> Session:
    return read_session(find_sessions([path]).refs[0])


@pytest.mark.parametrize(("subtype", "fields", "said"), SHAPES)
async def test_a_model_switch_is_a_system_line(
    tmp_path: Path, subtype: str, fields: dict[str, str], said: str
) -> None:
    path = cb.home(tmp_path, _session(_switch("s1", "r3", 916, subtype, **fields)))
    session = _read(path)
    (turn,) = [t for t in session.turns if t.role is Role.SYSTEM]
    assert (turn.text, turn.source.record_id) == (said, "s1")
    error = subtype == "model_refusal_no_fallback"  # the refusal ended the turn
    assert turn.flags == TurnFlag.SYNTHETIC | (TurnFlag.ERROR if error else TurnFlag.NONE)
    assert session.skipped == [] and session.notices == [] and session.branches == []
    cli = through_cli(path)
    assert cli.person == [ASKED, "ok", NEXT]
    assert [t["parts"][0]["text"] for t in cli.turns_by("system")] == [said]
    shown = await in_replayer(path)
    assert turn.index not in shown.human
    drawn = shown.turns[turn.index]
    assert "■ system" in drawn.splitlines()[0] and said[:40] in drawn


def test_a_switch_with_no_field_it_knows_still_says_what_happened(tmp_path: Path) -> None:
    record = _switch("s1", "r3", 916, "model_refusal_fallback")
    record["content"] = ""
    session = _read(cb.home(tmp_path, _session(record)))
    (turn,) = [t for t in session.turns if t.role is Role.SYSTEM]
    assert turn.text == "the model refused; Claude Code fell back to another model"


def _pivots(session: Session) -> list[tuple[str, str, float, str]]:
    found = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    return [(session.turns[p.turn].text, p.silence.value, p.confidence, p.summary) for p in found]


@pytest.mark.parametrize("where", ["after-go-on", "mid-run"])
@pytest.mark.parametrize("subtype", ["model_refusal_fallback", "model_fallback"])
def test_the_run_after_a_go_on_goes_on_past_a_switch_as_past_a_notice(
    tmp_path: Path, subtype: str, where: str
) -> None:
    """The agent's run after "ok" reaches the person's next message (its three calls), and
    is judged as it is with Claude Code's plain notice ("… limit reached, now using …") in
    the same place: a model switch is no person speaking and no end of the agent's work."""
    parent = "u2" if where == "after-go-on" else "r3"
    fields = REFUSED if subtype == "model_refusal_fallback" else {"trigger": "overloaded"}
    switched = _session(_switch("s1", parent, 916, subtype, **fields), where=where)
    notice = cb.notice("s1", parent, 916, "Claude Fable limit reached, now using Opus 4.8")
    plain = _session(notice, where=where)
    by_switch = _pivots(_read(cb.write(tmp_path / "switch.jsonl", switched)))
    by_notice = _pivots(_read(cb.write(tmp_path / "notice.jsonl", plain)))
    assert by_switch == by_notice
    ((anchor, silence, _, summary),) = by_switch
    assert (anchor, silence) == ("ok", "ack") and "(3 calls)" in summary


def test_a_go_on_after_a_refusal_with_no_fallback_is_a_resend(tmp_path: Path) -> None:
    """The refusal ended the turn as an API error does: the "continue" that follows is read
    as sending the request again (the detector's "stopped by an error")."""
    records = [
        cb.user("u1", None, 0, ASKED),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "time python -m ledger.export --all"),
        cb.tool_result("r1", "a1", 847, "call_1", "real\t14m02.118s"),
        _switch("s1", "r1", 848, "model_refusal_no_fallback", originalModel="claude-fable-5"),
        cb.user("u2", "s1", 900, "continue"),
        cb.tool_use("a2", "u2", 910, "msg_2", "call_2", "python -m cProfile ledger/export.py"),
        cb.tool_result("r2", "a2", 990, "call_2", "load_all: 812.4s of 842.1s"),
        cb.said("a3", "r2", 1000, "msg_3", "Nearly all the time is spent loading every row."),
        cb.user("u3", "a3", 1500, NEXT),
    ]
    session = _read(cb.home(tmp_path, records))
    found = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    (pivot,) = [p for p in found if session.turns[p.turn].text == "continue"]
    assert "stopped by an error" in [s.name for s in pivot.signals]
