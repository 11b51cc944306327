"""Headless renderings of sessions and pivots: the scan JSON schema, tables, --explain.

Text output numbers turns from 1 (`#12`), as the replayer shows them; the JSON
keeps the 0-based index into the session's turn list (`turn`) and gives that
1-based number too (`number`).

The JSON shape is an API (documented in docs/json.md): one object per session
per line. Every piece of session text that reaches the output goes through
`pivotal.text.safe.clean`, so tool output cannot drive the terminal from a table, an
explanation or a JSON consumer that prints a field.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pivotal.model import Pivot, Session, SessionRef, Signal, StateChange, Turn
from pivotal.text.fit import wrap
from pivotal.text.plural import plural
from pivotal.text.safe import clean, clean_line

if TYPE_CHECKING:
    from pivotal.detect.evaluate import Rejection

QUOTE = 100


def iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


def short_time(timestamp: float | None) -> str:
    if timestamp is None:
        return "-"
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime(timestamp))


def _text(value: str, limit: int | None = None) -> str:
    return clean(value, max_len=limit)


def _maybe(value: str | None) -> str | None:
    return clean(value) if value else value


def signal_json(signal: Signal) -> dict[str, Any]:
    return {
        "name": signal.name,
        "turns": list(signal.turns),
        "detail": _text(signal.detail, 300),
        "weight": round(signal.weight, 3),
        "side": signal.side,
        "quotes": [_text(q, QUOTE) for q in signal.quotes],
        "value": round(signal.value, 3),
    }


def state_json(state: StateChange) -> dict[str, Any]:
    return {
        "phase_before": _text(state.phase_before),
        "phase_after": _text(state.phase_after),
        "initiative_before": state.initiative_before,
        "initiative_after": state.initiative_after,
        "open_threads": [_text(t, 200) for t in state.open_threads],
        "attempts_failed": state.attempts_failed,
        "attempts_succeeded": state.attempts_succeeded,
        "figures_before": [_text(f, 80) for f in state.figures_before],
        "figures_after": [_text(f, 80) for f in state.figures_after],
        "tasks": [
            {
                "item": _text(t.item, 200),
                "before": t.before,
                "after": t.after,
                "turn": t.turn,
            }
            for t in state.tasks
        ],
    }


def pivot_json(session: Session, pivot: Pivot) -> dict[str, Any]:
    """One pivot in the documented `scan --json` shape."""
    anchor = session.turns[pivot.turn] if 0 <= pivot.turn < len(session.turns) else None
    return {
        "turn": pivot.turn,
        "number": pivot.turn + 1,
        "message_id": _maybe(anchor.message_id) if anchor else None,
        "line": anchor.source.line if anchor else None,
        "timestamp": iso(anchor.timestamp) if anchor else None,
        "kind": str(pivot.kind),
        "silence": str(pivot.silence),
        "confidence": round(pivot.confidence, 2),
        "candidate": pivot.candidate,
        "possible": pivot.possible,
        "summary": _text(pivot.summary, 300),
        "reason": _text(pivot.reason, 300),
        "cluster": list(pivot.cluster),
        "signals": [signal_json(s) for s in pivot.signals],
        "delegation": [signal_json(s) for s in pivot.delegation],
        "state": state_json(pivot.state),
        "run": None if pivot.possible else run_json(session, pivot),
    }


def measure_runs(session: Session, pivots: Sequence[Pivot]) -> None:
    """Measure the pivots' runs together (`run_json` then prints each)."""
    from pivotal.spend.session import measure_runs as measure

    measure(session, pivots)


def run_json(session: Session, pivot: Pivot) -> dict[str, Any] | None:
    """What the agent did on its own after `pivot` (`pivotal.spend.run`; None: not measured)."""
    from pivotal.spend.session import run_of

    run = run_of(session, pivot)
    return None if run is None else run.as_json(names=clean)


def session_json(
    ref: SessionRef, session: Session, pivots: Sequence[Pivot], possible: Sequence[Pivot] = ()
) -> dict[str, Any]:
    measure_runs(session, pivots)  # each pivot's run ends at the next pivot at the latest
    return {
        "path": clean(str(ref.path)),
        "key": _maybe(ref.key),
        "format": session.format,
        "session_id": _maybe(session.id),
        "turns": len(session.turns),
        "skipped": [{"line": s.line, "reason": _text(s.reason)} for s in session.skipped],
        "pivots": [pivot_json(session, p) for p in pivots],
        "possible": [pivot_json(session, p) for p in possible],
    }


# -- text ----------------------------------------------------------------------


def session_header(ref: SessionRef, session: Session) -> str:
    """`PATH  (format, N turns, id ID) — title`: every part from the file kept on one line."""
    title = f" — {clean_line(session.title, max_len=80)}" if session.title else ""
    ident = f", id {clean_line(session.id, max_len=120)}" if session.id else ""
    label = clean_line(ref.label)
    turns = plural(len(session.turns), "turn")
    return f"{label}  ({clean_line(session.format)}, {turns}{ident}){title}"


