"""aider's `.aider.chat.history.md`: many sessions appended to one Markdown file.

Each run starts with `# aider chat started at YYYY-MM-DD HH:MM:SS`; `refs()`
returns one session per such block (key = block number, from 1) and a reader
reads only its block (the last block keeps growing while aider runs).

Inside a block:
* `#### text` lines are what the person typed; consecutive `####` lines are one
  multi-line prompt. `#### <blank>` or `####` followed by spaces only is an
  EMPTY human turn (aider writes empty input that way). `#### /cmd` is a
  command: a SYNTHETIC user turn, not a human one.
* Plain Markdown is the model's reply. aider writes no reply boundaries, so a
  reply ends at the next `>` run or `####` line; text after a `>` run is the
  next reply (aider retries on its own after an edit-format error).
* `> ` blockquote lines are aider's own output. A run of them right after a
  reply (token report, "Applied edit to ...", edit-format errors, confirm
  prompts) is folded into that reply as one ToolCall named "aider" whose
  output is the lines, flagged is_error when a line reports a failure, and
  the "Tokens: N sent, M received" line becomes the reply's usage. A run
  anywhere else (the version banner at the start of a block, notices after a
  prompt) is a SYSTEM turn flagged SYNTHETIC.
* A `> ^C ...` line (the person pressed Ctrl+C) flags the turn INTERRUPTED.
* Code fences are tracked so `>` or `####` inside a fenced block stay reply text.

aider writes no per-message times: only the first turn of a block gets the
block's start time. Blank lines are not passed to `handle_line`; they are
recovered from gaps in the line numbers (paragraph breaks in replies).
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pivotal.model import (
    Part,
    PartKind,
    Role,
    SessionRef,
    SourceRef,
    ToolCall,
    Turn,
    TurnFlag,
    Usage,
)
from pivotal.readers.base import FormatSpec, preview_of
from pivotal.readers.lines import LineFileReader

FORMAT = "aider"
HEADER = b"# aider chat started at "
_HEADER_RE = re.compile(rb"^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)", re.M)
_TOKENS_RE = re.compile(
    r"Tokens:\s*([\d.,]+)\s*([kKmM]?)\s*sent(?:,\s*([\d.,]+)\s*([kKmM]?)\s*cache write)?"
    r"(?:,\s*([\d.,]+)\s*([kKmM]?)\s*cache hit)?,\s*([\d.,]+)\s*([kKmM]?)\s*received"
)
# aider's own failure lines start like these (matched on the lower-cased line)
_ERROR_STARTS = (
    "the llm did not conform",
    "no filename provided",
    "error",
    "litellm.",
    "unable to",
    "failed to",
    "malformed",
    "exception",
    "can't ",
    "cannot ",
)
_MODEL_RE = re.compile(r"^(?:Main model|Model):\s*(\S+)")
_COMMAND_RE = re.compile(r"^/[A-Za-z][\w-]*(?:\s|$)")
_BLANK = "<blank>"


def _block_time(text: bytes) -> float | None:
    """aider writes local wall-clock time without a zone; read it as local time."""
    try:
        stamp = datetime.strptime(text.decode("ascii"), "%Y-%m-%d %H:%M:%S")
    except (UnicodeDecodeError, ValueError):
        return None
    return stamp.timestamp()


class AiderReader(LineFileReader):
    format = FORMAT
    WHOLE_LAST_RECORD = False  # Markdown: a line without its newline may still grow

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._want = int(ref.key) if ref.key and ref.key.isdigit() else None
        self.reset()

    def reset(self) -> None:
        self._block = 0
        self._started: float | None = None
        self._turn: Turn | None = None
        self._mode = ""  # "user", "reply", "quote" or "" (nothing open)
        self._lines: list[str] = []
        self._last_line = 0
        self._fence = False
        self._model: str | None = None

    def _mine(self) -> bool:
        return self._want is None or self._block == self._want

    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        gap = line_no - self._last_line - 1 if self._last_line else 0
        self._last_line = line_no
        if line.startswith(HEADER):
            self._block += 1
            self._close()
            if self._mine():
                match = _HEADER_RE.match(line)
                self._started = _block_time(match.group(1)) if match else None
                if self.session.started is None:
                    self.session.started = self._started
            return
        if not self._mine():
            return
        text = line.decode("utf-8", "replace")
        where = SourceRef(line=line_no, offset=offset)
        if self._fence and self._mode == "reply":
            self._reply_line(text, gap, where)
            return
        if text.startswith("####") and (len(text) == 4 or text[4] == " "):
            self._user_line(text[5:], gap, where)
        elif text.startswith(">") and (len(text) == 1 or text[1] == " "):
            self._quote_line(text[2:].rstrip(), where)
        else:
            self._reply_line(text, gap, where)

    # -- the three kinds of lines ----------------------------------------------
    def _user_line(self, body: str, gap: int, where: SourceRef) -> None:
        body = body.rstrip()
        if body == _BLANK:
            body = ""
        if self._mode == "user" and gap == 0 and self._turn is not None:
            self._lines.append(body)
            self._set_text(self._turn, "\n".join(self._lines))
            return
        self._close()
        command = bool(_COMMAND_RE.match(body))
        flags = TurnFlag.SYNTHETIC if command else TurnFlag.HUMAN
        self._open(Role.USER, flags, where, "user", [body])

    def _quote_line(self, body: str, where: SourceRef) -> None:
        if self._mode == "quote" and self._turn is not None:
            self._add_quote(body)
            return
        reply = self._turn if self._mode == "reply" else None
        self._close()
        if reply is not None:
            call = ToolCall(call_id=f"aider-{where.line}", name="aider", input="aider output")
            call.status = "completed"
            reply.parts.append(Part(PartKind.TOOL, tool=call))
            self._turn, self._mode, self._lines = reply, "quote", []
        else:
            self._open(Role.SYSTEM, TurnFlag.SYNTHETIC, where, "quote", [])
        self._add_quote(body)

    def _reply_line(self, text: str, gap: int, where: SourceRef) -> None:
        if self._mode != "reply" or self._turn is None:
            self._close()
            self._open(Role.ASSISTANT, TurnFlag.NONE, where, "reply", [text])
        else:
            self._lines.extend([""] * gap)
            self._lines.append(text)
            self._set_text(self._turn, "\n".join(self._lines))
        if text.lstrip().startswith("```"):
            self._fence = not self._fence

    # -- turns -------------------------------------------------------------------
    def _open(self, role: Role, flags: TurnFlag, where: SourceRef, mode: str, lines: list[str]):
        first = not self.session.turns
        turn = Turn(index=0, role=role, flags=flags, source=where)
        turn.timestamp = self._started if first else None
        if role is Role.ASSISTANT:
            turn.model = self._model
        turn.parts = [Part(PartKind.TEXT, text="\n".join(lines))]
        turn.preview = preview_of(turn.parts[0].text)
        self.append_turn(turn)
        self._turn, self._mode, self._lines = turn, mode, lines

    def _set_text(self, turn: Turn, text: str) -> None:
        turn.parts[0].text = text
        turn.preview = preview_of(text)
        self.mark_changed(turn.index)

    def _add_quote(self, body: str) -> None:
        turn = self._turn
        if turn is None:
            return
        self._lines.append(body)
        joined = "\n".join(self._lines)
        if body.startswith("^C"):  # "^C again to exit", "^C KeyboardInterrupt"
            turn.flags |= TurnFlag.INTERRUPTED
        call = turn.parts[-1].tool
        if call is None:  # a SYSTEM notice turn (the banner names the model)
            model = _MODEL_RE.match(body)
            if model:
                self._model = self.session.model = model.group(1)
            self._set_text(turn, joined)
            return
        call.output = joined
        if body.lower().startswith(_ERROR_STARTS):
            call.is_error = True
            call.status = "error"
        usage = _usage(body)
        if usage is not None and turn.usage is None:
            turn.usage = usage
        self.mark_changed(turn.index)

    def _close(self) -> None:
        self._turn, self._mode, self._lines = None, "", []
        self._fence = False


def _tokens(number: str, unit: str) -> int:
    try:
        value = float(number.replace(",", ""))
    except ValueError:
        return 0
    scale = {"k": 1e3, "m": 1e6}.get(unit.lower(), 1)
    return int(round(value * scale))


def _usage(line: str) -> Usage | None:
    match = _TOKENS_RE.search(line)
    if not match:
        return None
    sent = _tokens(match.group(1), match.group(2))
    write = _tokens(match.group(3), match.group(4)) if match.group(3) else 0
    hit = _tokens(match.group(5), match.group(6)) if match.group(5) else 0
    received = _tokens(match.group(7), match.group(8))
    return Usage(
        input=max(sent - write - hit, 0), output=received, cache_read=hit, cache_write=write
    )


# ---------------------------------------------------------------------------
# registry entry


def sniff(path: Path, head: bytes) -> bool:
    """The file has an `# aider chat started at` line near its start."""
    if path.is_dir():
        return False
    return _HEADER_RE.search(head[:16384]) is not None


def refs(path: Path) -> list[SessionRef]:
    """One session per `# aider chat started at` block."""
    try:
        st = path.stat()
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return [SessionRef(format=FORMAT, path=path)]
    found = []
    starts = list(_HEADER_RE.finditer(data))
    for number, match in enumerate(starts, start=1):
        end = starts[number].start() if number < len(starts) else len(data)
        block = data[match.start() : end]
        found.append(
            SessionRef(
                format=FORMAT,
                path=path,
                key=str(number),
                cwd=str(path.parent),
                started=_block_time(match.group(1)),
                size=len(block),
                updated=st.st_mtime if number == len(starts) else None,
            )
        )
    return found or [SessionRef(format=FORMAT, path=path, size=st.st_size)]


def open_reader(ref: SessionRef) -> AiderReader:
    return AiderReader(ref)


SPEC = FormatSpec(
    name=FORMAT,
    description="aider chat history Markdown (.aider.chat.history.md, one session per block)",
    sniff=sniff,
    refs=refs,
    open=open_reader,
)
