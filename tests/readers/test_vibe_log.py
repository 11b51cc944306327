"""Mistral Vibe session folders of the kind Vibe wrote before its unified store
(`~/.vibe/logs/session/session_<time>_<id>/meta.json` + `messages.jsonl`): read as Vibe,
with the id, working directory, title and model of `meta.json`, and listed.

The folders are written for the tests in Vibe 2's shape (`meta.json` indented by two,
its `config` the whole settings dump; one message a line, as `LLMMessage.model_dump`
writes them: `injected` always present, `message_id` on user and assistant messages).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from pivotal.model import Role, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from pivotal.readers.vibe import SPEC
from surfaces import in_replayer, listed, through_cli

from .realhome import REAL

SID = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"
FOLDER = "session_20260301_101500_3f2a9c1e"


def meta(**extra: Any) -> dict[str, Any]:
    return {
        "session_id": SID,
        "parent_session_id": None,
        "start_time": "2026-03-01T10:15:00.123456+00:00",
        "end_time": "2026-03-01T10:19:42.654321+00:00",
        "git_commit": "4be1c0ffee",
        "git_branch": "main",
        "environment": {"working_directory": "/home/dev/inventory"},
        "username": "dev",
        "loops": [],
        "title": "Fix the stock count",
        "title_source": "auto",
        "experiments": None,
        "stats": {"steps": 4, "session_prompt_tokens": 5200, "session_completion_tokens": 310},
        "total_messages": 9,
        "tools_available": [{"type": "function", "function": {"name": "bash", "parameters": {}}}],
        "config": {
            "active_model": "devstral-2",
            "models": [
                {"name": "mistral-vibe-cli-latest", "provider": "mistral", "alias": "devstral-2"},
                {"name": "devstral-small-latest", "provider": "mistral", "alias": "devstral-small"},
            ],
            "enable_telemetry": False,
        },
        "agent_profile": {"name": "default", "overrides": {}},
        "system_prompt": {"role": "system", "content": "You are Vibe.", "injected": False},
        **extra,
    }


def call(ident: str, command: str, index: int = 0) -> dict[str, Any]:
    arguments = json.dumps({"command": command, "timeout": None})
    return {"id": ident, "index": index, "function": {"name": "bash", "arguments": arguments}}


def tool(ident: str, content: str) -> dict[str, Any]:
    return {
        "role": "tool",
        "content": content,
        "injected": False,
        "name": "bash",
        "tool_call_id": ident,
    }


def messages() -> list[dict[str, Any] | str]:
    failed = (
        "<tool_error>bash failed: Command failed: 'make count'\nReturn code: 2\n"
        "Stderr: make: *** No rule to make target 'count'.</tool_error>"
    )
    return [
        {
            "role": "user",
            "content": "the stock count is off by one",
            "injected": False,
            "message_id": "u-1",
        },
        {
            "role": "assistant",
            "content": "Let me run the counter.",
            "injected": False,
            "reasoning_content": "Try the make target first.",
            "tool_calls": [call("call_a1", "make count")],
            "message_id": "a-1",
        },
        tool("call_a1", failed),
        {
            "role": "assistant",
            "content": "",
            "injected": False,
            "tool_calls": [call("call_a2", "python count.py"), call("call_a3", "rm -rf build", 1)],
            "message_id": "a-2",
        },
        tool("call_a2", "command: python count.py\nstdout: 41\n\nstderr: \nreturncode: 0"),
        tool("call_a3", "<user_cancellation>Tool execution skipped by user.</user_cancellation>"),
        {
            "role": "user",
            "content": "<vibe_warning>The user has manually updated the plan file.</vibe_warning>",
            "injected": True,
            "message_id": "u-2",
        },
        '{"role": "assistant", "content": "trunc',
        {
            "role": "assistant",
            "content": "The count script says 41.",
            "injected": False,
            "message_id": "a-3",
        },
        {"role": "user", "content": "ok", "injected": False, "message_id": "u-3"},
    ]


def write_folder(parent: Path, name: str, info: dict[str, Any], lines: list[Any]) -> Path:
    folder = parent / name
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps(info, indent=2, ensure_ascii=False))
    text = "".join(
        (m if isinstance(m, str) else json.dumps(m, ensure_ascii=False)) + "\n" for m in lines
    )
    (folder / "messages.jsonl").write_text(text)
    return folder


async def test_an_older_vibe_session_folder_reads_as_vibe_on_every_surface(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = write_folder(home / ".vibe" / "logs" / "session", FOLDER, meta(), messages())
    cli = through_cli(folder)
    doc = cli.export
    assert cli.scan["format"] == doc["format"] == "vibe"
    assert cli.scan["session_id"] == SID and doc["session_key"] == f"vibe:{SID}"
    assert (doc["title"], doc["cwd"], doc["model"]) == (
        "Fix the stock count",
        "/home/dev/inventory",
        "mistral-vibe-cli-latest",
    )
    assert doc["started"] == "2026-03-01T10:15:00Z" and doc["ended"] == "2026-03-01T10:19:42Z"
    assert cli.scan["turns"] == doc["turns"] == 6
    assert [(t["role"], t["who"]) for t in doc["transcript"]] == [
        ("user", "person"),
        ("assistant", "agent"),
        ("assistant", "agent"),
        ("user", "injected"),
        ("assistant", "agent"),
        ("user", "person"),
    ]
    assert cli.person == ["the stock count is off by one", "ok"]
    first = doc["transcript"][1]
    assert [p["kind"] for p in first["parts"]] == ["reasoning", "text", "tool"]
    assert first["model"] == "mistral-vibe-cli-latest"
    make = first["parts"][2]["tool"]
    assert (make["name"], make["is_error"], make["exit_code"]) == ("bash", True, 2)
    assert make["input"] == {"command": "make count", "timeout": None}
    assert make["output"].startswith("bash failed: Command failed")
    count, skipped = (p["tool"] for p in doc["transcript"][2]["parts"])
    assert (count["exit_code"], count["is_error"], count["status"]) == (0, False, "completed")
    assert (skipped["status"], skipped["output"]) == (
        "cancelled",
        "Tool execution skipped by user.",
    )
    assert [s["line"] for s in cli.scan["skipped"]] == [8]  # the cut line, reported

    [row] = listed(home)
    assert (row["agent"], row["session_id"], row["title"], row["cwd"]) == (
        "vibe",
        SID,
        "Fix the stock count",
        "/home/dev/inventory",
    )
    assert (row["turns"], row["human_turns"]) == (6, 2)

    shown = await in_replayer(folder)
    assert len(shown.turns) == 6 and len(shown.person) == 2
    assert "the stock count is off by one" in shown.person[0]
    assert "mistral-vibe-cli-latest" in shown.turns[1]


def test_the_folder_and_its_two_files_are_one_session(tmp_path: Path) -> None:
    folder = write_folder(tmp_path, FOLDER, meta(), messages())
    for path in (folder, folder / "meta.json", folder / "messages.jsonl"):
        assert sniff_path(path).name == "vibe", path
        [ref] = find_sessions([path]).refs
        assert (ref.path, ref.session_id, ref.cwd, ref.title) == (
            folder,
            SID,
            "/home/dev/inventory",
            "Fix the stock count",
        ), path


def test_a_folder_started_by_a_compaction_opens_with_its_boundary_and_summary(
    tmp_path: Path,
) -> None:
    context = (
        "You are continuing a trajectory after a context compaction.\n\n"
        "<previous_user_messages>\n<previous_user_message>\nthe stock count is off by one\n"
        "</previous_user_message>\n</previous_user_messages>\n\n"
        "Here is a summary of what has happened so far:\n\n"
        "<compaction_summary>\nThe counter skips the last row.\n</compaction_summary>"
    )
    lines = [
        {"role": "user", "content": context, "injected": True, "message_id": "c-1"},
        {"role": "user", "content": "go on", "injected": False, "message_id": "u-9"},
    ]
    info = meta(parent_session_id="0a0b0c0d-0000-4000-8000-000000000000")
    folder = write_folder(tmp_path, "session_20260301_113000_9d8c7b6a", info, lines)
    turns = read_session(SPEC.refs(folder)[0]).turns
    assert [t.role for t in turns] == [Role.SYSTEM, Role.USER, Role.USER]
    assert turns[0].flags == TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
    assert turns[1].flags == TurnFlag.COMPACTION_SUMMARY | TurnFlag.SYNTHETIC
    assert turns[1].text == "The counter skips the last row."
    assert turns[2].is_human and turns[2].text == "go on"


def test_a_home_with_both_kinds_lists_both(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(REAL / "vibe-short", home)
    write_folder(home / ".vibe" / "logs" / "session", FOLDER, meta(), messages())
    rows = sorted(listed(home), key=lambda r: r["session_id"])
    assert [(r["session_id"], r["cwd"], r["turns"]) for r in rows] == [
        (SID, "/home/dev/inventory", 6),
        ("98c38544-046e-0bf9-0e5d-b48e0e235eee", "/home/dev/work/vibe-short", 11),
    ]