SKIPPED_REASONS = 3
"""Reasons the skipped line names, each with its lines; records for other reasons are counted."""
SKIPPED_LINES = (10, 5)
"""Line numbers named (one reason, each of several); the rest are counted."""
_WHERE_IN_LINE = re.compile(
    r"\s*\((?:byte|char|column|offset) \d+\)|:? line \d+ column \d+(?: \(char \d+\))?"
)
"""Where in its line a record broke ("(byte 29)", "line 1 column 5 (char 4)"): left out, so
that lines broken the same way share one reason."""
_DECODER_WORDS = (
    ("malformed JSON: Input data was truncated", "truncated JSON"),
    ("malformed JSON: JSON is malformed: ", "malformed JSON: "),  # an index written before
)


def skipped_why(reason: str) -> str:
    """A skipped record's reason as the scan line says it (`Skipped.reason` is kept whole in
    the JSON): where in the line it broke left out, the decoder's own words shortened."""
    text = _WHERE_IN_LINE.sub("", reason)
    for long, short in _DECODER_WORDS:
        if text.startswith(long):
            text = short + text[len(long) :]
    return clean_line(text, max_len=80)


def _lines_named(lines: Sequence[int | None], most: int) -> str:
    """ "lines 4, 9 and 3 more lines and 1 without a line number" ("" with no number)."""
    numbered = [str(line) for line in lines if line is not None]
    unnumbered = len(lines) - len(numbered)
    if not numbered:
        return ""
    where = f"line{'s' if len(numbered) > 1 else ''} {', '.join(numbered[:most])}"
    if len(numbered) > most:
        where += f" and {plural(len(numbered) - most, 'more line')}"
    if unnumbered:
        where += f" and {unnumbered} without a line number"
    return where


def skipped_line(session: Session) -> str | None:
    """`skipped 3 unreadable records at lines 4, 9 and 1 without a line number (why)`; records
    skipped for different reasons are grouped by reason, each with its lines: `skipped 2
    unreadable records: line 11 (truncated JSON); line 31 (malformed JSON: invalid
    character)`. Bounded however many lines are bad: a few lines per reason, a few reasons."""
    if not session.skipped:
        return None
    total = len(session.skipped)
    records = plural(total, "unreadable record")
    reasons: dict[str, list[int | None]] = {}
    for skipped in session.skipped:
        reasons.setdefault(skipped_why(skipped.reason), []).append(skipped.line)
    if len(reasons) == 1:
        ((why, lines),) = reasons.items()
        where = _lines_named(lines, SKIPPED_LINES[0])
        return f"  skipped {records}{' at ' + where if where else ''} ({why})"
    parts = []
    for why, lines in list(reasons.items())[:SKIPPED_REASONS]:
        where = _lines_named(lines, SKIPPED_LINES[1]) or plural(len(lines), "record")
        parts.append(f"{where} ({why})")
    others = list(reasons.values())[SKIPPED_REASONS:]
    if others:
        count = sum(len(lines) for lines in others)
        parts.append(f"{plural(count, 'more record')} for {plural(len(others), 'other reason')}")
    return f"  skipped {records}: " + "; ".join(parts)


WHAT_MIN = 30
"""Columns the WHAT HAPPENED column needs beside the others; narrower, it goes under its row."""


