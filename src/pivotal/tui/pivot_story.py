"""What the pivot panel says, in the order a person reads it: plain words first, numbers last.

First what happened, in plain words (the detector's `summary` sentence when it
has one, else its reason) and what the agent then did on its own until the
person typed again (time, calls, files, tokens, dollars, its sub-agents:
`pivotal.spend`); for a possible pivot, why it stayed under the bar. Then what
changed before → after, only the rows that say something (what the agent was
doing, who led, the one failure count, figures measured on both sides in the
same unit, the person's own target, open threads once each, task changes and
which side of the pivot each is on). Then the evidence as sentences with the
turns that show it (what points to a pivot, what speaks against, how the agent
took over), and only under it the weights and the confidence against the bar.
A silence the detector turned down gets the same, after its reason
(`rejection_text`); with no pivot to explain, the panel lists those silences
(`no_pivot_text`). Links (`→ turn #N`) jump to that turn. Session text - a
quote, or one inside a sentence - is shown as written, as `scan` shows it
(`said`): never read as Markdown or markup (dropping `**` made an `*** Begin
Patch` read `* Begin Patch`, a `2**10` read `210`).

The failure count is the turns with a failed call (`ToolCall.failed`), the ones
`e`/`E` visit; a figure the person wrote themselves ("the target is 40 tok/s")
is their target, never a measurement. `context_for` works those out from the
turns (no Textual here).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from pivotal.detect.config import PivotConfig
from pivotal.detect.evaluate import Rejection
from pivotal.detect.silence import classify_turn
from pivotal.detect.silence_words import compaction_note, compaction_trigger
from pivotal.model import Pivot, PivotKind, Role, Signal, Silence, StateChange, Turn, TurnFlag
from pivotal.spend.run import next_anchor, pivot_run, run_end
from pivotal.spend.subagents import Subagent
from pivotal.spend.words import run_sentence
from pivotal.text.plural import plural
from pivotal.tui.render import POSSIBLE_GLYPH, kind_name
from pivotal.tui.safe import one_line
from pivotal.tui.verdicts import why_not

if TYPE_CHECKING:
    from collections.abc import Sequence

SILENCE_NOTES = {
    Silence.EMPTY: "an empty message",
    Silence.ACK: "a bare go-on (ok / continue / yes)",
}
"""The silence, as the panel's last line says it (a compaction's follows its trigger)."""
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


KIND_GLOSS = {
    PivotKind.IMPLICIT_APPROVAL: "silence taken as a yes",
    PivotKind.OTHER: "none of the three kinds",
}
"""Plain words after the kind's name in the panel's title, where the name alone says less
("delegation after dead end" needs no "after a dead end" after it)."""
GLOSS = " — "
"""Between the kind's name and its gloss: the panel drops the gloss where the title would
not fit on one line (`pivot_panel.fit_heading`)."""
LINKS = 6
"""Evidence turns listed per piece of evidence (the rest are counted)."""

_UNIT = re.compile(r"^[~≈]?[\d.,]+\s?(.+)$")


NO_BREAK = "\u00a0"
"""Between a figure and its unit: the panel never breaks a line there (`pivot_panel`)."""
_UNITS = re.compile(r"(?<=\d) (?=(?:k|M) tokens\b|(?:k|M|min|s|h)\b)|(?<=\d [kM]) (?=tokens\b)")
_MONEY = re.compile(r"(?<=[≈≥<]) (?=\$)")


def keep_units(sentence: str) -> str:
    """`sentence` with no-break spaces inside its figures ("227 k tokens", "20 min",
    "≈ $0.20"): a line that broke between "227" and "k tokens" read as two figures."""
    return _MONEY.sub(NO_BREAK, _UNITS.sub(NO_BREAK, sentence))


def said(text: str | None, limit: int) -> str:
    """Session or detector words for the panel: one clean line, every character as written
    (appended to a `Text` as plain text: no Markdown, no Rich markup)."""
    return one_line(text, limit)


def pivot_text(
    pivot: Pivot,
    number: int,
    total: int,
    context: Context | None = None,
    bar: float | None = None,
) -> Text:
    """The whole explanation of one pivot or possible pivot (see the module docstring)."""
    context = context or Context()
    what = "Possible pivot" if pivot.possible else "Pivot"
    title = f"{what} {number}/{total} · turn #{pivot.turn + 1} · {kind_name(pivot.kind)}"
    if pivot.candidate:
        title += " (candidate)"
    gloss = KIND_GLOSS.get(pivot.kind)
    if gloss:
        title += GLOSS + gloss
    text = Text()
    style = BOLD + Style(underline=True) if pivot.possible else Style(bold=True, reverse=True)
    glyph = f"{POSSIBLE_GLYPH} " if pivot.possible else ""
    text.append(glyph + title, style + link(pivot.turn))
    if pivot.possible:
        text.append("\n" + under_the_bar(pivot.confidence, bar), BOLD)
    first = said(pivot.summary or pivot.reason, 500)
    if first:
        text.append("\n" + first)
    if context.run:
        sentence = one_line(context.run, 600)
        text.append("\n" + keep_units(sentence[:1].upper() + sentence[1:]))
    if pivot.possible:
        held_down(text, pivot.signals)
    state_text(text, pivot, context)
    if len(pivot.cluster) > 1:
        text.append("\n\nThe silent stretch", HEAD)
        for index in pivot.cluster:
            text.append("\n  ")
            text.append(f"→ turn #{index + 1}", link(index))
    evidence_text(text, pivot.signals, pivot.delegation)
    weights_text(text, pivot.signals, pivot.confidence, bar, pivot.silence, pivot.possible)
    return text


def under_the_bar(confidence: float, bar: float | None) -> str:
    """Why the replay does not stop at a possible pivot, in one line."""
    needs = f"; a pivot needs {bar:.2f}" if bar is not None else ""
    return f"Not paused at: it stayed just under the bar ({confidence:.2f}{needs})."


def held_down(text: Text, signals: Sequence[Signal]) -> None:
    """What kept a possible pivot under the bar: the evidence against it, else too little for."""
    against = sorted((s for s in signals if s.weight < 0), key=lambda s: s.weight)[:2]
    text.append("\n\nWhy it stayed under the bar", HEAD)
    if against:
        for signal in against:
            text.append(f"\n• {said(signal.detail, 300)}")
        return
    # the silence's own weight is the base every silence starts from: it says nothing here
    evidence = [s for s in signals if s.weight > 0 and s.side != SILENCE_SIDE]
    strongest = max(evidence, key=lambda s: s.weight, default=None)
    line = "\nNothing spoke against it, but what spoke for it did not add up to the bar"
    if strongest is not None:
        line += f"; the most was: {said(strongest.detail, 200)}"
    text.append(line + ".")


def rejection_text(rejection: Rejection, bar: float | None = None) -> Text:
    """A silence the detector turned down: why, in plain words, then its evidence."""
    text = Text()
    text.append(f"No pivot · turn #{rejection.turn + 1}", BOLD + link(rejection.turn))
    silence = SILENCE_WORDS.get(rejection.silence, "a silence")
    text.append(f"\n{silence[:1].upper()}{silence[1:]}, and the detector turned it down:")
    text.append(f"\n{why_not(rejection, 500)}.")
    if not rejection.signals:
        text.append("\n\nThat rule decides it whatever else the turns show.", DIM)
        return text
    evidence_text(text, rejection.signals, [])
    weights_text(text, rejection.signals, rejection.confidence, bar, rejection.silence, False)
    return text


def no_pivot_text(
    total: int, possible: int, rejections: Sequence[Rejection], loading: bool
) -> Text:
    """The panel with no pivot to explain: how many there are, and the silences turned down."""
    if loading:
        return Text("Looking for pivots…", style=DIM)
    if total:
        hint = f"No pivot before this turn.\n{total} in the session: ] jumps to the next."
    elif possible:
        hint = "No silent pivots in this session."
    else:
        hint = "No silent pivots in this session."
    if possible:
        hint += f"\n{plural(possible, 'possible pivot')} (◇, not paused at): w jumps there."
    text = Text(hint, style=DIM)
    if not rejections:
        if not total and not possible:
            text.append(
                "\nNo silence to judge either: every message you sent said what to do,"
                " and the context was never compacted.",
                DIM,
            )
        return text
    text.append(f"\n\nSilences that are no pivot ({len(rejections)})", HEAD)
    for rejection in rejections[:TURNED_DOWN_SHOWN]:
        silence = SILENCE_WORDS.get(rejection.silence, "a silence")
        text.append("\n")
        text.append(f"→ turn #{rejection.turn + 1}", link(rejection.turn))
        text.append(f" {silence}: {why_not(rejection, 200)}")
    if len(rejections) > TURNED_DOWN_SHOWN:
        more = len(rejections) - TURNED_DOWN_SHOWN
        text.append(f"\n… {more} more (each says why on its turn)", DIM)
    return text


SILENCE_SIDE = "silence"
"""`Signal.side` of the silent turn's own signals."""
TURNED_DOWN_SHOWN = 40
"""Turned-down silences the panel lists (each turn says why on its own line too)."""
SILENCE_WORDS = {
    Silence.EMPTY: "an empty message",
    Silence.ACK: "a bare go-on",
    Silence.COMPACTION: "a compaction",
}


