"""The sub-agents a session ran: read once, measured, and tied to the call that ran each.

Readers list a session's sub-sessions as `Session.children` (Claude Code's
`subagents/agent-<id>.jsonl` or, before 2.0.28, the sidechains of the session's
own file; opencode's and Kilo's child sessions; the rollouts of Codex's spawned
threads; Gemini CLI's `chats/<session>/` files). Each is read here once and
measured (its turns, calls, time, tokens and dollars, its own sub-agents
included), then tied to the parent's call that ran it, by the first of these
that holds:

1. the reader knows the call (`SessionRef.parent_call`: Claude Code's meta file,
   or the Task result written right after a sidechain; Codex's spawn call whose
   result names the thread; the Gemini CLI agent call it ran during);
2. the call's result names the child's id (Claude Code's "agentId: …");
3. the child's first message is the prompt the call gave it.

A tied child with no title of its own takes the call's `description` (what a
meta file gives). A child ties to one call at most and a call to one child, so
a sub-agent's figures are added once wherever they are summed: to the session's
totals always, to a pivot's run through its call (or, tied to none, by when it ran).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec
from msgspec import field

from pivotal.model import Role, Session, SessionRef, ToolCall, Turn
from pivotal.readers.subagent_refs import DEPTH as SUBAGENT_DEPTH
from pivotal.spend.prices import PriceList, price_list
from pivotal.spend.tally import Tally, tally_turns

SUBAGENT_TOOLS = frozenset({"task", "agent", "spawn_agent"})
"""Tool names (last part, lower-cased) of the calls that run a sub-agent (Claude Code's
Task / Agent, opencode's task, Codex's spawn_agent); a reader may also mark a call
(`ToolCall.runs_subagent`) whose name does not say it."""
DEPTH = SUBAGENT_DEPTH
"""Sub-agents of sub-agents are read this deep (a loop of links cannot recurse forever;
a listing leaves no file deeper than this to its parent: `subagent_refs`)."""
_MIN_ID = 6
"""A child id shorter than this is not looked for in a call's result (too easy to meet)."""

Visit = Callable[["Subagent", Session], None]
"""Shown each child as it is read (the search index takes its text from the same read)."""


class Subagent(msgspec.Struct):
    """One sub-session and what it did."""

    ref: SessionRef
    title: str = ""
    turns: int = 0
    agent_turns: int = 0
    calls: int = 0
    failed: int = 0
    started: float | None = None
    ended: float | None = None
    tally: Tally = field(default_factory=Tally)
    """Its tokens and dollars, its own sub-agents included."""
    nested: list[Subagent] = field(default_factory=list)
    parent_turn: int | None = None
    """The parent's turn whose call ran it, once tied."""
    call_id: str | None = None
    error: str = ""
    """Why it could not be read ("" when it was)."""
    prompt: str = ""
    """Its first message (what it was asked), whitespace folded."""

    @property
    def seconds(self) -> float | None:
        if self.started is None or self.ended is None:
            return None
        return max(0.0, self.ended - self.started)


def is_subagent_call(call: ToolCall) -> bool:
    if call.runs_subagent:
        return True
    name = call.name.lower().rsplit(".", 1)[-1].rsplit("__", 1)[-1]
    return name in SUBAGENT_TOOLS


def read_subagents(
    session: Session,
    prices: PriceList | None = None,
    *,
    depth: int = DEPTH,
    visit: Visit | None = None,
) -> list[Subagent]:
    """Every child of `session`, read and measured, tied to the calls that ran them;
    `visit` is shown each child read (its own sub-agents' too) before it is let go."""
    subs = read_children(session.children, prices, depth=depth, visit=visit)
    if subs:
        tie(call_sites(session.turns), subs)
    return subs


