"""A Claude Code session run through an OpenAI-compatible proxy writes each response line twice.

The proxy's message ids look like `chatcmpl-…` (the model still says `claude-*`), and
Claude Code writes every assistant line twice: the second has a uuid of its own, its
parent is the first, and its `message.id` and content are the same. Read as two lines of
one response, the turn said everything twice ("I will read the file now.\\n\\nI will read
the file now.") and showed each call twice, the first without its result. A line whose
blocks the response already gave adds nothing; Claude Code's own lines (one different
block each) are all kept, and the same words in two responses are two turns' words.
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import PartKind, Role, Session, SessionRef
from pivotal.readers import find_sessions, read_session
from surfaces import in_replayer, through_cli

from . import claude_builders as cb
from . import claude_sidechain_home as side


def _read(path: Path) -> Session:
    return read_session(SessionRef("claude-code", path))


def _agent(session: Session) -> list[str]:
    return [t.text for t in session.turns if t.role is Role.ASSISTANT]


def _again(record: dict, uuid: str) -> dict:
    """The proxy's second copy of an assistant line: a uuid of its own, chained to the first."""
    return {**record, "parentUuid": record["uuid"], "uuid": uuid}


def _proxied_greeting() -> list[dict]:
    first = cb.said("a2", "u1", 2, "chatcmpl-1", "I will read the file now.")
    return [
        cb.user("u1", None, 1, "hello there"),
        first,
        _again(first, "a3"),
        cb.user("u4", "a3", 3, "ok"),
        cb.said("a5", "u4", 4, "chatcmpl-2", "Done."),
    ]


async def test_a_line_the_proxy_wrote_twice_is_said_once_everywhere(tmp_path: Path) -> None:
    path = cb.home(tmp_path, _proxied_greeting())
    session = _read(path)
    assert _agent(session) == ["I will read the file now.", "Done."]
    assert [t.text for t in session.turns if t.is_human] == ["hello there", "ok"]
    assert session.turns[1].usage is not None and session.turns[1].usage.output == 9  # once
    assert session.skipped == []
    cli = through_cli(path)
    said = [
        "\n".join(p["text"] for p in t["parts"] if p["kind"] == "text")
        for t in cli.turns_by("agent")
    ]
    assert said == ["I will read the file now.", "Done."]
    assert cli.person == ["hello there", "ok"]
    shown = await in_replayer(path)
    (reply,) = [text for text in shown.turns if "I will read the file now." in text]
    assert reply.count("I will read the file now.") == 1


def _proxied_call() -> list[dict]:
    """A response of a reasoning line, a text line and a call, each written twice."""
    thinking = {
        "type": "thinking",
        "thinking": "The config loader comes first.",
        "signature": "c2ln",
    }
    lines = [
        cb.assistant("a1", "u1", 2, "chatcmpl-7", thinking),
        cb.said("a3", "a2", 3, "chatcmpl-7", "Reading the config loader."),
        cb.tool_use("a5", "a4", 4, "chatcmpl-7", "call_0_5f1c", "cat ledger/config.py"),
    ]
    records: list[dict] = [cb.user("u1", None, 1, "why does the loader ignore LEDGER_HOME?")]
    for n, line in enumerate(lines):
        records += [line, _again(line, f"a{2 * n + 2}")]
    return records + [
        cb.tool_result("r1", "a6", 5, "call_0_5f1c", "HOME = os.environ.get('HOME')"),
        cb.said("a7", "r1", 6, "chatcmpl-8", "It reads HOME, not LEDGER_HOME."),
        _again(cb.said("a7", "r1", 6, "chatcmpl-8", "It reads HOME, not LEDGER_HOME."), "a8"),
    ]


def test_a_call_written_twice_is_one_call_with_its_result(tmp_path: Path) -> None:
    session = _read(cb.write(tmp_path / "s.jsonl", _proxied_call()))
    response = session.turns[1]
    assert [p.kind for p in response.parts] == [PartKind.REASONING, PartKind.TEXT, PartKind.TOOL]
    (call,) = response.tool_calls
    assert call.call_id == "call_0_5f1c"
    assert call.output == "HOME = os.environ.get('HOME')"
    assert _agent(session) == ["Reading the config loader.", "It reads HOME, not LEDGER_HOME."]
    assert len(session.turns) == 3


