"""Claude Code JSONL records shaped like the real client's, for live-follow tests and the bench.

Each record is a copy of a line Claude Code 2.1.197 wrote (the committed
real-client fixture) with fresh ids, parent chain and timestamp, so the real
reader parses them as it parses the agent's own file. `pivot_scene()` is a
stretch of work the detector should call a pivot: failed attempts, a bare
"ok", then the agent re-orients and acts on its own until the person speaks.
"""

from __future__ import annotations

import copy
import json
import time
import uuid
from typing import Any

from .real import CLAUDE_SHORT

_LINES = CLAUDE_SHORT.read_bytes().splitlines()
_PROMPT = json.loads(_LINES[2])  # user prompt, string content
_TEXT = json.loads(_LINES[6])  # assistant text block
_RESULT = json.loads(_LINES[13])  # user tool_result, is_error, "Exit code 1"
_TOOL_USE = json.loads(_LINES[14])  # assistant tool_use Bash


class ClaudeStream:
    """Builds the lines of one growing Claude Code session, one record per line."""

    def __init__(self, session_id: str = "5e55104c-0000-4000-8000-00000000b0b0") -> None:
        self.session_id = session_id
        self.parent: str | None = None
        self.count = 0
        self.clock = 1_800_000_000.0

    def _ids(self) -> tuple[str, str]:
        self.count += 1
        uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.session_id}/{self.count}"))
        return uid, f"msg_{uid.replace('-', '')[:24]}"

    def _finish(self, record: dict[str, Any]) -> bytes:
        uid, _ = self._ids()
        self.clock += 1.5
        record["uuid"] = uid
        record["parentUuid"] = self.parent
        record["sessionId"] = self.session_id
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(self.clock))
        record["timestamp"] = f"{stamp}.{int(self.clock * 1000) % 1000:03d}Z"
        self.parent = uid
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"

    def human(self, text: str) -> bytes:
        record = copy.deepcopy(_PROMPT)
        record["message"]["content"] = text
        return self._finish(record)

    def say(self, text: str) -> bytes:
        record = copy.deepcopy(_TEXT)
        record["message"]["id"] = self._ids()[1]
        record["message"]["content"] = [{"type": "text", "text": text}]
        return self._finish(record)

    def run(self, command: str, output: str, exit_code: int = 0) -> bytes:
        """An assistant Bash call and the user record carrying its result (two lines)."""
        call = copy.deepcopy(_TOOL_USE)
        call_id = "toolu_" + self._ids()[1][4:]
        call["message"]["id"] = self._ids()[1]
        call["message"]["content"] = [
            {
                "type": "tool_use",
                "id": call_id,
                "name": "Bash",
                "input": {"command": command, "description": command[:40]},
            }
        ]
        first = self._finish(call)
        result = copy.deepcopy(_RESULT)
        failed = exit_code != 0
        body = f"Exit code {exit_code}\n{output}" if failed else output
        result["message"]["content"] = [
            {"type": "tool_result", "content": body, "is_error": failed, "tool_use_id": call_id}
        ]
        result["toolUseResult"] = f"Error: {body}" if failed else {"stdout": output, "stderr": ""}
        result["sourceToolAssistantUUID"] = self.parent
        return first + self._finish(result)

    def pivot_scene(self, n: int) -> list[bytes]:
        """Records (one per list item; tool calls give two lines) making one silent pivot."""
        return [
            self.human(f"Get the inference server {n} running on port 80{n % 10}0."),
            self.say("I'll start the server and check it responds."),
            self.run(f"serve --port 80{n % 10}0", "Traceback: CUDA error: out of memory", 1),
            self.say("That failed with an out-of-memory error. Trying a smaller batch."),
            self.run(f"serve --port 80{n % 10}0 --batch 8", "RuntimeError: NCCL timeout", 1),
            self.say("Failed again: NCCL timed out. Trying without tensor parallelism."),
            self.run(f"serve --port 80{n % 10}0 --tp 1", "Killed (OOM)", 137),
            self.say("All three attempts failed (OOM, NCCL timeout, killed). I am out of ideas."),
            self.human("ok"),
            self.say(
                "## Current state\n- server does not start: OOM at batch 32, NCCL timeout at "
                "batch 8, killed at tp 1\n## Discoveries\n- memory is the limit\n## Next steps\n"
                "- enable CPU offload and retry\n- check NCCL env"
            ),
            self.run("export NCCL_P2P_DISABLE=1 && serve --offload", "server up on :8000", 0),
            self.run("curl -s localhost:8000/health", '{"status": "ok"}', 0),
            self.say("The server is up with offload; health check passes at 41 tok/s."),
            self.human("Thanks. Now write the deployment notes."),
            self.say("Writing the notes."),
        ]
