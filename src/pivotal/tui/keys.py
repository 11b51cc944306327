"""The replayer's key map (ANCHORS.md §5) and the help text built from the same rows.

One table so the bindings, the help screen and the command palette cannot drift
apart: each row is (keys, label, action, description, footer label or "" when
the footer leaves it out).
"""

from __future__ import annotations

from textual.binding import Binding

ROWS: list[tuple[str, list[tuple[str, str, str, str, str]]]] = [
    (
        "Playback",
        [
            ("space", "Space", "toggle_play", "Play/pause", "Play/pause"),
            ("full_stop,l,right", ". l →", "step(1)", "Next turn", "Step"),
            ("comma,h,left", ", h ←", "step(-1)", "Previous turn", ""),
            ("plus,equals_sign", "+", "faster", "Faster (twice the speed)", "Speed"),
            ("minus", "-", "slower", "Slower (half the speed)", ""),
            (
                "R",
                "R",
                "toggle_realtime",
                "Pacing: turns/s or real time",
                "",
            ),
            ("i", "i", "idle_limit", "Real time: longest pause kept (1, 2, 5, 10, 30, 60 s)", ""),
            ("A", "A", "toggle_autopause", "Auto-pause at pivots on/off", ""),
        ],
    ),
    (
        "Jump",
        [
            (
                "right_square_bracket",
                "]",
                "next_pivot",
                "Next pivot (playing: skip there, stop)",
                "Pivot",
            ),
            ("left_square_bracket", "[", "prev_pivot", "Previous pivot", ""),
            ("w", "w", "next_possible", "Next possible pivot (◇: just under the bar)", ""),
            ("W", "W", "prev_possible", "Previous possible pivot", ""),
            ("e", "e", "next_failure", "Next failure", "Failure"),
            ("E", "E", "prev_failure", "Previous failure", ""),
            ("g,home", "g Home", "first", "First turn", ""),
            ("G,end", "G End", "last", "Last turn", ""),
            ("shift+right", "Shift+→", "seek(1)", "Forward 10 %", ""),
            ("shift+left", "Shift+←", "seek(-1)", "Back 10 %", ""),
            ("colon", ":", "goto", "Go to turn…", ""),
            ("right_curly_bracket", "}", "next_human", "Next message of yours", ""),
            ("left_curly_bracket", "{", "prev_human", "Previous message of yours", ""),
            (
                "backspace,grave_accent,ctrl+o",
                "⌫ ` Ctrl+O",
                "jump_back",
                "Back to where the last jump started (again: the one before; a sub-agent: out)",
                "",
            ),
        ]
        + [
            (str(n), "0–9" if n == 0 else str(n), f"percent({n})", f"Jump to {n * 10} %", "")
            for n in range(10)
        ],
    ),
    (
        "Find and filter",
        [
            ("slash", "/", "search", "Search", "Search"),
            ("n", "n", "search_next", "Next match", "Next match"),
            ("N", "N", "search_prev", "Previous match", ""),
            (
                "asterisk",
                "*",
                "search_sessions",
                "Search every session's text for this search (the picker)",
                "",
            ),
            (
                "backslash,ampersand",
                "\\ &",
                "cycle_filter",
                "Filter: all/human/pivots/failures",
                "Filter",
            ),
        ],
    ),
    (
        "Marks and notes",
        [
            ("m", "m", "mark", "Mark/unmark this turn", ""),
            ("a", "a", "note", "Note on this turn (Markdown)", ""),
            ("u", "u", "next_mark", "Next mark", ""),
            ("U", "U", "prev_mark", "Previous mark", ""),
            ("r", "r", "resume", "Back to the agent: its resume command (to the clipboard)", ""),
            ("S", "S", "screenshot", "Save a screenshot (SVG)", ""),
            ("x", "x", "export", "Export the session to a file: HTML, Markdown, JSON, cast…", ""),
            ("X", "X", "export_redacted", "Export with secrets and home paths masked…", ""),
        ],
    ),
    (
        "View",
        [
            (
                "enter",
                "Enter",
                "expand",
                "Expand/fold the turn's tool calls; on calls that ran a sub-agent, open it",
                "",
            ),
            ("t", "t", "toggle_reasoning", "Show/hide reasoning", ""),
            ("y", "y", "copy", "Copy the turn, a command or an output (clipboard)", ""),
            ("v", "v", "page", "Read the turn, a command or an output in $PAGER", ""),
            ("p", "p", "toggle_panel", "Show/hide the pivot panel", "Panel"),
            (
                "tab,shift+tab",
                "Tab ⇧Tab",
                "next_pane",
                "Keys to the other pane: transcript / pivot panel (scroll keys move it)",
                "",
            ),
            ("j,down", "j ↓", "scroll_lines(1)", "Scroll the focused pane down", ""),
            ("k,up", "k ↑", "scroll_lines(-1)", "Scroll the focused pane up", ""),
            ("pagedown,ctrl+d", "PgDn Ctrl+D", "scroll_page(1)", "Page down (focused pane)", ""),
            ("pageup,ctrl+u", "PgUp Ctrl+U", "scroll_page(-1)", "Page up (focused pane)", ""),
            ("F", "F", "follow", "Follow a live session", ""),
            ("o", "o", "open_picker", "Open another session (the picker)", ""),
            (
                "escape",
                "Esc",
                "close_overlay",
                "Close the resume box or panel / stop a search or playing / back to results",
                "",
            ),
            ("question_mark,f1", "? F1", "help", "Help", "Help"),
            ("q", "q", "app.quit", "Quit", "Quit"),
        ],
    ),
]


