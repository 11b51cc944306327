"""The format-neutral session model every part of pivotal shares.

Readers turn agent files into these objects; the detector reads them; the
replayer and the CLI only show them. Nothing here does I/O or imports a UI.

A `Turn` is one message as the agent recorded it. Tool results are not turns:
they are folded into the `ToolCall` of the turn that made the call. A turn's
content (`parts`) may be decoded lazily: big-file readers keep only an index
(role, flags, timestamp, where it came from) and decode parts on demand
through a bounded cache, so a 100 MB session does not have to sit in memory.

The classes are `msgspec.Struct`s rather than dataclasses: they behave the same
here (fields, defaults, equality, frozen refs hash by value; copy with
`msgspec.structs.replace`), and defining them costs about a tenth of the
dataclass machinery, which every `pivotal scan` pays at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntFlag, StrEnum
from pathlib import Path
from typing import Any

import msgspec
from msgspec import field


class Role(StrEnum):
    """Who produced a turn."""

    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"


class TurnFlag(IntFlag):
    """Facts about a turn that change how it is read and shown."""

    NONE = 0
    HUMAN = 1
    """A user turn a person could have typed (never set on synthetic text)."""
    SYNTHETIC = 2
    """Injected by the harness: continuation nudges, command wrappers, hook output."""
    META = 4
    """The source marks it as not typed by the user (Claude Code `isMeta`)."""
    SIDECHAIN = 8
    """Belongs to a sub-agent / sidechain, not the main conversation."""
    COMPACTION_BOUNDARY = 16
    """The format records a context-compaction boundary here."""
    COMPACTION_SUMMARY = 32
    """The summary written by a compaction (user- or assistant-side)."""
    INTERRUPTED = 64
    """The person interrupted / aborted this turn (or it is the interrupt marker)."""
    ERROR = 128
    """The turn ended in an API / harness error rather than a normal reply."""
    UNSENT = 256
    """Logged by the client but never sent to the model (aider's bare Enter): nothing answers it."""


# The flags as plain ints: `IntFlag & IntFlag` runs Python code in `enum` (~0.4 us), and
# `Turn.is_human` over 100,000 turns (the "your messages" filter) took 46 ms, with ints 8.
_HUMAN = int(TurnFlag.HUMAN)
_SYNTHETIC = int(TurnFlag.SYNTHETIC | TurnFlag.META)
_COMPACTION = int(TurnFlag.COMPACTION_BOUNDARY | TurnFlag.COMPACTION_SUMMARY)


class PartKind(StrEnum):
    TEXT = "text"
    REASONING = "reasoning"
    TOOL = "tool"
    ATTACHMENT = "attachment"


class ToolCall(msgspec.Struct):
    """One tool call paired with its result (result fields stay None until it arrives)."""

    call_id: str
    name: str
    input: Any = None
    """Decoded arguments: usually a dict; a plain string when the source stores one."""
    output: str | None = None
    is_error: bool = False
    exit_code: int | None = None
    duration_ms: float | None = None
    status: str | None = None
    """Source status when it has one: pending / running / completed / error / cancelled."""
    inner_calls: int | None = None
    """The calls of the sub-agent this call ran, when the source counts them (Claude Code's
    Task result): work the agent did through it."""
    runs_subagent: bool = False
    """The reader knows this call ran a sub-agent though its name does not say so (Gemini
    CLI's agents are tools named after them)."""

    @property
    def has_result(self) -> bool:
        return self.output is not None or self.status in ("completed", "error", "cancelled")

    @property
    def failed(self) -> bool:
        """The one meaning of "failed" everywhere (readers, detector, stats, panel, `e`/`E`).

        The source's error flag, a non-zero exit code, or an error / timeout status.
        An unknown exit code stays unknown (None): it is never taken for 0 or for 1.
        """
        return (
            self.is_error
            or (self.exit_code is not None and self.exit_code != 0)
            or self.status in FAILED_STATUSES
        )

    def key_argument(self) -> str:
        """The one argument that best names what the call did (a command, a path, ...)."""
        value = self.input
        if isinstance(value, dict):
            for key in KEY_ARGUMENT_NAMES:
                item = value.get(key)
                if isinstance(item, str) and item:
                    return item
                if isinstance(item, list) and item and all(isinstance(x, str) for x in item):
                    return " ".join(item)
            for item in value.values():
                if isinstance(item, str) and item:
                    return item
            return ""
        if isinstance(value, str):
            return value
        return ""


FAILED_STATUSES = frozenset({"error", "failed", "timeout", "timed_out"})
"""Source statuses that mean the call failed whatever its exit code says."""

KEY_ARGUMENT_NAMES = (
    "command",
    "cmd",
    "commands",
    "file_path",
    "filePath",
    "path",
    "pattern",
    "query",
    "url",
    "description",
    "subject",
    "prompt",
)


class Part(msgspec.Struct):
    """A piece of a turn: text, reasoning, a tool call with its result, or an attachment."""

    kind: PartKind
    text: str = ""
    """Text / reasoning body; for attachments a placeholder such as "[image/png 120 KB]"."""
    tool: ToolCall | None = None


class Usage(msgspec.Struct):
    """Token usage of one message, counted once per message."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    reasoning: int = 0

    @property
    def total(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write


class SourceRef(msgspec.Struct, frozen=True):
    """Where a turn came from, so tools can point back at the source.

    `line` is the 1-based line where the turn's first record starts (line-based
    files); `record_id` is the source's own id for databases and id-based
    formats; `offset` is the byte offset of that line when known.
    """

    line: int | None = None
    record_id: str | None = None
    offset: int | None = None


PartsLoader = Callable[["Turn"], list[Part]]


class Turn(msgspec.Struct, eq=False):
    """One message of the conversation, in order."""

    index: int
    role: Role
    flags: TurnFlag = TurnFlag.NONE
    timestamp: float | None = None
    """Seconds since the epoch (UTC), or None when the source has no time."""
    message_id: str | None = None
    source: SourceRef = field(default_factory=SourceRef)
    model: str | None = None
    usage: Usage | None = None
    preview: str = ""
    """First ~200 characters of the turn's text. Always set for user and system turns;
    lazy readers fill it for assistant turns once their parts are decoded."""
    _parts: list[Part] | None = None
    _loader: PartsLoader | None = None
    extra: dict[str, Any] | None = None
    """Reader-private data (e.g. byte spans of lazily decoded records)."""

    @property
    def parts(self) -> list[Part]:
        """The turn's content, decoded on demand for lazy readers."""
        if self._parts is not None:
            return self._parts
        if self._loader is not None:
            return self._loader(self)
        return []

    @parts.setter
    def parts(self, value: list[Part]) -> None:
        self._parts = value

    @property
    def is_human(self) -> bool:
        return self.role is Role.USER and bool(int(self.flags) & _HUMAN)

    @property
    def is_synthetic(self) -> bool:
        return bool(int(self.flags) & _SYNTHETIC)

    @property
    def is_compaction(self) -> bool:
        return bool(int(self.flags) & _COMPACTION)

    @property
    def text(self) -> str:
        """All text parts joined (not reasoning, not tool output)."""
        return "\n\n".join(p.text for p in self.parts if p.kind is PartKind.TEXT and p.text)

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [p.tool for p in self.parts if p.tool is not None]


