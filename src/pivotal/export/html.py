"""One self-contained HTML page: pivot index, pivot panels and the whole transcript.

Everything is inline (CSS only, no scripts, fonts or images), and a
Content-Security-Policy forbids the page from loading anything at all, so
opening an export never touches the network. Every piece of session text is
cleaned and HTML-escaped; tool calls fold into `<details>`.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

from pivotal.export.common import (
    ExportInput,
    role_class,
    role_label,
    tool_input_text,
    tool_line,
    tool_status,
    turn_body,
)
from pivotal.model import Pivot, Signal, StateChange, ToolCall, Turn
from pivotal.scan.report import iso
from pivotal.text.safe import clean

TURN_CHARS = 20_000
TOOL_CHARS = 8_000
BLOCK = ("<pre>", "</pre>")
"""What a block of session text is printed between (escaped, it holds no `</pre>`)."""
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'"

CSS = """
:root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d1d1f; --muted: #6b6b70;
  --line: #dedede; --pivot: #b3261e; --pivot-bg: #fdecea; --agent: #f3f6fb; --person: #fff8e6;
  --injected: #f2f2f2; --ok: #2e7d32; --bad: #b3261e; }
@media (prefers-color-scheme: dark) { :root { --bg: #161618; --fg: #e6e6e6; --muted: #9a9aa0;
  --line: #333; --pivot: #ff8a80; --pivot-bg: #3a1f1f; --agent: #1e2430; --person: #2e2818;
  --injected: #222; --ok: #81c784; --bad: #ff8a80; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 1.5rem; background: var(--bg);
  color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; } h2 { border-bottom: 1px solid var(--line); }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
td, th { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left;
  vertical-align: top; }
pre, code { font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0; }
.meta td:first-child { color: var(--muted); }
nav.index ol { padding-left: 1.5rem; } nav.index a { color: var(--pivot); font-weight: 600; }
.pivot { border: 2px solid var(--pivot); background: var(--pivot-bg); border-radius: 8px;
  padding: .75rem 1rem; margin: 1rem 0; }
.pivot h3 { margin: 0 0 .5rem; color: var(--pivot); }
.turn { border-left: 4px solid var(--line); padding: .4rem .8rem; margin: .6rem 0;
  border-radius: 4px; }
.turn.agent, .turn.sub-agent { background: var(--agent); }
.turn.person { background: var(--person); border-left-color: #e0a800; }
.turn.injected, .turn.compaction, .turn.compaction-summary, .turn.system {
  background: var(--injected); color: var(--muted); }
.turn.is-pivot { border-left: 6px solid var(--pivot); outline: 2px solid var(--pivot); }
.turn header { font-size: .85rem; color: var(--muted); }
.turn header b { color: var(--fg); }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 4px; font-size: .8rem;
  background: var(--pivot); color: #fff; margin-left: .4rem; }
.empty { font-style: italic; color: var(--muted); }
details { margin: .2rem 0; } summary { cursor: pointer; font-family: ui-monospace, monospace;
  font-size: 13px; } .failed > summary { color: var(--bad); }
.note { border: 1px dashed var(--muted); padding: .3rem .6rem; margin: .4rem 0;
  white-space: pre-wrap; }
"""


def e(text: str, limit: int | None = None) -> str:
    """Session text for HTML: cleaned of control codes, then escaped."""
    return escape(clean(text, max_len=limit), quote=True)


def render_html(data: ExportInput) -> str:
    return "".join(html_chunks(data))


def html_chunks(data: ExportInput) -> Iterator[str]:
    """The page piece by piece: head, meta, index and pivots, then the transcript turn by
    turn (each turn's parts decoded only while it is written), then the end."""
    head = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Pivotal: {e(data.title)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Pivotal report: {e(data.title)}</h1>",
        _meta(data),
        _index(data),
        '<section id="pivots">',
        *[_pivot(data, n, p) for n, p in enumerate(data.pivots, 1)],
        "</section>",
    ]
    yield "\n".join(head) + "\n"
    yield from _transcript(data)
    yield "</body></html>\n"


def _meta(data: ExportInput) -> str:
    s = data.session
    rows = [
        ("Session file", e(data.ref.label)),
        ("Format", e(s.format)),
        ("Session id", e(s.id or "-")),
        ("Working directory", e(s.cwd or "-")),
        ("Model", e(s.model or "-")),
        ("Started", e(iso(s.started) or "-")),
        ("Ended", e(iso(s.ended) or "-")),
        ("Turns", f"{len(s.turns)} ({len(s.human_turns())} from the person)"),
        ("Silent pivots", str(len(data.pivots))),
        ("Tokens and cost", e(data.spend_line())),
    ]
    if s.skipped:
        rows.append(("Unreadable records", f"{len(s.skipped)} skipped"))
    if data.resume and data.resume.available:
        rows.append(("Resume", f"<code>{e(data.resume.display)}</code>"))
    body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="meta">{body}</table>'


def _index(data: ExportInput) -> str:
    if not data.pivots:
        return '<nav class="index"><h2>Pivots</h2><p>No silent pivots in this session.</p></nav>'
    items = []
    for n, p in enumerate(data.pivots, 1):
        items.append(
            f'<li><a href="#turn-{p.turn + 1}">Turn #{p.turn + 1}: {e(str(p.kind))}</a>'
            f" ({e(str(p.silence))}, {p.confidence:.2f}) — {e(p.reason, 200)}"
            f' <a href="#pivot-{n}">[panel]</a></li>'
        )
    return f'<nav class="index"><h2>Pivots</h2><ol>{"".join(items)}</ol></nav>'


def _pivot(data: ExportInput, n: int, p: Pivot) -> str:
    s = data.session
    anchor = s.turns[p.turn] if 0 <= p.turn < len(s.turns) else None
    when = iso(anchor.timestamp) if anchor else None
    cluster = ", ".join(f'<a href="#turn-{t + 1}">#{t + 1}</a>' for t in p.cluster) or "-"
    head = (
        f'<section class="pivot" id="pivot-{n}"><h3>Pivot {n}: '
        f'<a href="#turn-{p.turn + 1}">turn #{p.turn + 1}</a> · {e(str(p.kind))}'
        + (" (candidate)" if p.candidate else "")
        + "</h3>"
    )
    facts = (
        f"<p><b>Silence</b> {e(str(p.silence))} (cluster {cluster}) · <b>Confidence</b>"
        f" {p.confidence:.2f} · <b>When</b> {e(when or '-')}</p><p>{e(p.reason, 300)}</p>"
    )
    sentence = data.run_sentence(p)
    if sentence:
        facts += f'<p class="run"><b>On its own</b> {e(sentence)}</p>'
    return "".join(
        [
            head,
            facts,
            _signals("Signals", p.signals, weighted=True),
            _signals("Delegation", p.delegation, weighted=False),
            _state(p.state),
            "</section>",
        ]
    )


def _signals(title: str, signals: list[Signal], *, weighted: bool) -> str:
    if not signals:
        return ""
    rows = []
    for sig in signals:
        turns = ", ".join(f'<a href="#turn-{t + 1}">#{t + 1}</a>' for t in sig.turns[:8]) or "-"
        quotes = "".join(f"<br>“{e(q, 100)}”" for q in sig.quotes[:3])
        weight = f"<td>{sig.weight:+.2f}</td>" if weighted else ""
        rows.append(
            f"<tr>{weight}<td>{e(sig.name)}</td><td>{e(sig.side)}</td><td>{turns}</td>"
            f"<td>{e(sig.detail, 200)}{quotes}</td></tr>"
        )
    head = "<th>weight</th>" if weighted else ""
    return (
        f"<h4>{title}</h4><table><tr>{head}<th>signal</th><th>side</th><th>turns</th>"
        f"<th>evidence</th></tr>{''.join(rows)}</table>"
    )


def _state(state: StateChange) -> str:
    rows = [
        ("phase", state.phase_before or "?", state.phase_after or "?"),
        ("initiative", state.initiative_before or "?", state.initiative_after or "?"),
        ("figures", ", ".join(state.figures_before) or "-", ", ".join(state.figures_after) or "-"),
    ]
    body = "".join(
        f"<tr><td>{k}</td><td>{e(b, 200)}</td><td>{e(a, 200)}</td></tr>" for k, b, a in rows
    )
    extra = [f"Attempts: {state.attempts_failed} failed, {state.attempts_succeeded} succeeded."]
    extra += [f"Open: {e(t, 200)}" for t in state.open_threads]
    extra += [
        f"Task {e(t.item, 120)}: {e(t.before or '-')} → {e(t.after or '-')} (turn #{t.turn + 1})"
        for t in state.tasks
    ]
    items = "".join(f"<li>{x}</li>" for x in extra)
    return (
        "<h4>State before → after</h4><table><tr><th></th><th>before</th><th>after</th></tr>"
        f"{body}</table><ul>{items}</ul>"
    )


def _transcript(data: ExportInput) -> Iterator[str]:
    pivots = data.pivot_at()
    marks = data.marks_by_turn()
    silent = {t for p in data.pivots for t in p.cluster}
    yield '<section id="transcript"><h2>Transcript</h2>\n'
    for turn in data.session.turns:
        usage = data.usage_line(turn)
        yield _turn(turn, pivots.get(turn.index), turn.index in silent, marks, usage) + "\n"
    yield "</section>\n"


def _turn(turn: Turn, pivot: int | None, silent: bool, marks: dict, usage: str = "") -> str:  # type: ignore[type-arg]
    classes = ["turn", role_class(turn)] + (["is-pivot"] if pivot else [])
    when = iso(turn.timestamp)
    badge = f'<a class="badge" href="#pivot-{pivot}">pivot {pivot}</a>' if pivot else ""
    badge += '<span class="badge">silent</span>' if silent and not pivot else ""
    header = (
        f"<header><b>Turn #{turn.index + 1}</b> · {e(role_label(turn))}"
        + (f" · {e(when)}" if when else "")
        + (f" · line {turn.source.line}" if turn.source.line else "")
        + (f' · <span class="usage">{e(usage)}</span>' if usage else "")
        + f"{badge}</header>"
    )
    body = turn_body(turn, TURN_CHARS)
    if body.strip():
        content = f"<pre>{escape(body, quote=True)}</pre>"
    elif turn.is_human:
        content = '<p class="empty">(empty message)</p>'
    else:
        content = ""
    tools = "".join(_tool(call) for call in turn.tool_calls)
    notes = "".join(
        f'<div class="note">🔖 {e(m.note) if m.note.strip() else "marked"}</div>'
        for m in marks.get(turn.index, [])
    )
    opening = f'<article id="turn-{turn.index + 1}" class="{" ".join(classes)}">'
    return f"{opening}{header}{content}{tools}{notes}</article>"


def _tool(call: ToolCall) -> str:
    css = ' class="failed"' if call.failed else ""
    given = tool_input_text(call, TOOL_CHARS)
    output = e(call.output, TOOL_CHARS) if call.output is not None else ""
    inner = f"<pre>{escape(given, quote=True)}</pre>" if given else ""
    if output:
        inner += f"<b>output</b> ({e(tool_status(call))})<pre>{output}</pre>"
    return f"<details{css}><summary>{e(tool_line(call))}</summary>{inner}</details>"
