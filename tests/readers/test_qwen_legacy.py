"""Qwen Code's older whole-file chats (before 0.5), read as Qwen Code's, not Gemini's.

`~/.qwen/tmp/<sha256>/chats/session-<time>-<id8>.json` is Gemini CLI's chat document with
`"type": "qwen"` model messages, and every user message starts with the CLI's reminders
joined to what the person typed. One run writes several such files with one session id
(a compression or `/clear` starts a new one). The chats here are written in that shape:
pretty-printed, reminders one or two deep, an `@path` prompt with the files' text after
it, a continuation file of the same run, and a file whose id shares only its first eight
characters (the file name's) with the run.
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import SessionRef, TurnFlag
from pivotal.readers import read_session, sniff_path
from pivotal.readers.qwen_prompts import split_prompt
from surfaces import in_replayer, listed, through_cli

RUN = "1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d"
STRANGER = "1a2b3c4d-0000-4000-8000-000000000000"
AGENTS = (
    "<system-reminder>You have powerful specialized agents at your disposal, available agent"
    " types are: db-migrator, ui-reviewer. PROACTIVELY use the task tool to delegate user's"
    " task to appropriate agent when user's task matches agent capabilities. Ignore this"
    " message if user's task is not relevant to any agent. This message is for internal use"
    " only. Do not mention this to user in your response.</system-reminder>"
)
PLAN = (
    "<system-reminder>\nPlan mode is active. The user indicated that they do not want you to"
    " execute yet -- you MUST NOT make any edits.\n</system-reminder>"
)
FILES = (
    "\n--- Content from referenced files ---\nContent from @/home/dev/work/shop/db/001.sql:\n"
    "ALTER TABLE orders ADD COLUMN paid_at timestamp;\n\n--- End of content ---"
)
FIRST = "la migración falla en staging, revísala"
SECOND = "si"
THIRD = "@db/001.sql ¿por qué falla esto?"
LATER = "continua"


def _qwen(ident: str, stamp: str, text: str) -> dict:
    return {
        "id": ident,
        "timestamp": stamp,
        "type": "qwen",
        "content": text,
        "thoughts": [],
        "tokens": {
            "input": 31000,
            "output": 120,
            "cached": 0,
            "thoughts": 0,
            "tool": 0,
            "total": 31120,
        },
        "model": "coder-model",
    }


def _user(ident: str, stamp: str, text: str) -> dict:
    return {"id": ident, "timestamp": stamp, "type": "user", "content": text}


def chat(session_id: str, start: str, messages: list[dict]) -> str:
    doc = {
        "sessionId": session_id,
        "projectHash": "c" * 64,
        "startTime": start,
        "lastUpdated": messages[-1]["timestamp"],
        "messages": messages,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False)


def first_file() -> str:
    return chat(
        RUN,
        "2025-11-05T09:10:00.000Z",
        [
            _user("a1", "2025-11-05T09:10:05.000Z", AGENTS + FIRST),
            _qwen("a2", "2025-11-05T09:10:20.000Z", "Revisando la migración."),
            _qwen("a3", "2025-11-05T09:10:40.000Z", "El índice ya existe; ¿lo borro y sigo?"),
            _user("a4", "2025-11-05T09:11:00.000Z", AGENTS + PLAN + SECOND),
            _qwen("a5", "2025-11-05T09:11:30.000Z", "Hecho: borré el índice."),
            _user("a6", "2025-11-05T09:12:00.000Z", AGENTS + THIRD + FILES),
            _qwen("a7", "2025-11-05T09:12:30.000Z", "Falla porque la columna ya existe."),
        ],
    )


def second_file() -> str:
    return chat(
        RUN,
        "2025-11-05T10:42:00.000Z",
        [
            _user("b1", "2025-11-05T10:42:10.000Z", AGENTS + LATER),
            _qwen("b2", "2025-11-05T10:42:40.000Z", "Sigo con la siguiente migración."),
        ],
    )


def stranger_file() -> str:
    return chat(
        STRANGER,
        "2025-11-06T08:00:00.000Z",
        [
            _user("c1", "2025-11-06T08:00:10.000Z", AGENTS + "hola"),
            _qwen("c2", "2025-11-06T08:00:20.000Z", "Hola."),
        ],
    )


def qwen_home(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    home = tmp_path / "home"
    chats = home / ".qwen" / "tmp" / ("c" * 64) / "chats"
    chats.mkdir(parents=True)
    first = chats / "session-2025-11-05T09-10-1a2b3c4d.json"
    second = chats / "session-2025-11-05T10-42-1a2b3c4d.json"
    stranger = chats / "session-2025-11-06T08-00-1a2b3c4d.json"
    first.write_text(first_file(), encoding="utf-8")
    second.write_text(second_file(), encoding="utf-8")
    stranger.write_text(stranger_file(), encoding="utf-8")
    return home, first, second, stranger


def test_sniffed_as_qwen_inside_and_outside_a_qwen_folder(tmp_path: Path) -> None:
    _, first, _, _ = qwen_home(tmp_path)
    assert sniff_path(first).name == "qwen"
    elsewhere = tmp_path / "copied.json"
    elsewhere.write_text(first_file(), encoding="utf-8")
    assert sniff_path(elsewhere).name == "qwen"  # its "type": "qwen" messages say so


def test_reminders_and_file_text_are_injected_the_typed_words_the_persons(tmp_path: Path) -> None:
    _, first, _, _ = qwen_home(tmp_path)
    session = read_session(SessionRef(format="qwen", path=first))
    assert session.format == "qwen" and session.id == RUN
    assert [t.text for t in session.human_turns()] == [FIRST, SECOND, THIRD]
    assert [t.text for t in session.turns if t.role.value == "assistant"] == [
        "Revisando la migración.",
        "El índice ya existe; ¿lo borro y sigo?",
        "Hecho: borré el índice.",
        "Falla porque la columna ya existe.",
    ]
    injected = [t for t in session.turns if t.role.value == "user" and not t.is_human]
    assert [t.text for t in injected] == [AGENTS, AGENTS + PLAN, AGENTS, FILES]
    assert all(t.flags & TurnFlag.SYNTHETIC for t in injected)
    # the person's turn keeps the message's id (labels and marks point at it)
    assert [t.message_id for t in session.human_turns()] == ["a1", "a4", "a6"]
    assert [t.index for t in session.turns] == list(range(len(session.turns)))
    assert session.model == "coder-model"


async def test_every_surface_shows_what_the_person_typed(tmp_path: Path) -> None:
    home, first, second, stranger = qwen_home(tmp_path)
    cli = through_cli(first)
    assert cli.scan["format"] == "qwen"
    assert cli.person == [FIRST, SECOND, THIRD]
    assert len(cli.turns_by("injected")) == 4
    assert len(cli.turns_by("agent")) == 4
    notices = " ".join(cli.export["notices"])
    assert "in 2 files" in notices and "file 1 of 2" in notices and second.name in notices
    assert stranger.name not in notices
    rows = sorted(listed(home), key=lambda row: row["path"])
    assert [(Path(row["path"]).name, row["agent"], row["human_turns"]) for row in rows] == [
        (first.name, "qwen", 3),
        (second.name, "qwen", 1),
        (stranger.name, "qwen", 1),
    ]
    shown = await in_replayer(first)
    assert len(shown.person) == 3
    assert not any("system-reminder" in text or "ALTER TABLE" in text for text in shown.person)
    assert FIRST in shown.person[0] and THIRD in shown.person[2]


def test_the_continuation_file_names_the_first(tmp_path: Path) -> None:
    _, first, second, _ = qwen_home(tmp_path)
    later = read_session(SessionRef(format="qwen", path=second))
    assert [t.text for t in later.human_turns()] == [LATER]
    assert any("file 2 of 2" in n and first.name in n for n in later.notices)


def test_split_prompt_keeps_what_it_cannot_place_as_typed() -> None:
    assert split_prompt(AGENTS + "\n" + PLAN + "ok") == (AGENTS + "\n" + PLAN, "ok", "")
    assert split_prompt("<system-reminder>never closed ok") == (
        "",
        "<system-reminder>never closed ok",
        "",
    )
    assert split_prompt("see <system-reminder>x</system-reminder> here") == (
        "",
        "see <system-reminder>x</system-reminder> here",
        "",
    )
    assert split_prompt(AGENTS) == (AGENTS, "", "")
    assert split_prompt("@a.sql why" + FILES) == ("", "@a.sql why", FILES)
