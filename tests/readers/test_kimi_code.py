"""Kimi Code CLI (wire protocol 1.x): sessions read with title, model and turns everywhere.

The journals here are written for the tests in the shape Kimi Code writes them
(`~/.kimi-code/sessions/<work dir key>/<session id>/agents/main/wire.jsonl` beside
`state.json`; flat `{"type", …payload, "time"}` records after a metadata line), with
bookkeeping records among the conversation's as in a real journal.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from pivotal.model import PartKind, Role, TurnFlag
from pivotal.readers import find_sessions, read_session, sniff_path
from pivotal.readers.kimi import SPEC
from surfaces import in_replayer, listed, through_cli

from .realhome import REAL

T = 1_790_000_000_000  # ms, like the journal's "time"
KEY = "wd_shop_0a1b2c3d4e5f"
SID = "session_5e0c1a2b-7d3f-4e9a-b1c2-d3e4f5a6b7c8"


def rec(record_type: str, t: int, **payload: Any) -> dict[str, Any]:
    return {"type": record_type, **payload, "time": T + t}


def user(text: str, t: int, origin: dict[str, Any] | None = None) -> dict[str, Any]:
    message = {
        "role": "user",
        "content": [{"type": "text", "text": text}],
        "toolCalls": [],
        "origin": origin or {"kind": "user"},
    }
    return rec("context.append_message", t, message=message, agentId="main")


def loop(t: int, **event: Any) -> dict[str, Any]:
    return rec("context.append_loop_event", t, event=event, agentId="main")


def step(uuid: str, turn: str, n: int, t: int, *events: dict[str, Any], reason="end_turn"):
    """One model response: begin, its parts and calls, end with its usage."""
    out = [loop(t, type="step.begin", uuid=uuid, turnId=turn, step=n)]
    for k, event in enumerate(events, 1):
        out.append(loop(t + k, turnId=turn, step=n, stepUuid=uuid, **event))
    usage = {"inputOther": 300, "output": 40, "inputCacheRead": 9000, "inputCacheCreation": 0}
    end = {"type": "step.end", "uuid": uuid, "turnId": turn, "step": n, "usage": usage}
    out.append(loop(t + 9, **end, finishReason=reason, messageId=f"chatcmpl-{uuid}"))
    out.append(rec("usage.record", t + 9, model="moonshot/kimi-k2-test", usage=usage))
    return out


def request(t: int) -> dict[str, Any]:
    return rec(
        "llm.request",
        t,
        kind="loop",
        provider="kimi",
        model="kimi-k2-test",
        modelAlias="moonshot/kimi-k2-test",
        toolSelect=False,
        systemPromptHash="0f" * 32,
        toolsHash="1e" * 32,
        messageCount=3,
    )


def journal() -> list[dict[str, Any] | str]:
    """A session: a prompt answered with a failing command, a reminder, a `!command`,
    a manual compaction, a failed turn, plus bookkeeping and two bad lines."""
    bash_fail = "grep: missing.cfg: No such file or directory\nCommand failed with exit code: 2."
    return [
        {"type": "metadata", "protocol_version": "1.4", "created_at": T},
        rec("config.update", 0, profileName="agent", systemPrompt="You are a test agent."),
        rec("tools.set_active_tools", 0, names=["Read", "Bash", "Grep"]),
        rec("config.update", 1, modelAlias="moonshot/kimi-k2-test", thinkingEffort="on"),
        rec("turn.prompt", 10, input=[{"type": "text", "text": "why is the cart empty"}]),
        user("why is the cart empty", 11),
        request(12),
        *step(
            "a1",
            "0",
            1,
            20,
            {"type": "content.part", "part": {"type": "think", "think": "Check the config."}},
            {"type": "content.part", "part": {"type": "text", "text": "Let me look "}},
            {"type": "content.part", "part": {"type": "text", "text": "at the config."}},
            {
                "type": "tool.call",
                "toolCallId": "Bash_0",
                "name": "Bash",
                "args": {"command": "grep cart missing.cfg"},
            },
            {
                "type": "tool.result",
                "toolCallId": "Bash_0",
                "result": {"output": bash_fail, "isError": True},
            },
            reason="tool_use",
        ),
        rec("permission.record_approval_result", 31, toolCallId="Bash_0", toolName="Bash"),
        *step(
            "a2",
            "0",
            2,
            40,
            {
                "type": "content.part",
                "part": {"type": "text", "text": "The config file is missing."},
            },
        ),
        rec("turn.ended", 55, turnId=0, reason="completed", durationMs=45),
        user(
            "<system-reminder>\nThe todo list is stale.\n</system-reminder>",
            60,
            {"kind": "injection", "variant": "todo_list_reminder"},
        ),
        user(
            "<bash-input>\nls -a &amp; pwd\n</bash-input>",
            70,
            {"kind": "shell_command", "phase": "input"},
        ),
        user(
            "<bash-stdout>.\n..\ncart.py\n/home/dev/shop\n</bash-stdout><bash-stderr></bash-stderr>",
            71,
            {"kind": "shell_command", "phase": "output"},
        ),
        rec("kimi.future_event", 72, somethingNew={"a": 1}),
        "{not json",
        {"time": T + 73, "agentId": "main"},
        rec("full_compaction.begin", 80, source="manual"),
        rec(
            "context.apply_compaction",
            90,
            summary="Handoff: the cart is empty because missing.cfg is absent.",
            contextSummary="The conversation so far has been compacted.",
            compactedCount=9,
            tokensBefore=12000,
            tokensAfter=600,
        ),
        rec("full_compaction.complete", 91),
        rec("turn.prompt", 100, input=[{"type": "text", "text": "ok"}]),
        user("ok", 101),
        request(102),
        rec(
            "turn.ended",
            110,
            turnId=1,
            reason="failed",
            error={
                "code": "provider.rate_limit",
                "message": "429 Too Many Requests",
                "retryable": True,
            },
        ),
    ]


def write_home(
    home: Path, lines: list[dict[str, Any] | str], state: dict[str, Any] | None = None
) -> Path:
    folder = home / ".kimi-code" / "sessions" / KEY / SID
    (folder / "agents" / "main").mkdir(parents=True)
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    (folder / "agents" / "main" / "wire.jsonl").write_text(text)
    meta = state or {
        "createdAt": "2026-09-21T14:13:20.000Z",
        "updatedAt": "2026-09-21T14:15:00.000Z",
        "title": "Empty cart",
        "isCustomTitle": False,
        "agents": {"main": {"homedir": str(folder / "agents" / "main"), "type": "main"}},
        "custom": {},
        "workDir": "/home/dev/shop",
        "lastPrompt": "ok",
    }
    (folder / "state.json").write_text(json.dumps(meta, indent=2))
    return folder


async def test_a_kimi_code_session_reads_on_every_surface(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = write_home(home, journal())
    cli = through_cli(folder)
    doc = cli.export
    assert cli.scan["format"] == doc["format"] == "kimi"
    assert (doc["title"], doc["cwd"], doc["model"]) == (
        "Empty cart",
        "/home/dev/shop",
        "kimi-k2-test",
    )
    assert doc["session_key"] == f"kimi:{SID}" and cli.scan["session_id"] == SID
    assert cli.scan["turns"] == doc["turns"] == 9
    assert [(t["role"], t["who"]) for t in doc["transcript"]] == [
        ("user", "person"),
        ("assistant", "agent"),
        ("assistant", "agent"),
        ("user", "injected"),  # the system reminder
        ("user", "injected"),  # the person's !command
        ("system", "compaction"),
        ("user", "compaction summary"),
        ("user", "person"),
        ("system", "system"),  # the failed turn
    ]
    assert cli.person == ["why is the cart empty", "ok"]  # turn.prompt is not shown twice
    first = doc["transcript"][1]
    assert [p["kind"] for p in first["parts"]] == ["reasoning", "text", "tool"]
    assert first["parts"][1]["text"] == "Let me look at the config."
    assert first["model"] == "kimi-k2-test" and first["usage"]["output"] == 40
    call = first["parts"][2]["tool"]
    assert (call["name"], call["is_error"], call["exit_code"]) == ("Bash", True, 2)
    assert call["input"] == {"command": "grep cart missing.cfg"}
    shell = doc["transcript"][4]
    assert shell["preview"] == "!ls -a & pwd"
    assert shell["parts"][1]["tool"]["output"] == ".\n..\ncart.py\n/home/dev/shop\n"
    assert doc["transcript"][5]["parts"][0]["text"] == "Context compacted (manual)"
    assert doc["transcript"][6]["preview"].startswith("Handoff: the cart is empty")
    failed = doc["transcript"][8]
    assert "error" in failed["flags"] and "429 Too Many Requests" in failed["preview"]
    # the bookkeeping records are read past; only the two bad lines are reported
    bad = [n for n, line in enumerate(journal(), 1) if isinstance(line, str) or "type" not in line]
    assert len(bad) == 2 and [s["line"] for s in cli.scan["skipped"]] == bad

    [row] = listed(home)
    assert (row["agent"], row["session_id"], row["title"], row["cwd"]) == (
        "kimi",
        SID,
        "Empty cart",
        "/home/dev/shop",
    )
    assert (row["turns"], row["human_turns"]) == (9, 2)

    shown = await in_replayer(folder)
    assert len(shown.turns) == 9
    assert len(shown.person) == 2 and "why is the cart empty" in shown.person[0]
    assert shown.person[1].rstrip().endswith("ok")
    assert "!ls -a & pwd" in shown.turns[4]


def test_every_path_into_the_session_is_the_same_session(tmp_path: Path) -> None:
    folder = write_home(tmp_path, journal())
    main = folder / "agents" / "main"
    for path in (folder, folder / "state.json", main, main / "wire.jsonl"):
        assert sniff_path(path).name == "kimi", path
        [ref] = find_sessions([path]).refs
        assert (ref.path, ref.session_id, ref.cwd) == (folder, SID, "/home/dev/shop"), path
    sub = folder / "agents" / "agent-0"
    sub.mkdir()
    lines = [
        {"type": "metadata", "protocol_version": "1.4", "created_at": T},
        user("count the files", 5),
        *step(
            "s1", "0", 1, 6, {"type": "content.part", "part": {"type": "text", "text": "3 files."}}
        ),
    ]
    (sub / "wire.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    [ref] = find_sessions([sub / "wire.jsonl"]).refs
    assert (ref.path, ref.session_id) == (sub, f"{SID}/agent-0")
    session = read_session(ref)
    assert [t.text for t in session.turns] == ["count the files", "3 files."]
    assert session.title == "Empty cart"  # the session's facts, the sub-agent's turns
    [ref] = find_sessions([folder]).refs
    assert read_session(ref).turns[0].text == "why is the cart empty"  # the main agent's


def test_newer_state_and_a_journal_followed_as_it_grows(tmp_path: Path) -> None:
    lines = journal()[:6]
    state = {"id": SID, "version": 2, "title": "Cart", "titleKind": "generated", "cwd": "/w"}
    folder = write_home(tmp_path, lines, {**state, "createdAt": T, "updatedAt": T + 5})
    [ref] = SPEC.refs(folder)
    assert ref.cwd == "/w" and ref.started == T / 1000
    reader = SPEC.open(ref)
    assert reader.poll().first_changed == 0
    assert [t.role for t in reader.session.turns] == [Role.USER]
    wire = folder / "agents" / "main" / "wire.jsonl"
    more = step("b1", "0", 1, 20, {"type": "content.part", "part": {"type": "text", "text": "Hi"}})
    with wire.open("a") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in more))
    assert reader.poll().first_changed == 1
    turns = reader.session.turns
    assert [(t.role, t.text) for t in turns] == [
        (Role.USER, "why is the cart empty"),
        (Role.ASSISTANT, "Hi"),
    ]
    assert reader.session.model == "moonshot/kimi-k2-test"  # no request yet: the alias
    assert not reader.session.skipped
    reader.close()


def test_bundled_skill_text_is_not_the_persons_words(tmp_path: Path) -> None:
    message = {
        "role": "user",
        "content": [
            {"type": "text", "text": "<skill name='review'>Review carefully…</skill>"},
            {"type": "text", "text": "check cart.py"},
            {"type": "image_url", "imageUrl": {"url": "data:image/png;base64,AAAA"}},
        ],
        "toolCalls": [],
        "origin": {
            "kind": "user",
            "skillActivations": [{"activationId": "a", "skillName": "review"}],
        },
    }
    lines = [
        {"type": "metadata", "protocol_version": "1.4", "created_at": T},
        rec("context.append_message", 1, message=message),
    ]
    folder = write_home(tmp_path, lines)
    [turn] = read_session(SPEC.refs(folder)[0]).turns
    assert turn.is_human and turn.text == "check cart.py"
    assert [p.kind for p in turn.parts] == [PartKind.ATTACHMENT, PartKind.TEXT, PartKind.ATTACHMENT]


def test_a_cancelled_compaction_is_a_notice_not_a_boundary(tmp_path: Path) -> None:
    lines = [
        {"type": "metadata", "protocol_version": "1.4", "created_at": T},
        user("go", 1),
        rec("full_compaction.begin", 2, source="auto"),
        rec("full_compaction.cancel", 3),
    ]
    folder = write_home(tmp_path, lines)
    turns = read_session(SPEC.refs(folder)[0]).turns
    assert turns[1].role is Role.SYSTEM and turns[1].flags == TurnFlag.SYNTHETIC
    assert turns[1].text == "Compaction cancelled"


def test_the_old_kimi_cli_layout_beside_kimi_code_in_one_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(REAL / "kimi-short", home)
    write_home(home, journal())
    rows = listed(home)
    assert sorted((r["agent"], r["session_id"], r["human_turns"]) for r in rows) == [
        ("kimi", "7d5c057b-0c5b-4d91-b0ef-74705a6a722d", 1),
        ("kimi", SID, 2),
    ]
    old = next(r for r in rows if r["session_id"] != SID)
    assert old["cwd"] == "/home/dev/work/kimi-short" and old["turns"] == 11
