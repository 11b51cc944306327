"""scan_follow(): a writer plays a Claude Code session while the headless scan prints pivots."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

from pivotal.detect import PivotConfig, detect_pivots
from pivotal.model import Pivot, PivotKind, SessionRef, Silence, Turn
from pivotal.readers import find_sessions, open_reader, read_session
from pivotal.scan.follow import scan_follow

from .chat_reader import ChatReader, record
from .claude_lines import ClaudeStream
from .helpers import Writer, wait_until


class FlushLog(io.StringIO):
    """An output stream that remembers what had been written at each flush."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[str] = []

    def flush(self) -> None:
        self.flushed.append(self.getvalue())

    def lines(self) -> list[str]:
        return self.getvalue().splitlines()


class Running:
    """scan_follow in a task, with a handle on the reader it opened."""

    def __init__(self, path: Path, *, as_json: bool, opener=open_reader, **kwargs) -> None:
        self.readers = []
        self.out, self.err = FlushLog(), FlushLog()
        self.stop = asyncio.Event()

        def open_ref(ref: SessionRef):
            reader = opener(ref)
            self.readers.append(reader)
            return reader

        ref = SessionRef(format="claude-code", path=path)
        self.task = asyncio.create_task(
            scan_follow(
                ref,
                as_json=as_json,
                out=self.out,
                err=self.err,
                stop=self.stop,
                open_ref=open_ref,
                **kwargs,
            )
        )

    async def caught_up(self, size: int) -> None:
        await wait_until(lambda: bool(self.readers) and self.readers[0].progress[0] == size)

    async def close(self) -> int:
        self.stop.set()
        return await asyncio.wait_for(self.task, 5)


async def test_prints_each_confirmed_pivot_once_never_a_candidate(tmp_path: Path) -> None:
    path = tmp_path / "5e55104c.jsonl"
    writer = Writer(path)
    stream = ClaudeStream()
    scene = stream.pivot_scene(1)
    writer.append(scene[0])
    # every silence the rules let through is a pivot: this tests what is printed when
    scan = Running(path, as_json=True, config=EVERY)
    await scan.caught_up(len(writer.expected))

    # up to the silence and the agent's first steps after it: only a candidate so far
    ok_line = writer.expected.count(b"\n") + sum(r.count(b"\n") for r in scene[1:8]) + 1
    for rec in scene[1:11]:
        half = len(rec) // 2
        writer.append(rec[:half])  # a record split across two writes
        writer.append(rec[half:])
    await scan.caught_up(len(writer.expected))
    assert scan.out.getvalue() == ""

    for rec in scene[11:]:
        writer.append(rec)
    await wait_until(lambda: len(scan.out.lines()) == 1)
    printed = json.loads(scan.out.lines()[0])
    assert printed["kind"] == "delegation_after_dead_end"
    assert printed["silence"] == "ack" and printed["candidate"] is False
    assert printed["turn"] == 8 and printed["line"] == ok_line
    assert scan.out.flushed[-1] == scan.out.getvalue()  # the line was flushed at once

    # a second pivot later in the session
    for rec in stream.pivot_scene(2):
        writer.append(rec)
    await wait_until(lambda: len(scan.out.lines()) == 2)

    # the file is truncated and written again: same pivots, not printed twice
    content = writer.expected
    writer.truncate()
    await wait_until(lambda: "truncated" in scan.err.getvalue())
    writer.append(content)
    await scan.caught_up(len(content))
    await wait_until(lambda: len(scan.readers[0].session.turns) == 30)
    assert await scan.close() == 2
    assert len(scan.out.lines()) == 2

    # the live result is the batch result
    session = read_session(find_sessions([path]).refs[0])
    batch = [(p.turn, str(p.kind)) for p in detect_pivots(session.turns, EVERY) if not p.candidate]
    live = [(d["turn"], d["kind"]) for d in map(json.loads, scan.out.lines())]
    assert live == batch
    writer.assert_untouched()


EVERY = PivotConfig.for_sensitivity(1.0)
"""Every silence the rules let through is a pivot: what is tested is when it is printed."""


class FakeTracker:
    """One pivot per empty human turn, a candidate until two more turns follow it."""

    def __init__(self, reason: str = "the person went quiet") -> None:
        self.reason = reason
        self.calls: list[int] = []

    def update(self, turns: list[Turn], first_changed: int = 0) -> list[Pivot]:
        self.calls.append(first_changed)
        return [
            Pivot(
                turn=t.index,
                kind=PivotKind.OTHER,
                silence=Silence.EMPTY,
                confidence=0.5,
                cluster=[t.index],
                reason=self.reason,
                candidate=len(turns) < t.index + 3,
            )
            for t in turns
            if t.is_human and not t.text
        ]


async def test_plain_lines_are_inert_and_notices_go_to_err(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    writer = Writer(path)
    writer.append(record("user", "do it") + record("assistant", "done"))
    hostile = "quiet \x1b]0;pwned\x07\x1b[2J[bold]x[/bold]"
    tracker = FakeTracker(hostile)
    scan = Running(path, as_json=False, opener=ChatReader, tracker=tracker, backend="polling")
    await scan.caught_up(len(writer.expected))
    writer.append(record("user", "") + record("assistant", "carrying on"))
    await scan.caught_up(len(writer.expected))
    assert scan.out.getvalue() == ""  # still a candidate
    writer.append(record("assistant", "more"))
    await wait_until(lambda: len(scan.out.lines()) == 1)
    line = scan.out.lines()[0]
    assert line.startswith("#3  -  other  empty  0.50  quiet ")
    assert "\x1b" not in line and "\x07" not in line
    assert "[bold]x[/bold]" in line  # brackets are text, not markup

    writer.delete()
    await wait_until(lambda: "gone" in scan.err.getvalue())
    assert await scan.close() == 1
    assert len(scan.out.lines()) == 1
    assert tracker.calls[0] == 0


async def test_json_lines_carry_the_anchor_source(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    writer = Writer(path)
    writer.append(record("user", "go") + record("user", "") + record("assistant", "a"))
    writer.append(record("assistant", "b"))
    scan = Running(path, as_json=True, opener=ChatReader, tracker=FakeTracker())
    await wait_until(lambda: len(scan.out.lines()) == 1)
    assert await scan.close() == 1
    printed = json.loads(scan.out.lines()[0])
    assert printed["turn"] == 1 and printed["line"] == 2
    assert printed["kind"] == "other" and printed["candidate"] is False
