"""Codex rollout records decoded: the file's first line, and each payload's content.

What `pivotal.readers.codex` needs to know about the shape of one record
(recognising a rollout, its `session_meta`, message content, tool output,
token usage, harness text), kept apart from how it builds turns from a
stream of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from pivotal.model import Part, PartKind, SessionRef, Usage
from pivotal.readers.base import decode_json, decode_json_start, parse_timestamp, sane_duration
from pivotal.readers.codex_children import parent_thread

FORMAT = "codex"

# User-role text the harness injects (matched at the start of the stripped text).
HARNESS_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions for",
    "<skills_instructions>",
    "<skill>",
    "<user_shell_command>",
    "<turn_aborted>",
    "<subagent_notification>",
    "<permissions instructions>",
    "<collaboration_mode>",
    "<apps_instructions>",
    "<user_action>",  # a /review's findings, handed back to the model after the review
    "Another language model started to solve this problem",
)
_SNIFF_TYPES = (b"session_meta", b"response_item", b"event_msg", b"turn_context")
_SNIFF_RE = re.compile(rb'^\s*\{"timestamp":"[^"]{0,40}",(?:"ordinal":\d+,)?"type":"([a-z_]+)"')
_IMAGE_FRAME = re.compile(r"\s*</?image\b[^<>]*>\s*")
"""A text block that only frames an image: the image is the attachment, not words."""
SUMMARY_PREFIX = "Another language model started to solve this problem"

# Tool outputs that report a failure without an exit code (compared lower-cased).
ERROR_PREFIXES = (
    "apply_patch verification failed",
    "unsupported call",
    "failed to parse function arguments",
    "aborted by user",
    "execution error",
    "error:",
    "failed in sandbox",  # 0.3x-0.4x: the sandbox denied the command or it timed out
    "exec_command failed",  # 0.10x on: the command could not be started or was refused
    "write_stdin failed",  # the session it wrote to was gone or closed
)
_REJECTED = "` rejected: "
"""How Codex says the exec policy refused a command: "`<command>` rejected: <reason>"."""


def refused(text: str) -> bool:
    """Codex's own words that a call failed or never ran: no wrapper, so no exit code.

    Read off the text's opening (`ERROR_PREFIXES`) or, for a refusal, its last line; the
    rest of an output that does not open that way is never scanned."""
    head = text[:200].lstrip()
    if head.startswith("Wall time: ") and "\n" in head:  # "Wall time: 11.7 seconds\naborted …"
        head = head.partition("\n")[2].lstrip()
    if head[:40].lower().startswith(ERROR_PREFIXES):
        return True
    if not head.startswith("`"):
        return False
    _, found, reason = text.rpartition(_REJECTED)
    return bool(found) and "\n" not in reason.strip()


def dicts(value: object) -> list[dict]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def content_text(content: object) -> tuple[list[str], list[Part]]:
    """Texts (kept verbatim: an empty prompt stays "") and attachment placeholders.

    The text blocks Codex writes around an attached image (`<image name=[Image #1]>`,
    `</image>`) are not the person's words: the image itself is the attachment.
    """
    if isinstance(content, str):
        return [content], []
    texts: list[str] = []
    attachments: list[Part] = []
    for block in dicts(content):
        kind = block.get("type")
        if kind in ("input_text", "output_text", "text"):
            text = block.get("text")
            if (
                isinstance(text, str)
                and text[:9].lstrip().startswith(("<image", "</image"))
                and _IMAGE_FRAME.fullmatch(text)
            ):
                continue  # the `<image name=[Image #1]>` … `</image>` around an attached image
            texts.append(text if isinstance(text, str) else "")
        elif kind in ("input_image", "image"):
            attachments.append(Part(PartKind.ATTACHMENT, text="[image]"))
        elif kind == "input_file":
            name = block.get("filename")
            attachments.append(Part(PartKind.ATTACHMENT, text=f"[file {name or ''}]".strip()))
    return texts, attachments


def is_harness(item: dict, text: str) -> bool:
    """Whether a user-role message was injected by Codex rather than typed."""
    passthrough = item.get("internal_chat_message_metadata_passthrough")
    if isinstance(passthrough, dict):
        kinds = [
            (m.get("provenance") or {}).get("type")
            for m in dicts(passthrough.get("content_item_metadata"))
            if isinstance(m.get("provenance"), dict)
        ]
        if kinds:
            return "user" not in kinds
    return text.lstrip().startswith(HARNESS_PREFIXES)


def output_fields(output: object) -> tuple[str, bool | None, int | None, float | None]:
    """(text, success flag, exit code, duration ms) of a function_call_output."""
    success = None
    if isinstance(output, dict):
        success = output.get("success") if isinstance(output.get("success"), bool) else None
        output = output.get("content", output.get("output", ""))
    if isinstance(output, list):
        texts = [b.get("text") for b in dicts(output) if isinstance(b.get("text"), str)]
        # code mode's first block is its wrapper, ending in "Output:\n": no blank line after
        output = "".join(
            t if i == 0 or texts[i - 1].endswith("\n") else "\n" + t for i, t in enumerate(texts)
        )
    if not isinstance(output, str):
        output = "" if output is None else str(output)
    exit_code = duration = None
    if output.startswith("{") and '"metadata"' in output:
        # 2025 rollouts: {"output": "...", "metadata": {"exit_code": 1, "duration_seconds": 0.1}}
        try:
            inner = msgspec.json.decode(output)
        except msgspec.DecodeError:
            inner = None
        if isinstance(inner, dict) and isinstance(inner.get("metadata"), dict):
            meta = inner["metadata"]
            if isinstance(meta.get("exit_code"), int):
                exit_code = meta["exit_code"]
            seconds = meta.get("duration_seconds")
            if isinstance(seconds, int | float) and not isinstance(seconds, bool):
                duration = sane_duration(seconds * 1000.0 if abs(seconds) < 1e300 else None)
            if isinstance(inner.get("output"), str):
                output = inner["output"]
    return output, success, exit_code, duration


_WRAPPER_KEYS = (
    "Chunk ID:",
    "Wall time:",
    "Process exited with code",
    "Process running with session ID",
    "Original token count:",
    "Exit code:",
    "Total output lines:",
    "Script completed",
    "Script failed",
    "Script running with cell ID",
)
_WRAPPER_LINE = re.compile(
    r"(?:Chunk ID: \S*|Wall time: (?P<wall>[0-9]+(?:\.[0-9]+)?) seconds?"
    r"|Process exited with code (?P<code>-?\d{1,9})|Exit code: (?P<exit>-?\d{1,9})"
    r"|Process running with session ID \S+|Original token count: \d+|Total output lines: \d+"
    r"|Script completed|(?P<failed>Script failed)|Script running with cell ID \S+"
    r"|Wall time (?P<code_wall>[0-9]+(?:\.[0-9]+)?) seconds?)"
)
"""The wrapper's lines; code mode's (`exec`, 2026) has its own: `Script completed` or
`Script failed`, `Wall time 0.2 seconds`, then `Output:` (the exit code of the commands the
script ran is not said)."""


class Unwrapped(msgspec.Struct):
    """A command's output without the lines Codex wraps it in, and what those lines said."""

    output: str
    exit_code: int | None = None
    duration_ms: float | None = None
    failed: bool = False
    """Code mode's `Script failed`: the script itself failed (an error, not a command's exit)."""