def read_children(
    refs: Sequence[SessionRef],
    prices: PriceList | None = None,
    *,
    depth: int = DEPTH,
    visit: Visit | None = None,
) -> list[Subagent]:
    """`refs` read and measured, tied to nothing yet (`tie`)."""
    if not refs or depth <= 0:
        return []
    prices = prices or price_list()
    return [_read(ref, prices, depth, visit) for ref in refs]


def _read(ref: SessionRef, prices: PriceList, depth: int, visit: Visit | None) -> Subagent:
    from pivotal.readers import read_errors, read_session

    sub = Subagent(ref=ref, title=ref.title or "")
    try:
        child = read_session(ref)
    except read_errors() as exc:
        sub.error = f"{type(exc).__name__}: {exc}"
        return sub
    turns = child.turns
    sub.turns = len(turns)
    sub.title = sub.title or child.title or ""
    stamps = [t.timestamp for t in turns if t.timestamp is not None]
    sub.started = stamps[0] if stamps else child.started
    sub.ended = stamps[-1] if stamps else child.ended
    for turn in turns:
        if turn.role is Role.ASSISTANT:
            sub.agent_turns += 1
            for call in turn.tool_calls:
                sub.calls += 1
                sub.failed += call.failed
        elif turn.role is Role.USER and not sub.prompt:
            sub.prompt = _folded(turn.text)
    sub.tally = tally_turns(turns, child.model, prices)
    if visit is not None:
        visit(sub, child)
    sub.nested = read_subagents(child, prices, depth=depth - 1, visit=visit)
    for nested in sub.nested:
        sub.tally.add(nested.tally)
        sub.calls += nested.calls
        sub.failed += nested.failed
        sub.agent_turns += nested.agent_turns
    return sub


def call_sites(
    turns: Sequence[Turn], start: int = 0, stop: int | None = None
) -> list[tuple[int, ToolCall]]:
    """(turn index, call) of every call in `turns[start:stop]` that ran a sub-agent."""
    stop = len(turns) if stop is None else stop
    return [
        (index, call)
        for index in range(start, stop)
        if turns[index].role is Role.ASSISTANT
        for call in turns[index].tool_calls
        if is_subagent_call(call)
    ]


def tie(calls: Sequence[tuple[int, ToolCall]], subs: list[Subagent]) -> None:
    """Tie each sub-agent to the call (of `call_sites`) that ran it (see the module docstring)."""
    loose = [s for s in subs if not s.error]
    if not loose:
        return
    taken: set[str] = set()
    for rule in (_by_reader, _by_result, _by_prompt):
        for sub in loose:
            if sub.parent_turn is not None:
                continue
            for index, call in calls:
                if call.call_id not in taken and rule(sub, call):
                    sub.parent_turn, sub.call_id = index, call.call_id
                    sub.title = sub.title or _description(call)
                    taken.add(call.call_id)
                    break


def _by_reader(sub: Subagent, call: ToolCall) -> bool:
    return bool(sub.ref.parent_call) and sub.ref.parent_call == call.call_id


def _by_result(sub: Subagent, call: ToolCall) -> bool:
    ident = sub.ref.session_id or sub.ref.key or ""
    return len(ident) >= _MIN_ID and bool(call.output) and ident in (call.output or "")


def _by_prompt(sub: Subagent, call: ToolCall) -> bool:
    args = call.input if isinstance(call.input, dict) else {}
    prompt = args.get("prompt", args.get("message"))  # Task's prompt, spawn_agent's message
    return bool(sub.prompt) and isinstance(prompt, str) and _folded(prompt) == sub.prompt


def _description(call: ToolCall) -> str:
    """What the call named its sub-agent's task (Task's `description`), as a meta file does."""
    value = call.input.get("description") if isinstance(call.input, dict) else None
    return _folded(value) if isinstance(value, str) else ""


def _folded(text: str) -> str:
    return " ".join(text.split())


def subagents_tally(subs: Sequence[Subagent]) -> Tally:
    total = Tally()
    for sub in subs:
        total.add(sub.tally)
    return total
