"""aider's `.aider.chat.history.md`: every run of one repository appended to one Markdown file.

Runs and sessions. Each run starts with `# aider chat started at YYYY-MM-DD
HH:MM:SS`. A run started with `--restore-chat-history` continues the chat of
the runs before it; aider then says `> Restored previous conversation
history.` among the banner lines it prints before the first input, and that
line is how a continued run is told from a new one: a run that does not say
it before its first input (or at all) starts a new session. `refs()` returns
one session per conversation (key = the number of its first run, from 1);
each run inside it begins with a SYSTEM turn holding the header and banner,
so run boundaries stay visible. Without a key the whole file is one session.

aider's own lines are found by what aider writes, not by Markdown: it ends
every `#### ` input line and every `> ` output line with two spaces, and
writes a blank line before each input and each model reply. So:
* a `####` line ending in two spaces, after a blank line or another such line,
  is the person's input; consecutive ones are one multi-line input.
  `#### <blank>` is a bare Enter: logged but never sent, so it is a HUMAN turn
  flagged UNSENT with no text (unless a reply follows it at once, which aider
  never writes: the file then says it was answered). A bare `####  ` is a
  whitespace input, which is sent (text " "). Input starting with `/` or `!`
  is a command (SYNTHETIC, not HUMAN); `/run`, `/test` and `!` carry a `shell`
  tool call (aider does not log the command's output or exit status, so they
  stay unknown). An input that repeats the reply before it line for line is an
  architect plan handed to the editor model: SYNTHETIC, not the person.
* a `>` line ending in two spaces is aider's output; the lines right after it
  (no blank line between) continue the same message, and a `>` line without
  the two spaces right after aider output starts a multi-line message that
  runs to the next line ending in two spaces (older aiders write a message's
  lines that way, blank lines included).
* anything else is the model's reply (plain Markdown, unclosed code fences
  and `#### headings` included); aider retries on its own after an edit-format
  error, so text after aider output is the next reply.

aider's output becomes SYSTEM notice turns (SYNTHETIC; ERROR when it reports a
failed request to the model). What it says about the reply before it is also
put on that reply: the token report as usage, `Applied edit to F` as a
completed `edit` call, a SEARCH block that failed to match as a failed `edit`
call, `Running C` as a `shell` call (exit status unknown), `^C` as
INTERRUPTED. Commit lines and edit-format complaints stay notices only.

A file whose lines lost their trailing spaces (reformatted after the fact)
is read by line prefixes and code-fence state instead, with a notice that its
turns may be split wrongly; there, `####` lines one blank line apart with
nothing else between are one input (a formatter's blank line between headings).
aider writes no per-message times: each run's first turn gets the run's start
time. Blank lines are not passed to `handle_line`; they are recovered from gaps
in the line numbers.
"""

from __future__ import annotations

import os
from pathlib import Path

from pivotal.model import Part, PartKind, Role, SessionRef, SourceRef, ToolCall, Turn, TurnFlag
from pivotal.readers.aider_output import (
    HEADER,
    HEADER_RE,
    RESTORED,
    THINK_CLOSE,
    THINK_OPEN,
    Facts,
    block_time,
    conversations,
    input_like,
    output_like,
    plain_lines,
    run_header_ahead,
    runs_of,
)
from pivotal.readers.base import FormatSpec, Update, preview_of
from pivotal.readers.lines import LineFileReader

FORMAT = "aider"
_BLANK = "<blank>"
_SHELL_COMMANDS = ("/run", "/test")
_MIN_PLAN = 40
"""An input shorter than this is never taken for a re-logged plan (a person's "Ok." after "Ok.")."""
_MINE, _PENDING, _OTHER = 0, 1, 2
"""Whether the run being read belongs to the wanted session, may (not decided yet), or not."""


