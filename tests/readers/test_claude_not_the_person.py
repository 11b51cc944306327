"""Claude Code records that look like the person's turn and are not, or look empty and are not.

Shapes collected from real session files (every text here written for the test):

* a background task or sub-agent reporting back, `<task-notification>` (2.1) or
  `<bash-notification>` (2.0), and an agent-team teammate's `<teammate-message …>`: plain
  `user` records with no `isMeta`, sometimes carrying an API failure;
* 1.0's "(no content)" user record right after a `#` memory input;
* system records with no subtype (a hook ran, "… limit reached, now using Sonnet 4") and
  the `away_summary` recap: the client's notices, shown as such;
* 1.0's manual `/compact`, which wrote no boundary: the summary, then the command;
* a screenshot sent alone: a user record whose content is one image block.

A person's turn ends a pivot's after-window and may be a silence, so none of the first four
may be one; a screenshot is the person's, but never an empty message.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.detect.silence import SilenceIndex, classify_turn
from pivotal.model import PartKind, Role, Silence
from pivotal.readers import find_sessions, read_session
from surfaces import through_cli

from . import claude_builders as cb


def _read(path: Path):
    return read_session(find_sessions([path]).refs[0])


def _persons(path: Path) -> list[str]:
    return [t.text for t in _read(path).human_turns()]


def _in_version(records: list[dict], version: str) -> list[dict]:
    for record in records:
        if "version" in record:
            record["version"] = version
    return records


# -- 1: a background task, a sub-agent or a teammate reporting back ---------------------------

TASK_DONE = (
    "<task-notification>\n<task-id>a7f3c21e9b04d5681</task-id>\n"
    "<tool-use-id>toolu_01Vx3kDa8Qe2WnPz5LmT7rYb</tool-use-id>\n"
    "<output-file>/tmp/claude-1000/-home-dev-src-ledger/6c0d5e2a-8f41-4b7e-9a3c-2d1e0f9b8a71"
    "/tasks/a7f3c21e9b04d5681.output</output-file>\n<status>completed</status>\n"
    '<summary>Agent "Check the importer\'s date parsing" completed</summary>\n'
    "<result>Provider API request failed. (request_id=req_7c1e55d0a2)</result>\n"
    "<usage><total_tokens>18304</total_tokens><tool_uses>3</tool_uses>"
    "<duration_ms>240115</duration_ms></usage>\n</task-notification>"
)
SHELL_FAILED = [
    {
        "type": "text",
        "text": "<bash-notification>\n<shell-id>b5e2d90</shell-id>\n"
        "<output-file>/tmp/claude/-home-dev-src-ledger/tasks/b5e2d90.output</output-file>\n"
        "<status>failed</status>\n"
        '<summary>Background command "Run the importer tests" failed with exit code 1.'
        "</summary>\nRead the output file to retrieve the output.\n</bash-notification>",
    }
]
TEAMMATE_IDLE = (
    '<teammate-message teammate_id="date-fix" color="green">\n'
    '{"type":"idle_notification","from":"date-fix","timestamp":"2026-12-03T10:04:10.515Z",'
    '"idleReason":"available"}\n</teammate-message>'
)
TEAMMATE_DONE = (
    '<teammate-message teammate_id="date-fix" color="green" summary="Dates parse now">\n'
    "All three date formats parse now; tests/test_dates.py passes.\n</teammate-message>\n\n"
    '<teammate-message teammate_id="csv-fix" color="yellow" summary="Shutdown approved">\n'
    '{"type": "shutdown_response", "request_id": "work-complete", "approve": true}\n'
    "</teammate-message>"
)
SESSION_HOOK = (
    "<session-start-hook>Session started at: 2026-12-03 10:00:00\nSession source: startup\n"
    "Git branch: main</session-start-hook>"
)


def _reporting_back(report: object, **extra: object) -> list[dict]:
    """The person approves a plan; the agent hands a part to a helper, which reports back
    in a user record of its own while the agent works on; then the person speaks again."""
    return [
        cb.user("u1", None, 0, "Plan the importer port, then do it"),
        cb.said("a1", "u1", 5, "msg_1", "Plan: 1. dates 2. CSV dialects 3. tests. Go ahead?"),
        cb.user("u2", "a1", 60, "go ahead"),
        cb.tool_use("a2", "u2", 65, "msg_2", "call_1", "npm test -- dates"),
        cb.tool_result("r1", "a2", 70, "call_1", "Tests: 4 failed, 12 passed"),
        cb.queue_operation(240, "enqueue", report if isinstance(report, str) else None),
        cb.user("n1", "r1", 241, report, **extra),
        cb.tool_use("a3", "n1", 250, "msg_3", "call_2", "npm test"),
        cb.tool_result("r2", "a3", 260, "call_2", "Tests: 16 passed"),
        cb.said("a4", "r2", 265, "msg_4", "All three steps are done; 16 tests pass."),
        cb.user("u3", "a4", 400, "thanks, now the exporter"),
    ]


@pytest.mark.parametrize(
    ("report", "extra"),
    [
        (TASK_DONE, {"origin": {"kind": "task-notification"}}),  # 2.1: no isMeta
        (SHELL_FAILED, {}),  # 2.0.7x
        (TEAMMATE_IDLE, {"teamName": "ledger-port"}),
        (TEAMMATE_DONE, {"teamName": "ledger-port"}),
    ],
    ids=["task-notification", "bash-notification", "teammate-idle", "teammate-message"],
)
def test_a_helper_reporting_back_is_no_turn_of_the_persons(
    tmp_path: Path, report: object, extra: dict
) -> None:
    path = cb.home(tmp_path, _reporting_back(report, **extra))
    session = _read(path)
    assert [t.text for t in session.human_turns()] == [
        "Plan the importer port, then do it",
        "go ahead",
        "thanks, now the exporter",
    ]
    (notice,) = [t for t in session.turns if t.source.record_id == "n1"]
    assert notice.role is Role.USER and notice.is_synthetic and not notice.is_human
    assert classify_turn(notice, PivotConfig()) is None
    cli = through_cli(path)
    assert len(cli.person) == 3 and len(cli.turns_by("injected")) == 1
    assert not cli.export["notices"]  # its parent is no rewind either


def test_a_session_start_hook_is_not_the_first_prompt(tmp_path: Path) -> None:
    records = _in_version(
        [
            cb.user("h1", None, 0, SESSION_HOOK),
            cb.user("u1", "h1", 80, "/review the importer"),
            cb.user("u2", "u1", 90, "Port the importer to the new API"),
            cb.said("a1", "u2", 95, "msg_1", "Ported."),
        ],
        "1.0.69",
    )
    assert _persons(cb.home(tmp_path, records)) == [
        "/review the importer",
        "Port the importer to the new API",
    ]


# -- 2: the "(no content)" record after a `#` memory input --------------------------------------

CAVEAT = (
    "Caveat: The messages below were generated by the user while running local commands."
    " DO NOT respond to these messages or otherwise consider them in your response unless"
    " the user explicitly asks you to."
)


def _memory_inputs() -> list[dict]:
    """1.0.35: two `#` memories in a row, each followed by Claude Code's "(no content)"."""
    return _in_version(
        [
            cb.user("u1", None, 0, "Set up the ledger project"),
            cb.said("a1", "u1", 5, "msg_1", "Done: package.json and src/ are in place."),
            cb.user("c1", "a1", 30, CAVEAT, isMeta=True),
            cb.user(
                "m1", "c1", 31, "<user-memory-input>We use yarn, never npm</user-memory-input>"
            ),
            cb.user("e1", "m1", 31, "(no content)"),
            cb.user(
                "m2", "e1", 40, "<user-memory-input>No signature in commits</user-memory-input>"
            ),
            cb.user("e2", "m2", 40, "(no content)"),
            cb.user("u2", "e2", 50, "Now start phase 1"),
            cb.said("a2", "u2", 55, "msg_2", "Phase 1 started."),
        ],
        "1.0.35",
    )


