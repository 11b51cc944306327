"""Claude Code session files (`~/.claude/projects/<slug>/<session>.jsonl`).

One JSON record per line, appended as the session runs. What this reader
makes of them:

* assistant lines sharing `message.id` (Claude Code writes one content block
  per line) are merged into one turn; usage is counted once per message; a line
  whose blocks the message already gave adds nothing (a proxy in front of the
  API has every line written twice: `claude_parts.parts_from_records`);
* `user` records that only carry `tool_result` blocks are folded into the
  assistant turn that made the call (found through `parentUuid`), never shown
  as a person speaking;
* `isMeta` records, command wrappers, `<system-reminder>`, hook output, task and
  teammate notifications and the "(no content)" after a `#` memory input are
  SYNTHETIC; "[Request interrupted by user…]" marks an interrupt; a slash command
  reads as the person typed it (`/model opus`, not its tags) and its output without
  its tags and colours (`claude_lines`);
* `compact_boundary` system records become a COMPACTION_BOUNDARY turn (its
  trigger, auto or manual, and token counts in `extra`) and the
  `isCompactSummary` record that follows a COMPACTION_SUMMARY turn; a manual
  `/compact` command, written after the boundary it caused, is put before it;
  Claude Code 1.0 wrote no boundary: its summary alone (a new chain, no parent)
  is the compaction, `auto` unless the /compact command follows it;
* sub-agents written into the main file (`isSidechain`, Claude Code before 2.0.28)
  are kept out of the main line: each becomes a child session, as the newer
  `<session>/subagents/agent-<id>.jsonl` files are (`claude_sidechains`);
* replies Claude Code writes itself (model `<synthetic>`: "No response
  requested.", API errors, usage limits) are SYSTEM turns flagged SYNTHETIC
  (and ERROR when they report one), never the agent speaking; so are its
  notices (system records with no subtype: hooks, a model switched at a limit),
  its model switches (`model_refusal_fallback` and its kin, said in one short
  sentence from their fields), the retries of a failed request (`api_error`,
  one sentence from its fields, flagged ERROR), its local commands
  (`local_command`), the recap it writes for a person coming back
  (`away_summary`) and any other subtype in its own words; its bookkeeping
  (`turn_duration`, `stop_hook_summary`) is no line at all; 1.0's usage limit
  says when it resets, in UTC (`claude_lines.usage_limit_text`);
* a person's message whose parent is an earlier point of the conversation is
  a rewind: the abandoned turns move to `Session.branches` (still reachable)
  and the main line continues from the parent;
* records written twice with the same uuid are read once;
* a turn is never earlier than the one before, a queued prompt's time of queueing
  aside (a file Claude Code 1.0 began with the history of the session it resumed
  stamps the copies with the moment of the resume, but the person's messages among
  them keep their first times), and the session's id is the one the file is named
  after once a record gives it (those copied messages carry the first session's).

Only an index is kept per turn (where its records are in the file); the
content is decoded when someone asks for `turn.parts`, through a bounded
cache, so huge sessions do not have to fit in memory as Python objects.
"""

from __future__ import annotations

import _thread
import os
import re
from collections import OrderedDict
from pathlib import Path

import msgspec

from pivotal.model import (
    Part,
    PartKind,
    Role,
    Session,
    SessionRef,
    SourceRef,
    Turn,
    TurnFlag,
)
from pivotal.readers.base import (
    FormatSpec,
    Update,
    decode_json,
    describe_decode_error,
    parse_timestamp,
    preview_of,
    single_ref,
)
from pivotal.readers.claude_lines import (
    QUIET_SUBTYPES,
    command_text,
    needs_fields,
    system_line,
    usage_limit_text,
)
from pivotal.readers.claude_parts import (
    AWAY_SUMMARY,
    COMPACT_COMMAND,
    MEMORY_INPUT,
    MODEL_SWITCHES,
    NO_CONTENT,
    RECAP,
    SYNTHETIC_MODEL,
    compaction_facts,
    harness_reply,
    is_tool_result,
    model_switch,
    parts_from_records,
    queued_prompt,
    read_user_content,
    user_flags,
)
from pivotal.readers.claude_records import Record, decode_for_parts, read_records, sniff
from pivotal.readers.claude_sidechains import Chain, Chains, window_of
from pivotal.readers.files import SessionFiles, claude_subagent_folder
from pivotal.readers.lines import LineFileReader