class AiderReader(LineFileReader):
    format = FORMAT
    WHOLE_LAST_RECORD = False  # Markdown: a line without its newline may still grow
    READ_SIZE = 64 << 10  # lines are cut a read at a time: passing over others' skips less

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._want = int(ref.key) if ref.key and ref.key.isdigit() else None
        self.reset()

    def reset(self) -> None:
        self._run = 0
        self._state = _MINE if self._want is None else _OTHER
        self._held: list[tuple[int, int, str, int]] = []
        self._spaced: bool | None = None
        """aider's trailing spaces are in the file (None: no line has told yet)."""
        self._last_line = 0
        self._turn: Turn | None = None
        self._mode = ""  # banner, user, reply, quote, more (inside a multi-line message) or ""
        self._lines: list[str] = []
        self._dirty = False
        self._owner: Turn | None = None
        """The reply (or command) the open notice reports on."""
        self._model: str | None = None
        self._last_reply: list[str] | None = None
        self._plan: list[str] | None = None
        self._plan_at = 0
        self._thought: int | None = None
        """A reply opened with aider's reasoning tag: the index of the line closing it (0: open)."""
        self._leap = False
        """The lines ahead belong to other conversations: pass over them (see `handle_lines`)."""

    # -- lines -------------------------------------------------------------------------
    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        gap = line_no - self._last_line - 1
        self._last_line = line_no
        if line.startswith(HEADER):
            self._header(line_no, offset, line)
            return
        text = line.decode("utf-8", "replace").rstrip("\r")
        if self._spaced is None:
            self._decide_style(text, gap)
        if self._state == _MINE:
            self._line(text, gap, SourceRef(line=line_no, offset=offset))
        elif self._state == _PENDING:
            self._held.append((line_no, offset, text, gap))
            if text.startswith("> " + RESTORED):
                self._adopt()
            elif input_like(text) and gap > 0:
                self._held.clear()  # the run's first input came: it did not restore the chat
                self._state = _OTHER
                self._leap = True  # ours has ended: nothing after can join it

    def _header(self, line_no: int, offset: int, line: bytes) -> None:
        self._close()
        self._run += 1
        self._held.clear()
        if self._want is None or self._run == self._want:
            self._state = _MINE
        elif self._state == _MINE and self._run > self._want:
            self._state = _PENDING
        else:
            self._state = _OTHER
        header = line.decode("utf-8", "replace").rstrip("\r")
        if self._state == _PENDING:
            self._held.append((line_no, offset, header, -1))
        elif self._state == _MINE:
            self._start_run(header, line, SourceRef(line=line_no, offset=offset))
        else:
            self._leap = True

    def _adopt(self) -> None:
        """The pending run restored the chat: it is part of this session after all."""
        held, self._held = self._held, []
        self._state = _MINE
        (line_no, offset, header, _), rest = held[0], held[1:]
        self._start_run(header, header.encode(), SourceRef(line=line_no, offset=offset))
        for line_no, offset, text, gap in rest:
            self._line(text, gap, SourceRef(line=line_no, offset=offset))

    def _decide_style(self, text: str, gap: int) -> None:
        """The file's first input line says whether aider's trailing spaces are in it."""
        if input_like(text) and gap > 0:
            self._spaced = text.endswith("  ")
            self._leap = self._state == _OTHER
            notice = (
                f"{self.ref.path.name}: aider's own lines have lost their trailing spaces "
                "(reformatted?); its turns may be split wrongly"
            )
            if not self._spaced and notice not in self.session.notices:
                self.session.notices.append(notice)

    def _line(self, text: str, gap: int, where: SourceRef) -> None:
        kind = (self._kind if self._spaced is not False else self._kind_unspaced)(text, gap)
        if kind == "input":
            self._input_line(text, gap, where)
        elif kind == "reply":
            self._reply_line(text, gap, where)
        else:
            body = text[2:] if output_like(text) else text
            more = kind == "more" or (self._mode == "more" and not text.endswith("  "))
            self._quote_line(body.rstrip(), gap, where, more)

    def _kind(self, text: str, gap: int) -> str:
        """input, quote, more (a line of a multi-line message of aider's) or reply."""
        mode = self._mode
        two = text.endswith("  ")
        if two and input_like(text) and (gap > 0 or mode == "user"):
            return "input"
        if mode == "more":
            return "quote"
        if output_like(text):
            if two:
                return "quote"
            if mode == "banner" or (gap == 0 and mode in ("quote", "user")):
                return "more"
            return "reply"
        if gap == 0 and mode in ("quote", "banner"):
            return "quote" if two else "more"
        return "reply"

    def _kind_unspaced(self, text: str, gap: int) -> str:
        """The same without trailing spaces to go by: prefixes and blank lines only.

        Code fences are not followed (an unclosed one would swallow the rest of
        the run); a `####` heading or `>` quote in a reply is misread instead.
        """
        mode = self._mode
        if input_like(text) and (gap > 0 or mode == "user"):
            return "input"
        if output_like(text) or (gap == 0 and mode in ("quote", "banner")):
            return "quote"
        return "reply"

    # -- the three kinds of lines --------------------------------------------------------
    def _input_line(self, text: str, gap: int, where: SourceRef) -> None:
        body = text[:-2][5:] if self._spaced is not False else text[5:].rstrip()
        if (
            self._mode == "user"
            and self._turn is not None
            and (gap == 0 or (gap == 1 and self._spaced is False and self._pasted_on(body)))
        ):
            self._lines.append(body)
            self._match_plan(body)
            self._touch()
            return
        self._close()
        command = body[:1] in ("/", "!")
        if body == _BLANK:
            flags, body = TurnFlag.HUMAN | TurnFlag.UNSENT, ""
        else:
            flags = TurnFlag.SYNTHETIC if command else TurnFlag.HUMAN
        turn = self._open(Role.USER, flags, where, "user", [body])
        self._plan = self._last_reply if flags == TurnFlag.HUMAN else None
        self._last_reply = None
        self._plan_at = 0
        self._match_plan(body)
        if command and (body[0] == "!" or body.split(None, 1)[0] in _SHELL_COMMANDS):
            command_text = body[1:] if body[0] == "!" else body.partition(" ")[2]
            call = ToolCall(f"aider-{where.line}", "shell", {"command": command_text.strip()})
            call.status = "completed"
            turn.parts.append(Part(PartKind.TOOL, tool=call))

    def _pasted_on(self, body: str) -> bool:
        """In a reformatted file, whether a `####` line one blank line after the person's
        open input goes on with it: Markdown formatters put a blank line between headings,
        so a multi-line input (a pasted error, every line its own `####` line, empty ones
        included) came apart into one input per line, most of them empty. Two commands in a
        row (`/clear`, `/drop`) and a bare Enter (`<blank>`) stay inputs of their own; two
        inputs of the person's always have aider's reply or output between them."""
        turn = self._turn
        if turn is None or turn.flags != TurnFlag.HUMAN:
            return False
        return body != _BLANK and body[:1] not in ("/", "!")

    def _reply_line(self, text: str, gap: int, where: SourceRef) -> None:
        if self._mode != "reply" or self._turn is None:
            self._close()
            self._answered()
            turn = self._open(Role.ASSISTANT, TurnFlag.NONE, where, "reply", [text])
            turn.model = self._model
            self._thought = 0 if text.startswith(THINK_OPEN) else None
        else:
            if gap:
                self._lines.extend([""] * gap)
            if self._thought == 0 and text.startswith(THINK_CLOSE):
                self._thought = len(self._lines)
            self._lines.append(text)
            self._touch()

    def _quote_line(self, body: str, gap: int, where: SourceRef, more: bool) -> None:
        mode = self._mode
        if mode in ("quote", "banner", "more") and self._turn is not None:
            if gap and mode == "more":
                self._lines.extend([""] * gap)  # a blank line inside one message
            self._lines.append(body)
            self._touch()
        else:
            turn = self._turn
            owner = turn if turn is not None and mode in ("reply", "user") else None
            self._close()
            self._open(Role.SYSTEM, TurnFlag.SYNTHETIC, where, "quote", [body])
            self._owner = owner
        self._mode = "more" if more else ("banner" if mode == "banner" else "quote")
        facts = Facts.of(body)
        if facts is not None:
            self._apply(facts, where)

    def _apply(self, facts: Facts, where: SourceRef) -> None:
        """Put what one of aider's lines reports on the reply it reports on."""
        notice, owner = self._turn, self._owner
        reply = owner if owner is not None and owner.role is Role.ASSISTANT else None
        if facts.model:
            self._model = self.session.model = facts.model
        elif facts.usage is not None:
            if reply is not None and reply.usage is None:
                reply.usage = facts.usage
                self.mark_changed(reply.index)
        elif facts.applied or facts.refused:
            if reply is not None:
                path = facts.applied or facts.refused
                call = ToolCall(f"aider-{where.line}", "edit", {"file_path": path})
                call.output = f"Applied edit to {path}" if facts.applied else self._lines[-1]
                call.is_error = facts.refused is not None
                call.status = "error" if call.is_error else "completed"
                self._add_call(reply, call)
        elif facts.ran:
            if reply is not None:
                call = ToolCall(f"aider-{where.line}", "shell", {"command": facts.ran})
                call.status = "completed"
                self._add_call(reply, call)
        elif facts.interrupted:
            target = owner if owner is not None else notice
            if target is not None:
                target.flags |= TurnFlag.INTERRUPTED
                self.mark_changed(target.index)
        elif facts.api_error and notice is not None:
            notice.flags |= TurnFlag.ERROR

    def _answered(self) -> None:
        """A reply right after a `<blank>` shows it was sent after all (aider never does)."""
        turns = self.session.turns
        if turns and turns[-1].flags & TurnFlag.UNSENT:
            turns[-1].flags &= ~TurnFlag.UNSENT
            self.mark_changed(turns[-1].index)

    def _add_call(self, turn: Turn, call: ToolCall) -> None:
        turn.parts.append(Part(PartKind.TOOL, tool=call))
        self.mark_changed(turn.index)

    # -- architect plans -----------------------------------------------------------------
    def _match_plan(self, body: str) -> None:
        """Follow an input line by line against the reply before it (a re-logged plan)."""
        plan = self._plan
        if plan is None:
            return
        line, at = body.rstrip(), self._plan_at
        if at < len(plan) and plan[at] == line:
            self._plan_at = at + 1
        elif line or not (at == 0 or at >= len(plan)):  # blank lines around it are allowed
            self._plan = None
        turn = self._turn
        if turn is None:
            return
        flags = TurnFlag.SYNTHETIC if self._plan is not None and self._plan_at else TurnFlag.HUMAN
        if turn.flags != flags:
            turn.flags = flags
            self.mark_changed(turn.index)

    def _end_plan(self) -> None:
        plan, turn = self._plan, self._turn
        self._plan = None
        if plan is None or turn is None or not turn.flags & TurnFlag.SYNTHETIC:
            return  # not a plan, or one that stopped matching (already HUMAN again)
        if self._plan_at < len(plan) or sum(map(len, plan)) < _MIN_PLAN:
            turn.flags = TurnFlag.HUMAN  # it only began like the reply
            self.mark_changed(turn.index)

    # -- turns ---------------------------------------------------------------------------
    def _start_run(self, header: str, raw: bytes, where: SourceRef) -> None:
        self._close()
        match = HEADER_RE.match(raw)
        started = block_time(match.group(1)) if match else None
        if self.session.started is None:
            self.session.started = started
        turn = self._open(Role.SYSTEM, TurnFlag.SYNTHETIC, where, "banner", [header[2:]])
        turn.timestamp = started
        turn.extra = {"run": self._run}
        self._last_reply = None

    def _open(self, role: Role, flags: TurnFlag, where: SourceRef, mode: str, lines: list[str]):
        turn = Turn(index=0, role=role, flags=flags, source=where)
        turn.parts = [Part(PartKind.TEXT, text="")]
        self.append_turn(turn)
        self._turn, self._mode, self._lines, self._owner = turn, mode, lines, None
        self._dirty = True
        return turn

    def _touch(self) -> None:
        self._dirty = True
        if self._turn is not None:
            self.mark_changed(self._turn.index)

    def _flush(self) -> None:
        """Write the open turn's lines into its text (once per poll, never per line)."""
        turn = self._turn
        if turn is None or not self._dirty:
            return
        self._dirty = False
        lines, thought = self._lines, self._thought if turn.role is Role.ASSISTANT else None
        text = "\n".join(lines[thought + 1 :]).lstrip("\n") if thought else "\n".join(lines)
        if turn.role is Role.USER and not text.strip() and not turn.flags & TurnFlag.UNSENT:
            text = " "  # a whitespace input: aider logs it as a bare `####` line
        parts = [Part(PartKind.TEXT, text=text)]
        if thought:
            parts.insert(0, Part(PartKind.REASONING, text="\n".join(lines[1:thought]).strip()))
        turn.parts = parts + [p for p in turn.parts if p.kind is PartKind.TOOL]
        turn.preview = preview_of(text)

    def _close(self) -> None:
        turn = self._turn
        if turn is None:
            return
        if self._mode == "user":
            self._end_plan()
        self._dirty = True
        self._flush()
        if turn.role is Role.ASSISTANT:
            thought = self._thought
            self._last_reply = plain_lines(self._lines[thought + 1 :] if thought else self._lines)
        self._turn, self._mode, self._lines = None, "", []

    # -- other conversations' lines ------------------------------------------------------
    def handle_lines(self, batch: list[tuple[int, int, bytes]]) -> None:
        """Lines in order; once the rest are another conversation's, pass over them unread.

        Reading one session of a history used to read every line of the file, so
        listing the 54 sessions of a 4 MB history read it 54 times (2.5 s). A reader
        of one conversation now moves from before its first run straight to that
        run's header, and from the end of its conversation (a later run did not
        restore the chat, so nothing after can join it) to the last line. The
        file's first input line is always read: it decides for every session how
        aider's lines are spaced.
        """
        handle = self.handle_line
        for n, (line_no, offset, line) in enumerate(batch):
            handle(line_no, offset, line)
            if self._leap:
                self._leap = False
                if self._spaced is None or self._state != _OTHER:
                    continue
                if n + 1 < len(batch):
                    at, lines_before = batch[n + 1][1], batch[n + 1][0] - 1
                else:
                    at, lines_before = self.line_start, self.lines_read
                if self._pass_others(at, lines_before):
                    return  # the rest of the batch is passed over

    def _pass_others(self, at: int, lines_before: int) -> bool:
        """Resume at this conversation's next run header, or at the last line of the file
        (False, and nothing changed, when the file cannot be read now)."""
        want = self._want or 0
        ahead = want - self._run if self._run < want else 0
        try:
            fd = os.open(self.ref.path, os.O_RDONLY)
        except OSError:
            return False
        try:
            target, passed, newlines = run_header_ahead(fd, at, os.fstat(fd).st_size, ahead)
            self.resume_at(fd, target, lines_before + newlines)
        except OSError:
            return False
        finally:
            os.close(fd)
        self._run += passed
        self._last_line = lines_before + newlines
        return True

    # -- the reader interface ------------------------------------------------------------
    def finish(self) -> None:
        self._held.clear()
        self._close()

    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        update = super().poll(final=final, budget=budget)
        self._flush()
        return update


