"""What the pivot panel says, in the order a person reads it.

First what happened, in plain words (the detector's `summary` sentence when it
has one, else its reason) and what the agent then did on its own until the
person typed again (time, calls, files, tokens, dollars, its sub-agents:
`pivotal.spend`), then what changed before → after (phase,
initiative, the failed tool calls since the person last spoke, the figures
measured, open threads, task changes and which side of the pivot each is on),
and only then the evidence: kind, confidence, silence, the detector's tallies
and every signal with its weight. Links (`→ turn #N`) jump to that turn.

The failed calls are `ToolCall.failed` turns, the ones `e`/`E` visit; a figure
the person wrote themselves ("the target is 40 tok/s") is their target, never a
measurement. `context_for` works those out from the turns (no Textual here).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from pivotal.detect.config import PivotConfig
from pivotal.detect.silence import classify_turn
from pivotal.model import Pivot, Role, Signal, Silence, StateChange, Turn, TurnFlag
from pivotal.spend.run import next_anchor, pivot_run, run_end
from pivotal.spend.subagents import Subagent
from pivotal.spend.words import run_sentence
from pivotal.tui.safe import one_line

if TYPE_CHECKING:
    from collections.abc import Sequence

SILENCE_NOTES = {
    Silence.EMPTY: "an empty message",
    Silence.ACK: "a bare go-on (ok / continue / yes)",
    Silence.COMPACTION: "a compaction boundary, not necessarily the person",
}
BOLD = Style(bold=True)
DIM = Style(dim=True)
HEAD = Style(bold=True, underline=True)
BACK_LIMIT = 2_000
"""At most this many turns are walked back to find the person's last real message."""
_CONFIG = PivotConfig()
HUMAN = int(TurnFlag.HUMAN)


@dataclass(frozen=True, slots=True)
class Context:
    """What the panel needs from the session around a pivot, beyond the pivot itself."""

    since: int | None = None
    """The person's last real (not silent) message before the pivot."""
    failed: tuple[int, ...] = ()
    """Turns with a failed tool call between `since` and the pivot (what e/E visit)."""
    targets: tuple[str, ...] = field(default_factory=tuple)
    """Figures the person wrote themselves before the pivot (their targets)."""
    run: str = ""
    """What the agent did on its own after it, in one sentence ("" until known)."""


