"""Turn one `Turn` into screen lines (Rich strips) at a given width and fold state.

The transcript caches what this returns by everything that changes the look
(`TurnLook`), so a turn is rendered once per width / fold state, and only when
it is on screen. Session text is cleaned (`safe.clean`) and handed to Rich as
`Text`, never as markup; an agent's Markdown is shown as written, styled
(`markdown_source`). Long bodies are cut so one huge message or tool output
cannot stall a frame.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from rich.color import Color
from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from pivotal.model import Part, PartKind, Pivot, PivotKind, Role, ToolCall, Turn, TurnFlag
from pivotal.spend.words import duration
from pivotal.text.sgr import sgr_spans
from pivotal.text.shell import shown_argument, shown_input
from pivotal.tui.contrast import readable_style
from pivotal.tui.markdown_source import markdown_text
from pivotal.tui.rich_text import runs_text
from pivotal.tui.safe import clean, one_line

MARKDOWN_LIMIT = 6_000
"""Longer texts are shown without Markdown styles (highlighting their code costs)."""
TEXT_LIMIT = 4_000
EXPANDED_LIMIT = 60_000
OUTPUT_LINES = 200
FOLDED_LINES = 3
"""Injected (synthetic) text is folded to this many lines until expanded."""
PIVOT_GLYPH = "✦"
"""A pivot's own glyph, in the transcript and on the timeline (◆ starts every agent turn)."""
POSSIBLE_GLYPH = "◇"
"""A possible pivot's: hollow, as `scan` lists them (✧ is a live candidate's)."""
TURNED_DOWN = "·"
"""Starts the line on a silence the detector turned down (why, in plain words)."""
HIDDEN_GLYPH = "⊘"
"""Starts the line under the header of a turn the filter hides (the cursor is on it)."""
ALL_PARTS = -1
"""`TurnLook.expanded` member meaning "everything in this turn is expanded"."""


@dataclass(frozen=True, slots=True)
class Palette:
    """Rich styles for each kind of line, taken from the transcript's component classes."""

    human: Style = Style(color="green", bold=True)
    agent: Style = Style(color="cyan", bold=True)
    synthetic: Style = Style(color="bright_black")
    system: Style = Style(color="magenta", bold=True)
    tool: Style = Style(color="yellow")
    failed: Style = Style(color="red", bold=True)
    ok: Style = Style(color="green")
    cursor: Style = Style(color="black", bgcolor="yellow", bold=True)
    pivot: Style = Style(color="black", bgcolor="magenta", bold=True)
    possible: Style = Style(color="magenta", bold=True)
    dim: Style = Style(dim=True)
    background: Color | None = None
    """The transcript's background: a tool's own colours are made readable on it."""

    @classmethod
    def of(cls, style: Callable[[str], Style], background: Color | None) -> Palette:
        """From a widget's `.transcript--<name>` component styles (`style(name)`); the pivot
        banner's colours are made readable on `background`."""
        names = ("human", "agent", "synthetic", "system", "tool", "failed", "ok", "cursor")
        found = {name: style(f"transcript--{name}") for name in names}
        pivot = readable_style(style("transcript--pivot"), background)
        possible = readable_style(style("transcript--possible"), background)
        return cls(
            pivot=pivot, possible=possible, dim=Style(dim=True), background=background, **found
        )

    def banner(self, text: str) -> Style:
        """The banner's style: a pivot's loud, a possible pivot's outlined, a turned-down
        silence's quiet (each also told apart by its glyph, for screens without colour)."""
        if text.startswith(POSSIBLE_GLYPH):
            return self.possible
        if text.startswith(TURNED_DOWN):
            return self.dim + Style(italic=True)
        return self.pivot


@dataclass(frozen=True, slots=True)
class TurnLook:
    """Everything that changes how a turn looks: the strip cache key (with the turn index)."""

    width: int
    cursor: bool = False
    """Only in cache keys: the cursor look is derived by `with_cursor`."""
    reasoning: bool = False
    expanded: frozenset[int] = frozenset()
    pivot: str | None = None
    """Banner text when a pivot is anchored at this turn."""
    spend: str = ""
    """The turn's tokens and dollars, at the end of its header ("" when not recorded)."""
    subagents: tuple[tuple[str, str], ...] = ()
    """(call id, what its sub-agent did) for the calls of this turn that ran one."""
    mark: str | None = None
    """The person marked this turn (m): "" without a note, else the note's first line."""
    reason: str = ""
    """What happened at the pivot anchored here, said under the header (the pivots filter)."""
    hidden: str = ""
    """The filter hides this turn and the cursor is on it: its words ("pivots only"). The turn
    is drawn as its header and a line saying so, nothing the filter leaves out."""


