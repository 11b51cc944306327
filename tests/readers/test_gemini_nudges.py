"""Gemini CLI's own "go on" messages: stored as `type: "user"`, never the person.

After an invalid stream (a malformed function call, an empty reply) Gemini CLI 0.11-0.40
sent "System: Please continue." itself; since 0.33 a detected loop sends "System: Potential
loop detected. Details: ..."; the next-speaker check sends "Please continue.". Each is
recorded like a typed prompt. The chats below are written in the CLI's shapes (the legacy
whole-file JSON and the JSONL log), with the ugly parts: the nudge as a list of parts or a
bare string, a `displayContent` carrying the tool results or the person's prompt the CLI
passed along, and a person who really typed "Please continue." (that one is theirs).
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import SessionRef
from pivotal.readers import read_session, sniff_path
from surfaces import in_replayer, listed, through_cli

PROMPT = "Add a dark-mode toggle to the settings page"
TYPED_GO_ON = "Please continue."
LOOP = (
    "System: Potential loop detected. Details: Repetitive tool calls to read_file. Please take"
    " a step back and confirm you're making forward progress. If not, take a step back,"
    " analyze your previous actions and rethink how you're approaching the problem. Avoid"
    " repeating the same tool calls or responses without new results."
)


def _model(ident: str, minute: int, text: str, calls: list | None = None) -> dict:
    message = {
        "id": ident,
        "timestamp": f"2026-03-01T10:{minute:02d}:00.000Z",
        "type": "gemini",
        "content": text,
        "thoughts": [],
        "tokens": {"input": 900, "output": 40, "cached": 0, "thoughts": 0, "tool": 0, "total": 940},
        "model": "gemini-2.5-flash",
    }
    if calls is not None:
        message["toolCalls"] = calls
    return message


def _user(ident: str, minute: int, content: object, display: object = None) -> dict:
    message = {
        "id": ident,
        "timestamp": f"2026-03-01T10:{minute:02d}:30.000Z",
        "type": "user",
        "content": content,
    }
    if display is not None:
        message["displayContent"] = display
    return message


def _tool_response(call_id: str) -> dict:
    return {
        "functionResponse": {
            "id": call_id,
            "name": "replace",
            "response": {"error": "Failed to edit, 0 occurrences found for old_string."},
        }
    }


def messages() -> list[dict]:
    edit = {
        "id": "replace_1772358000000_0",
        "name": "replace",
        "args": {"file_path": "src/Settings.jsx", "old_string": "<h1>", "new_string": "<h1 x>"},
        "result": [_tool_response("replace_1772358000000_0")],
        "status": "error",
        "timestamp": "2026-03-01T10:01:10.000Z",
    }
    return [
        _user("u1", 0, [{"text": PROMPT}]),
        _model("g1", 1, "Editing the settings page.", [edit]),
        {
            "id": "i1",
            "timestamp": "2026-03-01T10:02:00.000Z",
            "type": "info",
            "content": "⚠️  Response stopped due to malformed function call.",
        },
        # the retry nudge, carrying the tool results the CLI had just sent
        _user(
            "u2",
            2,
            [{"text": "System: Please continue."}],
            [_tool_response("replace_1772358000000_0")],
        ),
        _model("g2", 3, "The edit failed; reading the file again."),
        # an older CLI: the nudge as a bare string, no displayContent
        _user("u3", 3, "System: Please continue."),
        _model("g3", 4, "Read it; the heading has a class attribute."),
        # the next-speaker check's nudge, passing the person's prompt along
        _user("u4", 4, [{"text": "Please continue."}], [{"text": PROMPT}]),
        _model("g4", 5, "Done: the toggle is in place. Want a test for it?"),
        # the person typing the same words themselves
        _user("u5", 5, [{"text": TYPED_GO_ON}]),
        _model("g5", 6, "Writing the test."),
        _user("u6", 6, [{"text": LOOP}], [{"text": TYPED_GO_ON}]),
        _model("g6", 7, "Stopping the loop: the test passes."),
    ]


def chat_json() -> str:
    return json.dumps(
        {
            "sessionId": "08a1c2d3-0000-4000-8000-00000000abcd",
            "projectHash": "5" * 64,
            "startTime": "2026-03-01T10:00:00.000Z",
            "lastUpdated": "2026-03-01T10:07:00.000Z",
            "messages": messages(),
        },
        indent=2,
        ensure_ascii=False,
    )


def chat_jsonl() -> str:
    header = {
        "sessionId": "08a1c2d3-0000-4000-8000-00000000abcd",
        "projectHash": "5" * 64,
        "startTime": "2026-03-01T10:00:00.000Z",
        "lastUpdated": "2026-03-01T10:00:00.000Z",
        "kind": "main",
    }
    lines = [header, *messages(), {"$set": {"lastUpdated": "2026-03-01T10:07:00.000Z"}}]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def home_with(tmp_path: Path, name: str, text: str) -> tuple[Path, Path]:
    home = tmp_path / "home"
    chats = home / ".gemini" / "tmp" / ("5" * 64) / "chats"
    chats.mkdir(parents=True)
    path = chats / name
    path.write_text(text, encoding="utf-8")
    return home, path


def test_the_reader_marks_the_cli_nudges_synthetic(tmp_path: Path) -> None:
    _, path = home_with(tmp_path, "session-2026-03-01T10-00-08a1c2d3.json", chat_json())
    assert sniff_path(path).name == "gemini"
    session = read_session(SessionRef(format="gemini", path=path))
    assert [t.text for t in session.human_turns()] == [PROMPT, TYPED_GO_ON]
    nudges = [t for t in session.turns if t.message_id in ("u2", "u3", "u4", "u6")]
    assert len(nudges) == 4
    assert all(t.is_synthetic and not t.is_human for t in nudges)


async def test_legacy_chat_nudges_are_not_the_person_anywhere(tmp_path: Path) -> None:
    home, path = home_with(tmp_path, "session-2026-03-01T10-00-08a1c2d3.json", chat_json())
    cli = through_cli(path)
    assert cli.scan["format"] == "gemini"
    assert cli.person == [PROMPT, TYPED_GO_ON]
    injected = [_text(t) for t in cli.turns_by("injected")]
    assert injected == [
        "System: Please continue.",
        "System: Please continue.",
        "Please continue.",
        LOOP,
    ]
    # a pivot is only ever anchored on the person's own words
    anchors = {p["turn"] for p in cli.scan["pivots"]}
    person_turns = {t["index"] for t in cli.turns_by("person")}
    assert anchors <= person_turns
    rows = listed(home)
    assert [(row["agent"], row["human_turns"]) for row in rows] == [("gemini", 2)]
    shown = await in_replayer(path)
    assert len(shown.person) == 2
    assert PROMPT in shown.person[0] and TYPED_GO_ON in shown.person[1]
    assert not any("System:" in text for text in shown.person)


async def test_jsonl_chat_nudges_are_not_the_person_anywhere(tmp_path: Path) -> None:
    home, path = home_with(tmp_path, "session-2026-03-01T10-00-08a1c2d3.jsonl", chat_jsonl())
    cli = through_cli(path)
    assert cli.person == [PROMPT, TYPED_GO_ON]
    assert len(cli.turns_by("injected")) == 4
    rows = listed(home)
    assert [(row["agent"], row["human_turns"]) for row in rows] == [("gemini", 2)]
    shown = await in_replayer(path)
    assert [PROMPT in shown.person[0], TYPED_GO_ON in shown.person[1]] == [True, True]
    assert len(shown.person) == 2


def _text(turn: dict) -> str:
    return "\n".join(part["text"] for part in turn["parts"] if part["kind"] == "text")