class Stories:
    """`Context` per pivot, with what it costs to learn worked out once.

    The person's last message before a pivot is found once per pivot (the turns
    before it do not change as a live session grows); what the person wrote is
    one lower-cased text of their messages' previews, built once and extended as
    turns arrive, cut at the pivot by offset. Both are forgotten when the session
    shrinks (another file, a rewrite).
    """

    def __init__(self) -> None:
        self._since: dict[int, int | None] = {}
        """Pivot turn -> the person's last real message before it."""
        self._targets: dict[tuple[int, tuple[str, ...]], tuple[str, ...]] = {}
        """(pivot turn, its figures) -> those the person wrote: a search of everything they
        said before it (1 ms a panel redraw at the end of 100,000 turns) done once."""
        self._count = 0
        self._scanned = 0
        self._spoken = ""
        """The previews of the person's messages in turns[:_scanned], lower-cased."""
        self._ends: list[tuple[int, int]] = []
        """(turn index, end offset in `_spoken`) per person's message, ascending."""
        self._runs: dict[tuple[object, ...], str] = {}
        """(pivot turn, where its run stops, sub-agents known) -> its sentence: a run is
        measured once (its calls decoded), again only when a live session grows it."""

    def context(
        self,
        pivot: Pivot,
        turns: Sequence[Turn],
        failures: Sequence[int],
        *,
        pivots: Sequence[Pivot] = (),
        model: str | None = None,
        subagents: Sequence[Subagent] = (),
    ) -> Context:
        if len(turns) < self._count:
            self._since.clear()
            self._targets.clear()
            self._runs.clear()
            self._scanned, self._spoken, self._ends = 0, "", []
        self._count = len(turns)
        if pivot.turn not in self._since:
            self._since[pivot.turn] = _last_message(turns, pivot.turn)
        since = self._since[pivot.turn]
        start = -1 if since is None else since
        low, high = bisect_right(failures, start), bisect_left(failures, pivot.turn)
        state = pivot.state
        figures = [f for f in dict.fromkeys([*state.figures_before, *state.figures_after]) if f]
        targets: tuple[str, ...] = ()
        if figures:
            key = (pivot.turn, tuple(figures))
            found = self._targets.get(key)
            if found is None:
                end = self._spoken_before(turns, pivot.turn)
                spoken = self._spoken
                found = tuple(
                    f for f in figures if spoken.find(" ".join(f.lower().split()), 0, end) >= 0
                )
                self._targets[key] = found
            targets = found
        run = self._run(pivot, turns, pivots, model, subagents)
        return Context(since, tuple(failures[low:high]), targets, run)

    def _run(
        self,
        pivot: Pivot,
        turns: Sequence[Turn],
        pivots: Sequence[Pivot],
        model: str | None,
        subagents: Sequence[Subagent],
    ) -> str:
        stop = next_anchor(pivots, pivot.turn)
        end = run_end(turns, pivot, stop)
        # a run that reaches the end of a live session grows with it: measured again then
        key = (pivot.turn, end, len(turns) if end >= len(turns) else 0, len(subagents))
        found = self._runs.get(key)
        if found is None:
            run = pivot_run(turns, pivot, model=model, subagents=subagents, stop=stop)
            anchor = turns[pivot.turn] if 0 <= pivot.turn < len(turns) else None
            found = self._runs[key] = run_sentence(run, pivot, anchor)
        return found

    def _spoken_before(self, turns: Sequence[Turn], before: int) -> int:
        """How much of `_spoken` the person wrote before turn `before` (its end offset).

        Flags are tested as plain ints: `Turn.is_human` builds an IntFlag per call.
        """
        if before > self._scanned:
            pieces, offset, user = [self._spoken], len(self._spoken), Role.USER
            for turn in turns[self._scanned : before]:
                if turn.role is user and int(turn.flags) & HUMAN and turn.preview:
                    piece = "\n" + turn.preview.lower()
                    offset += len(piece)
                    pieces.append(piece)
                    self._ends.append((turn.index, offset))
            self._spoken, self._scanned = "".join(pieces), before
        cut = bisect_left(self._ends, (before, -1))
        return self._ends[cut - 1][1] if cut else 0


def context_for(pivot: Pivot, turns: Sequence[Turn], failures: Sequence[int]) -> Context:
    """The failed calls since the person last spoke, and the figures that are theirs."""
    return Stories().context(pivot, turns, failures)


def _last_message(turns: Sequence[Turn], before: int) -> int | None:
    """The person's last real (not silent) message before turn `before`."""
    for index in range(min(before, len(turns)) - 1, max(before - BACK_LIMIT, 0) - 1, -1):
        turn = turns[index]
        if (
            turn.role is Role.USER
            and int(turn.flags) & HUMAN
            and classify_turn(turn, _CONFIG) is None
        ):
            return index
    return None


def link(turn: int) -> Style:
    """Underlined, and a click runs the replay screen's `jump` action."""
    return Style(underline=True) + Style.from_meta({"@click": f"screen.jump({turn})"})


def pivot_text(pivot: Pivot, number: int, total: int, context: Context | None = None) -> Text:
    """The whole explanation of one pivot (see the module docstring for the order)."""
    context = context or Context()
    title = f"Pivot {number}/{total} · turn #{pivot.turn + 1}"
    if pivot.candidate:
        title += " (candidate)"
    text = Text()
    text.append(title, Style(bold=True, reverse=True) + link(pivot.turn))
    plain = one_line(pivot.summary or pivot.reason, 500)
    if plain:
        text.append("\n" + plain)
    if context.run:
        sentence = one_line(context.run, 600)
        text.append("\n" + sentence[:1].upper() + sentence[1:])
    state_text(text, pivot, context)
    if len(pivot.cluster) > 1:
        text.append("\n\nThe silent stretch", HEAD)
        for index in pivot.cluster:
            text.append("\n  ")
            text.append(f"→ turn #{index + 1}", link(index))
    evidence_text(text, pivot, plain)
    return text