_COMMAND_HEAD = "Command: "
_AFTER_COMMAND = "\nChunk ID: "


def unwrap(text: str) -> Unwrapped | None:
    """Split Codex's wrapper (`Chunk ID`, `Wall time`, `Process exited with code N`,
    `Original token count`, then `Output:`) from the command's own output.

    Older shells wrote `Exit code: N` / `Wall time` / `Output:`; an intercepted
    `apply_patch` nests one wrapper in another; 0.115 on, `Command: <the command>`
    heads the wrapper (the command may run over several lines: a heredoc). None when
    `text` does not start with a wrapper (the output is then the tool's own words,
    kept whole).
    """
    if text.startswith(_COMMAND_HEAD):
        at = text.find(_AFTER_COMMAND)
        return unwrap(text[at + 1 :]) if at > 0 else None
    found: Unwrapped | None = None
    while text.startswith(_WRAPPER_KEYS):
        head, _, rest = text.partition("\nOutput:")
        if rest and not rest.startswith("\n"):
            break
        code = wall = None
        failed = False
        for line in head.split("\n"):
            match = _WRAPPER_LINE.fullmatch(line.strip())
            if match is None:
                return found  # not a wrapper after all: keep what is known
            code = match.group("code") or match.group("exit") or code
            wall = match.group("wall") or match.group("code_wall") or wall
            failed = failed or match.group("failed") is not None
        if found is None:
            found = Unwrapped(text)
        found.output = text = rest[1:] if rest else ""
        if found.exit_code is None and code is not None:
            found.exit_code = int(code)
        if found.duration_ms is None and wall is not None:
            found.duration_ms = sane_duration(float(wall) * 1000.0)
        found.failed = found.failed or failed
    return found


