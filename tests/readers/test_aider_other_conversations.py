"""A reader of one aider conversation passes over the others' lines: same session, less work.

A history holds every run of a repository; reading one session of it used to
read every line of the file, so listing a history of 54 sessions read it 54
times. The reader now moves straight to its first run's header and, once its
conversation has ended, to the last line. These tests hold it to the reader
that reads every line (`EveryLine`), on histories built from the shapes aider
writes, awkward ones included: runs that restore the chat, a run with no input,
header-like lines inside a reply's code fence, lines that lost aider's trailing
spaces, CRLF endings, a half-written last line, a file read as it grows.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pivotal.model import SessionRef
from pivotal.readers.aider import SPEC, AiderReader
from pivotal.readers.lines import CHUNK, LineFileReader


class EveryLine(AiderReader):
    """The reader as it was: every line of the file handled, read a megabyte at a time."""

    READ_SIZE = CHUNK

    def handle_lines(self, batch: list[tuple[int, int, bytes]]) -> None:
        LineFileReader.handle_lines(self, batch)


class Counting(AiderReader):
    handled = 0

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        Counting.handled += 1
        super().handle_line(line_no, offset, line)


def snapshot(reader: AiderReader) -> tuple:
    session = reader.session
    turns = [
        (
            t.index,
            t.role,
            int(t.flags),
            t.timestamp,
            t.source.line,
            t.source.offset,
            t.model,
            t.usage,
            t.extra,
            [
                (p.kind, p.text, p.tool and (p.tool.name, p.tool.input, p.tool.status))
                for p in t.parts
            ],
        )
        for t in session.turns
    ]
    skipped = [(s.line, s.reason) for s in session.skipped]
    return session.started, session.model, list(session.notices), skipped, turns


def read_with(cls: type[AiderReader], path: Path, key: str | None) -> tuple:
    reader = cls(SessionRef(format="aider", path=path, key=key))
    reader.poll(final=True)
    return snapshot(reader)


# -- histories shaped like aider's -------------------------------------------------------

_REPLY_LINES = [
    "Here is the change.",
    "```python",
    "# aider chat started at 2020-01-01 00:00:00",  # a header-like line inside a reply
    "#### not an input, a heading in a fence",
    "> quoted, not aider's",
    "```",
    "Done.",
]


@st.composite
def runs(draw: st.DrawFn) -> list[str]:
    """One run's lines: header, banner, then inputs, replies and aider's notices."""
    day = draw(st.integers(1, 28))
    lines = [f"# aider chat started at 2026-03-{day:02} 10:00:00", ""]
    lines.append("> Aider v0.86.2  ")
    if draw(st.booleans()):
        lines.append("> Restored previous conversation history.  ")
    for _ in range(draw(st.integers(0, 4))):
        spaced = draw(st.sampled_from(["  ", "  ", ""]))
        text = draw(st.sampled_from(["fix the bug", "<blank>", "yes", "/run make", "ok go"]))
        lines += ["", f"#### {text}{spaced}", ""]
        lines += draw(st.lists(st.sampled_from(_REPLY_LINES), min_size=1, max_size=4))
        notice = draw(st.sampled_from(["", "> Applied edit to a.py  ", "> Tokens: 1k sent.  "]))
        if notice:
            lines += ["", notice]
    return lines


@st.composite
def histories(draw: st.DrawFn) -> bytes:
    lines = [line for run in draw(st.lists(runs(), min_size=1, max_size=7)) for line in run]
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    text = newline.join(lines) + newline
    if draw(st.booleans()):
        text += "#### half-writ"  # the last line still being written
    return text.encode()


_FIXTURE = HealthCheck.function_scoped_fixture
"""tmp_path is shared by a test's examples: each writes its files anew."""


def keys_of(path: Path) -> list[str | None]:
    return [ref.key for ref in SPEC.refs(path)] + [None, "99"]


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=histories())
def test_every_session_reads_as_when_every_line_was_read(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_bytes(data)
    for key in keys_of(path):
        assert read_with(AiderReader, path, key) == read_with(EveryLine, path, key), key


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=histories(), seed=st.integers(0, 1000))
def test_a_growing_file_read_in_budgets_ends_as_the_batch_read(
    tmp_path: Path, data: bytes, seed: int
) -> None:
    rng = random.Random(seed)
    (tmp_path / "whole").mkdir(exist_ok=True)
    whole = tmp_path / "whole" / ".aider.chat.history.md"  # the same name: notices quote it
    whole.write_bytes(data)
    live = tmp_path / ".aider.chat.history.md"
    for key in keys_of(whole):
        live.write_bytes(b"")
        reader = AiderReader(SessionRef(format="aider", path=live, key=key))
        done = 0
        for cut in sorted(rng.sample(range(1, len(data)), min(6, len(data) - 1))) + [len(data)]:
            with open(live, "ab") as handle:
                handle.write(data[done:cut])
            done = cut
            reader.poll(budget=rng.choice([None, 7, 64, 500]))
        while reader.progress[0] < reader.progress[1]:
            reader.poll(budget=64)
        reader.poll(final=True)
        assert snapshot(reader) == read_with(EveryLine, whole, key), key


def test_the_last_session_of_a_long_history_handles_only_its_own_lines(tmp_path: Path) -> None:
    run = ["> Aider v0.86.2  "] + ["", "#### next step  ", "", "Done that.", "More text."] * 10
    lines: list[str] = []
    for day in range(1, 41):
        lines += [f"# aider chat started at 2026-03-{day % 28 + 1:02} 10:00:00", "", *run]
    path = tmp_path / ".aider.chat.history.md"
    path.write_text("\n".join(lines) + "\n")
    own = len([line for line in run if line]) + 1  # the run's lines and its header
    for key, most in (("40", 2 * own), ("1", 2 * own), ("20", 3 * own)):
        Counting.handled = 0
        assert read_with(Counting, path, key) == read_with(EveryLine, path, key)
        assert Counting.handled <= most, (key, Counting.handled)  # every line: 40 * own


def test_a_failed_look_ahead_reads_on_line_by_line(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pivotal.readers import aider

    def refused(*args: object) -> tuple[int, int, int]:
        raise PermissionError("the file changed hands mid-read")

    lines = ["# aider chat started at 2026-03-01 10:00:00", "", "#### one  ", "", "Reply one."]
    lines += ["# aider chat started at 2026-03-02 10:00:00", "", "#### two  ", "", "Reply two."]
    path = tmp_path / ".aider.chat.history.md"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(aider, "run_header_ahead", refused)
    for key in ("1", "2"):
        assert read_with(AiderReader, path, key) == read_with(EveryLine, path, key)
    second = AiderReader(SessionRef("aider", path, "2"))
    second.poll(final=True)
    assert [t.text for t in second.session.human_turns()] == ["two"]
