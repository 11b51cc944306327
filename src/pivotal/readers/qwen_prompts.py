"""Qwen Code prompts as turns, for both of its chat formats (`qwen`, `qwen_legacy`).

A prompt as recorded is not always what the person typed: older versions kept the
reminders the CLI put in front of it, and an `@path` prompt carries the files' text
after it. Both readers split such a prompt into the person's turn and injected ones.
"""

from __future__ import annotations

import re

from pivotal.model import Part, PartKind, Role, SourceRef, Turn, TurnFlag
from pivotal.readers.base import parse_timestamp, preview_of

REMINDER_OPEN, REMINDER_CLOSE = "<system-reminder>", "</system-reminder>"
REFERENCED_FILES = "\n--- Content from referenced files ---"
"""Where an `@path` prompt's expansion starts: the files' text, added by the CLI."""
_LEADING_REMINDER = re.compile(r"\s*<system-reminder>")


def split_prompt(text: str) -> tuple[str, str, str]:
    """(injected before, the person's words, injected after) of one recorded prompt.

    Before: the `<system-reminder>` blocks the CLI put in front of the prompt (older
    versions recorded them with it, joined without a separator). After: an `@path`
    prompt's expansion (the files' text). An unclosed reminder is left as it was typed.
    """
    before = ""
    body = text
    while _LEADING_REMINDER.match(body) is not None:
        end = body.find(REMINDER_CLOSE)
        if end < 0:
            break
        end += len(REMINDER_CLOSE)
        before, body = before + body[:end], body[end:]
    cut = body.find(REFERENCED_FILES)
    if cut < 0:
        return before, body, ""
    return before, body[:cut], body[cut:]


def prompt_turns(
    rec: dict, where: SourceRef, text: str, attachments: list[Part], typed: str | None = None
) -> list[Turn]:
    """A person's prompt as turns: the CLI's reminders (injected), the words the person
    typed (`typed` when the CLI kept them apart: an `@path` prompt), the files an `@path`
    pulled in (injected). One record, so all share its line; the person's turn keeps its id.
    """
    before, words, after = split_prompt(text)
    if typed is not None and after:
        words = typed
    turns = []
    if before:
        turns.append(injected_turn(Role.USER, TurnFlag.SYNTHETIC, rec, where, before, "reminder"))
    person = new_turn(Role.USER, TurnFlag.HUMAN, rec, where, words)
    person.parts = [Part(PartKind.TEXT, text=words), *attachments]
    turns.append(person)
    if after:
        turns.append(injected_turn(Role.USER, TurnFlag.SYNTHETIC, rec, where, after, "files"))
    return turns


def injected_turn(
    role: Role, flags: TurnFlag, obj: dict, where: SourceRef, text: str, tag: str
) -> Turn:
    """A turn the CLI added, from record `obj`: its id tagged, so ids stay unique."""
    turn = new_turn(role, flags, obj, where, text)
    if turn.message_id is not None:
        turn.message_id = f"{turn.message_id}#{tag}"
    turn.parts = [Part(PartKind.TEXT, text=text)]
    return turn


def new_turn(role: Role, flags: TurnFlag, obj: dict, where: SourceRef, text: str) -> Turn:
    """A turn of record `obj` (its time, its id), its parts left to the caller."""
    return Turn(
        index=0,
        role=role,
        flags=flags,
        timestamp=parse_timestamp(obj.get("timestamp")),
        message_id=where.record_id,
        source=where,
        preview=preview_of(text),
    )
