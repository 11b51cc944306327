"""What the person said in a Claude Code session, as they typed it, on every surface.

Shapes other tools' test suites and this month's real files showed pivotal reading wrong
(issue 31: 7-11), each in a file written for the test: an ack sent beside an IDE note, a
prompt queued while the agent was busy, a prompt that starts with a system reminder, a
malformed record followed by a valid one with its uuid, and the recap Claude Code writes
for a person coming back. Each is checked through `scan --json`, `export --to json`,
`sessions --json` and the replayer (`surfaces`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pivotal.detect import PivotConfig
from pivotal.detect.silence import classify_turn
from pivotal.model import Silence
from pivotal.readers import find_sessions, read_session
from pivotal.readers.claude_code import SPEC
from surfaces import CliView, in_replayer, listed, through_cli

from . import claude_builders as cb
from .fuzzing import FUZZ_SETTINGS, mutated, read_everything


def _texts(cli: CliView, who: str) -> list[str]:
    return [
        "\n".join(p["text"] for p in t["parts"] if p["kind"] == "text") for t in cli.turns_by(who)
    ]


def _who(cli: CliView) -> list[str]:
    return [turn["who"] for turn in cli.export["transcript"]]


# -- 7: an ack sent beside an IDE note -------------------------------------------------------

OPENED = (
    "<ide_opened_file>The user opened the file /home/dev/src/ledger/importer.py in the IDE."
    " This may or may not be related to the current task.</ide_opened_file>"
)
SELECTED = (
    "<ide_selection>The user selected the lines 40 to 44 from /home/dev/src/ledger/importer.py:\n"
    "    for row in reader:\n        if not row:\n            continue\n\n"
    "This may or may not be related to the current task.</ide_selection>"
)


def _stopped_midway(ack_record: dict) -> list[object]:
    """The agent stops halfway through a fix; the person says only 'go on' (with a note)."""
    return [
        cb.user("u1", None, 0, "Make the importer skip blank rows"),
        cb.tool_use("a1", "u1", 3, "msg_1", "call_1", "pytest -q tests/test_importer.py"),
        cb.tool_result("r1", "a1", 6, "call_1", "2 failed, 14 passed"),
        cb.said("a2", "r1", 9, "msg_2", "Two tests still fail: the CSV dialect is next."),
        ack_record,
        cb.tool_use("a3", ack_record["uuid"], 43, "msg_3", "call_2", "pytest -q"),
        cb.tool_result("r2", "a3", 46, "call_2", "16 passed"),
        cb.said("a4", "r2", 50, "msg_4", "All 16 pass now."),
    ]


@pytest.mark.parametrize(
    ("note", "ack"), [(OPENED, "继续"), (SELECTED, "Keep going"), (OPENED, "ok go on")]
)
async def test_an_ack_beside_an_ide_note_is_the_persons_ack(
    tmp_path: Path, note: str, ack: str
) -> None:
    path = cb.home(tmp_path, _stopped_midway(cb.user("u2", "a2", 40, cb.text_blocks(note, ack))))
    cli = through_cli(path)
    assert cli.person == ["Make the importer skip blank rows", ack]
    assert _texts(cli, "injected") == [note]
    who = _who(cli)
    assert who[who.index("injected") + 1] == "person"  # the note comes with the ack, before it
    assert listed(tmp_path)[0]["human_turns"] == 2
    session = read_session(find_sessions([path]).refs[0])
    (person,) = [t for t in session.turns if t.is_human and t.text == ack]
    assert classify_turn(person, PivotConfig()) is Silence.ACK
    shown = await in_replayer(path)
    assert len(shown.person) == 2 and ack in shown.person[1]
    assert "injected" in shown.turns[shown.human[1] - 1]
    assert (
        "opened the file" in shown.turns[shown.human[1] - 1]
        or "selected" in shown.turns[shown.human[1] - 1]
    )


async def test_an_ide_note_written_as_a_record_of_its_own_is_not_the_person(
    tmp_path: Path,
) -> None:
    """A resumed session's copy: the note in one user record, the words in the next."""
    records = _stopped_midway(cb.user("u2", "n1", 40, "Keep going"))
    records.insert(4, cb.user("n1", "a2", 40, cb.text_blocks(SELECTED)))
    path = cb.home(tmp_path, records)
    cli = through_cli(path)
    assert cli.person == ["Make the importer skip blank rows", "Keep going"]
    assert _texts(cli, "injected") == [SELECTED]
    assert listed(tmp_path)[0]["human_turns"] == 2
    shown = await in_replayer(path)
    assert len(shown.person) == 2


