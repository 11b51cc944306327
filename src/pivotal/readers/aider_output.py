"""What aider's own lines say: its `> ` output read for facts, and its runs grouped.

aider writes everything it says itself as `> ` lines ending in two spaces
(`io.py` `append_chat_history` with `blockquote=True, linebreak=True`). Most
of it is notices for the person (banners, confirm prompts, commit lines,
edit-format complaints); a few lines report what actually happened to the
code: an edit applied or refused, a shell command run, the tokens a reply
cost, the model in use, an interrupt, an API error. `Facts.of` reads one line
for those; everything else stays text in the notice turn.

The helpers below say what a line looks like (`input_like`, `output_like`)
and read a run's start time, which aider writes as local time without a zone.
`conversations` groups a history's runs (`# aider chat started at` blocks)
into conversations: a run whose banner says `Restored previous conversation
history.` continues the run before it; any other run starts a new one.
`run_header_ahead` finds a run's header without reading the lines before it.
"""

from __future__ import annotations

import os
import re
from datetime import datetime

import msgspec

from pivotal.model import Usage

HEADER = b"# aider chat started at "
HEADER_RE = re.compile(rb"^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", re.M)
RESTORED = "Restored previous conversation history"
"""What a run started with `--restore-chat-history` says among its banner lines."""
THINK_OPEN = "<thinking-content-"
THINK_CLOSE = "</thinking-content-"
"""How aider writes a model's reasoning at the start of a reply (`reasoning_tags.py`)."""

_TOKENS_RE = re.compile(
    r"Tokens:\s*([\d.,]+)\s*([kKmM]?)\s*sent(?:,\s*([\d.,]+)\s*([kKmM]?)\s*cache write)?"
    r"(?:,\s*([\d.,]+)\s*([kKmM]?)\s*cache hit)?,\s*([\d.,]+)\s*([kKmM]?)\s*received"
)
_MODEL_RE = re.compile(r"(?:Main model|Model):\s*(\S+)")
_APPLIED_RE = re.compile(r"Applied edit to (.+)")
_NO_MATCH_RE = re.compile(
    r"(?:## )?SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in (.+)"
)
_RUNNING_RE = re.compile(r"Running (.+)")
# lines that say the request to the model failed (matched on the lower-cased line)
_API_ERROR_STARTS = (
    "litellm.",
    "the api provider",
    "api error",
    "retrying in",
    "unexpected error",
)


class Facts(msgspec.Struct):
    """What one of aider's lines reports, if anything (at most one field is set)."""

    model: str | None = None
    usage: Usage | None = None
    applied: str | None = None
    """A file an edit was applied to."""
    refused: str | None = None
    """A file an edit block failed to match in."""
    ran: str | None = None
    """A shell command aider ran after the reply proposed it."""
    interrupted: bool = False
    api_error: bool = False

    @classmethod
    def of(cls, body: str) -> Facts | None:
        """The facts in one line of aider's output (without its `> ` and trailing spaces).

        Every pattern is anchored at the line's start, so a huge line costs one look.
        """
        if not body:
            return None
        first = body[0]
        found: Facts | None = None
        if first == "T":
            usage = _usage(body)
            found = cls(usage=usage) if usage is not None else None
        elif first == "A":
            match = _APPLIED_RE.match(body)
            found = cls(applied=match.group(1).strip()) if match else None
        elif first in "#S":
            match = _NO_MATCH_RE.match(body)
            found = cls(refused=match.group(1).strip()) if match else None
        elif first == "R":
            match = _RUNNING_RE.match(body)
            found = cls(ran=match.group(1).strip()) if match else None
        elif first == "M":
            match = _MODEL_RE.match(body)
            found = cls(model=match.group(1)) if match else None
        elif first == "^":  # "^C again to exit", "^C KeyboardInterrupt"
            found = cls(interrupted=True) if body.startswith("^C") else None
        if found is None and body[:16].lower().startswith(_API_ERROR_STARTS):
            found = cls(api_error=True)
        return found


def _tokens(number: str, unit: str) -> int:
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        return 0
    scale = {"k": 1e3, "m": 1e6}.get(unit.lower(), 1)
    return int(round(value * scale))


