"""aider chat history reader: conversations across runs, aider's own lines found by their shape.

`tests/fixtures/aider/history.md` is written the way aider writes (two trailing
spaces on every `####` and `>` line, a blank line before each input and reply);
`reformatted.md` is the same file after an editor stripped trailing spaces.
"""

from __future__ import annotations

import random
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from pivotal.model import PartKind, Role, Session, SessionRef, TurnFlag
from pivotal.readers import sniff_path
from pivotal.readers.aider import SPEC

FIXTURES = Path(__file__).parent.parent / "fixtures"
REAL = FIXTURES / "realclients" / "aider-short" / ".aider.chat.history.md"
HISTORY = FIXTURES / "aider" / "history.md"
REFORMATTED = FIXTURES / "aider" / "reformatted.md"


def local(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%d %H:%M:%S").timestamp()


def read(path: Path, key: str | None, final: bool = True) -> Session:
    reader = SPEC.open(SessionRef(format="aider", path=path, key=key))
    reader.poll(final=final)
    return reader.session


def at_line(session: Session, line: int):
    (turn,) = [t for t in session.turns if t.source.line == line]
    return turn


def signature(session: Session) -> list[tuple]:
    return [
        (
            t.index,
            t.role,
            int(t.flags),
            t.text,
            tuple((c.call_id, c.name, c.output, c.is_error, c.status) for c in t.tool_calls),
            t.timestamp,
            t.source.line,
            t.model,
            t.usage and (t.usage.input, t.usage.output, t.usage.cache_read, t.usage.cache_write),
        )
        for t in session.turns
    ]


# -- the real aider 0.86 file ------------------------------------------------------------


def test_real_client_file() -> None:
    refs = SPEC.refs(REAL)
    assert [(r.key, r.started) for r in refs] == [("1", local("2026-11-30 03:51:52"))]
    session = read(REAL, "1")
    assert session.skipped == [] and session.notices == []
    assert session.model == "openai/mock-model"
    assert [(t.role, t.is_synthetic) for t in session.turns] == [
        (Role.SYSTEM, True),  # the run's header and banner
        (Role.USER, False),
        (Role.ASSISTANT, False),
        (Role.SYSTEM, True),  # tokens + the edit-format complaint
        (Role.ASSISTANT, False),  # aider retried on its own
        (Role.SYSTEM, True),
    ]
    assert [t.text for t in session.human_turns()] == ["Create notes.txt with two lines"]
    banner = session.turns[0]
    assert banner.timestamp == local("2026-11-30 03:51:52")
    assert banner.text.startswith("aider chat started at 2026-11-30 03:51:52\n")
    assert "Aider v0.86.2" in banner.text
    first, complaint, second = session.turns[2:5]
    assert first.text.endswith("```bash\ncat notes.txt\n```")
    assert first.tool_calls == []  # a complaint about the format is no call the model made
    assert "The LLM did not conform to the edit format." in complaint.text
    assert (first.usage.input, first.usage.output) == (1000, 50)
    (edit,) = second.tool_calls
    assert (edit.name, edit.input, edit.status, edit.failed) == (
        "edit",
        {"file_path": "notes.txt"},
        "completed",
        False,
    )
    assert edit.exit_code is None


# -- one conversation across runs ------------------------------------------------------------


def test_a_run_that_restored_the_chat_continues_the_session() -> None:
    refs = SPEC.refs(HISTORY)
    # run 4 restored the history (its banner says so): it continues run 3's session
    assert [(r.key, r.started) for r in refs] == [
        ("1", local("2026-03-02 10:00:00")),
        ("2", local("2026-03-02 11:00:00")),
        ("3", local("2026-03-02 12:00:00")),
    ]
    session = read(HISTORY, "3")
    runs = [t for t in session.turns if t.extra and "run" in t.extra]
    assert [(t.role, t.extra["run"], t.timestamp, t.source.line) for t in runs] == [
        (Role.SYSTEM, 3, local("2026-03-02 12:00:00"), 142),
        (Role.SYSTEM, 4, local("2026-03-02 12:30:00"), 160),
    ]
    assert runs[1].text.startswith("aider chat started at 2026-03-02 12:30:00\n")
    assert "Restored previous conversation history." in runs[1].text
    assert [t.text for t in session.human_turns()] == ["hello", "bad bytes \ufffd here", "continue"]
    assert session.model == "openai/gpt-5"
    first = read(HISTORY, "1")
    assert first.turns[-1].text == "^C again to exit"  # run 2 did not restore: a session of its own
    quiet = read(HISTORY, "2")
    assert [(t.role, t.text) for t in quiet.turns] == [
        (Role.SYSTEM, "aider chat started at 2026-03-02 11:00:00\nAider v0.86.2")
    ]


def test_without_a_key_the_whole_file_is_one_session() -> None:
    whole = read(HISTORY, None)
    parts = [read(HISTORY, ref.key) for ref in SPEC.refs(HISTORY)]
    assert [t.text for t in whole.turns] == [t.text for s in parts for t in s.turns]


# -- what the person typed ----------------------------------------------------------------


def test_inputs_after_an_unclosed_fence_are_still_inputs() -> None:
    session = read(HISTORY, "1")
    assert [(t.source.line, t.text) for t in session.human_turns()] == [
        (11, "make the test pass\nand keep it short"),
        (30, ""),
        (32, " "),
        (44, "go on [bold]now[/bold]"),
        (107, "plan the docs page"),
        (132, "now the readme"),
    ]
    reply = at_line(session, 14)
    assert reply.role is Role.ASSISTANT
    # lines that only look like aider's (no trailing spaces) stay reply text
    assert "> not aider output inside a fence\n#### not a prompt inside a fence" in reply.text


def test_a_bare_enter_is_logged_but_unsent_and_whitespace_is_sent() -> None:
    session = read(HISTORY, "1")
    blank, space = at_line(session, 30), at_line(session, 32)
    assert blank.flags == TurnFlag.HUMAN | TurnFlag.UNSENT and blank.text == ""
    assert space.flags == TurnFlag.HUMAN and space.text == " "
    # what answered was the whitespace input, not the bare Enter
    assert session.turns[space.index + 1].text == "Nothing to do for an empty message."


def test_commands_are_not_messages_and_code_is_followed_by_the_message() -> None:
    session = read(HISTORY, "1")
    run = at_line(session, 38)
    assert run.role is Role.USER and run.flags == TurnFlag.SYNTHETIC and not run.is_human
    (shell,) = run.tool_calls
    assert (shell.name, shell.input, shell.exit_code, shell.output) == (
        "shell",
        {"command": "pytest -q"},
        None,  # aider does not log the exit status of /run
        None,
    )
    code, message = at_line(session, 42), at_line(session, 44)
    assert code.text == "/code go on [bold]now[/bold]" and not code.is_human
    assert message.is_human and message.index == code.index + 1


def test_an_architect_plan_relogged_as_input_is_synthetic() -> None:
    session = read(HISTORY, "1")
    plan = at_line(session, 116)
    assert plan.role is Role.USER and plan.flags == TurnFlag.SYNTHETIC
    assert plan.text.startswith("Here is the plan for the editor:\n\n1. Create")
    assert at_line(session, 109).text.startswith("Here is the plan for the editor:")


# -- aider's own output ----------------------------------------------------------------------


def test_no_pseudo_calls_only_edits_and_commands_that_happened() -> None:
    session = read(HISTORY, "1")
    calls = [(t.source.line, c.name) for t in session.turns for c in t.tool_calls]
    assert calls == [
        (14, "edit"),
        (38, "shell"),
        (46, "edit"),
        (86, "edit"),
        (86, "shell"),
        (121, "edit"),
    ]
    applied = at_line(session, 14).tool_calls[0]
    assert (applied.input, applied.output, applied.failed) == (
        {"file_path": "calc.py"},
        "Applied edit to calc.py",
        False,
    )
    refused = at_line(session, 46).tool_calls[0]
    assert refused.failed and refused.is_error and refused.input == {"file_path": "calc.py"}
    assert refused.exit_code is None
    ran = at_line(session, 86).tool_calls[1]
    assert (ran.input, ran.exit_code, ran.failed) == ({"command": "pytest -q"}, None, False)


def test_notices_keep_tokens_commits_and_complaints_visible() -> None:
    session = read(HISTORY, "1")
    notice = at_line(session, 25)
    assert notice.role is Role.SYSTEM and notice.flags == TurnFlag.SYNTHETIC
    assert notice.text.splitlines() == [
        "Tokens: 7.0k sent, 1.2k cache write, 3.1k cache hit, 120 received. "
        "Cost: $0.01 message, $0.01 session.",
        "Applied edit to calc.py",
        "Commit 1a2b3c4 fix: add the numbers",
        "You can use /undo to undo and discard each aider commit.",
    ]
    usage = at_line(session, 14).usage
    assert (usage.input, usage.cache_write, usage.cache_read, usage.output) == (
        2700,
        1200,
        3100,
        120,
    )
    assert at_line(session, 14).model == "anthropic/claude-sonnet-4"


def test_a_multi_line_message_of_aider_runs_to_its_two_spaces() -> None:
    session = read(HISTORY, "1")
    notice = at_line(session, 69)
    assert notice.role is Role.SYSTEM
    assert notice.text.endswith("fixed versions of the block above that failed to match."), (
        "the blank lines and code inside aider's message stay in the message"
    )
    assert "\n\n## SearchReplaceNoExactMatch: This SEARCH block" in notice.text
    retry = session.turns[notice.index + 1]
    assert retry.role is Role.ASSISTANT and retry.source.line == 86


def test_reasoning_interrupts_and_api_errors() -> None:
    session = read(HISTORY, "1")
    thought = at_line(session, 46)
    kinds = [p.kind for p in thought.parts]
    assert kinds == [PartKind.REASONING, PartKind.TEXT, PartKind.TOOL]
    assert thought.parts[0].text == "The test wants a subtraction too."
    assert thought.text.startswith("calc.py\n```python")
    cut = at_line(session, 134)
    assert cut.text == "Working on it" and cut.flags & TurnFlag.INTERRUPTED
    other = read(HISTORY, "3")
    error = at_line(other, 149)
    assert error.role is Role.SYSTEM and error.flags & TurnFlag.ERROR
    assert error.text.startswith("litellm.APIConnectionError")


def test_reformatted_file_gets_a_notice_and_keeps_its_inputs() -> None:
    session = read(REFORMATTED, "1")
    assert len(session.notices) == 1 and "trailing spaces" in session.notices[0]
    assert "split wrongly" in session.notices[0]
    lines = [t.source.line for t in session.human_turns()]
    assert lines == [11, 30, 32, 44, 107, 132]
    assert read(HISTORY, "1").notices == []


# -- line endings, bad bytes and a line still being written -----------------------------------


def test_windows_line_endings_and_a_multi_line_banner(tmp_path: Path) -> None:
    # aider on Windows writes CRLF, and a --message with newlines echoes as "\r\r\n" lines
    path = tmp_path / ".aider.chat.history.md"
    path.write_bytes(
        b"\r\n# aider chat started at 2026-02-23 00:44:57\r\n\r\n"
        b"> C:\\Users\\dev\\.local\\bin\\aider --message \r\r\n"
        b"        1. Read TODO.md.\r\r\n"
        b"        2. Do the first task.  \r\n"
        b"> Aider v0.86.2  \r\n"
        b"> Model: deepseek/deepseek-chat with architect edit format  \r\n\r\n"
        b"####   \r\n"
        b"####         1. Read TODO.md.  \r\n"
        b"####         2. Do the first task.  \r\n"
        b"####  \r\n"
        b"> litellm.AuthenticationError: Authentication Fails  \r\n\r\n"
    )
    session = read(path, "1")
    assert [t.role for t in session.turns] == [Role.SYSTEM, Role.USER, Role.SYSTEM]
    assert "        1. Read TODO.md." in session.turns[0].text
    (typed,) = session.human_turns()
    assert typed.text == "\n        1. Read TODO.md.\n        2. Do the first task.\n"
    assert session.turns[2].flags & TurnFlag.ERROR
    assert session.model == "deepseek/deepseek-chat"


def test_bad_bytes_and_the_half_written_last_line() -> None:
    following = read(HISTORY, "3", final=False)
    assert [t.text for t in following.human_turns()][1:] == ["bad bytes \ufffd here", "continue"]
    last = "README.md now links the docs page."
    assert following.turns[-2].text == last  # "#### half-writ" has no newline yet
    done = read(HISTORY, "3")
    assert done.turns[-1].text == "#### half-writ"  # kept, though not yet aider's shape
    assert done.turns[-1].role is Role.ASSISTANT and done.skipped == []


# -- incremental reading ----------------------------------------------------------------------


@pytest.mark.parametrize("source,key", [(REAL, "1"), (HISTORY, "1"), (HISTORY, "3")])
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
    live.write_bytes(b"# aider chat started at 2026-03-02 10:00:00\n\n#### hi  \n\nFirst line.\n")
    reader = SPEC.open(SessionRef(format="aider", path=live, key="1"))
    reader.poll()
    assert [t.text for t in reader.session.turns[1:]] == ["hi", "First line."]
    with open(live, "ab") as handle:
        handle.write(b"Second line.\n")
    update = reader.poll()
    assert update.first_changed == 2
    assert reader.session.turns[2].text == "First line.\nSecond line."


def test_a_continued_run_waits_until_its_banner_says_so(tmp_path: Path) -> None:
    live = tmp_path / ".aider.chat.history.md"
    live.write_bytes(
        b"# aider chat started at 2026-03-02 10:00:00\n\n#### hi  \n\nHello.\n\n"
        b"# aider chat started at 2026-03-02 11:00:00\n\n> Aider v0.86.2  \n"
    )
    reader = SPEC.open(SessionRef(format="aider", path=live, key="1"))
    reader.poll()
    assert len(reader.session.turns) == 3  # the second run is not known to be ours yet
    with open(live, "ab") as handle:
        handle.write(b"> Restored previous conversation history.  \n\n#### again  \n")
    reader.poll()
    assert [t.text for t in reader.session.human_turns()] == ["hi", "again"]
    other = tmp_path / "other.md"
    other.write_bytes(live.read_bytes().replace(b"Restored previous", b"Dropped earlier"))
    assert [t.text for t in read(other, "1").human_turns()] == ["hi"]
    assert [t.text for t in read(other, "2").human_turns()] == ["again"]
    assert [r.key for r in SPEC.refs(other)] == ["1", "2"]


# -- sniffing -----------------------------------------------------------------------------


def test_sniff_accepts_aider_files() -> None:
    for path in (REAL, HISTORY, REFORMATTED):
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


def test_a_reformatted_multi_line_input_is_one_message(tmp_path: Path) -> None:
    """A Markdown formatter put a blank line between aider's `####` lines (headings to it) and
    dropped their trailing spaces: a pasted error, one `####` line per line of it, empty lines
    included, read as a dozen inputs, most of them empty (silences mid-paste)."""
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(
        "\n# aider chat started at 2024-08-20 14:08:19\n\n"
        "> Aider v0.50.1\n\n"
        "#### /clear\n\n"
        "#### /drop\n\n"
        "> Dropping all files from the chat session.\n\n"
        "#### the login page fails with this:\n\n"
        "#### invalid_request\n\n"
        "####\n\n"
        "####\n\n"
        "#### Request ID: 0f3c-19a2\n\n"
        "The redirect URI registered for the app does not match the one sent.\n\n"
        "#### <blank>\n\n"
        "#### ok\n\n"
        "Updating the callback URL now.\n",
        encoding="utf-8",
    )
    session = read(path, "1")
    commands = [t.text for t in session.turns if t.role is Role.USER and not t.is_human]
    assert commands == ["/clear", "/drop"]  # two commands in a row stay two
    pasted, enter, ok = session.human_turns()
    lines = ["the login page fails with this:", "invalid_request", "", "", "Request ID: 0f3c-19a2"]
    assert pasted.text == "\n".join(lines)
    assert enter.text == "" and enter.flags & TurnFlag.UNSENT  # a bare Enter is its own
    assert ok.text == "ok"
