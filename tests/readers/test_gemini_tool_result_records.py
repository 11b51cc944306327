"""Gemini CLI 0.45-0.47 JSONL chats: tool results are `user` messages, notices are records.

What those CLIs write into `.gemini/tmp/<project>/chats/session-*.jsonl` (the text written
for the test): a header line, a first `$set` whose `messages` checkpoint holds only the
`<session_context>` message, an `error` and an `info` record about the CLI's own update, a
`$set` of `lastUpdated` after every record, each model message written twice (then with
its `toolCalls`), and the results of those calls written again as a `type: "user"`
message of `functionResponse` parts only. An `info` record "Request cancelled." when the
person pressed Esc; an `error` record "[API Error: …]" and an `info` explaining it when a
request failed.

Only the person's own words are the person's: a tool-result message is no turn and so
never an empty silence; the notices are the CLI's, the cancel an interrupt, the API error
an error.
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.detect import PivotConfig
from pivotal.detect.silence import SilenceIndex
from pivotal.model import Role, Session, SessionRef, Silence, TurnFlag
from pivotal.readers import find_sessions
from pivotal.readers.gemini import SPEC

CONTEXT = (
    "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
    "Today's date is Thursday, December 3, 2026.\nMy operating system is: linux\n"
    "The project's temporary directory is: /home/dev/.gemini/tmp/ledger\n"
    "- **Workspace Directories:**\n  - /home/dev/ledger\n</session_context>"
)


class Chat:
    """The lines of one chat, each record followed by the `$set` of `lastUpdated`."""

    def __init__(self) -> None:
        self.second = 0
        self.lines = [
            {
                "sessionId": "7d1f0c2e-5b3a-4e8f-9c61-0a2b4c6d8e10",
                "projectHash": "ledger",
                "startTime": self.stamp(),
                "lastUpdated": self.stamp(),
                "kind": "main",
            },
            {
                "$set": {
                    "messages": [
                        {
                            "id": "ctx",
                            "timestamp": self.stamp(),
                            "type": "user",
                            "content": [{"text": CONTEXT}],
                        }
                    ],
                    "lastUpdated": self.stamp(),
                }
            },
        ]

    def stamp(self) -> str:
        return f"2026-12-03T10:{self.second // 60:02d}:{self.second % 60:02d}.000Z"

    def add(self, ident: str, kind: str, content: object, **more: object) -> None:
        self.second += 3
        self.lines.append(
            {"id": ident, "timestamp": self.stamp(), "type": kind, "content": content}
        )
        self.lines[-1].update(more)
        self.lines.append({"$set": {"lastUpdated": self.stamp()}})

    def model(self, ident: str, text: str, calls: list[tuple[str, str, dict, str]]) -> None:
        """A model message written twice (the second time with its calls), then its results
        as a user message of `functionResponse` parts."""
        tokens = {"input": 9120, "output": 83, "cached": 7613, "thoughts": 69, "tool": 0}
        base = {"thoughts": [], "tokens": tokens, "model": "gemini-3-flash-preview"}
        self.add(ident, "gemini", text, **base)
        if not calls:
            return
        made = []
        responses = []
        for call_id, name, args, output in calls:
            response = {"functionResponse": {"id": call_id, "name": name}}
            response["functionResponse"]["response"] = {"output": output}
            responses.append(response)
            made.append(
                {
                    "id": call_id,
                    "name": name,
                    "args": args,
                    "result": [response],
                    "status": "success",
                    "timestamp": self.stamp(),
                    "resultDisplay": "",
                    "description": json.dumps(args),
                    "displayName": name,
                    "renderOutputAsMarkdown": True,
                }
            )
        self.add(ident, "gemini", text, **base, toolCalls=made)
        self.add(f"{ident}-results", "user", responses)

    def write(self, home: Path) -> Path:
        chats = home / ".gemini" / "tmp" / "ledger" / "chats"
        chats.mkdir(parents=True)
        path = chats / "session-2026-12-03T10-00-7d1f0c2e.jsonl"
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)
        path.write_text(text, encoding="utf-8")
        return path


def _chat() -> Chat:
    chat = Chat()
    chat.add("e0", "error", "Automatic update failed. Please try updating manually:\n\nnpm i -g")
    chat.add("i0", "info", "Gemini CLI update available! 0.45.2 → 0.47.0")
    chat.add("u1", "user", [{"text": "check the ledger folder and fix the failing import test"}])
    chat.model(
        "g1",
        "",
        [
            ("read_file_1", "read_file", {"file_path": "ledger/import.py"}, "import csv\n"),
            ("list_directory_1", "list_directory", {"dir_path": "tests/"}, "test_import.py\n"),
        ],
    )
    chat.model("g2", "", [("run_1", "run_shell_command", {"command": "pytest -q"}, "1 failed")])
    chat.add("c1", "info", "Request cancelled.")
    chat.add("u2", "user", [{"text": "continue"}])
    chat.model("g3", "", [("run_2", "run_shell_command", {"command": "pytest -q -x"}, "1 failed")])
    chat.add("x1", "error", "[API Error: An unknown error occurred.]")
    chat.add("x2", "info", "This request failed. Press F12 for diagnostics, or run /settings.")
    chat.add("u3", "user", [{"text": "continue"}])
    chat.model("g4", "The import test passes now.", [])
    return chat


def _read(path: Path) -> Session:
    (ref,) = find_sessions([path]).refs
    reader = SPEC.open(SessionRef(format="gemini", path=ref.path))
    reader.poll(final=True)
    return reader.session


def test_tool_result_messages_are_no_turns_and_never_silences(tmp_path: Path) -> None:
    session = _read(_chat().write(tmp_path))
    assert session.skipped == []
    users = [t.message_id for t in session.turns if t.role is Role.USER]
    assert users == ["ctx", "u1", "u2", "u3"]  # no "g1-results" etc.
    assert [t.text for t in session.human_turns()] == [
        "check the ledger folder and fix the failing import test",
        "continue",
        "continue",
    ]
    calls = [c for t in session.turns for c in t.tool_calls]
    assert [c.output for c in calls] == ["import csv\n", "test_import.py\n", "1 failed", "1 failed"]
    silences = SilenceIndex(PivotConfig())
    silent = {
        session.turns[i].message_id: silences.silence(session.turns, i)
        for i in range(len(session.turns))
        if silences.silence(session.turns, i) is not None
    }
    assert silent == {"u2": Silence.ACK, "u3": Silence.ACK}


def test_info_and_error_records_read_as_the_clis_notices(tmp_path: Path) -> None:
    session = _read(_chat().write(tmp_path))
    notices = {t.message_id: t for t in session.turns if t.role is Role.SYSTEM}
    assert list(notices) == ["e0", "i0", "c1", "x1", "x2"]
    assert all(t.is_synthetic and not t.is_human for t in notices.values())
    assert notices["c1"].flags & TurnFlag.INTERRUPTED  # Esc: the person's interrupt
    assert notices["x1"].flags & TurnFlag.ERROR and notices["e0"].flags & TurnFlag.ERROR
    assert not notices["x2"].flags & (TurnFlag.ERROR | TurnFlag.INTERRUPTED)
    assert notices["x1"].text == "[API Error: An unknown error occurred.]"