def test_no_content_after_a_memory_input_is_claude_codes_not_an_empty_message(
    tmp_path: Path,
) -> None:
    path = cb.home(tmp_path, _memory_inputs())
    session = _read(path)
    assert [t.text for t in session.human_turns()] == [
        "Set up the ledger project",
        "Now start phase 1",
    ]
    placeholders = [t for t in session.turns if t.text == "(no content)"]
    assert len(placeholders) == 2
    assert all(t.is_synthetic and not t.is_human for t in placeholders)
    silences = SilenceIndex(PivotConfig())
    assert [silences.silence(session.turns, i) for i in range(len(session.turns))] == [None] * len(
        session.turns
    )


def test_no_content_the_person_typed_elsewhere_stays_theirs(tmp_path: Path) -> None:
    """Only the record right after a memory input is Claude Code's placeholder."""
    records = _memory_inputs()
    records.insert(2, cb.user("t1", "a1", 20, "(no content)"))
    records[3]["parentUuid"] = "t1"
    assert "(no content)" in _persons(cb.home(tmp_path, records))


# -- 3: notices and the recap Claude Code writes into the transcript ----------------------------

HOOK_RAN = (
    "\x1b[1mPostToolUse:Edit\x1b[22m [npx prettier --write src/importer.ts] completed"
    " successfully: src/importer.ts 41ms"
)
SWITCHED = "Claude Opus 4 limit reached, now using Sonnet 4"
CANCELLED = "PostToolUse:Edit hook execution cancelled"