# -- 8: a prompt queued while the agent was busy -------------------------------------------------

QUEUED = "also keep the old --legacy flag working"
NOTIFICATION = (
    "<task-notification>\n<task-id>b7c41e</task-id>\n<status>completed</status>\n"
    "<summary>Background build finished</summary>\n</task-notification>"
)


def _busy_agent() -> list[object]:
    """The person queues a prompt while a command runs; the agent takes it in mid-turn (an
    `attachment` between two lines of one response, no user record), and a background
    task's notification is queued the same way."""
    return [
        cb.user("u1", None, 0, "Port the importer to the new API"),
        cb.said("a1", "u1", 3, "msg_1", "Starting with the parser."),
        cb.queue_operation(5, "enqueue", QUEUED),
        cb.tool_use("a2", "a1", 6, "msg_1", "call_1", "cargo build --release"),
        cb.queued("q1", "a2", 20, QUEUED, queued_at=5),
        cb.queue_operation(20, "remove"),
        cb.tool_result("r1", "a2", 21, "call_1", "Finished release in 14.2s"),
        cb.queued("q2", "r1", 22, NOTIFICATION),
        cb.said("a3", "q2", 25, "msg_2", "Ported; the old --legacy flag still works."),
        cb.user("u2", "a3", 30, "thanks"),
    ]


async def test_a_queued_prompt_is_the_person_speaking_when_they_queued_it(
    tmp_path: Path,
) -> None:
    path = cb.home(tmp_path, _busy_agent())
    cli = through_cli(path)
    assert cli.person == ["Port the importer to the new API", QUEUED, "thanks"]
    queued = cli.turns_by("person")[1]
    assert queued["timestamp"] == "2026-12-03T10:00:05Z"  # when typed, not when taken in
    assert _texts(cli, "injected") == [NOTIFICATION]  # the harness's, never the person's
    assert not cli.export["notices"] and not cli.scan["skipped"]
    assert listed(tmp_path)[0]["human_turns"] == 3
    shown = await in_replayer(path)
    assert len(shown.person) == 3 and QUEUED in shown.person[1]


def test_a_queued_prompt_taken_in_before_an_interrupt_is_no_rewind(tmp_path: Path) -> None:
    """The next record's parent is the call's result, which sits in a turn before the
    queued prompt: the queued prompt is not a branch the person left."""
    records = _busy_agent()[:7] + [
        cb.user("u2", "r1", 23, cb.text_blocks("[Request interrupted by user]"))
    ]
    cli = through_cli(cb.home(tmp_path, records))
    assert cli.person == ["Port the importer to the new API", QUEUED]
    assert not cli.export["notices"]


def test_a_queued_prompt_with_an_image_and_a_reminder(tmp_path: Path) -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png"}}
    image["source"]["data"] = "iVBORw0KGgo" * 40
    reminder = (
        "<system-reminder>The user sent a new message while you were working.</system-reminder>"
    )
    prompt = [image, {"type": "text", "text": f"{reminder}\nthis is what it shows now"}]
    records = _busy_agent()[:4] + [cb.queued("q1", "a2", 20, prompt, queued_at=8)]
    cli = through_cli(cb.home(tmp_path, records))
    assert cli.person[1] == "this is what it shows now"
    kinds = [p["kind"] for p in cli.turns_by("person")[1]["parts"]]
    assert kinds == ["attachment", "text"]
    assert _texts(cli, "injected") == [reminder]


# -- 9: a prompt that begins with a system reminder -------------------------------------------

REMINDER = (
    "<system-reminder>\nThe task list is empty. Use the TodoWrite tool if it would help;"
    " never mention this reminder to the user.\n</system-reminder>"
)


@pytest.mark.parametrize(
    "content",
    [
        f"{REMINDER}\n\nrun the migrations again, then the seed",  # inline, one string
        cb.text_blocks(REMINDER, "run the migrations again, then the seed"),  # a block of its own
    ],
    ids=["inline", "block"],
)
async def test_a_prompt_after_a_system_reminder_keeps_the_persons_words(
    tmp_path: Path, content: object
) -> None:
    records = [
        cb.user("u1", None, 0, "Set up the ledger database"),
        cb.said("a1", "u1", 4, "msg_1", "Created the schema and ran the migrations."),
        cb.user("u2", "a1", 30, content),
        cb.said("a2", "u2", 34, "msg_2", "Migrated and seeded."),
    ]
    path = cb.home(tmp_path, records)
    cli = through_cli(path)
    assert cli.person == ["Set up the ledger database", "run the migrations again, then the seed"]
    assert _texts(cli, "injected") == [REMINDER]
    assert listed(tmp_path)[0]["human_turns"] == 2
    shown = await in_replayer(path)
    assert len(shown.person) == 2 and "run the migrations again" in shown.person[1]
    assert "<system-reminder>" not in shown.person[1]