def test_claude_codes_own_lines_of_one_response_are_all_kept(tmp_path: Path) -> None:
    """One block per line, every line a different block: nothing is taken twice."""
    thinking = {"type": "thinking", "thinking": "Two files to check.", "signature": "c2lnMQ"}
    records = [
        cb.user("u1", None, 1, "check both loaders"),
        cb.assistant("a1", "u1", 2, "msg_01Loaders", thinking),
        cb.said("a2", "a1", 3, "msg_01Loaders", "Checking the first loader."),
        cb.tool_use("a3", "a2", 4, "msg_01Loaders", "toolu_01A", "cat ledger/config.py"),
        cb.said("a4", "a3", 5, "msg_01Loaders", "And the second."),
        cb.tool_use("a5", "a4", 6, "msg_01Loaders", "toolu_01B", "cat ledger/config.py"),
        cb.tool_result("r1", "a3", 7, "toolu_01A", "first"),
        cb.tool_result("r2", "a5", 7, "toolu_01B", "second"),
    ]
    session = _read(cb.write(tmp_path / "s.jsonl", records))
    (response,) = [t for t in session.turns if t.role is Role.ASSISTANT]
    assert [(p.kind, p.text) for p in response.parts if p.kind is not PartKind.TOOL] == [
        (PartKind.REASONING, "Two files to check."),
        (PartKind.TEXT, "Checking the first loader."),
        (PartKind.TEXT, "And the second."),
    ]
    # the same command twice is two calls: their ids differ
    assert [(c.call_id, c.output) for c in response.tool_calls] == [
        ("toolu_01A", "first"),
        ("toolu_01B", "second"),
    ]


def test_the_same_words_in_two_responses_are_both_kept(tmp_path: Path) -> None:
    records = [
        cb.user("u1", None, 1, "run the tests"),
        cb.said("a1", "u1", 2, "chatcmpl-1", "Running the tests."),
        cb.tool_use("a2", "a1", 3, "chatcmpl-1", "call_1", "pytest -q"),
        cb.tool_result("r1", "a2", 4, "call_1", "1 failed"),
        cb.said("a3", "r1", 5, "chatcmpl-2", "Running the tests."),
        cb.tool_use("a4", "a3", 6, "chatcmpl-2", "call_2", "pytest -q"),
        cb.tool_result("r2", "a4", 7, "call_2", "all passed"),
    ]
    session = _read(cb.write(tmp_path / "s.jsonl", records))
    assert _agent(session) == ["Running the tests.", "Running the tests."]
    assert [c.output for t in session.turns for c in t.tool_calls] == ["1 failed", "all passed"]


# -- sub-agents: written into the session's file (1.0.x) or into their own ------------------


def _proxied(records: list[dict]) -> list[dict]:
    """`records` as a proxy has Claude Code write them: each assistant line twice, with the
    proxy's message ids, and what followed a line chained to its copy."""
    out: list[dict] = []
    copies: dict[str, str] = {}
    for record in records:
        record = json.loads(json.dumps(record))
        if record.get("parentUuid") in copies:
            record["parentUuid"] = copies[record["parentUuid"]]
        out.append(record)
        if record.get("type") == "assistant":
            record["message"]["id"] = record["message"]["id"].replace("msg_", "chatcmpl-")
            copies[record["uuid"]] = f"{record['uuid']}-again"
            out.append(_again(record, copies[record["uuid"]]))
    return out


def _rewrite_proxied(path: Path) -> None:
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    side.write(path, _proxied(records))


def _shown(session: Session) -> list[tuple[str, str, list[tuple[str, str | None]]]]:
    return [
        (t.role.value, t.text, [(c.call_id, c.output) for c in t.tool_calls]) for t in session.turns
    ]


def _children(path: Path) -> tuple[Session, list[Session]]:
    session = read_session(find_sessions([path]).refs[0])
    return session, [read_session(child) for child in session.children]


def test_sub_agents_written_twice_read_once_in_both_layouts(tmp_path: Path) -> None:
    plain, plain_children = _children(side.home(tmp_path / "plain"))
    inline, inline_children = _children(side.home(tmp_path / "inline", _proxied(side.records())))
    folder = side.rebuilt(tmp_path / "folder")
    for file in [folder, *sorted(folder.with_suffix("").joinpath("subagents").glob("*.jsonl"))]:
        _rewrite_proxied(file)
    own, own_children = _children(folder)
    assert len(plain_children) == len(inline_children) == len(own_children) == 4
    for child in (*inline_children, *own_children):
        (twin,) = [c for c in plain_children if c.turns[0].text == child.turns[0].text]
        assert _shown(child) == _shown(twin)
    assert _shown(inline) == _shown(own) == _shown(plain)