def duration_ms(value: object) -> float | None:
    if isinstance(value, dict):
        secs, nanos = value.get("secs", 0), value.get("nanos", 0)
        if isinstance(secs, int | float) and isinstance(nanos, int | float):
            try:
                return sane_duration(secs * 1000.0 + nanos / 1e6)
            except OverflowError:  # an integer beyond any float
                return None
    return sane_duration(value)


def usage_from(data: dict) -> Usage:
    def num(key: str) -> int:
        value = data.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    cached = num("cached_input_tokens")
    return Usage(
        input=max(num("input_tokens") - cached, 0),
        output=num("output_tokens"),
        cache_read=cached,
        cache_write=num("cache_write_input_tokens"),
        reasoning=num("reasoning_output_tokens"),
    )


def sniff(path: Path, head: bytes) -> bool:
    """A rollout starts with a `session_meta` line (or, when resumed oddly, another item)."""
    if path.is_dir():
        return False
    first = head.lstrip()[:4096]
    match = _SNIFF_RE.match(first)
    if match:
        return match.group(1) in _SNIFF_TYPES
    line, newline, _ = head.partition(b"\n")
    try:
        obj = decode_json(line)
    except ValueError:  # a first record longer than the head: known by its leading keys
        obj = None if newline else decode_json_start(line)
    if not isinstance(obj, dict):
        return False
    if obj.get("type") in ("session_meta", "response_item", "event_msg", "turn_context"):
        return isinstance(obj.get("payload"), dict) and "timestamp" in obj
    # pre-2025 rollouts: a bare meta line {"id", "timestamp", "instructions"?, "git"?}
    return (
        "type" not in obj
        and isinstance(obj.get("id"), str)
        and "timestamp" in obj
        and ("instructions" in obj or "git" in obj)
        and "sessionId" not in obj
    )


def refs(path: Path) -> list[SessionRef]:
    """The one session of a rollout, with its id, cwd and start time from `session_meta`
    (and, for a spawned sub-agent, the thread that spawned it)."""
    try:
        st = path.stat()
        with open(path, "rb") as handle:
            first = handle.readline(1 << 20)
    except OSError:
        return [SessionRef(format=FORMAT, path=path)]
    meta: dict = {}
    try:
        obj = decode_json(first)
    except ValueError:
        obj = None
    if isinstance(obj, dict) and obj.get("type") == "session_meta":
        meta = obj.get("payload") if isinstance(obj.get("payload"), dict) else {}
    ident, cwd = meta.get("id"), meta.get("cwd")
    return [
        SessionRef(
            format=FORMAT,
            path=path,
            session_id=ident if isinstance(ident, str) else None,
            cwd=cwd if isinstance(cwd, str) else None,
            started=parse_timestamp(meta.get("timestamp")),
            size=st.st_size,
            updated=st.st_mtime,
            parent=parent_thread(meta),
        )
    ]
