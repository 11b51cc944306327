"""Codex rollouts without the usual pairing: each person message once, each compaction once.

Codex writes a person's message as a `response_item` and as an `event_msg user_message`, in
either order (October 2025 builds the response first), sometimes the event alone (a
`/review` request, written twice); and a compaction as a `compacted` record with a
`context_compacted` event next to it, lines away from it, or without it.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from pivotal.model import Session, SessionRef, TurnFlag
from pivotal.readers.codex import SPEC
from surfaces import in_replayer, listed, through_cli

from .codex_builders import Rollout

UUID4 = "5b0e3f2a-8c41-4d7e-9a36-2f1c7d9e4b10"
REVIEW = (
    "Review the code changes against the base branch 'main'. The merge base commit is "
    "4f2a9c1. Run `git diff 4f2a9c1` to see the changes and give prioritized findings."
)
FINDINGS = (
    "<user_action>\n  <context>User initiated a review task. Here is what the reviewer "
    "found.</context>\n  <action>review</action>\n  <results>\n  [P1] The retry loop "
    "never stops on a 404.\n  </results>\n</user_action>"
)


def read(path: Path, final: bool = True) -> Session:
    reader = SPEC.open(SessionRef(format="codex", path=path))
    reader.poll(final=final)
    return reader.session


def october(rollout: Rollout) -> list[str]:
    """October 2025: response copy first, `kind: plain`, no ids; four messages in a row."""
    rollout.meta()
    rollout.environment()
    rollout.both("Can we pick up the printer list where we stopped?")
    rollout.reply("The list has 12 printers; Prusa and Creality are missing.", "ls printers")
    for text in ("pause", "OK, go on", "OK, go on", "OK, go on"):
        rollout.both(text)
    rollout.reply("Added Prusa and Creality; the tests pass.", "make test")
    rollout.both("go on")  # the file ends with its event: no reply yet
    return [
        "Can we pick up the printer list where we stopped?",
        "pause",
        "OK, go on",
        "OK, go on",
        "OK, go on",
        "go on",
    ]


def event_first(rollout: Rollout) -> list[str]:
    """Later builds: the event first, then the response copy; an image framed in tags."""
    rollout.meta(version="0.77.0")
    rollout.environment()
    rollout.shown("what is wrong here?", kind=None, images=1)
    rollout.said("what is wrong here?", ident="msg_1", image=True)
    rollout.reply("The bed size is given in inches.", "cat printer.toml")
    for text in ("yes", "yes", "and the nozzle too"):
        rollout.both(text, event_first=True)
    rollout.reply("Fixed both.", "make test")
    return ["what is wrong here?", "yes", "yes", "and the nozzle too"]


def review(rollout: Rollout) -> list[str]:
    """A /review request: only events, written twice in the same instant; its findings come
    back as harness text, which is not the person."""
    rollout.meta(version="0.63.0")
    rollout.environment()
    rollout.both("open a PR for this branch")
    rollout.reply("PR #7 is open.", "gh pr create")
    rollout.add("event_msg", {"type": "entered_review_mode", "user_facing_hint": "against main"})
    stamp = rollout.shown(REVIEW, kind=None)
    rollout.shown(REVIEW, kind=None, at=stamp)
    rollout.tokens()
    rollout.said(FINDINGS)
    rollout.add("event_msg", {"type": "exited_review_mode", "review_output": None})
    rollout.reply("The reviewer found one problem: the retry loop never stops on a 404.")
    rollout.both("fix it")
    rollout.reply("Fixed: a 404 now ends the loop.", "make test")
    return ["open a PR for this branch", REVIEW, "fix it"]


SHAPES: dict[str, Callable[[Rollout], list[str]]] = {
    "october": october,
    "event-first": event_first,
    "review": review,
}


@pytest.mark.parametrize("shape", SHAPES)
async def test_each_person_message_once_and_in_order(tmp_path: Path, shape: str) -> None:
    rollout = Rollout(session_id=UUID4)
    expected = SHAPES[shape](rollout)
    path = rollout.write(tmp_path)
    cli = through_cli(path)
    assert cli.person == expected
    assert cli.scan["turns"] == cli.export["turns"]
    shown = await in_replayer(path)
    assert len(shown.turns) == cli.export["turns"]
    assert len(shown.person) == len(expected)
    for drawn, text in zip(shown.person, expected, strict=True):
        assert text.split(" ", 1)[0] in drawn
    rows = listed(tmp_path)
    assert [(row["session_id"], row["human_turns"]) for row in rows] == [(UUID4, len(expected))]


def test_a_review_request_comes_before_its_findings_which_are_injected(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    review(rollout)
    cli = through_cli(rollout.write(tmp_path))
    who = [(turn["who"], turn["preview"][:12]) for turn in cli.export["transcript"]]
    at = who.index(("person", REVIEW[:12]))
    assert who[at + 1] == ("injected", FINDINGS[:12])
    assert who[at + 2][0] == "agent"


def test_an_image_is_an_attachment_not_tags(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    event_first(rollout)
    session = read(rollout.write(tmp_path))
    first = session.human_turns()[0]
    assert first.text == "what is wrong here?"
    assert [p.text for p in first.parts if p.kind.value == "attachment"] == ["[image]"]
    assert first.message_id == "msg_1"  # made from the response copy, where it stands


def test_a_message_only_an_event_holds_is_read_even_last(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    rollout.meta(version="0.77.0")
    rollout.both("add a dark theme")
    rollout.reply("Done.")
    rollout.shown("and a light one", kind=None)
    session = read(rollout.write(tmp_path))
    assert [t.text for t in session.human_turns()] == ["add a dark theme", "and a light one"]


def test_two_events_before_their_copies_keep_their_order(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    rollout.meta(version="0.77.0")
    rollout.shown("first the bed size", kind=None)
    rollout.shown("then the nozzle", kind=None)
    rollout.said("first the bed size", ident="msg_1")
    rollout.said("then the nozzle", ident="msg_2")
    rollout.reply("Both fixed.")
    session = read(rollout.write(tmp_path))
    humans = session.human_turns()
    assert [(t.text, t.message_id) for t in humans] == [
        ("first the bed size", "msg_1"),
        ("then the nozzle", "msg_2"),
    ]


def test_the_same_words_twice_at_different_times_are_two_messages(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    rollout.meta(version="0.77.0")
    rollout.both("go on")
    rollout.reply("Working.")
    rollout.shown("go on", kind=None)
    rollout.shown("go on", kind=None)
    session = read(rollout.write(tmp_path))
    assert [t.text for t in session.human_turns()] == ["go on", "go on", "go on"]


def test_harness_text_as_an_event_is_not_the_person(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    rollout.meta()
    env = "<environment_context>\n  <cwd>/home/dev/printer-kit</cwd>\n</environment_context>"
    rollout.said(env)
    rollout.shown(env, kind="environment_context")
    rollout.shown("# AGENTS.md rules, sent as user instructions", kind="user_instructions")
    rollout.both("hello")
    session = read(rollout.write(tmp_path))
    assert [t.text for t in session.human_turns()] == ["hello"]


# -- compaction ---------------------------------------------------------------------------


def _before(rollout: Rollout) -> None:
    rollout.meta(version="0.46.0")
    rollout.both("convert the printer list to TOML")
    rollout.reply("Converted 12 of 40 files so far.", "python convert.py")


def record_only(rollout: Rollout) -> None:
    _before(rollout)
    rollout.compacted("Converting printers to TOML; 12 of 40 done.")
    rollout.both("continue")


def event_three_lines_later(rollout: Rollout) -> None:
    _before(rollout)
    rollout.compacted("Converting printers to TOML; 12 of 40 done.")
    rollout.turn_context()
    rollout.tokens()
    rollout.compacted_event()
    rollout.both("continue")


def event_first_then_record(rollout: Rollout) -> None:
    _before(rollout)
    rollout.compacted_event()
    rollout.reply("Context trimmed; carrying on with file 13.")
    rollout.compacted("Converting printers to TOML; 12 of 40 done.")
    rollout.both("continue")


def event_only(rollout: Rollout) -> None:
    _before(rollout)
    rollout.compacted_event()
    rollout.turn_context()
    rollout.both("continue")


COMPACTIONS = {
    "record-only": record_only,
    "event-3-lines-later": event_three_lines_later,
    "event-before-record": event_first_then_record,
    "event-only": event_only,
}


@pytest.mark.parametrize("shape", COMPACTIONS)
async def test_one_compaction_is_one_boundary(tmp_path: Path, shape: str) -> None:
    rollout = Rollout(session_id=UUID4)
    COMPACTIONS[shape](rollout)
    path = rollout.write(tmp_path)
    cli = through_cli(path)
    who = [turn["who"] for turn in cli.export["transcript"]]
    assert who.count("compaction") == 1
    summaries = [
        "\n".join(p["text"] for p in turn["parts"] if p["kind"] == "text")
        for turn in cli.turns_by("compaction summary")
    ]
    expected = [] if shape == "event-only" else ["Converting printers to TOML; 12 of 40 done."]
    assert summaries == expected
    assert cli.person == ["convert the printer list to TOML", "continue"]
    assert [p["silence"] for p in cli.scan["pivots"] if p["silence"] == "compaction"] == [
        p["silence"] for p in cli.export["pivots"] if p["silence"] == "compaction"
    ]
    shown = await in_replayer(path)
    assert sum("■ compaction" in header(drawn) for drawn in shown.turns) == 1
    assert [row["turns"] for row in listed(tmp_path)] == [cli.export["turns"]]


def test_two_compactions_in_one_run_are_two(tmp_path: Path) -> None:
    rollout = Rollout(session_id=UUID4)
    _before(rollout)
    for done in (12, 30):
        rollout.compacted(f"Converting printers to TOML; {done} of 40 done.")
        rollout.compacted_event()
        rollout.reply(f"Carrying on with file {done + 1}.", "python convert.py")
    rollout.compacted("Converting printers to TOML; 40 of 40 done.")  # no event this time
    session = read(rollout.write(tmp_path))
    boundaries = [t for t in session.turns if t.flags & TurnFlag.COMPACTION_BOUNDARY]
    assert len(boundaries) == 3


# -- read while written ---------------------------------------------------------------------


def _signature(session: Session) -> list[tuple]:
    return [
        (t.index, t.role, int(t.flags), t.text, t.message_id, t.source.line, t.timestamp)
        for t in session.turns
    ]


@pytest.mark.parametrize("shape", [*SHAPES, *COMPACTIONS])
@pytest.mark.parametrize("seed", range(3))
def test_read_in_pieces_it_ends_as_read_at_once(tmp_path: Path, shape: str, seed: int) -> None:
    rollout = Rollout(session_id=UUID4)
    {**SHAPES, **COMPACTIONS}[shape](rollout)
    data = rollout.text.encode()
    batch = read(rollout.write(tmp_path / "home"))
    rng = random.Random(seed)
    # cut often between the two copies of a message, and at random
    ends = [i + 1 for i, byte in enumerate(data) if byte == 10]
    cuts = sorted({*rng.sample(ends, min(8, len(ends))), *rng.sample(range(1, len(data)), 8)})
    live = tmp_path / "live.jsonl"
    live.write_bytes(b"")
    reader = SPEC.open(SessionRef(format="codex", path=live))
    done = 0
    for cut in [*cuts, len(data)]:
        with open(live, "ab") as handle:
            handle.write(data[done:cut])
        done = cut
        reader.poll()
        persons = [t.text for t in reader.session.human_turns()]
        copy = tmp_path / "copy.jsonl"
        shutil.copyfile(live, copy)
        assert [t.text for t in read(copy, final=False).human_turns()] == persons
    reader.poll(final=True)
    assert _signature(reader.session) == _signature(batch)


def header(drawn: str) -> str:
    """A drawn turn's header: its first line, after the detector's verdict on a silence."""
    lines = drawn.split("\n")
    return lines[1] if "no pivot here" in lines[0] and len(lines) > 1 else lines[0]
