"""An asciicast recording of the replay (v2 by default, v3 on request), a marker at every pivot.

v2 is the default because it is what most installed players open: asciinema 2.x
(PyPI 2.4, Debian 2.2) plays only v1 and v2, while asciinema 3 and
asciinema-player 3 play both. The two differ only in the header (`width` /
`height` and `env` in v2, a `term` object in v3) and in event times (seconds
since the start in v2, since the previous event in v3); markers are `"m"`
events in both.

asciinema (`--pause-on-markers`, `]` next marker) and asciinema-player
(`pauseOnMarkers`, `[`/`]`) stop at markers, so a shared `.cast` file plays
like pivotal's replayer: turn by turn, pausing at each silent pivot.
Intervals follow the session's own timestamps, capped so hours of waiting
play in seconds, and are rounded to milliseconds with the rounding error
carried forward (the spec's advice) so the total stays right. The only
escape sequences in the output are the SGR colours added here: session text
is cleaned first.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterator

import msgspec

from pivotal.export.common import ExportInput, role_label, tool_line, turn_body
from pivotal.model import Pivot, Turn
from pivotal.text.plural import plural
from pivotal.text.safe import clean

COLS, ROWS = 100, 30
IDLE_TIME_LIMIT = 2.0
DEFAULT_GAP = 0.8
TOOL_GAP = 0.15
TURN_LINES = 14
TURN_CHARS = 4_000

RESET = "\x1b[0m"
STYLE = {
    "person": "1;33",
    "agent": "1;36",
    "sub-agent": "36",
    "injected": "2",
    "compaction": "2;35",
    "compaction summary": "2;35",
    "system": "2",
}
PIVOT_STYLE = "1;97;41"
TOOL_OK, TOOL_FAILED = "32", "31"

_encode = msgspec.json.Encoder().encode


def cells(char: str) -> int:
    """Terminal cells a character takes: two for East Asian wide and full-width ones."""
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _wrap_cells(line: str, cols: int) -> list[str]:
    """Break a line holding wide characters by display width (no word boundaries in CJK)."""
    out, current, width = [], [], 0
    for char in line:
        size = cells(char)
        if width + size > cols:
            out.append("".join(current))
            current, width = [], 0
        current.append(char)
        width += size
    out.append("".join(current))
    return out


def _wrap(text: str, cols: int) -> list[str]:
    lines: list[str] = []
    for raw in text.replace("\t", "    ").split("\n"):
        if raw.isascii():
            wrapped = textwrap.wrap(raw, cols, break_on_hyphens=False)
        elif any(cells(c) == 2 for c in raw):
            wrapped = _wrap_cells(raw.strip(), cols)
        else:
            wrapped = textwrap.wrap(raw, cols, break_on_hyphens=False)
        lines.extend(wrapped or [""])
    return lines


def _paint(style: str, text: str) -> str:
    return f"\x1b[{style}m{text}{RESET}"


def _turn_frames(turn: Turn, cols: int) -> Iterator[tuple[float, str]]:
    """(gap after the previous frame, output) for one turn: header and text, then each tool."""
    label = role_label(turn)
    head = _paint(STYLE.get(label, "1"), f"▌ turn #{turn.index + 1} · {label}")
    body = turn_body(turn, TURN_CHARS)
    lines = _wrap(body, cols - 2) if body.strip() else []
    if not lines and turn.is_human:
        lines = ["(empty message)"]
    if len(lines) > TURN_LINES:
        lines = lines[:TURN_LINES] + [f"… {plural(len(lines) - TURN_LINES, 'more line')}"]
    text = "\r\n".join([head, *("  " + line for line in lines)])
    yield 0.0, text + "\r\n"
    for call in turn.tool_calls[:12]:
        style = TOOL_FAILED if call.failed else TOOL_OK
        mark = "✗" if call.failed else "✓"
        line = clean(tool_line(call, limit=cols), max_len=cols * 2)
        wrapped = _wrap(f"{mark} {line}", cols - 4)[:2]
        yield TOOL_GAP, "\r\n".join("    " + _paint(style, w) for w in wrapped) + "\r\n"


def _pivot_banner(number: int, pivot: Pivot, cols: int) -> str:
    title = f" ◆ PIVOT {number} · {pivot.kind} · silence {pivot.silence} · {pivot.confidence:.2f} "
    reason = _wrap(clean(pivot.reason, max_len=300), cols - 4)[:3]
    lines = [_paint(PIVOT_STYLE, title.ljust(cols)[:cols])]
    lines += ["  " + _paint("1;31", r) for r in reason]
    return "\r\n" + "\r\n".join(lines) + "\r\n\r\n"


def marker_label(number: int, pivot: Pivot) -> str:
    return f"pivot {number}: turn #{pivot.turn + 1} · {pivot.kind} ({pivot.silence})"


def timeline(data: ExportInput, cols: int = COLS) -> Iterator[tuple[float, str, str]]:
    """(seconds since the previous event, code, data) before rounding."""
    s = data.session
    title = clean(data.title, max_len=cols - 12)
    intro = _paint("1", f"pivotal replay: {title}") + "\r\n"
    counts = f"{plural(len(s.turns), 'turn')} · {plural(len(data.pivots), 'pivot')}"
    intro += _paint("2", f"{s.format} · {counts}")
    yield 0.0, "o", intro + "\r\n\r\n"
    anchors = data.pivot_at()
    previous: float | None = None
    for turn in s.turns:
        if previous is not None and turn.timestamp is not None and turn.timestamp >= previous:
            gap = min(turn.timestamp - previous, IDLE_TIME_LIMIT)
        else:
            gap = DEFAULT_GAP
        if turn.timestamp is not None:
            previous = turn.timestamp
        for index, (frame_gap, output) in enumerate(_turn_frames(turn, cols)):
            yield (gap if index == 0 else frame_gap), "o", output
        number = anchors.get(turn.index)
        if number is not None:
            pivot = data.pivots[number - 1]
            yield 0.3, "o", _pivot_banner(number, pivot, cols)
            yield 0.05, "m", marker_label(number, pivot)


CAST_VERSIONS = (2, 3)
DEFAULT_CAST_VERSION = 2


def render_cast(
    data: ExportInput, cols: int = COLS, rows: int = ROWS, version: int = DEFAULT_CAST_VERSION
) -> str:
    return "".join(cast_lines(data, cols, rows, version))


def cast_header(data: ExportInput, cols: int, rows: int, version: int) -> dict[str, object]:
    """The header line's object, in the shape of asciicast `version`."""
    if version not in CAST_VERSIONS:
        raise ValueError(f"asciicast version {version} (choose 2 or 3)")
    s = data.session
    started = s.started or next((t.timestamp for t in s.turns if t.timestamp), None)
    header: dict[str, object] = {"version": version}
    if version == 2:
        header.update(width=cols, height=rows)
    else:
        header["term"] = {"cols": cols, "rows": rows, "type": "xterm-256color"}
    if started is not None:
        header["timestamp"] = int(started)
    header["idle_time_limit"] = IDLE_TIME_LIMIT
    header["title"] = f"pivotal: {data.title}"
    if version == 2:
        header["env"] = {"TERM": "xterm-256color"}
    return header


def cast_lines(
    data: ExportInput, cols: int = COLS, rows: int = ROWS, version: int = DEFAULT_CAST_VERSION
) -> Iterator[str]:
    """The recording line by line (each with its newline): a header, then one event a line.

    Times are rounded to milliseconds with the rounding error carried forward, so
    the total stays right; v2 writes the running total, v3 the step since the last.
    """
    yield _encode(cast_header(data, cols, rows, version)).decode() + "\n"
    exact = written = 0.0
    for gap, code, payload in timeline(data, cols):
        exact += gap
        interval = max(0.0, round(exact - written, 3))
        written = round(written + interval, 3)
        when = written if version == 2 else interval
        yield _encode([when, code, payload]).decode() + "\n"
