"""A Markdown report of a session's pivots: what the panel shows, plus the turns around each.

Session text is data, not Markdown: inline text is backslash-escaped (so a
tool output cannot inject links, HTML or headings into a rendered report, and
`&amp;` is not read as `&`) and excerpts sit in fences longer than any
backtick run they contain. Notes are the person's own Markdown and are kept as
written (cleaned of control codes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pivotal.export.common import (
    ExportInput,
    excerpt_range,
    longest_run,
    role_label,
    tool_line,
    turn_body,
)
from pivotal.model import Pivot, Signal, StateChange
from pivotal.scan.report import iso
from pivotal.text.plural import plural
from pivotal.text.safe import clean

EXCERPT_CHARS = 600
_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")


def inline(text: str, limit: int | None = 300) -> str:
    """Session text for a Markdown line or table cell: cleaned, one line, escaped."""
    text = clean(text, max_len=limit).replace("\r", " ").replace("\n", " ")
    return _SPECIAL.sub(r"\\\1", text)


def code_span(text: str) -> str:
    """A shell line as a code span: copied from the raw file or the rendered page, it runs
    (a backslash-escaped `\\~` would not); `|` is escaped for the table it sits in."""
    text = clean(text).replace("\n", " ").replace("|", "\\|")
    ticks = "`" * (longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(text: str) -> list[str]:
    ticks = "`" * max(3, longest_run(text, "`") + 1)
    return [f"{ticks}text", text, ticks]


def render_markdown(data: ExportInput) -> str:
    return "".join(markdown_chunks(data))


def markdown_chunks(data: ExportInput) -> Iterator[str]:
    """The report piece by piece: header and index, each pivot, the marks (no transcript:
    a report holds only the turns around each pivot, so this never grows with the file)."""
    yield "\n".join(_header(data) + _index(data)) + "\n"
    for number, pivot in enumerate(data.pivots, 1):
        yield "\n".join(_pivot(data, number, pivot)) + "\n"
    yield "\n".join(_marks(data)).rstrip() + "\n"


def _header(data: ExportInput) -> list[str]:
    s = data.session
    humans = len(s.human_turns())
    rows = [
        ("Session file", inline(data.ref.label, None)),
        ("Format", inline(s.format)),
        ("Session id", inline(s.id or "-")),
        ("Working directory", inline(s.cwd or "-")),
        ("Model", inline(s.model or "-")),
        ("Started", iso(s.started) or "-"),
        ("Ended", iso(s.ended) or "-"),
        ("Turns", f"{len(s.turns)} ({humans} from the person)"),
        ("Silent pivots", str(len(data.pivots))),
        ("Tokens and cost", inline(data.spend_line(), None)),
    ]
    if s.skipped:
        rows.append(("Unreadable records", f"{len(s.skipped)} skipped"))
    if data.resume and data.resume.available:
        rows.append(("Resume", code_span(data.resume.display)))
    out = [f"# Pivotal report: {inline(data.title)}", "", "| | |", "|---|---|"]
    out += [f"| {name} | {value} |" for name, value in rows]
    return [*out, ""]


def _index(data: ExportInput) -> list[str]:
    if not data.pivots:
        return ["## Pivots", "", "No silent pivots in this session.", ""]
    out = ["## Pivots", ""]
    for number, p in enumerate(data.pivots, 1):
        out.append(
            f"{number}. [Turn #{p.turn + 1}: {p.kind} ({p.silence}, {p.confidence:.2f})]"
            f"(#pivot-{number}): {inline(p.reason, 160)}"
        )
    return [*out, ""]


def _pivot(data: ExportInput, number: int, p: Pivot) -> list[str]:
    s = data.session
    anchor = s.turns[p.turn] if 0 <= p.turn < len(s.turns) else None
    when = iso(anchor.timestamp) if anchor else None
    where = f", line {anchor.source.line}" if anchor and anchor.source.line else ""
    cluster = ", ".join(f"#{t + 1}" for t in p.cluster) or "-"
    out = [
        f'<a id="pivot-{number}"></a>',
        "",
        f"### Pivot {number}: turn #{p.turn + 1} · {p.kind}"
        + (" (candidate)" if p.candidate else ""),
        "",
        f"- **Silence:** {p.silence} (cluster: turns {cluster})",
        f"- **Confidence:** {p.confidence:.2f}",
        f"- **When:** {when or '-'}{where}",
        f"- **Reason:** {inline(p.reason)}",
    ]
    sentence = data.run_sentence(p)
    if sentence:
        out.append(f"- **On its own:** {inline(sentence, None)}")
    out.append("")
    out += _signals("Signals", p.signals, weighted=True)
    out += _signals("Delegation", p.delegation, weighted=False)
    out += _state(p.state)
    out += ["**Around the pivot**", ""]
    for index in excerpt_range(s, p):
        out += _excerpt_turn(data, index, index in p.cluster)
    return out


def _signals(title: str, signals: list[Signal], *, weighted: bool) -> list[str]:
    if not signals:
        return []
    head = (
        "| weight | signal | side | turns | evidence |"
        if weighted
        else "| signal | turns | evidence |"
    )
    rule = "|---:|---|---|---|---|" if weighted else "|---|---|---|"
    out = [f"**{title}**", "", head, rule]
    for sig in signals:
        turns = ", ".join(f"#{t + 1}" for t in sig.turns[:8]) or "-"
        evidence = inline(sig.detail, 160)
        if sig.quotes:
            evidence += " — " + "; ".join(f"“{inline(q, 100)}”" for q in sig.quotes[:3])
        if weighted:
            out.append(
                f"| {sig.weight:+.2f} | {inline(sig.name)} | {sig.side} | {turns} | {evidence} |"
            )
        else:
            out.append(f"| {inline(sig.name)} | {turns} | {evidence} |")
    return [*out, ""]


def _state(state: StateChange) -> list[str]:
    out = [
        "**State before → after**",
        "",
        "| | before | after |",
        "|---|---|---|",
        f"| phase | {inline(state.phase_before or '?')} | {inline(state.phase_after or '?')} |",
        f"| initiative | {inline(state.initiative_before or '?')}"
        f" | {inline(state.initiative_after or '?')} |",
        f"| figures | {inline(', '.join(state.figures_before) or '-')}"
        f" | {inline(', '.join(state.figures_after) or '-')} |",
        "",
        f"Attempts: {state.attempts_failed} failed, {state.attempts_succeeded} succeeded.",
    ]
    for thread in state.open_threads:
        out.append(f"- open: {inline(thread, 200)}")
    for task in state.tasks:
        out.append(
            f"- task {inline(task.item, 120)}: {inline(task.before or '-')} →"
            f" {inline(task.after or '-')} (turn #{task.turn + 1})"
        )
    return [*out, ""]


def _excerpt_turn(data: ExportInput, index: int, silent: bool) -> list[str]:
    turn = data.session.turns[index]
    when = iso(turn.timestamp)
    tag = " · **silent**" if silent else ""
    usage = data.usage_line(turn)
    tag += f" · {inline(usage, None)}" if usage else ""
    out = [f"**Turn #{index + 1}** · {role_label(turn)}" + (f" · {when}" if when else "") + tag, ""]
    body = turn_body(turn, EXCERPT_CHARS)
    if body.strip():
        out += [*fence(body), ""]
    elif turn.is_human:
        out += ["*(empty message)*", ""]
    calls = turn.tool_calls
    for call in calls[:8]:
        out.append(f"- {inline(tool_line(call), 200)}")
    if len(calls) > 8:
        out.append(f"- … {plural(len(calls) - 8, 'more tool call')}")
    if calls:
        out.append("")
    for mark in data.marks_by_turn().get(index, []):
        out += _note_block(mark.note)
    return out


def _note_block(note: str) -> list[str]:
    text = clean(note).strip()
    if not text:
        return ["> 🔖 marked", ""]
    return ["> 🔖 **Note:**", *[f"> {line}" for line in text.splitlines()], ""]


def _marks(data: ExportInput) -> list[str]:
    out = ["## Marks and notes", ""]
    if not data.marks:
        return [*out, "No marks on this session.", ""]
    for mark in data.marks:
        where = f"Turn #{mark.turn_index + 1}" if mark.turn_index is not None else "Turn not found"
        out.append(f"### {where} (marked {iso(mark.created) or '-'})")
        out.append("")
        text = clean(mark.note).strip()
        out += [text, ""] if text else ["*(no note)*", ""]
    return out
