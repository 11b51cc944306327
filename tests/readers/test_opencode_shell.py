"""opencode: a person's `!command` is the person's command with its output, not the agent's.

opencode stores `!cmd` as two messages: a user message whose only part is the synthetic
text "The following tool was executed by the user", then an assistant message (no model
call: zero tokens, parented to it in 1.x, unparented with an empty model in older
versions) holding one `bash` tool part with the command and its output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pivotal.model import PartKind, Role, SessionRef, TurnFlag
from pivotal.readers import opencode
from pivotal.readers.base import Update
from pivotal.readers.opencode_base import OpencodeReader
from surfaces import in_replayer, listed, through_cli

from .opencode_builders import (
    T0,
    add_session,
    assistant_info,
    create_db,
    put_message,
    put_part,
    text_part,
    user_info,
    write_json,
)

SPEC = opencode.SPEC
MARK = "The following tool was executed by the user"


def marker(**extra: Any) -> dict[str, Any]:
    return text_part(MARK, synthetic=True, **extra)


def run_info(created: int, parent: str | None) -> dict[str, Any]:
    """The assistant message opencode writes for the run: no model call, zero tokens."""
    info = assistant_info(created, parent or "", completed=created + 90)
    info.pop("finish")
    info["tokens"] = {"input": 0, "output": 0, "reasoning": 0, "cache": {"read": 0, "write": 0}}
    if parent is None:
        del info["parentID"]
        info["modelID"] = info["providerID"] = ""
    return info


def shell_part(call_id: str, command: str, output: str | None) -> dict[str, Any]:
    """The bash part of a `!command`: running (output so far in metadata), or completed."""
    if output is None:
        state = {
            "status": "running",
            "time": {"start": T0},
            "input": {"command": command},
            "metadata": {"output": "partial\n", "description": ""},
        }
    else:
        state = {
            "status": "completed",
            "time": {"start": T0, "end": T0 + 90},
            "input": {"command": command},
            "title": "",
            "metadata": {"output": output, "description": ""},
            "output": output,
        }
    return {"type": "tool", "tool": "bash", "callID": call_id, "state": state}


ABORTED_OUTPUT = "building…\n\n<metadata>\nUser aborted the command\n</metadata>"


def shell_session(tmp_path: Path) -> Path:
    """A closed opencode home: a prompt, a reply, two `!command`s (one stopped), a prompt."""
    db = tmp_path / "home" / ".local" / "share" / "opencode" / "opencode.db"
    db.parent.mkdir(parents=True)
    writer = create_db(db)
    add_session(writer, "ses_a", title="Shell commands")
    rows = [
        ("msg_001", user_info(T0), [text_part("add a health endpoint")]),
        ("msg_002", assistant_info(T0 + 10, "msg_001", completed=T0 + 20), [text_part("Added.")]),
        ("msg_003", user_info(T0 + 30), [marker()]),
        (
            "msg_004",
            run_info(T0 + 31, "msg_003"),
            [shell_part("01KVCALL1", "git status --short", " M app.py\n?? notes.txt\n")],
        ),
        ("msg_005", user_info(T0 + 40), [marker(ignored=True)]),
        (
            "msg_006",
            run_info(T0 + 41, "msg_005"),
            [shell_part("01KVCALL2", "make", ABORTED_OUTPUT)],
        ),
        ("msg_007", user_info(T0 + 50), [text_part("now commit it")]),
        ("msg_008", assistant_info(T0 + 60, "msg_007", completed=T0 + 70), [text_part("Done.")]),
    ]
    for n, (mid, info, parts) in enumerate(rows):
        put_message(writer, mid, "ses_a", info, info["time"]["created"])
        for k, part in enumerate(parts):
            put_part(writer, f"prt_{n:03d}_{k}", mid, "ses_a", part, info["time"]["created"])
    writer.close()
    return db


async def test_a_shell_command_is_the_persons_command_on_every_surface(tmp_path: Path) -> None:
    db = shell_session(tmp_path)
    cli = through_cli(db)
    transcript = cli.export["transcript"]
    assert cli.scan["turns"] == cli.export["turns"] == 6
    assert [(t["role"], t["who"]) for t in transcript] == [
        ("user", "person"),
        ("assistant", "agent"),
        ("user", "injected"),  # a command the person ran, like their slash commands
        ("user", "injected"),
        ("user", "person"),
        ("assistant", "agent"),
    ]
    command = transcript[2]
    assert command["preview"] == "!git status --short"
    assert [p["kind"] for p in command["parts"]] == ["text", "tool"]
    call = command["parts"][1]["tool"]
    assert call["name"] == "bash" and call["input"] == {"command": "git status --short"}
    assert call["output"] == " M app.py\n?? notes.txt\n" and call["status"] == "completed"
    stopped = transcript[3]["parts"][1]["tool"]
    assert transcript[3]["preview"] == "!make" and stopped["status"] == "cancelled"
    assert cli.person == ["add a health endpoint", "now commit it"]
    assert MARK not in str(transcript)
    assert not any(
        p["kind"] == "tool" for t in cli.turns_by("agent") for p in t["parts"]
    )  # the agent ran nothing: the person did

    [row] = listed(tmp_path / "home")
    assert (row["agent"], row["turns"], row["human_turns"]) == ("opencode", 6, 2)

    shown = await in_replayer(db)
    assert len(shown.turns) == 6
    assert "!git status --short" in shown.turns[2] and "bash" in shown.turns[2]
    assert "!make" in shown.turns[3]
    assert MARK not in "\n".join(shown.turns)
    assert [t.split("\n")[0] for t in shown.person] == [
        shown.turns[0].split("\n")[0],
        shown.turns[4].split("\n")[0],
    ]


def test_older_opencode_runs_have_no_parent_and_sit_right_after_the_marker(
    tmp_path: Path,
) -> None:
    """Legacy JSON storage: the run names no parent and no model; it follows its marker."""
    storage = tmp_path / "storage"
    write_json(
        storage / "session/prj_1/ses_old.json",
        {"id": "ses_old", "projectID": "prj_1", "title": "Old", "time": {"created": T0}},
    )
    messages = [
        ("msg_001", {"role": "user", "time": {"created": T0}}, [marker()]),
        ("msg_002", run_info(T0 + 1, None), [shell_part("c1", "ls", "a.py\n")]),
        ("msg_003", {"role": "user", "time": {"created": T0 + 2}}, [text_part("go on")]),
        ("msg_004", {**run_info(T0 + 3, None), "modelID": "m"}, [text_part("Going.")]),
    ]
    for mid, info, parts in messages:
        write_json(
            storage / f"message/ses_old/{mid}.json", {"id": mid, "sessionID": "ses_old", **info}
        )
        for k, part in enumerate(parts):
            pid = f"prt_{mid[4:]}_{k}"
            record = {"id": pid, "sessionID": "ses_old", "messageID": mid, **part}
            write_json(storage / f"part/{mid}/{pid}.json", record)
    [ref] = SPEC.refs(storage)
    reader = SPEC.open(ref)
    reader.poll(final=True)
    turns = reader.session.turns
    assert [(t.role, t.text) for t in turns] == [
        (Role.USER, "!ls"),
        (Role.USER, "go on"),
        (Role.ASSISTANT, "Going."),
    ]
    assert turns[0].flags == TurnFlag.SYNTHETIC and turns[0].tool_calls[0].output == "a.py\n"
    assert [t.index for t in turns] == [0, 1, 2]


def test_followed_live_the_run_joins_its_command_as_it_arrives(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    try:
        add_session(writer, "ses_a")
        put_message(writer, "msg_001", "ses_a", user_info(T0), T0)
        put_part(writer, "prt_001", "msg_001", "ses_a", text_part("hi"), T0)
        put_message(writer, "msg_002", "ses_a", user_info(T0 + 10), T0 + 10)
        put_part(writer, "prt_002", "msg_002", "ses_a", marker(ignored=True), T0 + 10)
        reader = SPEC.open(SPEC.refs(db)[0])
        reader.poll()
        assert [t.text for t in reader.session.turns] == ["hi", MARK]  # nothing ran yet

        put_message(writer, "msg_003", "ses_a", run_info(T0 + 11, "msg_002"), T0 + 11)
        put_part(writer, "prt_003", "msg_003", "ses_a", shell_part("c1", "pytest", None), T0 + 12)
        update = reader.poll()
        assert update.first_changed == 1
        turns = reader.session.turns
        assert [t.text for t in turns] == ["hi", "!pytest"]
        [call] = turns[1].tool_calls
        assert call.status == "running" and not call.has_result

        done = shell_part("c1", "pytest", "1 failed\n")
        put_part(writer, "prt_003", "msg_003", "ses_a", done, T0 + 20)
        put_message(writer, "msg_004", "ses_a", user_info(T0 + 30), T0 + 30)
        put_part(writer, "prt_004", "msg_004", "ses_a", text_part("fix it"), T0 + 30)
        assert reader.poll().first_changed == 1
        turns = reader.session.turns
        assert [t.text for t in turns] == ["hi", "!pytest", "fix it"]
        assert [t.index for t in turns] == [0, 1, 2]
        assert turns[1].tool_calls[0].output == "1 failed\n"
        reader.close()
    finally:
        writer.close()


def test_only_the_marker_and_a_tool_only_run_are_joined(tmp_path: Path) -> None:
    """Other synthetic text stays injected text, and a reply with words is the agent's."""
    db = tmp_path / "opencode.db"
    writer = create_db(db)
    try:
        add_session(writer, "ses_a")
        rows = [
            (
                "msg_001",
                user_info(T0),
                [text_part("Continue if you have next steps", synthetic=True)],
            ),
            ("msg_002", run_info(T0 + 1, "msg_001"), [shell_part("c1", "ls", "x\n")]),
            ("msg_003", user_info(T0 + 2), [marker()]),
            (
                "msg_004",
                assistant_info(T0 + 3, "msg_003"),
                [text_part("I ran it."), shell_part("c2", "ls", "x\n")],
            ),
        ]
        for n, (mid, info, parts) in enumerate(rows):
            put_message(writer, mid, "ses_a", info, T0 + n)
            for k, part in enumerate(parts):
                put_part(writer, f"prt_{n}_{k}", mid, "ses_a", part, T0 + n)
    finally:
        writer.close()
    reader = SPEC.open(SPEC.refs(db)[0])
    reader.poll(final=True)
    turns = reader.session.turns
    assert [t.role for t in turns] == [Role.USER, Role.ASSISTANT, Role.USER, Role.ASSISTANT]
    assert turns[0].text == "Continue if you have next steps" and turns[0].is_synthetic
    assert turns[2].text == MARK and turns[3].text == "I ran it."
    assert [p.kind for p in turns[3].parts] == [PartKind.TEXT, PartKind.TOOL]