@dataclass(slots=True)
class RenderedTurn:
    strips: list[Strip]
    tool_rows: dict[int, int]
    """Line in `strips` -> index in `turn.parts` of the tool call whose header it is."""
    header_row: int = 0


def kind_name(kind: PivotKind) -> str:
    """The kind as the replayer names it everywhere ("implicit approval"): the banner, the
    panel's heading, the help. One name per kind: `scan`'s `implicit_approval`, spaced."""
    return kind.value.replace("_", " ")


def pivot_banner(pivot: Pivot) -> str:
    kind = kind_name(pivot.kind)
    tail = " (candidate)" if pivot.candidate else ""
    silence = pivot.silence.value
    if pivot.possible:
        return (
            f"{POSSIBLE_GLYPH} possible pivot · {kind} · {pivot.confidence:.2f}, under the bar"
            f" (not paused at) · silence: {silence}{tail}"
        )
    return f"{PIVOT_GLYPH} PIVOT · {kind} · {pivot.confidence:.2f} · silence: {silence}{tail}"


def turned_down_line(reason: str) -> str:
    """The line on a silence that is no pivot: why, in the detector's plain words."""
    return f"{TURNED_DOWN} no pivot here: {reason}"


def role_label(turn: Turn) -> tuple[str, str]:
    """(label, palette attribute) for a turn's header."""
    if turn.flags & TurnFlag.COMPACTION_BOUNDARY:
        return "■ compaction", "system"
    if turn.flags & TurnFlag.COMPACTION_SUMMARY:
        return "○ compaction summary", "synthetic"
    if turn.is_human:
        return "● You", "human"
    if turn.role is Role.USER:
        return "○ injected", "synthetic"
    if turn.role is Role.SYSTEM:
        return "■ system", "system"
    return "◆ Agent", "agent"


def header_text(turn: Turn, look: TurnLook, palette: Palette) -> Text:
    label, attr = role_label(turn)
    style: Style = getattr(palette, attr)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(label, style)
    text.append(f"  #{turn.index + 1}", palette.dim)
    if turn.timestamp is not None:
        stamp = datetime.fromtimestamp(turn.timestamp, UTC).strftime("%H:%M:%S")
        text.append(f"  {stamp}", palette.dim)
    if turn.model and turn.role is Role.ASSISTANT:
        text.append(f"  {one_line(turn.model, 40)}", palette.dim)
    if turn.flags & TurnFlag.INTERRUPTED:
        text.append("  interrupted", palette.failed)
    if turn.flags & TurnFlag.ERROR:
        text.append("  error", palette.failed)
    if turn.flags & TurnFlag.SIDECHAIN:
        text.append("  sidechain", palette.dim)
    if look.mark is not None:  # before the spend, which a narrow screen cuts at its edge
        text.append("  ▼ marked" + (f": {look.mark}" if look.mark else ""), palette.ok)
    if look.spend:
        text.append(f"  {look.spend}", palette.dim)
    return text


def tool_status(call: ToolCall) -> tuple[str, str]:
    """(`✗ exit 1 · 44 ms`, palette attribute): the outcome of a call, as its header starts.

    Failed is `ToolCall.failed`, the one definition `e`/`E` and the timeline use too.
    """
    if call.failed:
        if call.exit_code not in (None, 0):
            what = f"exit {call.exit_code}"
        elif call.status and call.status not in ("completed", "error"):
            what = one_line(call.status, 20)
        else:
            what = "error"
        status, attr = f"✗ {what}", "failed"
    elif call.has_result:
        status, attr = "✓" + (f" exit {call.exit_code}" if call.exit_code is not None else ""), "ok"
    else:
        status, attr = "… no result yet", "dim"
    if call.duration_ms is not None:
        status += f" · {format_duration(call.duration_ms)}"
    return status, attr


