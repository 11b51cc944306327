"""What every export shares: its input, turn labels, tool-call lines and excerpt windows.

All text that comes from a session passes through `pivotal.text.safe.clean` here or in
the caller, so an export can never carry raw escape sequences to whoever
`cat`s it, whatever markup each format adds afterwards.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pivotal.catalog.notes import Mark
from pivotal.catalog.resume import ResumeCommand, resume_command
from pivotal.model import Pivot, Role, Session, SessionRef, ToolCall, Turn, TurnFlag
from pivotal.spend import words
from pivotal.spend.run import Run
from pivotal.spend.session import SessionSpend, measure_runs, session_spend
from pivotal.spend.words import run_sentence
from pivotal.text.safe import clean
from pivotal.text.shell import shown_argument, shown_input


@dataclass(slots=True)
class ExportInput:
    """One session, its pivots and the person's marks: everything an export shows."""

    ref: SessionRef
    session: Session
    pivots: list[Pivot]
    marks: list[Mark] = field(default_factory=list)
    resume: ResumeCommand | None = None
    notices: list[str] = field(default_factory=list)
    """Things the person should know about how the export was made (not part of it)."""
    possible: list[Pivot] = field(default_factory=list)
    """The possible pivots (just under the bar): listed in the JSON, never marked as pivots."""
    _spend: SessionSpend | None = field(default=None, repr=False, compare=False)
    _runs: dict[int, Run] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.resume is None:
            self.resume = resume_command(self.session)

    @property
    def title(self) -> str:
        session = self.session
        return clean(session.title or session.id or self.ref.path.name, max_len=120)

    def marks_by_turn(self) -> dict[int, list[Mark]]:
        out: dict[int, list[Mark]] = {}
        for mark in self.marks:
            if mark.turn_index is not None:
                out.setdefault(mark.turn_index, []).append(mark)
        return out

    def pivot_at(self) -> dict[int, int]:
        """Turn index -> 1-based pivot number, for every anchor."""
        return {p.turn: n for n, p in enumerate(self.pivots, 1)}

    def spend(self) -> SessionSpend:
        """The session's tokens and dollars, its sub-agents' once (read on first use)."""
        if self._spend is None:
            self._spend = session_spend(self.session)
        return self._spend

    def runs(self) -> dict[int, Run]:
        """Each pivot's run, by its anchor."""
        if self._runs is None:
            self._runs = measure_runs(self.session, self.pivots)
        return self._runs

    def run_sentence(self, pivot: Pivot) -> str:
        """ "after you said 'ok' the agent worked 47 min on its own: …" ("" when not measured)."""
        run = self.runs().get(pivot.turn)
        turns = self.session.turns
        anchor = turns[pivot.turn] if 0 <= pivot.turn < len(turns) else None
        return clean(run_sentence(run, pivot, anchor)) if run is not None else ""

    def spend_line(self) -> str:
        """The session's total: "1.2 M tokens, ≈ $3.40 (the session 0.8 M …; 3 sub-agents …)";
        what has no price says which model it was ("45 M tokens, no price for gpt-x"); "—"
        when it records no usage (as the picker and `stats` say it)."""
        spend = self.spend()
        total = spend.total
        line = words.spend(total)
        if not line:
            return words.NO_USAGE
        if total.unpriced_models:
            names = ", ".join(sorted(total.unpriced_models)[:3])
            whole = total.unpriced >= total.responses  # "…, no price" ends the line then
            line += f" for {names}" if whole else f" (no price for {names})"
        if spend.subagents:
            count = len(spend.subagents)
            line += (
                f"; the session {words.spend(spend.own) or '0 tokens'}, {count} sub-agent"
                f"{'s' * (count != 1)} {words.spend(spend.total_of_subagents) or '0 tokens'}"
            )
        return clean(line)

    def usage_line(self, turn: Turn) -> str:
        """A turn's tokens and dollars for its header ("" when it recorded none)."""
        return words.turn_usage(turn, self.session.model)


def role_label(turn: Turn) -> str:
    """Who a reader of the export should think wrote the turn."""
    if turn.flags & TurnFlag.COMPACTION_BOUNDARY:
        return "compaction"
    if turn.flags & TurnFlag.COMPACTION_SUMMARY:
        return "compaction summary"
    if turn.is_human:
        return "person"
    if turn.role is Role.USER:
        return "injected"
    if turn.role is Role.ASSISTANT:
        return "sub-agent" if turn.flags & TurnFlag.SIDECHAIN else "agent"
    return "system"


def role_class(turn: Turn) -> str:
    """A CSS-safe class for the turn's kind."""
    return role_label(turn).replace(" ", "-")


def tool_status(call: ToolCall) -> str:
    if call.failed:
        return "failed" + (f", exit {call.exit_code}" if call.exit_code is not None else "")
    if call.exit_code is not None:
        return f"exit {call.exit_code}"
    if call.status and call.status not in ("completed", "success"):
        return clean(call.status, max_len=20)
    return "ok" if call.has_result else "no result"


def tool_line(call: ToolCall, limit: int = 120) -> str:
    """`Bash: pytest -q  (failed, exit 1)`: one cleaned line per call."""
    argument = clean(shown_argument(call), max_len=limit).replace("\n", " ⏎ ")
    name = clean(call.name, max_len=40)
    return (
        f"{name}: {argument}  ({tool_status(call)})"
        if argument
        else f"{name} ({tool_status(call)})"
    )


def tool_input_text(call: ToolCall, limit: int) -> str:
    """The call's arguments as readable text (JSON for structured input, a command given as
    words as typed: `"command": "npm test"`), cleaned."""
    value = shown_input(call.input)
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            text = repr(value)
    return clean(text, max_len=limit)


THINKING = "(thinking) "
"""What a reasoning part's text is shown after."""


def turn_body(turn: Turn, limit: int) -> str:
    """The turn's text (reasoning marked as such), cleaned and cut to `limit` characters."""
    pieces = []
    for part in turn.parts:
        if part.kind.value == "text" and part.text:
            pieces.append(part.text)
        elif part.kind.value == "reasoning" and part.text:
            pieces.append(THINKING + part.text)
        elif part.kind.value == "attachment":
            pieces.append(part.text or "[attachment]")
    return clean("\n\n".join(pieces), max_len=limit)


def excerpt_range(session: Session, pivot: Pivot, before: int = 2, after: int = 3) -> range:
    """Turns shown around a pivot: a little context, the silent cluster, what the agent did."""
    last = max([pivot.turn, *pivot.cluster])
    start = max(0, pivot.turn - before)
    stop = min(len(session.turns), last + after + 1)
    return range(start, stop)


def longest_run(text: str, char: str) -> int:
    best = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        best = max(best, run)
    return best
