"""The JSON export: the `scan --json` object for the session, extended with the transcript.

Every key of the scan schema keeps its meaning (`turns` stays the turn count,
`pivots` the scan pivots, each with an extra `after`: the agent's run that followed);
the export adds `schema`, session metadata, the
turns with their parts and tool calls (`transcript`), the person's marks and
the resume command. Strings from the session are cleaned, keys included, so
a consumer that prints a field cannot be driven by the session's escapes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from msgspec.structs import asdict

from pivotal.catalog.notes import session_key
from pivotal.catalog.stats import pivot_run
from pivotal.export.common import ExportInput, role_label
from pivotal.model import Part, ToolCall, Turn, TurnFlag
from pivotal.readers.base import preview_of
from pivotal.scan.report import iso, session_json
from pivotal.text.safe import clean, json_inert

SCHEMA = "pivotal.export/1"
_encode = msgspec.json.Encoder().encode


def cleaned(value: Any, depth: int = 0) -> Any:
    """JSON-like data with every string cleaned (deep or odd values become strings)."""
    if isinstance(value, str):
        return clean(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if depth > 64:
        return clean(repr(value), max_len=200)
    if isinstance(value, dict):
        return {clean(str(k)): cleaned(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [cleaned(v, depth + 1) for v in value]
    return clean(str(value))


def flag_names(flags: TurnFlag) -> list[str]:
    return [f.name.lower() for f in TurnFlag if f and f.name and flags & f]


def tool_json(call: ToolCall) -> dict[str, Any]:
    return {
        "call_id": clean(call.call_id),
        "name": clean(call.name),
        "input": cleaned(call.input),
        "output": clean(call.output) if call.output is not None else None,
        "is_error": call.is_error,
        "exit_code": call.exit_code,
        "duration_ms": call.duration_ms,
        "status": clean(call.status) if call.status else None,
        "failed": call.failed,
    }


def part_json(part: Part) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": part.kind.value}
    if part.tool is not None:
        out["tool"] = tool_json(part.tool)
    else:
        out["text"] = clean(part.text)
    return out


def turn_json(turn: Turn) -> dict[str, Any]:
    usage = turn.usage
    parts = [part_json(p) for p in turn.parts]  # first: a lazy turn's preview is set by this
    preview = turn.preview or preview_of(turn.text)
    return {
        "index": turn.index,
        "number": turn.index + 1,
        "role": turn.role.value,
        "who": role_label(turn),
        "flags": flag_names(turn.flags),
        "timestamp": iso(turn.timestamp),
        "epoch": turn.timestamp,
        "message_id": clean(turn.message_id) if turn.message_id else None,
        "source": {
            "line": turn.source.line,
            "record_id": clean(turn.source.record_id) if turn.source.record_id else None,
            "offset": turn.source.offset,
        },
        "model": clean(turn.model) if turn.model else None,
        "usage": asdict(usage) if usage is not None else None,
        "preview": clean(preview),
        "parts": parts,
    }


def export_json(data: ExportInput) -> dict[str, Any]:
    """The whole export as one dict (in memory: `json_chunks` streams the same document)."""
    out = export_head(data)
    out["transcript"] = [turn_json(t) for t in data.session.turns]
    return out


def export_head(data: ExportInput) -> dict[str, Any]:
    """Everything but the transcript, with `transcript` in its place (empty)."""
    s = data.session
    out = session_json(data.ref, s, data.pivots, data.possible)
    for item, pivot in zip(out["pivots"], data.pivots, strict=True):
        run = pivot_run(s, pivot)
        item["after"] = {
            "agent_turns": run.agent_turns,
            "minutes": run.minutes,
            "ended_by": run.ended_by,
        }
    out.update(
        {
            "path": clean(out["path"]),
            "key": clean(out["key"]) if out["key"] else None,
            "schema": SCHEMA,
            "session_key": clean(session_key(s)),
            "title": clean(s.title) if s.title else None,
            "cwd": clean(s.cwd) if s.cwd else None,
            "model": clean(s.model) if s.model else None,
            "started": iso(s.started),
            "ended": iso(s.ended),
            "notices": [clean(n) for n in s.notices],
            "spend": spend_json(data),
            "transcript": [],
            "marks": [
                {
                    "turn": m.turn_index,
                    "source_id": clean(m.source_id),
                    "note": clean(m.note),
                    "created": iso(m.created),
                }
                for m in data.marks
            ],
            "resume": {
                "argv": [clean(a) for a in data.resume.argv] if data.resume else [],
                "cwd": clean(data.resume.cwd) if data.resume and data.resume.cwd else None,
                "display": data.resume.display if data.resume else "",
                "note": data.resume.note if data.resume else "",
            },
        }
    )
    return out


def spend_json(data: ExportInput) -> dict[str, Any]:
    """The session's tokens and dollars: its own responses, its sub-agents', and both."""
    spend = data.spend()
    return {
        "total": spend.total.as_json(clean),
        "own": spend.own.as_json(clean),
        "subagents": [
            {
                "path": clean(str(sub.ref.path)),
                "key": clean(sub.ref.key) if sub.ref.key else None,
                "title": clean(sub.title) if sub.title else None,
                "call_id": clean(sub.call_id) if sub.call_id else None,
                "turn": sub.parent_turn,
                "turns": sub.turns,
                "calls": sub.calls,
                "failed": sub.failed,
                "seconds": None if sub.seconds is None else round(sub.seconds, 1),
                "error": clean(sub.error) if sub.error else None,
                **sub.tally.as_json(clean),
            }
            for sub in spend.subagents
        ],
    }


_SLOT = '"transcript":[]'


def render_json(data: ExportInput) -> str:
    return "".join(json_chunks(data))


def json_chunks(data: ExportInput) -> Iterator[str]:
    """The export as one JSON line, written turn by turn: the rest of the document is
    encoded around an empty `transcript`, which is then filled one encoded turn at a time.
    C1 controls, DEL, bidi and invisible characters are `\\u` escapes, as in `scan --json`,
    so `cat` or `jq .` cannot deliver them raw."""
    document = json_inert(_encode(export_head(data)).decode())
    before, _, after = document.partition(_SLOT)  # a session's own text cannot hold it unescaped
    yield before + '"transcript":['
    for number, turn in enumerate(data.session.turns):
        encoded = json_inert(_encode(turn_json(turn)).decode())
        yield ("," if number else "") + encoded
    yield "]" + after + "\n"