NAME = "claude-code"
CACHE_TURNS = 512


class ClaudeCodeReader(LineFileReader):
    format = NAME
    LINE_VIEWS = True  # records are decoded straight from the read buffer

    def __init__(self, ref: SessionRef) -> None:
        super().__init__(ref)
        self._cache: OrderedDict[tuple[int, int], list[Part]] = OrderedDict()
        self._cache_lock = _thread.allocate_lock()  # `threading` costs a scan ~1 ms to import
        self.splits_sidechains = not ref.path.name.startswith(SUBAGENT_FILE)
        """Sidechain records are sub-agents to keep apart (a main session's file), not this
        file's own conversation (a sub-agent's file)."""
        stem = ref.path.stem
        self._own_id = stem if _SESSION_ID.fullmatch(stem) else None
        """The session id the file is named after (`<session>.jsonl`), if it is."""
        self.reset()
        self._children_listed = False
        self._folder_children: list[SessionRef] = []

    def reset(self) -> None:
        self.outside_refs: list[tuple[str, str | None, int]] = []
        """Lookups that found nothing read so far: (kind, key, turns read then).

        kind is "result" (a tool result's parent call), "parent" (a person's
        message continuing from an earlier record) or "interrupt" (an interrupt
        with no model response before it). In a whole file these are harmless;
        for a reader started mid-file (`start_at`) they are the places where the
        part before the start could have changed the turns (`scan_split`).
        """
        self.titled_by_ai = False
        """An `ai-title` record set the title (a later `summary` does not replace it)."""
        self._uuid_turn: dict[str, int] = {}
        self._msg_turn: dict[str, int] = {}
        self._usage_seen: dict[int, object] = {}
        self._last_assistant: int | None = None
        self._last_stamp: str | None = None
        self._clock: float | None = None
        """The latest time a turn was given: no turn is earlier (`_new_turn`)."""
        self.sidechains = Chains()
        """The sub-agents written into this file, kept apart from its turns."""
        with self._cache_lock:
            self._cache.clear()

    # -- index pass -----------------------------------------------------------
    def handle_line(self, line_no: int, offset: int, line: bytes) -> None:
        self.handle_lines([(line_no, offset, line)])

    def handle_lines(self, batch: list[tuple[int, int, bytes]]) -> None:
        """The index pass: decode a batch of records in one C call, then file each one."""
        self.file_records(batch, read_records([line for _, _, line in batch]))

    def file_records(
        self, batch: list[tuple[int, int, bytes]], records: list[Record | None | ValueError]
    ) -> None:
        """File each decoded record of `batch`.

        Most records of a big session are streamed model output and tool results that
        only add a byte span to a turn. Once the session's own fields (id, cwd, start)
        are known, those go straight to `_assistant` / `_tool_result`, past the general
        dispatch that fills the fields (this loop runs once per record of a 100 MB file).
        A sidechain record is found where the turn it would join or start is looked up
        (a response or result of the main line always finds its own): no record of a
        file without sub-agents is asked whether it is one.
        """
        session = self.session
        settled = _settled(session)
        for (line_no, offset, line), rec in zip(batch, records, strict=True):
            if rec.__class__ is not Record:
                if isinstance(rec, ValueError):
                    self.skip(line_no, describe_decode_error(rec))
                else:
                    self.skip(line_no, "not a Claude Code record (no type)")
                continue
            if not rec.type:
                self.skip(line_no, "not a Claude Code record (no type)")
            elif not settled:
                self._handle_record(line_no, offset, line, rec)
                settled = _settled(session)
            elif rec.uuid is not None and rec.uuid in self._uuid_turn:
                continue  # the same record written twice
            elif rec.type == "assistant":
                if rec.timestamp:
                    self._last_stamp = rec.timestamp
                self._assistant(rec, line_no, offset, len(line))
            elif rec.type == "user" and is_tool_result(rec):
                if rec.timestamp:
                    self._last_stamp = rec.timestamp
                self._tool_result(rec, offset, len(line), line_no)
            else:
                self._handle_record(line_no, offset, line, rec)

    def _handle_record(
        self, line_no: int, offset: int, line: bytes | memoryview, rec: Record
    ) -> None:
        length = len(line)
        uuid = rec.uuid
        if uuid is not None and uuid in self._uuid_turn:
            return  # the same record written twice
        self._note_session_fields(rec)
        if rec.isSidechain and self.splits_sidechains:
            self._sidechain(rec, line_no, offset, length)
            return
        kind = rec.type
        if kind == "assistant":
            self._assistant(rec, line_no, offset, length)
        elif kind == "user":
            if not self._user(rec, line_no, offset, length):
                return  # malformed: its uuid stays free for a valid record written after it
        elif kind == "system":
            self._system(rec, line_no, offset, line)
        elif kind == "attachment":
            self._attachment(rec, line_no, offset)
        elif kind in ("ai-title", "summary"):
            title = usage_limit_text(rec.aiTitle or rec.summary or "")
            if title and (kind == "ai-title" or not self.session.title):
                self.session.title = title
                self.titled_by_ai = self.titled_by_ai or kind == "ai-title"
        if uuid is not None and uuid not in self._uuid_turn and self.session.turns:
            self._uuid_turn[uuid] = len(self.session.turns) - 1

    def _note_session_fields(self, rec: Record) -> None:
        """The session's id, folder and start, from the first records that give them.

        The id is the file's own (Claude Code names the file after it) once a record gives
        it: a file begun with history copied from an earlier session (a resume in 1.0) opens
        with that session's records and id."""
        session = self.session
        ident = rec.sessionId
        if ident and session.id != ident and (session.id is None or ident == self._own_id):
            session.id = ident
        if session.cwd is None and rec.cwd:
            session.cwd = rec.cwd
        if rec.timestamp:
            if session.started is None:
                session.started = parse_timestamp(rec.timestamp)
                self._clock = session.started
            self._last_stamp = rec.timestamp

    def _new_turn(
        self,
        rec: Record,
        role: Role,
        flags: TurnFlag,
        line_no: int,
        offset: int,
        message_id: str | None,
    ) -> Turn:
        if rec.isSidechain:
            flags = (flags & ~TurnFlag.HUMAN) | TurnFlag.SIDECHAIN
        msg = rec.message
        usage = msg.usage if msg is not None else None
        when = parse_timestamp(rec.timestamp)
        if when is not None:
            # the clock never runs backwards: a resumed file's copied history is stamped with
            # the moment of the resume, but some of the person's messages in it keep their
            # earlier times (minutes or days before the turns around them)
            if self._clock is not None and when < self._clock:
                when = self._clock
            else:
                self._clock = when
        turn = Turn(
            0,
            role,
            flags,
            when,
            message_id,
            SourceRef(line_no, rec.uuid, offset),
            msg.model if msg is not None else None,
            usage.to_usage() if usage is not None else None,
        )
        self.append_turn(turn)
        if rec.uuid is not None:
            self._uuid_turn[rec.uuid] = turn.index
        return turn

    def _assistant(self, rec: Record, line_no: int, offset: int, length: int) -> None:
        msg = rec.message
        if msg is not None and msg.model == SYNTHETIC_MODEL:
            if rec.isSidechain and self.splits_sidechains:
                self._sidechain(rec, line_no, offset, length)
            else:
                self._harness_reply(rec, line_no, offset)
            return
        key = (msg.id if msg is not None else None) or rec.uuid or f"line-{line_no}"
        index = self._msg_turn.get(key)
        turns = self.session.turns
        if index is not None and index < len(turns) and turns[index].message_id == key:
            # a later line of a response already read: one more span, maybe newer usage
            turn = turns[index]
            turn.extra["spans"].append((offset, length))  # type: ignore[index]
            self.mark_changed(index)
            raw_usage = msg.usage if msg is not None else None
            if raw_usage is not None and raw_usage != self._usage_seen.get(index):
                # streamed lines repeat the message's usage; convert only when it changed
                self._usage_seen[index] = raw_usage
                turn.usage = raw_usage.to_usage()
            if rec.uuid is not None:
                self._uuid_turn[rec.uuid] = index
            return
        if rec.isSidechain and self.splits_sidechains:
            self._sidechain(rec, line_no, offset, length)
            return
        turn = self._new_turn(rec, Role.ASSISTANT, TurnFlag.NONE, line_no, offset, key)
        turn.extra = {"spans": [(offset, length)]}
        turn._loader = self._load_parts
        self._msg_turn[key] = turn.index
        if msg is not None and msg.usage is not None:
            self._usage_seen[turn.index] = msg.usage
        if not rec.isSidechain:
            self._last_assistant = turn.index
        if turn.model:
            self.session.model = turn.model

    @property
    def record_turns(self) -> dict[str, int]:
        """Each record uuid read so far and the turn it went to (a uuid seen again is skipped)."""
        return self._uuid_turn

    @property
    def message_turns(self) -> dict[str, int]:
        """Each model response id read so far and its turn (later lines with it join that turn)."""
        return self._msg_turn

    def _note_outside(self, kind: str, key: str | None) -> None:
        self.outside_refs.append((kind, key, len(self.session.turns)))

    def _add_span(self, turn: Turn, offset: int, length: int) -> None:
        extra = turn.extra if turn.extra is not None else {}
        extra.setdefault("spans", []).append((offset, length))
        turn.extra = extra
        self.mark_changed(turn.index)

    def _user(self, rec: Record, line_no: int, offset: int, length: int) -> bool:
        """File a user record; False when it is malformed (skipped and counted instead)."""
        content = read_user_content(rec.body)
        if content.tool_results_only:
            self._tool_result(rec, offset, length, line_no)
            return True
        if rec.message is None or content.malformed:
            self.skip(line_no, content.malformed or "user record without a message object")
            return False
        text = content.text
        flags = user_flags(rec, text)
        if flags & TurnFlag.HUMAN and text == NO_CONTENT and self._after_memory_input(rec):
            flags = TurnFlag.SYNTHETIC
        if not rec.isSidechain and flags & TurnFlag.HUMAN:
            self._maybe_rewind(rec.parentUuid)
        parts = content.parts
        shown = text
        command = command_text(text) if flags == TurnFlag.SYNTHETIC else None
        if command is not None and all(p.kind is PartKind.TEXT for p in parts):
            shown, parts = command, [Part(PartKind.TEXT, command)]  # `/model opus`, as typed
        if content.context and flags & TurnFlag.HUMAN:
            self._context_turn(rec, line_no, offset, content.context)
        elif content.context:  # all of it injected anyway (a command, a meta record): one turn
            parts = content.context + parts
        turn = self._new_turn(rec, Role.USER, flags, line_no, offset, rec.uuid)
        turn.parts = parts
        turn.preview = preview_of(shown)
        if flags & TurnFlag.COMPACTION_SUMMARY and not self._after_a_boundary(turn):
            # Claude Code 1.0 wrote no boundary: a summary alone is the context filling up
            # (a /compact the person typed follows it, and `_before_its_boundary` says so)
            turn.extra = {"trigger": "auto"}
        if text.startswith(COMPACT_COMMAND):
            self._before_its_boundary(turn)
        if flags & TurnFlag.INTERRUPTED and self._last_assistant is None:
            self._note_outside("interrupt", None)
        if flags & TurnFlag.INTERRUPTED and self._last_assistant is not None:
            last = self.session.turns[self._last_assistant]
            last.flags |= TurnFlag.INTERRUPTED
            self.mark_changed(last.index)
        return True

    def _after_memory_input(self, rec: Record) -> bool:
        """The record before this one (its parent, else the last turn) is a `#` memory input.

        Claude Code 1.0 writes a "(no content)" user record after each `<user-memory-input>`:
        its own placeholder, not the person sending an empty message."""
        turns = self.session.turns
        index = self._uuid_turn.get(rec.parentUuid) if rec.parentUuid else None
        if index is None or index >= len(turns):
            index = len(turns) - 1
        return index >= 0 and turns[index].preview.lstrip().startswith(MEMORY_INPUT)

    def _attachment(self, rec: Record, line_no: int, offset: int) -> None:
        """A prompt the person queued while the agent was busy, which the agent took in
        mid-turn: no user record is written for it, only this attachment. It is the person
        speaking, at the time they queued it, where the agent read it (a queued task
        notification is harness text). Other attachments stay out of the conversation."""
        queued = queued_prompt(rec.attachment)
        if queued is None:
            return
        if isinstance(queued, str):
            self.skip(line_no, queued)
            return
        content = queued.content
        if content.context and queued.flags & TurnFlag.HUMAN:
            self._context_turn(rec, line_no, offset, content.context)
        parts = content.parts if queued.flags & TurnFlag.HUMAN else content.context + content.parts
        turn = self._new_turn(rec, Role.USER, queued.flags, line_no, offset, rec.uuid)
        turn.timestamp = parse_timestamp(queued.queued_at) or turn.timestamp
        turn.parts = parts
        turn.preview = preview_of(content.text)
        turn.extra = {"queued": True}

    def _context_turn(self, rec: Record, line_no: int, offset: int, notes: list[Part]) -> None:
        """The notes Claude Code wrote into a person's message (a system reminder, the file
        open in the IDE): injected context, shown folded before the person's own words."""
        text = "\n\n".join(note.text for note in notes)
        turn = self._new_turn(rec, Role.USER, TurnFlag.SYNTHETIC, line_no, offset, None)
        if rec.uuid is not None:
            turn.source = SourceRef(line_no, f"{rec.uuid}:context", offset)
        turn.model, turn.usage = None, None
        turn.parts = notes
        turn.preview = preview_of(text)

    def _tool_result(self, rec: Record, offset: int, length: int, line_no: int) -> None:
        index = self._uuid_turn.get(rec.parentUuid) if rec.parentUuid else None
        if index is None:
            if rec.isSidechain and self.splits_sidechains:
                self._sidechain(rec, line_no, offset, length, starts=False)
                return
            self._note_outside("result", rec.parentUuid)
        turns = self.session.turns
        if index is None or index >= len(turns) or turns[index].role is not Role.ASSISTANT:
            index = self._last_assistant
        if index is None:
            if rec.uuid is not None and turns:
                self._uuid_turn[rec.uuid] = len(turns) - 1  # as `_handle_record` files it
            return  # a result with no call we know of: nothing to attach it to
        self._add_span(turns[index], offset, length)
        if rec.uuid is not None:
            self._uuid_turn[rec.uuid] = index

    def _sidechain(
        self, rec: Record, line_no: int, offset: int, length: int, starts: bool = True
    ) -> None:
        """A sub-agent's record in the main file: noted in its chain, never a turn here.

        `starts=False`: a tool result, which cannot start a chain (whose call is unseen)."""
        parent = rec.parentUuid
        if not self.sidechains.note(
            rec.uuid, parent, line_no, offset, length, rec.timestamp, starts
        ):
            self._note_outside("sidechain", parent)

    def _maybe_rewind(self, parent: str | None) -> None:
        """A person's message continuing from an earlier point starts a new branch.

        Only the person's own message: Claude Code chains the records of a local command
        (`<bash-input>`, `<command-name>`, an IDE note, a task notification) to an older
        record, often the first local command's caveat hours before, with no rewind at all;
        taking them for one hid everything between in a branch."""
        if parent is None:
            return
        index = self._uuid_turn.get(parent)
        if index is None:
            self._note_outside("parent", parent)
        turns = self.session.turns
        if index is None or index >= len(turns) - 1:
            return
        abandoned = turns[index + 1 :]
        if not any(
            (t.role is Role.ASSISTANT or t.is_human)
            and not t.flags & TurnFlag.SIDECHAIN
            and not _beside_the_chain(t)
            for t in abandoned
        ):
            return
        self.session.branches.append(list(abandoned))
        self.truncate_turns(index + 1)
        self._last_assistant = next(
            (t.index for t in reversed(turns) if t.role is Role.ASSISTANT), None
        )
        self.session.notices.append(
            f"rewind at turn {index}: {len(abandoned)} later turns kept as branch "
            f"{len(self.session.branches)}"
        )

    def _system(self, rec: Record, line_no: int, offset: int, line: bytes | memoryview) -> None:
        subtype = rec.subtype
        if subtype == "compact_boundary":
            self._boundary(rec, line_no, offset)
        elif subtype == AWAY_SUMMARY:
            self._recap(rec, line_no, offset)
        elif subtype is None:
            self._notice(rec, line_no, offset)
        elif subtype in MODEL_SWITCHES:
            self._model_switch(rec, line_no, offset, line)
        elif subtype not in QUIET_SUBTYPES:
            self._system_line(rec, subtype, line_no, offset, line)

    def _boundary(self, rec: Record, line_no: int, offset: int) -> None:
        """A `compact_boundary`: the one record that reads "Conversation compacted" when it
        says nothing itself."""
        facts = compaction_facts(rec.compactMetadata)
        flags = TurnFlag.COMPACTION_BOUNDARY | TurnFlag.SYNTHETIC
        text = _plain(rec.body) or "Conversation compacted"
        if facts.get("trigger") in ("auto", "manual"):
            text = f"{text} ({facts['trigger']})"
        turn = self._new_turn(rec, Role.SYSTEM, flags, line_no, offset, rec.uuid)
        turn.parts = [Part(PartKind.TEXT, text)]
        turn.preview = preview_of(text)
        if facts:
            turn.extra = facts

    def _system_line(
        self, rec: Record, subtype: str, line_no: int, offset: int, line: bytes | memoryview
    ) -> None:
        """Any other `system` record: an API error and its retry, a local command, a subtype
        met later, each in its own words or not at all (`claude_lines.system_line`)."""
        record = None
        if needs_fields(subtype):
            try:
                record = decode_json(line)
            except ValueError:
                record = None
        text, flags = system_line(subtype, _plain(rec.body), record)
        if text:
            self._system_text(rec, line_no, offset, text, flags)

    def _recap(self, rec: Record, line_no: int, offset: int) -> None:
        """An `away_summary`: the recap Claude Code writes for a person coming back. The
        client's, shown as a system notice: neither the agent's reply (it answers nothing,
        and nothing answers it) nor the person's."""
        text = _plain(rec.body).strip()
        if text:
            self._system_text(rec, line_no, offset, RECAP + text).extra = {"recap": True}

    def _notice(self, rec: Record, line_no: int, offset: int) -> None:
        """A system record with no subtype: a notice Claude Code showed in the transcript (a
        hook ran or was cancelled, "Claude Opus limit reached, now using Sonnet 4")."""
        text = _plain(rec.body).strip()
        if text:
            self._system_text(rec, line_no, offset, text)

    def _model_switch(
        self, rec: Record, line_no: int, offset: int, line: bytes | memoryview
    ) -> None:
        """The model refused and Claude Code fell back to another (or had none), or the model
        was switched at an outage: a notice of the client's, as a model switched at a usage
        limit is (its fields are read from the line: these records are rare)."""
        try:
            record = decode_json(line)
        except ValueError:
            record = None
        text, flags = model_switch(rec.subtype or "", record)
        self._system_text(rec, line_no, offset, text, flags)

    def _system_text(
        self,
        rec: Record,
        line_no: int,
        offset: int,
        text: str,
        flags: TurnFlag = TurnFlag.SYNTHETIC,
    ) -> Turn:
        turn = self._new_turn(rec, Role.SYSTEM, flags, line_no, offset, rec.uuid)
        turn.model, turn.usage = None, None
        turn.parts = [Part(PartKind.TEXT, text)]
        turn.preview = preview_of(text)
        return turn

    def _harness_reply(self, rec: Record, line_no: int, offset: int) -> None:
        """A reply Claude Code wrote itself (model `<synthetic>`): not the agent speaking."""
        text, flags = harness_reply(rec.body)
        turn = self._new_turn(rec, Role.SYSTEM, flags, line_no, offset, rec.uuid)
        turn.model, turn.usage = None, None
        turn.parts = [Part(PartKind.TEXT, text)]
        turn.preview = preview_of(text)

    def _after_a_boundary(self, turn: Turn) -> bool:
        """The turn before `turn` is a `compact_boundary` (which says the trigger itself)."""
        return turn.index > 0 and bool(
            self.session.turns[turn.index - 1].flags & TurnFlag.COMPACTION_BOUNDARY
        )

    def _before_its_boundary(self, command: Turn) -> None:
        """A manual `/compact` is written after the boundary it caused: show it before.

        Claude Code 1.0 wrote no boundary: the summary right before the command is the
        compaction, and the command tells that the person asked for it (`manual`)."""
        turns = self.session.turns
        at = None
        for turn in reversed(turns[:-1]):
            if turn.flags & TurnFlag.COMPACTION_BOUNDARY:
                at = turn.index
                break
            if turn.flags & TurnFlag.COMPACTION_SUMMARY and not (
                turn.index and turns[turn.index - 1].flags & TurnFlag.COMPACTION_BOUNDARY
            ):
                at = turn.index
                turn.extra = {**(turn.extra or {}), "trigger": "manual"}
                break
            if turn.role is Role.ASSISTANT or turn.is_human:
                return
        if at is None or (turns[at].extra or {}).get("trigger") != "manual":
            return
        last = len(turns) - 1
        turns.insert(at, turns.pop())
        for index in range(at, len(turns)):
            turns[index].index = index
        for uuid, index in self._uuid_turn.items():
            if at <= index < last:
                self._uuid_turn[uuid] = index + 1
        if command.source.record_id is not None:
            self._uuid_turn[command.source.record_id] = at
        self.mark_changed(at)

    # -- on-demand content ----------------------------------------------------
    def _load_parts(self, turn: Turn) -> list[Part]:
        """Decode a turn's records (the UI and detector threads may ask at once)."""
        spans = list((turn.extra or {}).get("spans", []))
        # by its records, never by `id(turn)`: a copy of a turn (a piece of a session judged
        # alone) is freed, and a later copy of another turn may be given the same id
        key = (spans[0] if spans else None, len(spans))
        with self._cache_lock:
            cached = self._cache.get(key)
            if cached is not None:
                self._cache.move_to_end(key)
                return cached
        parts = parts_from_records(self._read_records(spans))
        if not turn.preview:
            turn.preview = preview_of("\n".join(p.text for p in parts if p.kind is PartKind.TEXT))
        with self._cache_lock:
            self._cache[key] = parts
            while len(self._cache) > CACHE_TURNS:
                self._cache.popitem(last=False)
        return parts

    def _read_records(self, spans: list[tuple[int, int]]) -> list[object]:
        records: list[object] = []
        try:
            fd = os.open(self.ref.path, os.O_RDONLY)
        except OSError:
            return records
        try:
            for offset, length in spans:
                try:
                    records.append(decode_for_parts(os.pread(fd, length, offset)))
                except (OSError, ValueError):
                    continue
        finally:
            os.close(fd)
        return records

    # -- the reader interface ---------------------------------------------------
    def poll(self, final: bool = False, budget: int | None = None) -> Update:
        update = super().poll(final=final, budget=budget)
        if self._last_stamp is not None:
            ended = parse_timestamp(self._last_stamp)
            if self._clock is not None and (ended is None or ended < self._clock):
                ended = self._clock  # a copied message's earlier time last: not the end
            self.session.ended = ended
        if not self._children_listed:
            self._children_listed = True
            self._folder_children = _subagent_refs(self.ref.path)
            self.session.children = list(self._folder_children)
        chains = self.sidechains
        if chains.open:
            chains.link(self.ref.path, self.line_start)
        if chains.changed:
            chains.changed = False
            self.session.children = self._folder_children + chains.refs(self.ref)
        return update

    def adopt_sidechains(self, chains: list[Chain]) -> list[SessionRef]:
        """The session's children with `chains` another reader of this file found (a split
        scan's second half) added to its own."""
        self.sidechains.adopt(chains)
        return self._folder_children + self.sidechains.refs(self.ref)


