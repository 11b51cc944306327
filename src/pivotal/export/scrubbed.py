"""A redacted copy of an export's input: session, turns, tool calls, pivots and notes.

Redaction happens on the model, before any format escapes the text: once a
Markdown renderer has put a backslash inside `sk-proj-ab\\_cd`, no pattern can
find the key any more. Every string field of every model struct and dataclass is redacted;
enum values (roles, kinds) are left alone, and lazy turns are decoded once.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import Any

import msgspec

from pivotal.export.redact import redact, redact_data
from pivotal.model import Turn


def scrub(value: Any, counts: Counter[str] | None = None, users: tuple[str, ...] = ()) -> Any:
    """`value` with every string inside it redacted (structs, dataclasses, lists, dicts, paths)."""
    if isinstance(value, Enum) or value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return redact(value, counts, users)
    if isinstance(value, Path):
        return Path(redact(str(value), counts, users))
    if isinstance(value, Turn):
        return _turn(value, counts, users)
    if isinstance(value, msgspec.Struct):
        changes = {
            name: scrub(getattr(value, name), counts, users) for name in value.__struct_fields__
        }
        return msgspec.structs.replace(value, **changes)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {
            f.name: scrub(getattr(value, f.name), counts, users)
            for f in dataclasses.fields(value)
            if f.init
        }
        return dataclasses.replace(value, **changes)
    if isinstance(value, list | tuple):
        return type(value)(scrub(v, counts, users) for v in value)
    if isinstance(value, dict):
        return redact_data(value, counts, users)
    return value


def _turn(turn: Turn, counts: Counter[str] | None, users: tuple[str, ...]) -> Turn:
    return Turn(
        index=turn.index,
        role=turn.role,
        flags=turn.flags,
        timestamp=turn.timestamp,
        message_id=scrub(turn.message_id, counts, users),
        source=scrub(turn.source, counts, users),
        model=scrub(turn.model, counts, users),
        usage=turn.usage,
        preview=scrub(turn.preview, counts, users),
        _parts=scrub(list(turn.parts), counts, users),
        extra=None,
    )