def _notices() -> list[dict]:
    """1.0.51: a hook's notice after an edit, the model switched at its limit mid-work."""
    edit = {
        "type": "tool_use",
        "id": "call_1",
        "name": "Edit",
        "input": {"file_path": "src/importer.ts", "old_string": "row", "new_string": "_row"},
    }
    return _in_version(
        [
            cb.user("u1", None, 0, "Fix the lint warning in the importer"),
            cb.assistant("a1", "u1", 4, "msg_1", edit),
            cb.tool_result("r1", "a1", 5, "call_1", "The file src/importer.ts has been updated."),
            cb.notice("s1", "r1", 5, HOOK_RAN, call="call_1"),
            cb.notice("s2", "s1", 6, SWITCHED, level="warning"),
            cb.notice("s3", "s2", 7, CANCELLED, level="warning", call="call_1"),
            cb.said("a2", "s3", 9, "msg_2", "The warning is gone."),
            cb.user("u2", "a2", 30, "ok"),
        ],
        "1.0.51",
    )


def test_notices_without_a_subtype_are_shown_as_the_clients(tmp_path: Path) -> None:
    path = cb.home(tmp_path, _notices())
    session = _read(path)
    shown = [t for t in session.turns if t.role is Role.SYSTEM]
    assert [t.source.record_id for t in shown] == ["s1", "s2", "s3"]
    assert [t.text for t in shown] == [HOOK_RAN, SWITCHED, CANCELLED]
    assert all(t.is_synthetic and t.model is None for t in shown)
    agent = [t.text for t in session.turns if t.role is Role.ASSISTANT]
    assert agent == ["", "The warning is gone."]
    assert [t.text for t in session.human_turns()] == ["Fix the lint warning in the importer", "ok"]
    cli = through_cli(path)
    said = [" ".join(p["text"] for p in t["parts"]) for t in cli.turns_by("system")]
    assert "PostToolUse:Edit" in said[0] and "\x1b" not in said[0]
    assert said[1:] == [SWITCHED, CANCELLED]


def test_a_system_record_of_no_subtype_and_no_text_makes_no_turn(tmp_path: Path) -> None:
    empty = cb.notice("s4", "r1", 5, "")
    empty["content"] = None
    records = _notices()
    records.insert(3, empty)
    session = _read(cb.home(tmp_path, records))
    assert session.skipped == []
    assert [t.source.record_id for t in session.turns if t.role is Role.SYSTEM] == [
        "s1",
        "s2",
        "s3",
    ]


# -- 4: a manual /compact in 1.0, which wrote no boundary ---------------------------------------