def tool_header(call: ToolCall, open_: bool, palette: Palette) -> Text:
    """`▸ ✗ exit 1 · 44 ms  Bash  pytest …`: the outcome first, so a long command cannot hide it."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("▾ " if open_ else "▸ ", palette.dim)
    status, attr = tool_status(call)
    text.append(status, palette.failed if attr == "failed" else getattr(palette, attr))
    text.append("  ")
    text.append(one_line(call.name, 40) or "tool", palette.tool)
    key = one_line(shown_argument(call), 120)
    if key:
        text.append(f"  {key}")
    return text


def format_duration(ms: float) -> str:
    """How long a call ran: `44 ms`, `1.2 s`, `3.5 min`, from an hour on as runs are said
    (`2 h 5 min`, `3 d 4 h`: not `14041.2 min`)."""
    if ms < 1000:
        return f"{ms:.0f} ms"
    if ms < 60_000:
        return f"{ms / 1000:.1f} s"
    if ms < 3_600_000:
        return f"{ms / 60_000:.1f} min"
    return duration(ms / 1000)


def cut(text: str, limit: int) -> tuple[str, int]:
    """`text` cut to `limit` characters, and how many were left out."""
    if len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def cut_lines(text: str, lines: int) -> tuple[str, int]:
    parts = text.split("\n", lines)
    if len(parts) <= lines:
        return text, 0
    rest = parts[lines].count("\n") + 1
    return "\n".join(parts[:lines]), rest


def expandable(turn: Turn) -> bool:
    """Enter changes how `turn` looks: it has tool calls, or text shown cut or folded."""
    try:
        parts = turn.parts
    except Exception:  # noqa: BLE001 - an unreadable turn has nothing to unfold
        return False
    folded = folds_lines(turn)
    for part in parts:
        if part.kind is PartKind.TOOL:
            return True
        if part.kind is PartKind.TEXT and len(part.text) > TEXT_LIMIT:
            return True
        if part.kind is PartKind.TEXT and folded and part.text.count("\n") >= FOLDED_LINES:
            return True
        if part.kind is PartKind.REASONING and len(part.text) > TEXT_LIMIT:
            return True
    return False


def more_note(count: int, unit: str, palette: Palette) -> Text:
    """ "… 3 more lines (Enter expands)"; `unit` is singular ("line"): one is one line."""
    return Text(f"… {count:,} more {unit}{'' if count == 1 else 's'} (Enter expands)", palette.dim)


def folds_lines(turn: Turn) -> bool:
    """Its text is folded to `FOLDED_LINES` until expanded (injected text, not the person's)."""
    return turn.is_synthetic and not turn.is_human


def cut_text(body: str, turn: Turn, expanded: bool) -> tuple[str, int]:
    """What of a cleaned text part is drawn, and how many lines (folded injected text) or
    characters (any other) are left out: the one place both are decided (a search match
    in what is left out unfolds it, `reveal`)."""
    if folds_lines(turn) and not expanded:
        return cut_lines(body, FOLDED_LINES)
    return cut(body, EXPANDED_LIMIT if expanded else TEXT_LIMIT)


def cut_reasoning(body: str, expanded: bool) -> str:
    """What of cleaned reasoning is drawn once shown (t): cut as a long text is."""
    return cut(body, EXPANDED_LIMIT if expanded else TEXT_LIMIT)[0]


def text_blocks(body: str, turn: Turn, expanded: bool, palette: Palette) -> list[RenderableType]:
    """A text part, as written: the agent's styled as Markdown, people's and injections' plain."""
    body = clean(body)
    shown, hidden = cut_text(body, turn, expanded)
    if folds_lines(turn) and not expanded:
        blocks: list[RenderableType] = [Text(shown, palette.synthetic)]
        if hidden:
            blocks.append(more_note(hidden, "line", palette))
        return blocks
    if turn.role is Role.ASSISTANT and len(shown) <= MARKDOWN_LIMIT:
        blocks = [markdown_text(shown, code_theme="monokai")]
    else:
        style = palette.synthetic if turn.is_synthetic else Style()
        blocks = [Text(shown, style)]
    if hidden:
        blocks.append(more_note(hidden, "character", palette))
    return blocks


def tool_blocks(call: ToolCall, palette: Palette) -> list[RenderableType]:
    """The body of an expanded tool call: its input, then its output."""
    blocks: list[RenderableType] = [Text(format_input(call.input), palette.dim)]
    if call.output is None:
        blocks.append(Text("(no result yet)", palette.dim))
        return blocks
    style = palette.failed if call.failed else Style()
    body, hidden_chars, hidden_lines = coloured_output(call.output, style, palette.background)
    blocks.append(body if body.plain else Text("(empty output)", style))
    if hidden_lines or hidden_chars:
        # lines when whole lines were left out, else the characters past the cut
        more = (hidden_lines, "line") if hidden_lines else (hidden_chars, "character")
        unit = more[1] + ("" if more[0] == 1 else "s")
        blocks.append(Text(f"… output cut ({more[0]:,} more {unit})", palette.dim))
    return blocks


def coloured_output(
    output: str, style: Style, background: Color | None = None
) -> tuple[Text, int, int]:
    """A tool's output as shown expanded: cleaned, its SGR colours kept as styles (a test
    run's red and green, made readable on `background`), cut to `EXPANDED_LIMIT` characters
    and `OUTPUT_LINES` lines; and how many characters and lines were left out."""
    spans = sgr_spans(output)
    body, hidden_chars = cut("".join(chunk for chunk, _ in spans), EXPANDED_LIMIT)
    body, hidden_lines = cut_lines(body, OUTPUT_LINES)
    text = runs_text(
        spans, style=style, limit=len(body), adjust=lambda s: readable_style(s, background)
    )
    return text, hidden_chars, hidden_lines


def format_input(value: object) -> str:
    """A call's input, one `key: value` line per argument (a command given as words as
    typed, `text.shell`; other structured values as JSON)."""
    value = shown_input(value)
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            shown = (
                item if isinstance(item, str) else json.dumps(item, default=str, ensure_ascii=False)
            )
            lines.append(f"{clean(str(key))}: {cut(clean(shown), 2_000)[0]}")
        return "\n".join(lines) or "(no input)"
    if value is None:
        return "(no input)"
    return cut(clean(str(value)), 2_000)[0]


def part_blocks(
    part: Part, number: int, turn: Turn, look: TurnLook, palette: Palette
) -> list[tuple[RenderableType, int | None]]:
    """Blocks of one part; the int marks a tool header line for clicks."""
    open_ = ALL_PARTS in look.expanded or number in look.expanded
    if part.kind is PartKind.TEXT:
        if not part.text.strip():
            return []
        return [(block, None) for block in text_blocks(part.text, turn, open_, palette)]
    if part.kind is PartKind.REASONING:
        if not look.reasoning:
            size = len(part.text)
            return [(Text(f"▸ thinking ({size:,} chars, t shows)", palette.dim), None)]
        shown = cut_reasoning(clean(part.text), open_)
        label = Text("▾ thinking (the agent's reasoning, t hides)", palette.dim)
        return [(label, None), (Text(shown, Style(dim=True, italic=True)), None)]
    if part.kind is PartKind.TOOL and part.tool is not None:
        blocks: list[tuple[RenderableType, int | None]] = [
            (tool_header(part.tool, open_, palette), number)
        ]
        note = dict(look.subagents).get(part.tool.call_id)
        if note:
            line = f"  ↳ {note} · Enter opens it (⌫ back)"
            blocks.append((Text(line, palette.tool, no_wrap=True, overflow="ellipsis"), None))
        if open_:
            blocks += [(block, None) for block in tool_blocks(part.tool, palette)]
        return blocks
    # ▫, not ◇: the hollow diamond is a possible pivot's
    return [(Text(f"▫ {one_line(part.text, 200) or 'attachment'}", palette.dim), None)]


def body_blocks(
    turn: Turn, look: TurnLook, palette: Palette
) -> list[tuple[RenderableType, int | None]]:
    if turn.flags & TurnFlag.COMPACTION_BOUNDARY:
        note = one_line(turn.preview, 120)
        label = "━━ context compacted here" + (f": {note}" if note else "") + " ━━"
        return [(Text(label, palette.system), None)]
    try:
        parts = turn.parts
    except Exception as exc:  # a lazy loader failing must not take the screen down
        return [
            (Text(f"(could not read this turn: {one_line(str(exc), 100)})", palette.failed), None)
        ]
    blocks: list[tuple[RenderableType, int | None]] = []
    for number, part in enumerate(parts):
        blocks += part_blocks(part, number, turn, look, palette)
    has_text = any(p.kind is PartKind.TEXT and p.text.strip() for p in parts)
    if turn.is_human and not has_text:
        blocks.insert(0, (Text("(empty message)", Style(italic=True) + palette.human), None))
    elif not blocks:
        preview = clean(turn.preview)
        blocks.append((Text(preview or "(no content)", palette.dim), None))
    return blocks


def hidden_line(words: str) -> str:
    """The line under the header of the cursor's turn when the filter hides it."""
    return f"{HIDDEN_GLYPH} hidden by the filter ({words}): you are on it · \\ changes the filter"


def render_turn(turn: Turn, look: TurnLook, palette: Palette, console: Console) -> RenderedTurn:
    """Render `turn` to strips `look.width` cells wide: banner, header, body, blank line
    (a turn the filter hides: its header and the line that says so, `hidden_line`)."""
    blocks: list[tuple[RenderableType, int | None]] = []
    if look.hidden:
        note = Text(hidden_line(look.hidden), palette.dim + Style(italic=True))
        blocks += [(header_text(turn, look, palette), None), (note, None)]
        return _strips(turn, blocks, look.width, palette, console)
    if look.pivot:
        style = palette.banner(look.pivot)
        blocks.append((Text(look.pivot, style, no_wrap=True, overflow="ellipsis"), None))
    header_row = len(blocks)
    blocks.append((header_text(turn, look, palette), None))
    if look.reason:
        blocks.append(
            (Text(f"{PIVOT_GLYPH} {look.reason}", palette.dim + Style(italic=True)), None)
        )
    blocks += body_blocks(turn, look, palette)
    return _strips(turn, blocks, look.width, palette, console, header_row)


def _strips(
    turn: Turn,
    blocks: list[tuple[RenderableType, int | None]],
    width: int,
    palette: Palette,
    console: Console,
    header_row: int = 0,
) -> RenderedTurn:
    """The blocks as strips behind the turn's gutter, and the blank line that ends a turn."""
    inner = max(width - 2, 10)
    options = console.options.update(width=inner, highlight=False, markup=False)
    _, attr = role_label(turn)
    gutter = Segment("▏ ", getattr(palette, attr))
    strips: list[Strip] = []
    tool_rows: dict[int, int] = {}
    for renderable, tool in blocks:
        lines = console.render_lines(renderable, options, pad=True)
        if tool is not None:
            tool_rows[len(strips)] = tool
        strips.extend(Strip([gutter, *line], inner + 2) for line in lines)
    strips.append(Strip.blank(inner + 2))
    return RenderedTurn(strips, tool_rows, header_row)


CURSOR_GUTTER = "┃ "


def with_cursor(rendered: RenderedTurn, palette: Palette) -> RenderedTurn:
    """The same turn marked as current: heavy gutter, highlighted header (no re-render)."""
    gutter = Segment(CURSOR_GUTTER, palette.cursor)
    strips = []
    for row, strip in enumerate(rendered.strips[:-1]):
        segments = list(strip)[1:]
        if row == rendered.header_row:
            segments = list(Segment.apply_style(segments, post_style=palette.cursor))
        strips.append(Strip([gutter, *segments], strip.cell_length))
    strips.append(rendered.strips[-1])
    return RenderedTurn(strips, rendered.tool_rows, rendered.header_row)


def warm_up() -> None:
    """Pay Pygments' first-use costs (~60 ms: its lexers and styles) off the UI thread."""
    console = Console(width=80, file=None, force_terminal=False)
    sample = markdown_text("# w\n\n- *a* `b`\n\n```python\nx = 1\n```\n", code_theme="monokai")
    console.render_lines(sample, console.options)


def estimate_height(turn: Turn, width: int) -> int:
    """A guess at a turn's height before it is rendered (banner excluded)."""
    inner = max(width - 2, 10)
    preview = turn.preview
    lines = preview.count("\n") + 1 + len(preview) // inner
    return 2 + max(lines, 1)
