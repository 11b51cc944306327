"""A handful of pictures of the replayer, one per screen state (pytest-textual-snapshot).

Deterministic: the demo session has fixed UTC timestamps, nothing plays, and no
Input is focused when the picture is taken (no cursor blink).
"""

from __future__ import annotations

from pathlib import Path

from pivotal.model import SessionRef
from pivotal.tui.app import ReplayerApp

from .conftest import make_app


def test_mid_replay(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """Turn 11 of 28: the session named on the top line, human and agent turns styled apart,
    the failing tool calls folded to one-line headers with ✗ and exit codes, the first
    pivot's banner in the transcript, its panel docked right (its kind in words, plain words
    first, the weights last), the timeline with two ✦ markers and the cursor ● after the
    first."""
    assert snap_compare(make_app(at=10), terminal_size=(140, 40))


def test_paused_at_pivot(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """Auto-paused on the empty message (turn 6): "(empty message)" in the transcript, the
    panel with what happened, before → after (one failure count), the evidence as sentences
    with links, how the agent took over, then the weights with confidence 0.86, and
    "auto-paused at a pivot" in the status line."""

    async def play_to_pivot(pilot) -> None:  # type: ignore[no-untyped-def]
        screen = pilot.app.replay
        await pilot.press("space")
        screen.tick()
        await pilot.pause()

    assert snap_compare(make_app(at=4), terminal_size=(140, 40), run_before=play_to_pivot)


def test_help_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """The help screen lists every key, grouped: playback, jump, find and filter, view."""
    assert snap_compare(make_app(), terminal_size=(100, 62), press=["question_mark"])


def test_picker(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """The picker lists the sessions found, newest data first as given, with format and size."""
    refs = [
        SessionRef(
            "claude_code",
            Path("/home/dev/.claude/projects/a/1.jsonl"),
            size=120_000,
            updated=1_764_460_800.0,
            title="Fix the server config",
        ),
        SessionRef(
            "codex",
            Path("/home/dev/.codex/sessions/rollout-2.jsonl"),
            size=48_000,
            updated=1_764_374_400.0,
        ),
        SessionRef(
            "opencode",
            Path("/home/dev/.local/share/opencode/opencode.db"),
            key="ses_3",
            turns=214,
            updated=1_764_288_000.0,
            title="Speed it up",
        ),
    ]
    assert snap_compare(ReplayerApp(None, refs=refs), terminal_size=(100, 20))


def test_small_terminal_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """80×24 at the compaction pivot: no panel (it toggles when narrow), the compaction
    boundary and the injected summary folded to three lines, nothing garbled, the hostile
    escape text of the last turn not yet shown."""
    assert snap_compare(make_app(at=25), terminal_size=(80, 24))


def test_hostile_text_is_inert(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """The last turn's OSC title escape shows as visible ␛ text and "[bold red]" stays
    literal: session text never drives the terminal or the markup parser."""
    assert snap_compare(make_app(at=27), terminal_size=(100, 16))


def test_pivot_drawer_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """80×24 after ]: the explanation in a drawer under the transcript (full width, the
    pivot turn still in view above it), the status line fitted (no cut notice), and the
    key bar keeping ? Help and q Quit."""
    assert snap_compare(make_app(), terminal_size=(80, 24), press=["right_square_bracket"])


def test_possible_pivot_160x48(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """160×48 on a possible pivot: ◇ on the bar (✦ for the two pivots), its outlined ◇ banner
    on the turn, the panel titled "◇ Possible pivot 1/1" saying it was not paused at and why
    it stayed under the bar, and "2 pivots · 1 possible" in the status line."""
    from .test_possible_pivots import MAYBE, app_with_possible

    assert snap_compare(app_with_possible(at=MAYBE), terminal_size=(160, 48))


def test_no_pivot_drawer_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    """80×24, a session with no pivot, the drawer opened with p: every silence the detector
    turned down, with why in plain words, and the turn's own "· no pivot here:" line."""
    from .test_why_no_pivot import no_pivot_app

    assert snap_compare(no_pivot_app(at=7), terminal_size=(80, 24), press=["p"])