def pivot_table(session: Session, pivots: Sequence[Pivot], width: int | None = None) -> list[str]:
    """The pivots, a row each; `width`: fitted to a terminal that wide (None: piped, whole).

    The plain sentence of what happened is given whole: on a terminal it is broken
    between words inside its column, or under its row when the columns before it
    leave it less than `WHAT_MIN`.
    """
    if not pivots:
        return ["  no silent pivots"]
    rows = [("TURN", "TIME", "KIND", "SILENCE", "CONF", "WHAT HAPPENED")]
    for p in pivots:
        anchor = session.turns[p.turn] if 0 <= p.turn < len(session.turns) else None
        kind = str(p.kind) + (" (candidate)" if p.candidate else "")
        rows.append(
            (
                f"#{p.turn + 1}",
                short_time(anchor.timestamp if anchor else None),
                kind,
                str(p.silence),
                f"{p.confidence:.2f}",
                clean_line((p.summary or p.reason).replace("\n", " ")),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    lead = ["  " + "  ".join(r[i].ljust(widths[i]) for i in range(5)) + "  " for r in rows]
    if width is None:
        return [start + r[5] for start, r in zip(lead, rows, strict=True)]
    column = len(lead[0])
    if width - column >= WHAT_MIN:
        pairs = zip(lead, rows, strict=True)
        return [row for start, r in pairs for row in wrap(start + r[5], width, column)]
    under = 4 + widths[0]  # under TIME: the turn number stands out on the left
    out = [lead[0].rstrip()]
    for start, r in zip(lead[1:], rows[1:], strict=True):
        out.append(start.rstrip())
        out.extend(wrap(" " * under + r[5], width, under))
    return out


def possible_lines(
    session: Session, possible: Sequence[Pivot], width: int | None = None
) -> list[str]:
    """The possible pivots, one line each: the confidence fell just under the bar
    (`width`: broken between words under the line's sentence, as `pivot_table` does)."""
    out = ["  possible pivots (just under the bar; not paused at):"]
    for p in possible:
        anchor = session.turns[p.turn] if 0 <= p.turn < len(session.turns) else None
        when = short_time(anchor.timestamp if anchor else None)
        what = clean_line((p.summary or p.reason).replace("\n", " "))
        start = f"  ◇ #{p.turn + 1}  {when}  {p.kind}  {p.confidence:.2f}  "
        if width is None:
            out.append(start + what)
        elif width - len(start) >= WHAT_MIN:
            out.extend(wrap(start + what, width, len(start)))
        else:
            out.append(start.rstrip())
            out.extend(wrap("      " + what, width, 6))
    return out


def explain(session: Session, pivot: Pivot) -> list[str]:
    """The evidence for one pivot, for a person checking it against the transcript."""
    anchor = session.turns[pivot.turn] if 0 <= pivot.turn < len(session.turns) else None
    where = f", line {anchor.source.line}" if anchor and anchor.source.line else ""
    what = "Possible pivot" if pivot.possible else "Pivot"
    out = [
        f"{what} at turn #{pivot.turn + 1}{where} ({short_time(_turn_time(session, pivot.turn))})"
        f" — {pivot.kind}, silence {pivot.silence}, confidence {pivot.confidence:.2f}"
        + (" [candidate]" if pivot.candidate else ""),
        *([f"  {clean_line(pivot.summary, max_len=300)}"] if pivot.summary else []),
        f"  {clean_line(pivot.reason, max_len=300)}",
        "  Signals (weight × value = what each adds to the confidence):",
    ]
    for sig in pivot.signals:
        out.extend(_signal_lines(session, sig, weighted=True))
    total = sum(s.weight for s in pivot.signals)
    out.append(f"    = {total:.2f} (clamped to [0, 1] → {pivot.confidence:.2f})")
    if pivot.delegation:
        out.append("  Delegation:")
        for sig in pivot.delegation:
            out.extend(_signal_lines(session, sig, weighted=False))
    out.append("  State before → after:")
    out.extend(_state_lines(pivot.state))
    return out


def rejected_lines(session: Session, rejections: Sequence[Rejection]) -> list[str]:
    """The silences judged no pivot, each with its confidence and the gate that said so."""
    out = ["Silences that are no pivot (gate: why):"]
    for r in rejections:
        anchor = session.turns[r.turn] if 0 <= r.turn < len(session.turns) else None
        where = f", line {anchor.source.line}" if anchor and anchor.source.line else ""
        out.append(
            f"  #{r.turn + 1}{where} {r.silence}, confidence {r.confidence:.2f}"
            f" — {r.gate}: {clean_line(r.reason, max_len=240)}"
        )
    return out


def _signal_lines(session: Session, sig: Signal, *, weighted: bool) -> list[str]:
    lead = f"{sig.weight:+.2f} " if weighted else ""
    if weighted and sig.value != 1.0:
        lead = f"{sig.weight:+.2f} ({sig.value:.2f} of it) "
    # a signal that points at no turn (a streak whose start is out of reach) names none
    turns = ", ".join(f"#{t + 1}" for t in sig.turns[:8])
    turns = f" turns {turns}" if turns else ""
    detail = clean_line(sig.detail, max_len=160)
    lines = [f"    {lead}{clean_line(sig.name)} [{sig.side}]{turns}: {detail}"]
    for i, turn_index in enumerate(sig.turns[:3]):
        quote = sig.quotes[i] if i < len(sig.quotes) else _quote_of(session, turn_index)
        if quote:
            when = short_time(_turn_time(session, turn_index))
            lines.append(f'        #{turn_index + 1} {when}  "{clean_line(quote, max_len=QUOTE)}"')
    return lines


def _turn_time(session: Session, index: int) -> float | None:
    return session.turns[index].timestamp if 0 <= index < len(session.turns) else None


def _quote_of(session: Session, index: int) -> str:
    if not 0 <= index < len(session.turns):
        return ""
    turn: Turn = session.turns[index]
    return (turn.preview or "").replace("\n", " ")


def _state_lines(state: StateChange) -> list[str]:
    rows = [
        ("phase", f"{state.phase_before or '?'} → {state.phase_after or '?'}"),
        ("initiative", f"{state.initiative_before or '?'} → {state.initiative_after or '?'}"),
        ("attempts", f"{state.attempts_failed} failed / {state.attempts_succeeded} succeeded"),
    ]
    if state.open_threads:
        rows.append(("open threads", "; ".join(state.open_threads)))
    if state.figures_before or state.figures_after:
        before = ", ".join(state.figures_before) or "-"
        after = ", ".join(state.figures_after) or "-"
        rows.append(("figures", f"before: {before}  |  after: {after}"))
    for task in state.tasks:
        rows.append(
            ("task", f"{task.item}: {task.before or '-'} → {task.after or '-'} (#{task.turn + 1})")
        )
    return [f"    {name:<13} {clean_line(value, max_len=200)}" for name, value in rows]