def _compacted_by_hand() -> list[dict]:
    """1.0.21: the summary (no boundary record), the caveat, then the /compact command (no
    slash in its name) and its output; the person's next task after it."""
    summary = (
        "This session is being continued from a previous conversation that ran out of context."
        " The conversation is summarized below:\nAnalysis:\nThe importer was ported and its"
        " 12 tests pass.\n\nPending Tasks:\nNone."
    )
    command = (
        "<command-name>compact</command-name>\n          <command-message>compact"
        "</command-message>\n          <command-args></command-args>"
    )
    stdout = "<local-command-stdout>Compacted. ctrl+r to see full summary</local-command-stdout>"
    return _in_version(
        [
            cb.user("u1", None, 0, "Port the importer to the new API and test it"),
            cb.tool_use("a1", "u1", 5, "msg_1", "call_1", "pytest -q tests/test_import.py"),
            cb.tool_result("r1", "a1", 9, "call_1", "12 passed in 0.41s"),
            cb.said("a2", "r1", 12, "msg_2", "The importer is ported: all 12 tests pass."),
            cb.user("s1", "a2", 60, summary, isCompactSummary=True),
            cb.user("c1", "s1", 61, CAVEAT, isMeta=True),
            cb.user("c2", "c1", 55, command),
            cb.user("c3", "c2", 61, stdout),
            cb.said("a3", "c3", 70, "msg_3", "Next: the exporter. I'll start with JSON."),
            cb.tool_use("a4", "a3", 80, "msg_4", "call_2", "touch ledger/export_json.py"),
            cb.tool_result("r2", "a4", 90, "call_2", ""),
            cb.tool_use("a5", "r2", 150, "msg_5", "call_3", "pytest -q"),
            cb.tool_result("r3", "a5", 200, "call_3", "14 passed in 0.52s"),
            cb.said("a6", "r3", 270, "msg_6", "The JSON exporter skeleton is in place."),
            cb.user("u2", "a6", 400, "Now update the README"),
        ],
        "1.0.21",
    )


def test_a_manual_compact_without_a_boundary_is_the_persons(tmp_path: Path) -> None:
    session = _read(cb.home(tmp_path, _compacted_by_hand()))
    ids = [t.source.record_id for t in session.turns]
    assert ids.index("c2") == ids.index("s1") - 1  # the command, then what it caused
    assert [t.index for t in session.turns] == list(range(len(session.turns)))
    assert [t.text for t in session.human_turns()] == [
        "Port the importer to the new API and test it",
        "Now update the README",
    ]
    pivots = detect_pivots(session.turns, PivotConfig.for_sensitivity(1.0), possible=True)
    assert [p.silence for p in pivots] == [Silence.COMPACTION]
    assert pivots[0].summary.startswith("You compacted the context")


# -- 5: a screenshot sent alone ------------------------------------------------------------------


def _screenshot(uuid: str, parent: str, second: int, size: int) -> bytes:
    """An image-only user record in 2.0.76 key order (the image's bytes make the line big)."""
    data = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * (size // 256)).decode()
    record = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": cb.CWD,
        "sessionId": cb.SESSION,
        "version": "2.0.76",
        "gitBranch": "main",
        "slug": "quiet-painting-heron",
        "type": "user",
        "message": {
            "role": "user",
            "content": [
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": data},
                }
            ],
        },
        "uuid": uuid,
        "timestamp": cb.stamp(second),
        "imagePasteIds": [1],
    }
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize("size", [600, 40_000], ids=["small", "past-the-big-line-size"])
def test_a_screenshot_sent_alone_is_the_person_sending_content(tmp_path: Path, size: int) -> None:
    records = [
        cb.user("u1", None, 0, "Make the header sticky"),
        cb.said("a1", "u1", 5, "msg_1", "The header is sticky now."),
        cb.user("u2", "a1", 60, "the header overlaps the menu on mobile"),
        _screenshot("i1", "u2", 61, size),
        cb.said("a2", "i1", 70, "msg_2", "I see it: the menu needs a z-index."),
    ]
    session = _read(cb.home(tmp_path, records))
    (shot,) = [t for t in session.turns if t.source.record_id == "i1"]
    assert shot.is_human and [p.kind for p in shot.parts] == [PartKind.ATTACHMENT]
    assert shot.parts[0].text.startswith("[image/png")
    assert classify_turn(shot, PivotConfig()) is None  # content, never an empty message
    silences = SilenceIndex(PivotConfig())
    assert all(silences.silence(session.turns, i) is None for i in range(len(session.turns)))