class _Fed(OpencodeReader):
    """The shared message/part bookkeeping, fed by hand instead of from a store."""

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        return Update(first_changed=self.take_first_changed())


def _records(kinds: list[str]) -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    """Messages in id order: a prompt, a `!command` marker, its run (parented or, as in older
    opencode, not), a reply with words."""
    out: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = []
    for n, kind in enumerate(kinds):
        mid, before = f"msg_{n:03d}", f"msg_{n - 1:03d}"
        if kind == "prompt":
            out.append((mid, user_info(T0 + n), [text_part(f"p{n}")]))
        elif kind == "marker":
            out.append((mid, user_info(T0 + n), [marker()]))
        elif kind in ("run", "old run"):
            parent = before if kind == "run" else None
            out.append((mid, run_info(T0 + n, parent), [shell_part(f"c{n}", f"cmd{n}", "out\n")]))
        else:
            out.append((mid, assistant_info(T0 + n, before), [text_part(f"r{n}")]))
    return out


def _fed(batches: list[list[tuple[str, dict[str, Any], list[dict[str, Any]]]]]) -> list[str]:
    reader = _Fed(SessionRef(format="opencode", path=Path("x"), key="ses_a"))
    for batch in batches:
        for mid, info, parts in batch:
            reader.put_message(mid, info)
            for k, part in enumerate(parts):
                reader.put_part(mid, f"prt_{mid}_{k}", part)
        reader.rebuild()
    turns = reader.session.turns
    assert [t.index for t in turns] == list(range(len(turns)))
    return [f"{t.role.value}:{t.text}:{len(t.tool_calls)}" for t in turns]


@settings(max_examples=150, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(["prompt", "marker", "run", "old run", "reply"]), max_size=9),
    data=st.data(),
)
def test_read_in_any_batches_the_turns_are_those_of_one_read(kinds, data) -> None:
    records = _records(kinds)
    whole = _fed([records])
    order = data.draw(st.permutations(records))
    cuts = sorted(data.draw(st.sets(st.integers(0, len(order)), max_size=4)))
    batches = [order[a:b] for a, b in zip([0, *cuts], [*cuts, len(order)], strict=True)]
    assert _fed(batches) == whole