# -- 10: a malformed record, then a valid one with its uuid --------------------------------------


def _with_malformed_records() -> list[object]:
    broken_message = cb.user("u2", "a1", 6, "never read")
    broken_message["message"] = "error"  # not a message object
    no_content = cb.user("u3", "a1", 7, "never read")
    no_content["message"] = {"role": "user", "contenst": cb.text_blocks("misspelt key")}
    no_blocks = cb.user("u3", "a2", 12, ["a bare string, not a block"])
    return [
        cb.user("u1", None, 0, "Check the monthly totals"),
        cb.said("a1", "u1", 3, "msg_1", "The totals match the bank export."),
        broken_message,  # line 3
        no_content,  # line 4
        cb.user("u2", "a1", 8, "now the quarterly ones"),  # valid, with the uuid of line 3
        cb.said("a2", "u2", 11, "msg_2", "The quarterly totals match too."),
        no_blocks,  # line 7, with the uuid of line 4
        b'"a string, not a record"',
        b"42",
        b'{"silly": "no type"}',
    ]


async def test_malformed_records_are_skipped_and_the_valid_one_after_them_kept(
    tmp_path: Path,
) -> None:
    path = cb.home(tmp_path, _with_malformed_records())
    cli = through_cli(path)
    assert cli.person == ["Check the monthly totals", "now the quarterly ones"]
    assert [s["line"] for s in cli.scan["skipped"]] == [3, 4, 7, 8, 9, 10]
    assert [s["line"] for s in cli.export["skipped"]] == [3, 4, 7, 8, 9, 10]
    assert cli.scan["turns"] == 4
    assert listed(tmp_path)[0]["human_turns"] == 2
    shown = await in_replayer(path)
    assert len(shown.person) == 2 and "quarterly" in shown.person[1]


# -- 11: the recap Claude Code writes for a person coming back ----------------------------------

RECAP = (
    "Porting the importer to the new API; the parser is done. Waiting for your answer: keep"
    " the --legacy flag or drop it? (disable recaps in /config)"
)


async def test_an_away_summary_is_the_clients_recap_never_the_agents_words(
    tmp_path: Path,
) -> None:
    """Claude Code writes the recap itself (a `system` record): shown as a system notice,
    neither the agent's reply nor the person's."""
    records = [
        cb.user("u1", None, 0, "Port the importer to the new API"),
        cb.said("a1", "u1", 4, "msg_1", "Parser ported. Keep the --legacy flag or drop it?"),
        cb.system("s1", "a1", 900, "away_summary", RECAP),
        cb.user("u2", "a1", 960, "keep it"),  # its parent the reply before the recap
        cb.said("a2", "u2", 964, "msg_2", "Kept; both flags work."),
    ]
    path = cb.home(tmp_path, records)
    cli = through_cli(path)
    assert cli.person == ["Port the importer to the new API", "keep it"]
    recap = cli.export["transcript"][2]
    assert recap["who"] == "system" and "synthetic" in recap["flags"]
    assert _texts(cli, "system") == [f"Recap: {RECAP}"]
    assert _texts(cli, "agent") == [
        "Parser ported. Keep the --legacy flag or drop it?",
        "Kept; both flags work.",
    ]
    assert not cli.export["notices"]  # the recap is no branch the person left
    assert listed(tmp_path)[0]["turns"] == 5
    shown = await in_replayer(path)
    assert "Recap: Porting the importer" in shown.turns[2]
    assert "system" in shown.turns[2] and "Agent" not in shown.turns[2]


# -- all of the above, with any field of any type -------------------------------------------


def _every_new_shape() -> list[object]:
    recap = cb.system("s9", "a4", 900, "away_summary", RECAP)
    ide = cb.user("u9", "s9", 960, cb.text_blocks(OPENED, "继续"))
    return [*_busy_agent(), *_stopped_midway(ide)[4:], recap, *_with_malformed_records()[2:7]]


@FUZZ_SETTINGS
@given(st.data())
def test_the_new_shapes_with_wrong_types_in_any_field(data) -> None:
    records = [r for r in _every_new_shape() if isinstance(r, dict)]
    with tempfile.TemporaryDirectory(prefix="pivotal-claude-fuzz-") as folder:
        path = cb.write(Path(folder) / f"{cb.SESSION}.jsonl", mutated(data, records))
        read_everything(path, SPEC)