def _usage(line: str) -> Usage | None:
    match = _TOKENS_RE.match(line)
    if not match:
        return None
    sent = _tokens(match.group(1), match.group(2))
    write = _tokens(match.group(3), match.group(4)) if match.group(3) else 0
    hit = _tokens(match.group(5), match.group(6)) if match.group(5) else 0
    received = _tokens(match.group(7), match.group(8))
    return Usage(
        input=max(sent - write - hit, 0), output=received, cache_read=hit, cache_write=write
    )


# -- the shape of aider's lines -------------------------------------------------------------


def block_time(text: bytes) -> float | None:
    """aider writes local wall-clock time without a zone; read it as local time."""
    try:
        stamp = datetime.strptime(text.decode("ascii"), "%Y-%m-%d %H:%M:%S")
    except (UnicodeDecodeError, ValueError):
        return None
    return stamp.timestamp()


def input_like(text: str) -> bool:
    """The line starts like one of aider's input lines (`####`, then a space or nothing)."""
    return text.startswith("####") and (len(text) == 4 or text[4] == " ")


def output_like(text: str) -> bool:
    """The line starts like one of aider's output lines (`>`, then a space or nothing)."""
    return text.startswith(">") and (len(text) == 1 or text[1] == " ")


def plain_lines(lines: list[str]) -> list[str]:
    """Lines without trailing blanks on each, and without blank lines around them."""
    out = [line.rstrip() for line in lines]
    start, end = 0, len(out)
    while start < end and not out[start]:
        start += 1
    while end > start and not out[end - 1]:
        end -= 1
    return out[start:end]


# -- runs and conversations ----------------------------------------------------------------

_EVENT_RE = re.compile(
    rb"^(?:(?P<header># aider chat started at )"
    rb"|(?P<restored>> Restored previous conversation history)"
    rb"|(?P<input>####(?: [^\r\n]*)?  \r*$))",
    re.M,
)


class Run(msgspec.Struct):
    """One `# aider chat started at` block: where it starts and whether it restored the chat."""

    number: int
    start: int
    stamp: bytes
    restored: bool = False


def runs_of(data: bytes) -> list[Run]:
    """The runs of a history, each told whether its banner restored the previous chat.

    A run restored the chat when `> Restored previous conversation history.`
    comes before the run's first input line (aider prints it while starting).
    """
    runs: list[Run] = []
    decided = True
    for match in _EVENT_RE.finditer(data):
        if match.group("header") is not None:
            stamp = HEADER_RE.match(data, match.start())
            runs.append(Run(len(runs) + 1, match.start(), stamp.group(1) if stamp else b"", False))
            decided = False
        elif decided or not runs:
            continue
        elif match.group("restored") is not None:
            runs[-1].restored = True
            decided = True
        else:
            decided = True
    return runs


def conversations(runs: list[Run]) -> list[list[Run]]:
    """Runs grouped into conversations: a restoring run joins the one before it."""
    groups: list[list[Run]] = []
    for run in runs:
        if run.restored and groups:
            groups[-1].append(run)
        else:
            groups.append([run])
    return groups


_SCAN = 1 << 20


def run_header_ahead(fd: int, start: int, limit: int, wanted: int) -> tuple[int, int, int]:
    """(line start, run headers before it, newlines before it) from byte `start`, a line start.

    The line start is that of the `wanted`-th run header ahead, or of the last line
    before `limit` when fewer come first (`wanted` 0: always the last line). A header
    counts as the reader counts one: a whole line that starts with `# aider chat started at`.
    """
    base, rest, passed, newlines = start, b"", 0, 0
    mark = b"\n" + HEADER
    while base + len(rest) < limit:
        chunk = os.pread(fd, min(_SCAN, limit - base - len(rest)), base + len(rest))
        if not chunk:
            break
        buf = rest + chunk
        end = buf.rfind(b"\n") + 1  # [0, end) are whole lines; the rest waits for its newline
        starts = [0] if end and buf.startswith(HEADER) else []
        found = buf.find(mark)
        while found != -1 and found + 1 < end:
            starts.append(found + 1)
            found = buf.find(mark, found + 1)
        for at in starts:
            if passed + 1 == wanted:
                return base + at, passed, newlines + buf.count(b"\n", 0, at)
            passed += 1
        newlines += buf.count(b"\n", 0, end)
        base, rest = base + end, buf[end:]
    return base, passed, newlines
