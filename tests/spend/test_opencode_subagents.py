"""opencode: a `task` call's child session (its `parent_id`) is its sub-agent, counted once."""

from __future__ import annotations

from pathlib import Path

from pivotal.readers import find_sessions, read_session
from pivotal.spend.session import session_spend
from pivotal.spend.subagents import read_subagents
from readers.opencode_builders import (
    T0,
    add_session,
    assistant_info,
    create_db,
    put_message,
    put_part,
    text_part,
    user_info,
)

PROMPT = "List the modules that import billing and say which ones write invoices."


def _tokens(total: int) -> dict:
    return {"total": total, "input": total - 100, "output": 100, "reasoning": 0,
            "cache": {"write": 0, "read": 0}}  # fmt: skip


def _db(tmp_path: Path) -> Path:
    db = tmp_path / "opencode.db"
    conn = create_db(db)
    add_session(conn, "ses_parent", title="Billing")
    put_message(conn, "msg_p1", "ses_parent", user_info(T0), T0)
    put_part(conn, "prt_p1", "msg_p1", "ses_parent", text_part("find the invoice writers"), T0)
    info = assistant_info(T0 + 10, "msg_p1", completed=T0 + 90, tokens=_tokens(3000))
    put_message(conn, "msg_p2", "ses_parent", info, T0 + 90)
    task = {
        "type": "tool",
        "tool": "task",
        "callID": "call_task1",
        "state": {
            "status": "completed",
            "input": {"description": "Find writers", "prompt": PROMPT, "subagent_type": "general"},
            "output": "billing/api.py and billing/invoice.py write invoices.",
            "title": "Find writers",
            "metadata": {"summary": []},
            "time": {"start": T0 + 20, "end": T0 + 80},
        },
    }
    put_part(conn, "prt_p2", "msg_p2", "ses_parent", task, T0 + 80)
    add_session(conn, "ses_child", title="Find writers (@general subagent)", parent="ses_parent",
                created=T0 + 21)  # fmt: skip
    put_message(conn, "msg_c1", "ses_child", user_info(T0 + 21), T0 + 21)
    put_part(conn, "prt_c1", "msg_c1", "ses_child", text_part(PROMPT), T0 + 21)
    child = assistant_info(T0 + 30, "msg_c1", completed=T0 + 70, tokens=_tokens(5000))
    put_message(conn, "msg_c2", "ses_child", child, T0 + 70)
    put_part(conn, "prt_c2", "msg_c2", "ses_child", text_part("api.py, invoice.py"), T0 + 70)
    conn.close()
    return db


def test_the_task_calls_child_session_is_its_subagent_counted_once(tmp_path: Path) -> None:
    refs = {r.key: r for r in find_sessions([_db(tmp_path)]).refs}
    parent = read_session(refs["ses_parent"])
    [sub] = read_subagents(parent)
    assert sub.call_id == "call_task1" and sub.ref.key == "ses_child"
    assert (sub.agent_turns, sub.tally.tokens) == (1, 5000)
    spend = session_spend(parent)
    assert (spend.own.tokens, spend.total.tokens) == (3000, 8000)
