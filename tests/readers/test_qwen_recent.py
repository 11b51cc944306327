"""Qwen Code 0.2x JSONL: the records 0.15 did not write, in the shapes 0.24 writes them.

`provenance` on every record; a failing shell command stored as `response.error` with
status `error` and a `resultDisplay` object carrying `exitCode`; a manual `/compress`
whose record says `triggerReason: "manual"` (and is written before the command's own
invocation record) and whose history ends with the "Recently accessed file" context the
CLI re-reads for the model; an `at_command` record before the prompt it expanded; a
background notice stored as a `user` record; a slash command sent to the model, whose
template follows as a `user` record; an automatic compression (`token_limit`); telemetry
and attribution records between them all. Written for this test, not copied.
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import Role, SessionRef, TurnFlag
from pivotal.readers import read_session, sniff_path
from surfaces import in_replayer, listed, through_cli

SESSION = "7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
CWD = "/home/dev/work/shop"
PROMPT = "Run the tests and fix what fails"
AT_PROMPT = "@tests/test_orders.py why does this fail?"
GO_ON = "ok"
FILE_TEXT = "def test_total():\n    assert total([1, 2]) == 3\n"
RESTORED = (
    "Recently accessed file (full current content embedded):\n\n## "
    f"{CWD}/tests/test_orders.py\n\n```\n{FILE_TEXT}```"
)
SUMMARY = (
    "<state_snapshot>\n<overall_goal>Make the order tests pass.</overall_goal>\n"
    "</state_snapshot>\n\nResume the prior task using the summary above. Continue from the"
    " last in-flight step; do not acknowledge the summary, do not re-introduce, do not greet"
    " the user again."
)
TEMPLATE = "Review the change below as a careful senior engineer. Files: src/orders.py"
ACK = "Got it. Thanks for the additional context!"


class Log:
    """Records chained by uuid / parentUuid, as the CLI appends them."""

    def __init__(self) -> None:
        self.records: list[dict] = []

    def add(self, kind: str, provenance: str, **fields: object) -> None:
        n = len(self.records) + 1
        record = {
            "uuid": f"00000000-0000-4000-8000-{n:012d}",
            "parentUuid": self.records[-1]["uuid"] if self.records else None,
            "sessionId": SESSION,
            "timestamp": f"2026-12-03T09:{n:02d}:00.000Z",
            "type": kind,
            "provenance": provenance,
            "cwd": CWD,
            "version": "0.24.4",
            "gitBranch": "main",
            **fields,
        }
        self.records.append(record)

    def user(self, *texts: str, **fields: object) -> None:
        parts = [{"text": t} for t in texts]
        self.add("user", "real_user", message={"role": "user", "parts": parts}, **fields)

    def model(self, text: str, call: dict | None = None) -> None:
        parts: list[dict] = [{"text": text}]
        if call is not None:
            parts.append({"functionCall": call})
        self.add(
            "assistant",
            "assistant_output",
            model="qwen3-coder-plus",
            contextWindowSize=1000000,
            message={"role": "model", "parts": parts},
            usageMetadata={"promptTokenCount": 21000, "candidatesTokenCount": 80},
        )

    def system(self, subtype: str, payload: dict) -> None:
        self.add("system", "system", subtype=subtype, systemPayload=payload)

    def telemetry(self) -> None:
        event = {"event.name": "qwen-code.api_response", "duration_ms": 900, "status_code": 200}
        self.system("ui_telemetry", {"uiEvent": event})

    def shell_result(self, call_id: str, command: str, output: str, code: int) -> None:
        text = (
            f"Command: {command}\nDirectory: (root)\nOutput: {output}\nError: (none)\n"
            f"Exit Code: {code}\nSignal: (none)\nProcess Group PGID: 4242"
        )
        failed = code >= 2
        body = {"error": text} if failed else {"output": text}
        display = {
            "type": "shell_result",
            "version": 1,
            "text": text if failed else output,
            "output": output,
            "directory": CWD,
            "exitCode": code,
            "signal": None,
            "pid": 4242,
            "error": None,
            "outcome": "failed" if failed else "completed",
            "notices": [],
            "truncated": False,
            "outputFiles": [],
        }
        response = {"id": call_id, "name": "run_shell_command", "response": body}
        result = {
            "callId": call_id,
            "status": "error" if failed else "success",
            "executionStatus": "error" if failed else "success",
            "resultDisplay": display,
        }
        if failed:
            result.update(error={}, errorType="shell_execute_error")
        self.add(
            "tool_result",
            "tool_result",
            message={"role": "user", "parts": [{"functionResponse": response}]},
            toolCallResult=result,
        )

    def text(self) -> str:
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records)


def chat() -> str:
    log = Log()
    log.user(PROMPT)
    log.system("attribution_snapshot", {"snapshot": {"type": "attribution-snapshot"}})
    log.telemetry()
    pytest_call = {"id": "call_a1", "name": "run_shell_command", "args": {"command": "pytest -q"}}
    log.model("Running the suite.", pytest_call)
    log.telemetry()
    log.shell_result("call_a1", "pytest -q", "1 failed, 9 passed", 2)
    grep_call = {"id": "call_a2", "name": "run_shell_command", "args": {"command": "grep -c x a"}}
    log.model("Looking for the rounding.", grep_call)
    log.shell_result("call_a2", "grep -c x a", "0", 1)
    log.model("The total rounds early; fixing it next.")
    # /compress: its compression record first, then the command's own records
    manual = {
        "originalTokenCount": 48210,
        "newTokenCount": 6120,
        "newTokenCountIsEstimated": True,
        "compressionStatus": 1,
        "triggerReason": "manual",
    }
    history = [
        {"role": "user", "parts": [{"text": SUMMARY}]},
        {"role": "model", "parts": [{"text": ACK}]},
        {"role": "user", "parts": [{"text": RESTORED}]},
    ]
    log.system(
        "chat_compression",
        {"info": manual, "compressedHistory": history, "completedToolCallIds": ["call_a1"]},
    )
    invocation = {"phase": "invocation", "rawCommand": "/compress", "sentToModel": False}
    log.system("slash_command", {**invocation, "hiddenInvocation": False})
    log.system("slash_command", {"phase": "result", "rawCommand": "/compress"})
    # @path: the record of what was typed, then the expanded prompt
    log.system(
        "at_command",
        {"filesRead": ["tests/test_orders.py"], "status": "success", "userText": AT_PROMPT},
    )
    log.user(
        AT_PROMPT,
        "\n--- Content from referenced files ---",
        f"\nContent from @{CWD}/tests/test_orders.py:\n",
        FILE_TEXT,
        "\n--- End of content ---",
    )
    log.model("It fails because the fixture rounds the total.")
    log.add(
        "user",
        "system",
        subtype="notification",
        message={"role": "user", "parts": [{"text": "Background task lint finished: 0 issues"}]},
        systemPayload={"displayText": "Background task lint finished"},
    )
    # a slash command sent to the model: its template follows as a user record
    log.system(
        "slash_command",
        {"phase": "invocation", "rawCommand": "/review src/orders.py", "sentToModel": True},
    )
    log.system("slash_command", {"phase": "result", "rawCommand": "/review src/orders.py"})
    log.user(TEMPLATE)
    log.model("Reviewed: one rounding bug, now fixed.")
    auto = {
        "originalTokenCount": 720000,
        "newTokenCount": 30000,
        "compressionStatus": 1,
        "triggerReason": "token_limit",
    }
    auto_history = [
        {"role": "user", "parts": [{"text": SUMMARY}]},
        {"role": "model", "parts": [{"text": ACK}]},
    ]
    log.system("chat_compression", {"info": auto, "compressedHistory": auto_history})
    log.user(GO_ON)
    log.model("All tests pass.")
    return log.text()


def qwen_home(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    chats = home / ".qwen" / "projects" / "-home-dev-work-shop" / "chats"
    chats.mkdir(parents=True)
    path = chats / f"{SESSION}.jsonl"
    path.write_text(chat(), encoding="utf-8")
    return home, path


def test_the_reader_tells_the_person_from_what_the_cli_added(tmp_path: Path) -> None:
    _, path = qwen_home(tmp_path)
    assert sniff_path(path).name == "qwen"
    session = read_session(SessionRef(format="qwen", path=path))
    assert session.skipped == []
    assert [t.text for t in session.human_turns()] == [PROMPT, AT_PROMPT, GO_ON]
    injected = [t.text for t in session.turns if t.role is Role.USER and not t.is_human]
    assert injected == [
        SUMMARY,
        RESTORED,
        "/compress",
        "\n--- Content from referenced files ---"
        f"\nContent from @{CWD}/tests/test_orders.py:\n{FILE_TEXT}\n--- End of content ---",
        "Background task lint finished: 0 issues",
        "/review src/orders.py",
        TEMPLATE,
        SUMMARY,
    ]
    pytest_call, grep_call = [c for t in session.turns for c in t.tool_calls]
    assert (pytest_call.status, pytest_call.is_error, pytest_call.exit_code) == ("error", True, 2)
    assert pytest_call.output.startswith("Command: pytest -q") and pytest_call.failed
    assert (grep_call.status, grep_call.is_error, grep_call.exit_code) == ("completed", False, 1)
    manual, auto = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert manual.text == "Context compressed (manual; 48,210 → 6,120 tokens)"
    assert (manual.extra["trigger"], manual.extra["trigger_reason"]) == ("manual", "manual")
    assert auto.text == "Context compressed (auto; 720,000 → 30,000 tokens)"
    assert (auto.extra["trigger"], auto.extra["trigger_reason"]) == ("auto", "token_limit")
    restored = session.turns[manual.index + 3]
    assert restored.text == RESTORED and restored.is_synthetic and not restored.is_human


async def test_every_surface_shows_the_person_and_the_compactions(tmp_path: Path) -> None:
    home, path = qwen_home(tmp_path)
    cli = through_cli(path)
    assert cli.scan["format"] == "qwen" and cli.scan["skipped"] == []
    assert cli.person == [PROMPT, AT_PROMPT, GO_ON]
    compactions = [_text(t) for t in cli.turns_by("compaction")]
    assert compactions == [
        "Context compressed (manual; 48,210 → 6,120 tokens)",
        "Context compressed (auto; 720,000 → 30,000 tokens)",
    ]
    injected = [_text(t) for t in cli.turns_by("injected")]
    assert RESTORED in injected and TEMPLATE in injected
    assert "Background task lint finished: 0 issues" in injected
    rows = listed(home)
    assert [(row["agent"], row["session_id"], row["human_turns"]) for row in rows] == [
        ("qwen", SESSION, 3)
    ]
    shown = await in_replayer(path)
    assert len(shown.person) == 3
    assert PROMPT in shown.person[0] and AT_PROMPT in shown.person[1]
    assert not any("End of content" in text or "Review the change" in text for text in shown.person)
    drawn = "\n".join(shown.turns)
    assert "(manual; 48,210 → 6,120 tokens)" in drawn and "Recently accessed file" in drawn


def _text(turn: dict) -> str:
    return "\n".join(part["text"] for part in turn["parts"] if part["kind"] == "text")
