"""What of a session goes into the search index: one text per turn and speaker.

A hit names a turn and who wrote what matched: the person (`YOU`), a command
(the agent's tool calls and the person's own `!command`, its arguments as the
transcript shows them), the agent (its text and reasoning), a tool's output, a
system line (the client's own: "usage limit reached", an API error, "No response
requested.", a compaction's mark) or a compaction summary, each named as the
replayer names it. Each turn gives at most one text of each, so ranking can put
the person's own words and commands before the long outputs they caused. Harness
text (system reminders, command wrappers, hook output, the instructions a client
gives the model in tags) is left out: it repeats in every session and is nobody's
words. So are base64 runs (pasted or printed images: noise that would make
every three letters match) and a tool's output past `OUTPUT_HEAD` +
`OUTPUT_TAIL` characters (the head says what ran, the tail how it ended).
Runs in the workers of the listing pass, beside the turn and pivot counts.
A sub-agent's texts are its own session's, kept under the session that ran it
(`SubText`, `search_subagents`).
"""

from __future__ import annotations

import hashlib
import re
from typing import NamedTuple

from pivotal.model import PartKind, Role, Session, SessionRef, Turn, TurnFlag
from pivotal.text.shell import input_lines

YOU, COMMAND, AGENT, OUTPUT, SYSTEM, SUMMARY = 0, 1, 2, 3, 4, 5
WHO_NAMES = ("you", "command", "agent", "tool output", "system", "compaction summary")
"""Indexed by the codes above: how a hit's speaker is printed (as the replayer labels it)."""
WHO_KEYS = ("you", "command", "agent", "tool_output", "system", "compaction_summary")
"""The same as JSON values (no spaces): `search --json`'s `what`."""
WHO_STABLE = ("you", "command", "agent", "tool_output", "tool_output", "agent")
"""`search --json`'s `who`, whose four values are stable (docs/json.md): a system line is
the client's output, a compaction summary the agent's words, as they were before they had
names of their own (`what` says which)."""
TEXT_VERSION = 2
"""What the index holds of a session: a change here rebuilds the indexes built before it
(2: system lines, compaction summaries apart, a call's arguments as JSON)."""

OUTPUT_HEAD = 16_000
OUTPUT_TAIL = 4_000
"""Characters kept of one call's output: its start and its end, the middle left out."""
INPUT_LIMIT = 16_000
"""Characters kept of one call's arguments (a file written whole is mostly code)."""
TEXT_LIMIT = 200_000
"""Characters kept of one text (a pasted log of megabytes stays searchable by its start)."""
BASE64 = re.compile(r"[A-Za-z0-9+/]{200,}={0,2}")
"""A run no prose, path or command has: an image or file inlined as base64."""
_PERSON_COMMAND = ("!", "<bash-input>", "<command-name>", "/")
"""How the person's own commands start once a reader made them synthetic user turns (a slash
command as typed: Claude Code's `/model opus`, read from its wrapper)."""
_SYNTHETIC = int(TurnFlag.SYNTHETIC | TurnFlag.META)
_SUMMARY = int(TurnFlag.COMPACTION_SUMMARY)
_BOUNDARY = int(TurnFlag.COMPACTION_BOUNDARY)
_TAGGED = "<"
"""How a system text the client wrote for the model starts (Codex's `<permissions
instructions>`, `<collaboration_mode>`): instructions, not a line shown to the person."""


class Doc(NamedTuple):
    """One indexed text: the turn it is in (index in `Session.turns`), who, when, the text."""

    turn: int
    who: int
    time: float | None
    body: str


class SubText(NamedTuple):
    """A sub-agent's texts, kept under the session that ran it (`search_subagents`)."""

    ref: SessionRef
    """The sub-agent's own session: where it is (its file, or its stretch of the parent's)."""
    ident: str
    """What it is known by from one read of its parent to the next (its id, after its
    runner's: unique in the session)."""
    runner: str | None
    """The `ident` of the sub-agent that ran it (None: the session itself)."""
    turn: int
    """The turn of its runner whose call ran it (tied to none: the turn it started during)."""
    title: str
    docs: list[Doc] | None
    """None: it is one of its file's own sessions, whose texts are kept as such (opencode's
    child sessions): only its place under the parent is new."""


