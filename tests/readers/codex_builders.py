"""Codex rollout lines for tests, in the shapes the CLI writes (all text written for the tests).

`Rollout` hands out increasing timestamps and collects JSONL lines; `write` puts the file
where `~/.codex/sessions/YYYY/MM/DD/` keeps it, so `sessions --root HOME` finds it too.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

OUTLINE = """You **MUST** weigh the input above before you start (when it is not empty).

## Outline

1. From the repository root run `.tools/check.sh --json --tasks` and read FEATURE_DIR
   from its output. Use absolute paths only.
2. Open FEATURE_DIR/tasks.md and work through the open tasks in order; tick each one
   off as soon as it is done.
3. After every phase run the project's tests and stop at the first failure, saying
   what failed and why.
4. When everything is done, sum up what changed and which tasks are still open.
"""


def template(words: str) -> str:
    """A custom prompt as Codex expands it: frontmatter dropped, `$ARGUMENTS` replaced."""
    return f"\n## User Input\n\n```text\n{words}\n```\n\n{OUTLINE}"


def raw_template() -> str:
    """The same prompt file sent as it is: frontmatter kept, `$ARGUMENTS` left in."""
    return (
        "---\ndescription: Carry out the open tasks of the current feature.\n---\n\n"
        f"## User Input\n\n```text\n$ARGUMENTS\n```\n\n{OUTLINE}"
    )


class Rollout:
    """Lines of one rollout, each a millisecond (or `gap` seconds) after the one before."""

    def __init__(self, start: str = "2025-10-30T09:12:44.000", session_id: str = "") -> None:
        self.clock = datetime.fromisoformat(start).replace(tzinfo=UTC)
        self.start = self.clock
        self.session_id = session_id
        self.lines: list[str] = []

    def stamp(self, gap: float = 0.001) -> str:
        self.clock += timedelta(seconds=gap)
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.clock.microsecond // 1000:03d}Z"

    def add(self, kind: str, payload: dict[str, Any], gap: float = 0.001, at: str = "") -> str:
        stamp = at or self.stamp(gap)
        record = {"timestamp": stamp, "type": kind, "payload": payload}
        self.lines.append(json.dumps(record, ensure_ascii=False))
        return stamp

    # -- records -------------------------------------------------------------------
    def meta(self, version: str = "0.34.0") -> None:
        self.add(
            "session_meta",
            {
                "id": self.session_id,
                "timestamp": self.stamp(0),
                "cwd": "/home/dev/printer-kit",
                "originator": "codex_cli_rs",
                "cli_version": version,
                "instructions": None,
            },
        )

    def environment(self) -> None:
        text = "<environment_context>\n  <cwd>/home/dev/printer-kit</cwd>\n</environment_context>"
        self.message("user", [{"type": "input_text", "text": text}])

    def message(self, role: str, content: list[dict[str, Any]], ident: str = "") -> None:
        payload: dict[str, Any] = {"type": "message", "role": role, "content": content}
        if ident:
            payload = {"type": "message", "id": ident, "role": role, "content": content}
        self.add("response_item", payload, gap=1.0 if role == "user" else 0.001)

    def said(self, text: str, ident: str = "", image: bool = False) -> None:
        """The response copy of a person's message (an image framed as Codex frames it)."""
        content = [{"type": "input_text", "text": text}]
        if image:
            content += [
                {"type": "input_text", "text": '<image name=[Image #1] path="/tmp/shot.png">'},
                {"type": "input_image", "image_url": "data:image/png;base64,AAAA"},
                {"type": "input_text", "text": "</image>"},
            ]
        self.message("user", content, ident)

    def shown(self, text: str, kind: str | None = "plain", images: int = 0, at: str = "") -> str:
        """The event copy of a person's message."""
        payload: dict[str, Any] = {"type": "user_message", "message": text}
        if kind is not None:
            payload["kind"] = kind
        else:
            payload |= {"images": [], "local_images": [], "text_elements": []}
        if images:
            payload["local_images"] = ["/tmp/shot.png"] * images
        return self.add("event_msg", payload, at=at)

    def both(self, text: str, event_first: bool = False) -> None:
        if event_first:
            self.shown(text, kind=None)
            self.add("event_msg", {"type": "task_started", "model_context_window": 272000})
            self.said(text)
        else:
            self.said(text)
            self.shown(text)

    def reply(self, text: str, command: str = "") -> None:
        """One model response: an optional shell call with its output, then its message."""
        if command:
            call = f"call_{len(self.lines)}"
            arguments = json.dumps({"command": ["bash", "-lc", command]})
            self.add(
                "response_item",
                {"type": "function_call", "name": "shell", "arguments": arguments, "call_id": call},
                gap=2.0,
            )
            output = json.dumps({"output": "ok\n", "metadata": {"exit_code": 0}})
            self.add(
                "response_item",
                {"type": "function_call_output", "call_id": call, "output": output},
            )
        self.add("event_msg", {"type": "agent_message", "message": text}, gap=1.0)
        self.message("assistant", [{"type": "output_text", "text": text}])
        self.tokens()

    def tokens(self) -> None:
        usage = {"input_tokens": 900, "cached_input_tokens": 0, "output_tokens": 40}
        self.add("event_msg", {"type": "token_count", "info": {"last_token_usage": usage}})

    def compacted(self, summary: str) -> None:
        self.add("compacted", {"message": summary}, gap=5.0)

    def compacted_event(self) -> None:
        self.add("event_msg", {"type": "context_compacted"})

    def turn_context(self) -> None:
        self.add("turn_context", {"cwd": "/home/dev/printer-kit", "model": "gpt-5-codex"})

    # -- the file ------------------------------------------------------------------
    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def write(self, home: Path) -> Path:
        """`HOME/.codex/sessions/YYYY/MM/DD/rollout-<start>-<id>.jsonl`."""
        day = home / ".codex" / "sessions" / self.start.strftime("%Y/%m/%d")
        day.mkdir(parents=True, exist_ok=True)
        name = f"rollout-{self.start.strftime('%Y-%m-%dT%H-%M-%S')}-{self.session_id}.jsonl"
        path = day / name
        path.write_text(self.text, encoding="utf-8")
        return path
