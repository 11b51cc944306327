"""Claude Code's API errors read as API errors, and no other system record as a compaction.

When a request fails, Claude Code 2.x writes a `system` record of subtype `api_error` for
each retry, with no `content`: the failure is in its fields (`error`, with the HTTP `status`
and the API's or a proxy's body, or a `cause` such as ECONNRESET; `retryAttempt` of
`maxRetries`, `retryInMs`, `level` "error"). Read with the compaction's fallback text, four
retries showed as four "Conversation compacted" lines. Each is now one short sentence from
its fields, flagged an error as before (the detector reads the flag, not the words). Every
other subtype reads in its own words or not at all. The shapes are those the real files
hold; the text is written for the test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Role, Session, TurnFlag
from pivotal.readers import find_sessions, read_session
from surfaces import in_replayer, through_cli

from . import claude_builders as cb

ASKED = "Write the migration notes up as docs/migrate.md"
NEXT = "thanks, now link it from the README"
GATEWAY = "https://llm-gateway.example.net/v1/messages?beta=true"
LONG = (
    'Relay error: {"detail":"Too many requests on this key; slow down and send again once the '
    'window resets","code":"throttled"} (trace 7f3a9c21e0b84d55a1c2e9f0b3d4a6e8)'
)


def api_error(uuid: str, parent: str, second: int, attempt: int, **fields: Any) -> dict:
    """An `api_error` record in Claude Code 2.1's key order (no `content`, no `isMeta`)."""
    record: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": cb.CWD,
        "sessionId": cb.SESSION,
        "version": "2.1.240",
        "gitBranch": "main",
        "type": "system",
        "subtype": "api_error",
        "level": "error",
    }
    record.update(fields)
    record.update(
        retryInMs=530.2 * 2 ** (attempt - 1),
        retryAttempt=attempt,
        maxRetries=10,
        timestamp=cb.stamp(second),
        uuid=uuid,
    )
    return record


def _http(status: int, body: dict | None = None) -> dict:
    error: dict[str, Any] = {
        "status": status,
        "headers": {"content-type": "application/json", "server": "nginx", "x-request-id": "r-7"},
        "requestID": None,
    }
    if body is not None:
        error["error"] = body
    return {"error": error}


RETRIES = [
    _http(
        500,
        {
            "error": {
                "type": "api_error",
                "message": "gateway: upstream stream stalled: context deadline exceeded",
            }
        },
    ),
    {
        "cause": {"code": "ECONNRESET", "path": GATEWAY, "errno": 0},
        "error": {"cause": {"code": "ECONNRESET", "path": GATEWAY, "errno": 0}},
    },
    {"cause": {}, "error": {"cause": {}}},
    _http(429, {"error": {"message": LONG, "type": "rate_limit_error"}, "type": "error"}),
    _http(502),
]
SAID = [
    "API error 500, retrying (1 of 10): gateway: upstream stream stalled: context deadline "
    "exceeded",
    "API error, retrying (2 of 10): ECONNRESET",
    "API error, retrying (3 of 10)",
    "API error 429, retrying (4 of 10): " + LONG[:99].rstrip() + "…",
    "API error 502, retrying (5 of 10)",
]


def _session() -> list[dict]:
    """The person asks; the agent looks around, then the API fails five times while Claude
    Code retries; the person says "continue" and the agent does the work."""
    errors = [
        api_error(f"e{n}", "r1" if n == 1 else f"e{n - 1}", 10 + 60 * n, n, **fields)
        for n, fields in enumerate(RETRIES, start=1)
    ]
    return [
        cb.user("u1", None, 0, ASKED),
        cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "ls docs"),
        cb.tool_result("r1", "a1", 6, "call_1", "index.md\ninstall.md"),
        *errors,
        cb.user("u2", "e5", 400, "continue"),
        cb.tool_use("a2", "u2", 410, "msg_2", "call_2", "git log --oneline -5 -- db/"),
        cb.tool_result("r2", "a2", 411, "call_2", "4f1e2d0 db: split the ledger table"),
        cb.said("a3", "r2", 480, "msg_3", "docs/migrate.md now walks through the migration."),
        cb.user("u3", "a3", 600, NEXT),
    ]


def _read(path: Path) -> Session:
    return read_session(find_sessions([path]).refs[0])


async def test_each_retry_of_a_failed_request_reads_as_an_api_error(tmp_path: Path) -> None:
    path = cb.home(tmp_path, _session())
    session = _read(path)
    assert session.skipped == []
    lines = [t for t in session.turns if t.role is Role.SYSTEM]
    assert [t.text for t in lines] == SAID
    assert [t.source.record_id for t in lines] == ["e1", "e2", "e3", "e4", "e5"]
    assert all(t.flags == TurnFlag.SYNTHETIC | TurnFlag.ERROR for t in lines)
    assert not any(t.is_compaction or "compacted" in t.text for t in session.turns)
    cli = through_cli(path)
    assert cli.person == [ASKED, "continue", NEXT]
    assert [t["parts"][0]["text"] for t in cli.turns_by("system")] == SAID
    shown = await in_replayer(path)
    for turn in lines:
        drawn = shown.turns[turn.index]
        head = drawn.splitlines()[0]
        assert "■ system" in head and "error" in head
        assert turn.text[:60] in drawn and "compacted" not in drawn