def session_docs(session: Session) -> list[Doc]:
    """Every text of `session` worth finding, in turn order (at most one per turn and who)."""
    docs: list[Doc] = []
    for turn in session.turns:
        for who, body in turn_texts(turn):
            docs.append(Doc(turn.index, who, turn.timestamp, body))
    return docs


def turn_texts(turn: Turn) -> list[tuple[int, str]]:
    """(who, text) of one turn, cleaned for the index; texts that say nothing are left out."""
    try:
        parts = turn.parts
    except Exception:  # noqa: BLE001 - a turn that cannot be decoded keeps its preview
        parts = []
    pieces: dict[int, list[str]] = {}
    flags = int(turn.flags)
    if flags & _BOUNDARY:
        own = SYSTEM  # where the context was compacted (the replayer's `■ compaction`)
    elif flags & _SUMMARY:
        own = SUMMARY  # the summary of the work so far a compaction wrote
    elif turn.role is Role.ASSISTANT:
        own = AGENT
    elif turn.role is Role.USER and turn.is_human:
        own = YOU
    elif turn.role is Role.USER and flags & _SYNTHETIC and _person_command(turn, parts):
        own = COMMAND
    elif turn.role is Role.SYSTEM:
        own = SYSTEM
    else:
        own = None  # harness text: its tool calls (a `!command`'s run) still count
    texts = [p.text for p in parts if p.text and p.kind in (PartKind.TEXT, PartKind.REASONING)]
    if own is not None:
        if not parts and turn.preview:
            texts = [turn.preview]
        if own == SYSTEM:
            texts = [_output(t) for t in texts if not t.lstrip().startswith(_TAGGED)]
        pieces[own] = texts
    output_left = TEXT_LIMIT
    for part in parts:
        call = part.tool
        if call is None:
            continue
        pieces.setdefault(COMMAND, []).append(_clip(f"{call.name}: {arguments(call.input)}"))
        if call.output and output_left > 0:
            kept = _output(call.output)[:output_left]
            output_left -= len(kept)
            pieces.setdefault(OUTPUT, []).append(kept)
    found = []
    for who in range(len(WHO_NAMES)):
        body = indexable("\n".join(t for t in pieces.get(who, ()) if t))
        if body.strip():
            found.append((who, body))
    return found


def _person_command(turn: Turn, parts: list) -> bool:  # type: ignore[type-arg]
    text = next((p.text for p in parts if p.kind is PartKind.TEXT and p.text), turn.preview)
    return text.lstrip().startswith(_PERSON_COMMAND)


def arguments(value: object) -> str:
    """A call's arguments as text: each value on its own line, the way the transcript lists
    them, a command given as words as typed (`text.shell`: `command: npm test`, not
    `command: ['bash', '-lc', 'npm test']`), any other list or object as JSON."""
    return input_lines(value)


def _clip(text: str) -> str:
    return text if len(text) <= INPUT_LIMIT else text[:INPUT_LIMIT]


def _output(text: str) -> str:
    if len(text) <= OUTPUT_HEAD + OUTPUT_TAIL:
        return text
    return f"{text[:OUTPUT_HEAD]}\n…\n{text[-OUTPUT_TAIL:]}"


def indexable(text: str) -> str:
    """`text` as the index keeps it: capped, base64 runs and NULs out, valid UTF-8."""
    if len(text) > TEXT_LIMIT:
        text = text[:TEXT_LIMIT]
    if len(text) >= 200:
        text = BASE64.sub(" ", text)
    if "\0" in text:
        text = text.replace("\0", " ")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from a JSON escape: SQLite takes only UTF-8
        text = text.encode("utf-8", "replace").decode("utf-8")
    return text


def fingerprint(body: str) -> int:
    """A 64-bit digest of a text (signed, as SQLite stores integers): unchanged turns are kept."""
    digest = hashlib.blake2b(body.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)