def state_text(text: Text, pivot: Pivot, context: Context) -> None:
    """Before → after, in plain words."""
    state: StateChange = pivot.state
    rows: list[Text] = []
    for label, before, after in (
        ("phase", state.phase_before, state.phase_after),
        ("initiative", state.initiative_before, state.initiative_after),
    ):
        if before or after:
            rows.append(
                Text(f"{label:<11} {one_line(before, 60) or '?'} → {one_line(after, 60) or '?'}")
            )
    rows.append(failed_row(context))
    targets = set(context.targets)
    # "after:" alone read as the second half of a comparison ("31.2 tok/s → 32 ms"):
    # each row says which side of the pivot its figures were quoted on
    for label, items in (
        ("figures before", state.figures_before),
        ("figures after", state.figures_after),
    ):
        shown = [one_line(x, 60) for x in items[:6] if x not in targets]
        if shown:
            rows.append(Text(f"{label}: " + "; ".join(shown), DIM))
    if context.targets:
        theirs = "; ".join(one_line(x, 60) for x in context.targets[:4])
        rows.append(Text(f"your target: {theirs} (from your message, not a measurement)", DIM))
    rows += [Text(f"open: {one_line(thread, 80)}", DIM) for thread in state.open_threads[:6]]
    for task in state.tasks[:8]:
        side = "after" if task.turn > pivot.turn else "before"
        change = f"{one_line(task.before, 30) or '–'} → {one_line(task.after, 30) or '–'}"
        row = Text(f"task {one_line(task.item, 50)}: {change} ({side} the pivot, ", DIM)
        row.append(f"turn #{task.turn + 1}", DIM + link(task.turn))
        row.append(")", DIM)
        rows.append(row)
    text.append("\n\nBefore → after", HEAD)
    for row in rows:
        text.append("\n")
        text.append_text(row)


def failed_row(context: Context) -> Text:
    """`failed calls  2 since your message #12: → turn #14 → turn #15` (the turns e/E visit)."""
    where = f"your message #{context.since + 1}" if context.since is not None else "the start"
    count = len(context.failed)
    row = Text(f"failed calls {count} since {where}")
    if count:
        row.append(" (e/E):")
        for turn in context.failed[:8]:
            row.append(" ")
            row.append(f"→ turn #{turn + 1}", link(turn))
        if count > 8:
            row.append(f" … {count - 8} more")
    return row


def evidence_text(text: Text, pivot: Pivot, shown_reason: str) -> None:
    """How the detector scored it: kind, confidence, silence, tallies, every signal."""
    kind = pivot.kind.value.replace("_", " ")
    text.append("\n\nEvidence", HEAD)
    text.append(f"\nkind        {kind}", DIM)
    text.append(f"\nconfidence  {pivot.confidence:.2f}", DIM)
    text.append(f"\nsilence     {pivot.silence.value}: {SILENCE_NOTES.get(pivot.silence, '')}", DIM)
    state = pivot.state
    if state.attempts_failed or state.attempts_succeeded:
        text.append(
            f"\nattempts    {state.attempts_failed} failed, {state.attempts_succeeded} ok"
            " (as the detector counts them: failed calls, error output and failures the"
            " agent reported in words)",
            DIM,
        )
    reason = one_line(pivot.reason, 400)
    if reason and reason != shown_reason:
        text.append(f"\nreason      {reason}", DIM)
    if pivot.delegation:
        text.append("\n\nhow the agent took over", BOLD)
        for signal in pivot.delegation:
            signal_text(text, signal)
    if pivot.signals:
        text.append("\n\nscore", BOLD)
        for signal in pivot.signals:
            signal_text(text, signal)


def signal_text(text: Text, signal: Signal) -> None:
    weight = f" {signal.weight:+.2f}" if signal.weight else ""
    text.append(f"\n• {one_line(signal.name, 60)}", BOLD)
    text.append(f"{weight} [{signal.side}]", DIM)
    if signal.detail:
        text.append(f"\n  {one_line(signal.detail, 300)}", DIM)
    for n, turn in enumerate(signal.turns[:12]):
        text.append("\n  ")
        text.append(f"→ turn #{turn + 1}", link(turn))
        quote = signal.quotes[n] if n < len(signal.quotes) else ""
        if quote:
            text.append(f"  “{one_line(quote, 80)}”", DIM)
