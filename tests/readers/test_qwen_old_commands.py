"""Qwen Code 0.5 to 0.14: slash commands whose invocation does not say it was sent.

0.2x writes `sentToModel` on a `slash_command` invocation, and the template the CLI sent
follows as a `user` record (`test_qwen_recent`). Older builds write the invocation and
its result without it, and a file command (spec-kit's `/sp.plan …`) still sends its
template: a `user` record written in the same instant (0.1 to 0.2 s later), with the
command's arguments appended where the template left `$ARGUMENTS`. That template is the
CLI's, not the person's; a built-in command (`/stats`) sends nothing, and what the person
types seconds later is theirs. A tool call the person refused (`[Operation Cancelled] …
User did not allow tool call`, status `cancelled`) is the call's result, and the person's
"yes" after it is theirs. Text written for the test.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pivotal.readers import find_sessions, read_session

SESSION = "c85afb93-0000-4000-8000-0000000000a1"
START = datetime(2025, 12, 17, 13, 40, tzinfo=UTC)
ARGS = 'Write a plan for the "Robot Kinematics" handbook. Include: 1. setup 2. chapters'
TEMPLATE = (
    "---\ndescription: Draft the implementation plan from the feature spec.\n---\n\n"
    "## User Input\n\n```text\n$ARGUMENTS\n```\n\nYou **MUST** consider the user input before"
    " proceeding (if not empty).\n\n## Outline\n\n1. Run the setup script and read the spec.\n"
    "2. Fill in the plan template, phase by phase.\n\n" + ARGS
)


class Chat:
    def __init__(self) -> None:
        self.records: list[dict] = []
        self.clock = START

    def add(self, kind: str, seconds: float, **fields: object) -> str:
        self.clock += timedelta(seconds=seconds)
        uuid = f"9b132604-0000-4000-8000-{len(self.records) + 1:012d}"
        self.records.append(
            {
                "uuid": uuid,
                "parentUuid": self.records[-1]["uuid"] if self.records else None,
                "sessionId": SESSION,
                "timestamp": self.clock.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "type": kind,
                "cwd": "D:\\Handbook",
                "version": "0.5.0",
                "gitBranch": "master",
                **fields,
            }
        )
        return uuid

    def user(self, text: str, seconds: float) -> str:
        return self.add("user", seconds, message={"role": "user", "parts": [{"text": text}]})

    def model(self, text: str, call: dict | None = None) -> None:
        parts: list[dict] = [{"text": text}]
        if call is not None:
            parts.append({"functionCall": call})
        self.add("assistant", 4, model="coder-model", message={"role": "model", "parts": parts})

    def command(self, raw: str) -> None:
        for phase in ("invocation", "result"):
            payload: dict = {"phase": phase, "rawCommand": raw}
            if phase == "result":
                payload["outputHistoryItems"] = []
            self.add("system", 0.05, subtype="slash_command", systemPayload=payload)

    def refused(self, call_id: str) -> None:
        response = {"error": "[Operation Cancelled] Reason: User did not allow tool call"}
        part = {"functionResponse": {"id": call_id, "name": "edit", "response": response}}
        result = {"callId": call_id, "status": "cancelled", "resultDisplay": {"fileDiff": "…"}}
        message = {"role": "user", "parts": [part]}
        self.add("tool_result", 30, message=message, toolCallResult=result)

    def write(self, root: Path) -> Path:
        chats = root / ".qwen" / "projects" / "D--Handbook" / "chats"
        chats.mkdir(parents=True)
        path = chats / f"{SESSION}.jsonl"
        lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in self.records]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path


def _chat() -> tuple[Chat, dict[str, str]]:
    chat = Chat()
    ids = {"first": chat.user("hello", 0)}
    chat.model("Hello! How can I help with the handbook?")
    chat.command(f"/sp.plan {ARGS}")
    ids["template"] = chat.user(TEMPLATE, 0.05)
    edit = {"id": "call_e1", "name": "edit", "args": {"file_path": "D:\\Handbook\\plan.md"}}
    chat.model("The plan is written; marking the tasks done next.", edit)
    chat.refused("call_e1")
    ids["yes"] = chat.user("yes", 250)
    chat.model("Marked them done.")
    chat.command("/stats model")
    ids["after_stats"] = chat.user("which chapter is still empty?", 40)
    chat.model("Chapter 3.")
    chat.command("/sp.plan")
    ids["typed_fast"] = chat.user("/sp.plan", 0.1)  # a command sent as typed is no template
    chat.model("Which feature should the plan cover?")
    return chat, ids


def test_a_template_written_with_its_command_is_not_the_person(tmp_path: Path) -> None:
    chat, ids = _chat()
    session = read_session(find_sessions([chat.write(tmp_path)]).refs[0])
    people = [(t.text, t.message_id) for t in session.human_turns()]
    assert people == [
        ("hello", ids["first"]),
        ("yes", ids["yes"]),
        ("which chapter is still empty?", ids["after_stats"]),
        ("/sp.plan", ids["typed_fast"]),
    ]
    (template,) = [t for t in session.turns if t.message_id == ids["template"]]
    assert template.is_synthetic and template.text == TEMPLATE
    (call,) = [c for t in session.turns for c in t.tool_calls]
    assert (call.status, call.is_error) == ("cancelled", True)
    assert call.output == "[Operation Cancelled] Reason: User did not allow tool call"
    assert not session.skipped
