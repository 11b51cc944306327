"""aider chat history reader: one session per block, prompts, replies and `>` output."""

from __future__ import annotations

import random
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from pivotal.model import Role, Session, SessionRef, TurnFlag
from pivotal.readers import sniff_path
from pivotal.readers.aider import SPEC

FIXTURES = Path(__file__).parent.parent / "fixtures"
REAL = FIXTURES / "realclients" / "aider-short" / ".aider.chat.history.md"
UGLY = FIXTURES / "aider" / "history.md"


def local(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").timestamp()


def read(path: Path, key: str | None, final: bool = True) -> Session:
    reader = SPEC.open(SessionRef(format="aider", path=path, key=key))
    reader.poll(final=final)
    return reader.session


def signature(session: Session) -> list[tuple]:
    return [
        (
            t.index,
            t.role,
            int(t.flags),
            t.text,
            tuple((c.call_id, c.output, c.is_error, c.status) for c in t.tool_calls),
            t.timestamp,
            t.source.line,
            t.model,
            t.usage and (t.usage.input, t.usage.output, t.usage.cache_read, t.usage.cache_write),
        )
        for t in session.turns
    ]


# -- the real aider 0.86 file ------------------------------------------------------------


def test_real_file_one_block() -> None:
    refs = SPEC.refs(REAL)
    assert [(r.key, r.started) for r in refs] == [("1", local("2026-11-30 03:51:52"))]
    session = read(REAL, "1")
    assert session.skipped == []
    assert session.model == "openai/mock-model"
    roles = [(t.role, t.is_synthetic) for t in session.turns]
    assert roles == [
        (Role.SYSTEM, True),
        (Role.USER, False),
        (Role.ASSISTANT, False),
        (Role.ASSISTANT, False),
    ]
    assert [t.text for t in session.human_turns()] == ["Create notes.txt with two lines"]
    banner = session.turns[0]
    assert banner.timestamp == local("2026-11-30 03:51:52")
    assert "Aider v0.86.2" in banner.text
    assert all(t.timestamp is None for t in session.turns[1:])
    first, second = session.turns[2], session.turns[3]
    assert first.text.startswith("I will create notes.txt.\n\nnotes.txt\n```")
    assert first.text.endswith("```bash\ncat notes.txt\n```")
    (edit_error,) = first.tool_calls
    assert edit_error.name == "aider" and edit_error.is_error
    assert "The LLM did not conform to the edit format." in edit_error.output
    assert (first.usage.input, first.usage.output) == (1000, 50)
    assert second.text.startswith("Now editing it.")
    (applied,) = second.tool_calls
    assert not applied.failed and applied.output.endswith("Applied edit to notes.txt")


# -- many blocks, ugly prompts ---------------------------------------------------------------


def test_refs_one_per_block() -> None:
    refs = SPEC.refs(UGLY)
    assert [(r.key, r.started) for r in refs] == [
        ("1", local("2026-03-02 10:00:00")),
        ("2", local("2026-03-02 11:30:00")),
        ("3", local("2026-03-02 12:00:00")),
    ]
    assert all(r.format == "aider" and r.path == UGLY for r in refs)


def test_block_one_prompts_replies_and_output() -> None:
    session = read(UGLY, "1")
    assert session.started == local("2026-03-02 10:00:00")
    assert session.model == "anthropic/claude-sonnet-4"
    humans = session.human_turns()
    # a multi-line prompt is one turn; "<blank>" and "#### " alone are empty prompts
    assert [t.text for t in humans] == [
        "make the test pass\nand keep it short",
        "",
        "",
        "go on [bold]now[/bold]",
    ]
    command = next(t for t in session.turns if t.text == "/run pytest -q")
    assert command.role is Role.USER and command.flags & TurnFlag.SYNTHETIC
    assert not command.is_human
    notice = session.turns[command.index + 1]
    assert notice.role is Role.SYSTEM and notice.text.startswith("Add 0.1k tokens")
    reply = session.turns[humans[0].index + 1]
    # fenced lines that look like quotes or prompts stay reply text
    assert "> not a quote inside a fence\n#### not a prompt inside a fence" in reply.text
    assert reply.text.endswith(">>>>>>> REPLACE\n```")
    (call,) = reply.tool_calls
    assert not call.failed and call.output.endswith("Applied edit to calc.py")
    usage = reply.usage
    assert (usage.input, usage.cache_write, usage.cache_read, usage.output) == (
        2700,
        1200,
        3100,
        120,
    )
    assert reply.model == "anthropic/claude-sonnet-4"
    assert [t.source.line for t in humans] == [8, 26, 28, 34]


def test_block_without_prompt() -> None:
    session = read(UGLY, "2")
    assert [(t.role, t.text) for t in session.turns] == [(Role.SYSTEM, "Aider v0.86.2")]
    assert session.human_turns() == []


def test_last_block_error_output_and_bad_bytes() -> None:
    session = read(UGLY, "3")
    assert session.model == "openai/gpt-5"
    hello = session.turns[2]
    assert hello.text == "Hi there."
    assert hello.tool_calls[0].is_error
    assert [t.text for t in session.human_turns()] == [
        "hello",
        "bad bytes \ufffd here",
        "half-writ",
    ]
    ok = session.turns[-2]
    assert ok.text == "OK." and ok.flags & TurnFlag.INTERRUPTED
    assert [c.output for c in ok.tool_calls] == ["^C again to exit"]
    assert not hello.flags & TurnFlag.INTERRUPTED


def test_half_written_last_line_waits_while_following() -> None:
    session = read(UGLY, "3", final=False)
    assert [t.text for t in session.human_turns()] == ["hello", "bad bytes \ufffd here"]
    assert session.turns[-1].text == "OK."


def test_without_key_reads_every_block() -> None:
    whole = read(UGLY, None)
    parts = [read(UGLY, key) for key in ("1", "2", "3")]
    assert [t.text for t in whole.turns] == [t.text for s in parts for t in s.turns]


# -- incremental reading ----------------------------------------------------------------------


@pytest.mark.parametrize("source,key", [(REAL, "1"), (UGLY, "1"), (UGLY, "3")])
@pytest.mark.parametrize("seed", range(4))
def test_appending_in_random_pieces_matches_batch(
    tmp_path: Path, source: Path, key: str, seed: int
) -> None:
    data = source.read_bytes()
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(data)), 15))
    live = tmp_path / ".aider.chat.history.md"
    live.write_bytes(b"")
    reader = SPEC.open(SessionRef(format="aider", path=live, key=key))
    done = 0
    for cut in [*cuts, len(data)]:
        with open(live, "ab") as handle:
            handle.write(data[done:cut])
        done = cut
        reader.poll()
        copy = tmp_path / "copy.md"
        shutil.copyfile(live, copy)
        assert signature(reader.session) == signature(read(copy, key, final=False))
    reader.poll(final=True)
    assert signature(reader.session) == signature(read(source, key))