def bindings() -> list[Binding]:
    """Textual bindings for the replay screen (digits share one help row)."""
    result = []
    for _, rows in ROWS:
        for keys, label, action, description, footer in rows:
            result.append(
                Binding(
                    keys,
                    action,
                    footer or description,
                    show=bool(footer),
                    key_display=label.split()[0],
                    tooltip=description,
                )
            )
    return result


def _help_rows(rows: list[tuple[str, str, str, str, str]]) -> list[tuple[str, str]]:
    """(keys, description) rows; the ten digit jumps collapse into one row."""
    result = []
    for _, label, action, description, _ in rows:
        if action == "percent(0)":
            result.append(("0–9", "Jump to 0–90 % of the session"))
        elif not action.startswith("percent("):
            result.append((label, description))
    return result


HELP_GROUPS: list[tuple[str, list[tuple[str, str]]]] = [
    (group, _help_rows(rows)) for group, rows in ROWS
]

FOOTER_FIT: dict[str, tuple[str, int]] = {
    "toggle_play": ("Play", 8),
    "step(1)": ("Step", 6),
    "faster": ("Speed", 1),
    "next_pivot": ("Pivot", 7),
    "next_failure": ("Fail", 5),
    "search": ("Find", 4),
    "search_next": ("Next", 3),
    "cycle_filter": ("Filter", 2),
    "toggle_panel": ("Panel", 4),
    "help": ("Help", 10),
    "app.quit": ("Quit", 10),
}
"""Per footer action: (short label, rank). Narrow, the key bar first shortens every
label, then drops the lowest ranks: `? Help` and `q Quit` are never pushed off."""

FOOTER: list[tuple[str, str, str, str, int]] = [
    (label.split()[0], footer, FOOTER_FIT[action][0], action, FOOTER_FIT[action][1])
    for _, rows in ROWS
    for _, label, action, _, footer in rows
    if footer
] + [("^p", "Palette", "", "app.command_palette", 0)]
"""The key bar, in order: (key, label, short label, action, rank)."""

PALETTE: list[tuple[str, str]] = [
    (description, action) for _, rows in ROWS for _, _, action, description, _ in rows
]
"""(title, action) for the command palette: every action by name."""

PALETTE_KEYS: dict[str, str] = {
    action: "0" if action == "percent(0)" else label
    for _, rows in ROWS
    for _, label, action, _, _ in rows
}
"""The key(s) that run each action, as the palette shows them beside its title."""