class Skipped(msgspec.Struct, frozen=True):
    """A record a reader could not use: reported to the user, never silently dropped."""

    line: int | None
    reason: str


class SessionRef(msgspec.Struct, frozen=True):
    """A session found on disk, before it is read.

    `key` selects one session inside a container that holds several (an
    opencode database's session id, the n-th block of an aider history).
    The other fields are cheap metadata for listings; any may be None.
    """

    format: str
    path: Path
    key: str | None = None
    session_id: str | None = None
    title: str | None = None
    cwd: str | None = None
    started: float | None = None
    updated: float | None = None
    size: int | None = None
    turns: int | None = None
    human_turns: int | None = None
    pivots: int | None = None
    """Pivots found at normal sensitivity (filled by listings that read the session)."""
    parent_call: str | None = None
    """A sub-agent's session: the id of the parent's tool call that ran it, when recorded."""
    parent: str | None = None
    """A sub-agent with a file of its own: the id of the session that ran it, as its file
    says (Codex's parent thread, Gemini CLI's parent folder). A listing that holds that
    session leaves this one to it when that session reaches it (`readers.subagent_refs`)."""
    reaches: tuple[str, ...] | None = None
    """The ids (lower-cased) of the sub-agents with files of their own that a full read
    found it ran (its `children`): those a listing leaves to it. None: not read (or a
    format whose sub-agents have no such files)."""
    tokens: int | None = None
    """Tokens the session used, its sub-agents' included (filled with the counts)."""
    cost: float | None = None
    """Dollars of its priced responses (None: none had a price, or not counted)."""
    cost_whole: bool | None = None
    """Every response had a price (else `cost` is a floor)."""

    @property
    def label(self) -> str:
        return f"{self.path}#{self.key}" if self.key else str(self.path)