def test_growing_reply_is_reported_as_changed(tmp_path: Path) -> None:
    live = tmp_path / ".aider.chat.history.md"
    live.write_bytes(b"# aider chat started at 2026-03-02 10:00:00\n\n#### hi\n\nFirst line.\n")
    reader = SPEC.open(SessionRef(format="aider", path=live, key="1"))
    reader.poll()
    assert [t.text for t in reader.session.turns] == ["hi", "First line."]
    with open(live, "ab") as handle:
        handle.write(b"Second line.\n")
    update = reader.poll()
    assert update.first_changed == 1
    assert reader.session.turns[1].text == "First line.\nSecond line."


# -- sniffing -----------------------------------------------------------------------------


def test_sniff_accepts_aider_files() -> None:
    for path in (REAL, UGLY):
        assert SPEC.sniff(path, path.read_bytes()[:65536])
        assert sniff_path(path).name == "aider"


def test_sniff_rejects_other_formats() -> None:
    others = [
        p
        for p in FIXTURES.rglob("*")
        if p.is_file() and "aider" not in str(p.relative_to(FIXTURES)) and p.suffix != ".db"
    ]
    assert any("codex" in str(p) for p in others) and any("gemini" in str(p) for p in others)
    for path in others:
        assert not SPEC.sniff(path, path.read_bytes()[:65536]), path
