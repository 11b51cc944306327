"""Claude Code's own lines as a person reads them: its system records, slash commands and
usage-limit replies.

Claude Code writes much of what it shows in its transcript as data for its client to
format: an API error and its retry as fields with no text (`api_error`), a slash command
as tags (`<command-name>/model</command-name>` …) and what it printed inside
`<local-command-stdout>`, with the terminal's colours, and 1.0's usage limit with the reset
as seconds since the epoch. Read as they are, they showed as the tags, a raw number or (an
API error) the compaction's fallback words. Each is said here in one short line of its
own, from its own fields or words, or not at all; the flags the detector reads are the
reader's, unchanged.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from pivotal.model import TurnFlag
from pivotal.text.unsafe import SGR

QUIET_SUBTYPES = ("turn_duration", "stop_hook_summary", "session_start")
"""`system` records of Claude Code's bookkeeping (how long a turn took, which Stop hooks ran,
a session started): no words, nothing its transcript shows."""
API_ERROR = "api_error"
MESSAGE_CUT = 100
"""The most characters of an error's message a line shows (a proxy's may be paragraphs)."""


def system_line(subtype: str, content: str, record: object) -> tuple[str, TurnFlag]:
    """A `system` record other than a compaction, a recap, a notice or a model switch, as one
    line and its flags: an API error (`api_error`, `error`) or a refusal (`api_refusal`) in a
    short sentence from its fields, flagged an error; a local command (`local_command`) as
    the person typed it or its output; any other subtype in its own words (`content`), or
    "" when it has none: never another record's meaning. `record` is the decoded line (None
    when only `content` was needed: `needs_fields`)."""
    fields = record if isinstance(record, dict) else {}
    if subtype in (API_ERROR, "error"):
        return error_sentence(fields, content, retrying=subtype == API_ERROR), _FAILED
    if subtype == "api_refusal":
        category = _text(fields.get("apiRefusalCategory"))
        why = _text(fields.get("apiRefusalExplanation"))
        text = "The API refused the request" + (f" ({category})" if category else "")
        return text + (f": {_cut(why)}" if why else ""), _FAILED
    if subtype == "local_command":
        shown = command_text(content)
        return ("" if shown == NO_OUTPUT else shown or content.strip()), TurnFlag.SYNTHETIC
    return content.strip(), TurnFlag.SYNTHETIC


def needs_fields(subtype: str) -> bool:
    """Whether `system_line` reads the record's fields (the line is decoded whole then)."""
    return subtype in (API_ERROR, "error", "api_refusal")


_FAILED = TurnFlag.SYNTHETIC | TurnFlag.ERROR


def error_sentence(fields: dict[str, object], content: str, *, retrying: bool) -> str:
    """`API error 500, retrying (1 of 10): <its message>`: the HTTP status (none when the
    request never got an answer), the retry Claude Code made (`retryAttempt` of
    `maxRetries`), and the message the API or a proxy gave, cut to `MESSAGE_CUT`."""
    error = fields.get("error")
    status = _status(error)
    said = _error_message(error) or _error_message(fields.get("cause")) or content.strip()
    text = ("API error" if retrying else "Error") + (f" {status}" if status else "")
    attempt, most = _count(fields.get("retryAttempt")), _count(fields.get("maxRetries"))
    if retrying and attempt:
        text += f", retrying ({attempt} of {most})" if most else f", retrying (attempt {attempt})"
    return text + (f": {_cut(said)}" if said else "")


def _status(error: object) -> int:
    status = error.get("status") if isinstance(error, dict) else None
    return status if isinstance(status, int) and not isinstance(status, bool) else 0


def _count(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return 0


def _error_message(error: object, depth: int = 0) -> str:
    """The message of an error as Claude Code stored it: a string, or an object whose message
    is its own (`message`), the API's body it wraps (`error.error.message`, as a proxy relays
    it), or its cause's (`ECONNRESET`); a bare `type` (`overloaded_error`) last."""
    if isinstance(error, str):
        return error.strip()
    if not isinstance(error, dict) or depth > 3:
        return ""
    for key in ("message", "error", "cause"):
        found = _error_message(error.get(key), depth + 1)
        if found:
            return found
    code = _text(error.get("code"))
    if code:
        return code
    kind = _text(error.get("type"))
    return kind.replace("_", " ") if kind not in ("", "error") else ""


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_CUT else text[: MESSAGE_CUT - 1].rstrip() + "…"


_COMMAND_TAG = re.compile(r"<(command-name|command-message|command-args)>(.*?)</\1>", re.DOTALL)
_OUTPUT_TAG = re.compile(r"<(local-command-stdout|local-command-stderr)>(.*?)</\1>", re.DOTALL)
COMMAND_STARTS = ("<command-name>", "<command-message>", "<command-args>")
OUTPUT_STARTS = ("<local-command-stdout>", "<local-command-stderr>")
NO_OUTPUT = "(no output)"


def command_text(text: str) -> str | None:
    """How a slash command's records read: the command as the person typed it (`/model opus`
    from its `<command-name>` and `<command-args>`; the `<command-message>` Claude Code adds
    is left out), or what it printed without its tags and colours (`NO_OUTPUT` when it
    printed nothing). None when `text` is anything more than those tags."""
    head = text.lstrip()
    if head.startswith(COMMAND_STARTS):
        if _COMMAND_TAG.sub("", head).strip():
            return None
        tags: dict[str, str] = {}
        for found in _COMMAND_TAG.finditer(head):
            tags.setdefault(found[1], found[2].strip())
        name = tags.get("command-name", "")
        if not name:
            return None
        name = name if name.startswith("/") else f"/{name}"  # 1.0.2x wrote no slash
        args = tags.get("command-args", "")
        return f"{name} {args}" if args else name
    if head.startswith(OUTPUT_STARTS):
        if _OUTPUT_TAG.sub("", head).strip():
            return None
        printed = (SGR.sub("", found[2]).strip() for found in _OUTPUT_TAG.finditer(head))
        said = "\n".join(out for out in printed if out)
        return said or NO_OUTPUT
    return None


_USAGE_LIMIT = re.compile(r"\s*(Claude AI usage limit reached)\|(\d{10})\s*\Z")
"""Claude Code 1.0's usage-limit reply (and the session title it made of it): the words, a
bar, and when the limit resets in seconds since the epoch (ten digits: 2001 to 2286), for the
client to show."""


def usage_limit_text(text: str) -> str:
    """`Claude AI usage limit reached|1755212400` as a person reads it: the reset at the end
    in UTC, as the transcript's clock shows times (`… (resets 2025-08-14 23:00 UTC)`, the
    date too: a weekly limit resets days later). Any other text is returned as it is."""
    if "|" not in text:
        return text
    found = _USAGE_LIMIT.match(text)
    if found is None:
        return text
    try:
        when = datetime.fromtimestamp(int(found[2]), UTC)
    except (OverflowError, OSError, ValueError):
        return text
    return f"{found[1]} (resets {when:%Y-%m-%d %H:%M} UTC)"
