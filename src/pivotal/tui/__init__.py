"""The replayer: a keyboard-driven Textual app. Only the CLI imports this package.

`run_replayer` is the one entry point: open a session, or the picker over
several, replay it turn by turn and stop at the silent pivots.

`app` reads the session in a worker and shows `replay_screen.ReplayScreen`,
which holds every key and owns its widgets (`transcript`, `pivot_panel`,
`timeline`) and helpers (`panes`, `play_timer`, `jumps`, `marking`, `search`,
which looks with `find` and marks matches with `highlight`, `handoff`, `live`,
which reads through `live_feed`); `playback` is the cursor and play state they
share, `keys` the one key table. The picker is `picker` (its rows drawn by
`session_list`), filled in behind by `picker_fill`. Helpers never import the
screen: it hands them what they need (the playback, a `say` callback) and they
post messages back. The app's modules import each other by full name
(`pivotal.tui.keys`), never this `__init__`, so it may import `app` lazily
without a circle.

The only package that imports Textual and Rich. May import everything below
the command line (model, readers, detect, live, catalog, text); nothing
imports it but `pivotal.cli.replay`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pivotal.model import SessionRef

__all__ = ["run_replayer"]


def run_replayer(
    ref: SessionRef | None,
    *,
    refs: list[SessionRef] | None = None,
    at: int | None = None,
    speed: float = 1.0,
    realtime: bool = False,
    idle_limit: float = 2.0,
    autopause: bool = True,
    demo: bool = False,
    follow: bool | Path = False,
    details: Callable[[], Iterable[list[SessionRef]]] | None = None,
    unlisted: int = 0,
    sensitivity: str = "normal",
) -> int:
    """Run the replayer until the person quits; returns the exit code.

    Args:
        ref: the session to open; None shows the picker over `refs`.
        refs: sessions to choose from when `ref` is None.
        at: the turn to start at, numbered as on screen (#1 is the first turn).
        speed: turns per second, or the real-time factor (`tui.pacing`; clamped to its range).
        realtime: play at the session's own pace (recorded gaps / speed).
        idle_limit: real time: longer gaps are cut down to this many seconds.
        autopause: stop at each pivot while playing.
        demo: say this is the bundled demo session (no sessions were found).
        follow: follow `ref` live (F toggles it); a folder follows the newest session
            in it and switches when a new one starts.
        details: with `refs` from the quick listing, yields the detailed refs (turn and
            pivot counts) file by file; the picker shows at once and fills them in.
        unlisted: files of the agents' folders that listed no session (the picker says so).
        sensitivity: how readily a silence is a pivot (low / normal / high or 0-1).
    """
    from pivotal.tui.app import ReplayerApp

    start = at - 1 if at is not None else None  # out of range: the screen says so (`start_at`)
    app = ReplayerApp(
        ref,
        refs=refs,
        at=start,
        speed=speed,
        realtime=realtime,
        idle_limit=idle_limit,
        autopause=autopause,
        demo=demo,
        follow=follow,
        details=details,
        unlisted=unlisted,
        sensitivity=sensitivity,
    )
    result = app.run()
    if app.return_code:  # a crash: Textual sets 1 (the traceback only with PIVOTAL_DEBUG)
        return app.return_code
    return 0 if result is None else int(result)