def test_the_go_on_after_the_errors_is_read_as_a_resend_quoting_the_last_error(
    tmp_path: Path,
) -> None:
    """The detector reads these by their flag as before ("stopped by an error"); what it
    quotes of the error (`scan --explain`) is now the error, not a compaction."""
    session = _read(cb.home(tmp_path, _session()))
    found = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    (pivot,) = [p for p in found if session.turns[p.turn].text == "continue"]
    (stopped,) = [s for s in pivot.signals if s.name == "stopped by an error"]
    assert stopped.quotes == ["API error 502, retrying (5 of 10)"]


def system(uuid: str, parent: str, second: int, subtype: str, **fields: Any) -> dict:
    """A `system` record of Claude Code 2.1 with the fields given, in its key order."""
    record: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": cb.CWD,
        "sessionId": cb.SESSION,
        "version": "2.1.240",
        "gitBranch": "main",
        "type": "system",
        "subtype": subtype,
    }
    record.update(fields)
    record.update(timestamp=cb.stamp(second), uuid=uuid)
    return record


def test_every_other_subtype_reads_in_its_own_words_or_not_at_all(tmp_path: Path) -> None:
    """Claude Code's bookkeeping (how long a turn took, the Stop hooks that ran, a session
    start) says nothing; a microcompaction and a subtype pivotal has not met say their own
    `content`; none of them reads as a compaction."""
    records = [
        cb.user("u1", None, 0, ASKED),
        cb.said("a1", "u1", 20, "msg_1", "On it."),
        system(
            "s1",
            "a1",
            21,
            "stop_hook_summary",
            hookCount=1,
            hookInfos=[{"command": "~/.claude/hooks/notify.sh", "durationMs": 41}],
            hookErrors=[],
            preventedContinuation=False,
            stopReason="",
            hasOutput=False,
            level="suggestion",
            toolUseID="9d1c0e7a-44b2-4c1e-8f0a-6b5e3d2c1a90",
        ),
        system("s2", "s1", 21, "turn_duration", durationMs=20512, messageCount=3, isMeta=True),
        system(
            "s3",
            "s2",
            22,
            "session_start",
            durationMs=0,
            isMeta=True,
            level="info",
            content=None,
        ),
        system(
            "s4",
            "s3",
            30,
            "microcompact_boundary",
            content="Context microcompacted",
            isMeta=False,
            level="info",
            microcompactMetadata={"trigger": "auto", "preTokens": 61234, "tokensSaved": 20480},
        ),
        system("s5", "s4", 31, "plan_reminder", content="Plan mode is still on", level="info"),
        system("s6", "s5", 32, "bridge_status", level="info", isMeta=False),
        cb.user("u2", "s6", 60, NEXT),
    ]
    session = _read(cb.home(tmp_path, records))
    lines = [(t.text, t.flags) for t in session.turns if t.role is Role.SYSTEM]
    assert lines == [
        ("Context microcompacted", TurnFlag.SYNTHETIC),
        ("Plan mode is still on", TurnFlag.SYNTHETIC),
    ]
    assert not any(t.is_compaction for t in session.turns)
    assert session.skipped == []


@pytest.mark.parametrize(
    ("subtype", "fields", "said"),
    [
        pytest.param(
            "error",
            {
                "error": {
                    "message": "Rate limited by the API",
                    "status": 429,
                    "formatted": "429 Rate limited by the API",
                    "isNetworkDown": False,
                    "rateLimits": {"retryAfterSeconds": 30},
                }
            },
            "Error 429: Rate limited by the API",
            id="error",
        ),
        pytest.param(
            "api_refusal",
            {
                "apiRefusalCategory": "cyber",
                "apiRefusalExplanation": "The request was declined under the usage policy.",
                "refusedUserMessageUuid": "u1",
                "retractedMessageUuids": ["a1"],
                "source": "api",
                "content": "refusal",
            },
            "The API refused the request (cyber): The request was declined under the usage policy.",
            id="api-refusal",
        ),
    ],
)
def test_an_error_or_a_refusal_says_what_failed_and_is_flagged_an_error(
    tmp_path: Path, subtype: str, fields: dict[str, Any], said: str
) -> None:
    records = [
        cb.user("u1", None, 0, ASKED),
        system("s1", "u1", 5, subtype, level="error", **fields),
        cb.user("u2", "s1", 60, NEXT),
    ]
    session = _read(cb.home(tmp_path, records))
    ((text, flags),) = [(t.text, t.flags) for t in session.turns if t.role is Role.SYSTEM]
    assert (text, flags) == (said, TurnFlag.SYNTHETIC | TurnFlag.ERROR)