# ---------------------------------------------------------------------------
# registry entry


def sniff(path: Path, head: bytes) -> bool:
    """The file has an `# aider chat started at` line near its start."""
    if path.is_dir():
        return False
    return HEADER_RE.search(head[:16384]) is not None


def refs(path: Path) -> list[SessionRef]:
    """One session per conversation: a run that restored the chat joins the one before."""
    try:
        st = path.stat()
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return [SessionRef(format=FORMAT, path=path)]
    runs = runs_of(data)
    found = []
    for group in conversations(runs):
        first, last = group[0], group[-1]
        end = runs[last.number].start if last.number < len(runs) else len(data)
        found.append(
            SessionRef(
                format=FORMAT,
                path=path,
                key=str(first.number),
                cwd=str(path.parent),
                started=block_time(first.stamp),
                size=end - first.start,
                updated=st.st_mtime if last is runs[-1] else None,
            )
        )
    return found or [SessionRef(format=FORMAT, path=path, size=st.st_size)]


def open_reader(ref: SessionRef) -> AiderReader:
    return AiderReader(ref)


SPEC = FormatSpec(
    name=FORMAT,
    description="aider chat history Markdown (.aider.chat.history.md; a session per conversation)",
    sniff=sniff,
    refs=refs,
    open=open_reader,
)