def state_text(text: Text, pivot: Pivot, context: Context) -> None:
    """Before → after, in plain words: only rows that say something."""
    state: StateChange = pivot.state
    rows: list[Text] = []
    for label, before, after in (
        ("doing", state.phase_before, state.phase_after),
        ("who led", state.initiative_before, state.initiative_after),
    ):
        before, after = one_line(before, 60), one_line(after, 60)
        if before and before == after:
            rows.append(Text(f"{label:<12} still {before}"))
        elif before or after:
            rows.append(Text(f"{label:<12} {before or '?'} → {after or '?'}"))
    rows.append(failed_row(context))
    targets = set(context.targets)
    measured = compared(state.figures_before, state.figures_after, targets)
    if measured:
        rows.append(Text(f"{'measured':<12} {measured}", DIM))
    if context.targets:
        theirs = "; ".join(one_line(x, 60) for x in context.targets[:4])
        mine = f"{theirs} (from your message, not a measurement)"
        rows.append(Text(f"{'your target':<12} {mine}", DIM))
    for thread in distinct(state.open_threads)[:6]:
        rows.append(Text(f"{'still open':<12} {said(thread, 100)}", DIM))
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


def compared(before: Sequence[str], after: Sequence[str], targets: set[str]) -> str:
    """Figures measured on both sides in the same unit ("tok/s: 31.2 before → 29.4, 47.3
    after"); a figure with nothing to compare it to (a wait in minutes, then a latency in
    ms) says nothing, nor the same figures on both sides ("%: 5 before → 5 after": a
    figure quoted again, not a change), and the person's own target is no measurement."""

    def by_unit(figures: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for figure in figures:
            match = _UNIT.match(one_line(figure, 60))
            if figure in targets or match is None:
                continue
            number = match.group(0)[: match.start(1)].strip()
            out.setdefault(match.group(1).strip(), []).append(number)
        return out

    old, new = by_unit(before), by_unit(after)
    parts = [
        f"{unit}: {', '.join(old[unit][:3])} before → {', '.join(new[unit][:3])} after"
        for unit in old
        if unit in new and old[unit][:3] != new[unit][:3]
    ]
    return "; ".join(parts[:3])


def distinct(threads: Sequence[str]) -> list[str]:
    """Open threads, each once: the same question can be open as a plan and as a question."""
    seen: set[str] = set()
    out = []
    for thread in threads:
        key = " ".join(thread.split(": ", 1)[-1].lower().split()).rstrip("…")
        if key and not any(key in k or k in key for k in seen):
            seen.add(key)
            out.append(thread)
    return out


def failed_row(context: Context) -> Text:
    """`failures  2 turns with a failed call since your message #12 (e/E): → turn #14 …`: the
    one failure count the panel gives, the turns e/E visit."""
    where = f"your message #{context.since + 1}" if context.since is not None else "the start"
    count = len(context.failed)
    if not count:
        return Text(f"{'failures':<12} no failed call since {where}")
    turns = "turn with a failed call" if count == 1 else "turns with a failed call"
    row = Text(f"{'failures':<12} {count} {turns} since {where} (e/E):")
    for turn in context.failed[:8]:
        row.append(" ")
        row.append(f"→ turn #{turn + 1}", link(turn))
    if count > 8:
        row.append(f" … {count - 8} more")
    return row


def evidence_text(text: Text, signals: Sequence[Signal], delegation: Sequence[Signal]) -> None:
    """The evidence in plain words, what counted most first; against it apart; then how the
    agent took over. No weights here (`weights_text` gives them, under it)."""
    positive = sorted((s for s in signals if s.weight > 0), key=lambda s: -s.weight)
    negative = sorted((s for s in signals if s.weight < 0), key=lambda s: s.weight)
    for title, group in (("What points to a pivot", positive), ("What speaks against", negative)):
        if group:
            text.append(f"\n\n{title}", HEAD)
            for signal in group:
                signal_text(text, signal)
    if delegation:
        text.append("\n\nHow the agent took over", HEAD)
        for signal in delegation:
            signal_text(text, signal)


def weights_text(
    text: Text,
    signals: Sequence[Signal],
    confidence: float,
    bar: float | None,
    silence: Silence,
    possible: bool,
) -> None:
    """The numbers, last: what each piece of evidence added, and the sum against the bar."""
    counted = [s for s in signals if s.weight]
    text.append("\n\nWeights", HEAD)
    if counted:
        line = "  ".join(f"{s.weight:+.2f} {one_line(s.name, 40)}" for s in counted)
        text.append(f"\n{line}", DIM)
    needs = f"; a pivot needs {bar:.2f}" if bar is not None else ""
    text.append(f"\nconfidence {confidence:.2f} (their sum{needs})", DIM)
    if silence is Silence.COMPACTION:
        note = compaction_note(compaction_trigger(signals))
    else:
        note = SILENCE_NOTES.get(silence, silence.value)
    text.append(f"\nsilence: {note}", DIM)


def signal_text(text: Text, signal: Signal) -> None:
    """One piece of evidence: its plain sentence, then the turns that show it."""
    text.append(f"\n• {said(signal.detail or signal.name, 300)}")
    for n, turn in enumerate(signal.turns[:LINKS]):
        text.append("\n  ")
        text.append(f"→ turn #{turn + 1}", link(turn))
        quote = said(signal.quotes[n], 80) if n < len(signal.quotes) else ""
        if quote:
            text.append(f"  “{quote}”", DIM)
    if len(signal.turns) > LINKS:
        text.append(f"\n  … {plural(len(signal.turns) - LINKS, 'more turn')}", DIM)