def last_change(ref: SessionRef) -> float:
    """When `ref`'s file last changed (0 when unknown): what "newest" means in every listing."""
    return ref.updated or 0.0


class Session(msgspec.Struct, eq=False):
    """A session and its turns, as far as they have been read."""

    format: str
    path: Path
    id: str | None = None
    key: str | None = None
    title: str | None = None
    cwd: str | None = None
    model: str | None = None
    started: float | None = None
    ended: float | None = None
    turns: list[Turn] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    branches: list[list[Turn]] = field(default_factory=list)
    """Abandoned branches (rewinds / edits): reachable, not on the main line."""
    children: list[SessionRef] = field(default_factory=list)
    """Sub-agent / child sessions."""
    notices: list[str] = field(default_factory=list)
    """One-line facts the user should know (reloaded, truncated, rewound, ...)."""

    def human_turns(self) -> list[Turn]:
        return [t for t in self.turns if t.is_human]

    def turn_by_message_id(self, message_id: str) -> Turn | None:
        for turn in self.turns:
            if turn.message_id == message_id:
                return turn
        return None


# --------------------------------------------------------------------------
# Detector output. Lives here (not in the detector) so the CLI and the UI can
# show pivots without importing the detector's internals.


class PivotKind(StrEnum):
    DELEGATION_AFTER_DEAD_END = "delegation_after_dead_end"
    CONTINUE_AFTER_MILESTONE = "continue_after_milestone"
    IMPLICIT_APPROVAL = "implicit_approval"
    OTHER = "other"


class Silence(StrEnum):
    EMPTY = "empty"
    ACK = "ack"
    COMPACTION = "compaction"


class Signal(msgspec.Struct):
    """One piece of evidence, pointing at the turns that triggered it.

    `value` is how much of it there was, in [0, 1] (1 for a yes/no signal; "24 calls" is
    nearer 1 than "2 calls"); `weight` is what the signal added to (or, when negative, took
    from) the pivot's confidence: its fitted weight times its value. The confidence is the
    sum of the listed weights, so every score can be traced to listed signals. `quotes`
    holds a short, plain-text quote per evidence turn.
    """

    name: str
    turns: list[int]
    detail: str
    weight: float = 0.0
    side: str = "before"
    """"before" or "after" the silence, or "silence" for the silent turn itself."""
    quotes: list[str] = field(default_factory=list)
    value: float = 1.0


class TaskChange(msgspec.Struct):
    item: str
    before: str | None
    after: str | None
    turn: int


class StateChange(msgspec.Struct):
    """What the panel shows as before -> after."""

    phase_before: str = ""
    phase_after: str = ""
    initiative_before: str = ""
    initiative_after: str = ""
    open_threads: list[str] = field(default_factory=list)
    attempts_failed: int = 0
    attempts_succeeded: int = 0
    figures_before: list[str] = field(default_factory=list)
    figures_after: list[str] = field(default_factory=list)
    tasks: list[TaskChange] = field(default_factory=list)


class Pivot(msgspec.Struct):
    """A silent turn at an inflection point, with the evidence for it."""

    turn: int
    """Index (in `Session.turns`) of the anchor: the first silent turn of the cluster."""
    kind: PivotKind
    silence: Silence
    confidence: float
    cluster: list[int] = field(default_factory=list)
    """Every turn of the silent cluster (silence, summary, nudge), anchor first."""
    signals: list[Signal] = field(default_factory=list)
    delegation: list[Signal] = field(default_factory=list)
    state: StateChange = field(default_factory=StateChange)
    reason: str = ""
    """One line a person can read in a table: the evidence, in the detector's words."""
    candidate: bool = False
    """True while the after-window is still filling (live sessions)."""
    possible: bool = False
    """A possible pivot: its confidence is in the band just under the bar. Shown with its
    own marker, never paused at, and kept apart from the pivots in every count."""
    summary: str = ""
    """What happened, in one plain sentence to the person ("You said 'yes' after the agent
    laid out a 4-step plan; it then carried it out on its own (6 calls).")."""