class SidechainReader(ClaudeCodeReader):
    """One sub-agent written into its parent's file: the records of one chain, found in
    the stretch of the file the ref's key names (`claude_sidechains.window_key`), read as
    a sub-agent's own file is. Lines keep the file's numbers; lines that are not the
    chain's (the main line's, another sub-agent's, a bad line) are the parent session's
    and its reader reports them."""

    def __init__(self, ref: SessionRef, window: tuple[int, int, int]) -> None:
        self._line, self._start, self._end = window
        super().__init__(ref)
        self.splits_sidechains = False
        self._children_listed = True  # the parent's sub-agents are not this one's
        self._to_start()

    def reset(self) -> None:
        super().reset()
        self._mine: set[str] = set()

    def _to_start(self) -> None:
        fd = os.open(self.ref.path, os.O_RDONLY)
        try:
            self.resume_at(fd, self._start, self._line - 1)
        finally:
            os.close(fd)

    def _restart(self) -> None:
        super()._restart()
        self._to_start()

    def readable(self, size: int) -> int:
        return min(size, self._end)

    @property
    def progress(self) -> tuple[int, int]:
        return (max(0, self.line_start - self._start), self._end - self._start)

    def handle_lines(self, batch: list[tuple[int, int, bytes]]) -> None:
        records = read_records([line for _, _, line in batch])
        mine, kept = self._mine, []
        for item, rec in zip(batch, records, strict=True):
            if rec.__class__ is not Record or not rec.isSidechain:
                continue
            if item[1] != self._start and rec.parentUuid not in mine:
                continue
            if rec.uuid is not None:
                mine.add(rec.uuid)
            kept.append((item, rec))
        if kept:
            self.file_records([item for item, _ in kept], [rec for _, rec in kept])


