"""A tiny JSONL chat reader (`{"role", "content"}` per line) for testing the tail.

It sits on the real `LineFileReader`, so partial lines, truncation,
replacement and deletion are handled by the same code every format uses.
"""

from __future__ import annotations

import json
from pathlib import Path

from pivotal.model import Part, PartKind, Role, SessionRef, SourceRef, Turn, TurnFlag
from pivotal.readers.base import decode_json
from pivotal.readers.lines import LineFileReader


class ChatReader(LineFileReader):
    format = "test-chat"

    def reset(self) -> None:
        pass

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        try:
            record = decode_json(line)
        except ValueError as exc:
            self.skip(line_no, f"malformed JSON: {exc}")
            return
        if not isinstance(record, dict) or record.get("role") not in ("user", "assistant"):
            self.skip(line_no, "not a chat record")
            return
        text = str(record.get("content", ""))
        role = Role(record["role"])
        flags = TurnFlag.HUMAN if role is Role.USER else TurnFlag.NONE
        source = SourceRef(line=line_no, offset=offset)
        turn = Turn(index=0, role=role, flags=flags, source=source, preview=text[:200])
        turn.parts = [Part(PartKind.TEXT, text)]
        self.append_turn(turn)


def chat_reader(path: Path) -> ChatReader:
    return ChatReader(SessionRef(format="test-chat", path=path))


def record(role: str, content: str) -> bytes:
    return (json.dumps({"role": role, "content": content}) + "\n").encode()