def _open(ref: SessionRef) -> ClaudeCodeReader:
    window = window_of(ref.key)
    return ClaudeCodeReader(ref) if window is None else SidechainReader(ref, window)


def _beside_the_chain(turn: Turn) -> bool:
    """A turn no branch is made of: a prompt taken in mid-turn (queued while a call ran, so
    the call's result comes after it)."""
    extra = turn.extra
    return extra is not None and extra.get("queued") is True


def _settled(session: Session) -> bool:
    """The session's own fields, which its first records fill, are all known."""
    return session.id is not None and session.cwd is not None and session.started is not None


def _plain(raw: bytes | msgspec.Raw) -> str:
    try:
        value = decode_json(raw)
    except ValueError:
        return ""
    return value if isinstance(value, str) else ""


_SESSION_ID = re.compile(
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)

SUBAGENT_FILE = "agent-"
"""How a sub-agent's own file is named (`agent-<id>.jsonl`): its sidechain records are its
conversation."""


_subagents = claude_subagent_folder


def _subagent_refs(path: Path) -> list[SessionRef]:
    """`<session>/subagents/agent-<id>.jsonl`, each with its id and, from the
    `agent-<id>.meta.json` beside it when there is one, its description and the
    id of the parent's Task/Agent call that ran it."""
    folder = _subagents(path)
    try:
        files = sorted(folder.glob("*.jsonl"))
    except OSError:
        return []
    refs = []
    for file in files:
        meta = _subagent_meta(file.with_suffix(".meta.json"))
        title, call = meta.get("description"), meta.get("toolUseId")
        refs.append(
            SessionRef(
                format=NAME,
                path=file,
                session_id=file.stem.removeprefix("agent-"),
                title=title if isinstance(title, str) and title else None,
                parent_call=call if isinstance(call, str) and call else None,
            )
        )
    return refs


META_LIMIT = 64 * 1024
"""A sub-agent's meta file is a few fields; anything bigger is not one."""


def _subagent_meta(path: Path) -> dict:
    try:
        if not path.is_file():  # never open a FIFO (it waits for a writer)
            return {}
        with path.open("rb") as handle:
            raw = handle.read(META_LIMIT + 1)
    except OSError:
        return {}
    if len(raw) > META_LIMIT:
        return {}
    try:
        value = decode_json(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


SPEC = FormatSpec(
    name=NAME,
    description="Claude Code JSONL (~/.claude/projects/<project>/<session>.jsonl)",
    sniff=sniff,
    refs=single_ref(NAME),
    open=_open,
    files=lambda ref: SessionFiles(files=(ref.path,), folders=(_subagents(ref.path),)),
)
