"""Headless live scan: print each pivot of a running session once it is confirmed.

`pivotal scan --follow PATH` runs this. It follows the session (see
`tail.follow`), feeds every change to the incremental detector, and writes
one line per pivot as soon as the detector stops calling it a candidate
(its after-window has filled), flushing each line so it can be piped into
a notifier. Each pivot is printed once, even if the file is reloaded and
the pivot found again. Notices (truncated, deleted, ...) go to `err`, so
`out` stays one pivot per line.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from pivotal.live.tail import DEFAULT_POLL_INTERVAL, DEFAULT_STEP_MS, follow
from pivotal.model import Pivot, Session, SessionRef
from pivotal.readers import open_reader
from pivotal.readers.base import SessionReader
from pivotal.text.safe import clean, clean_line

__all__ = ["pivot_line", "scan_follow"]


class Tracker(Protocol):
    def update(self, turns: Any, first_changed: int = 0) -> list[Pivot]: ...


PivotKey = tuple[object, ...]


def _default_tracker(config: object | None) -> Tracker:
    from pivotal.detect import PivotTracker

    return PivotTracker(config)  # type: ignore[arg-type]


def _pivot_json(session: Session, pivot: Pivot) -> dict[str, Any]:
    """The `scan --json` pivot object."""
    from pivotal.scan.report import pivot_json

    return pivot_json(session, pivot)


def _anchor(session: Session, pivot: Pivot):
    return session.turns[pivot.turn] if 0 <= pivot.turn < len(session.turns) else None


def _key(session: Session, pivot: Pivot) -> PivotKey:
    """Identity of a pivot that survives a reload (turn indexes alone may shift)."""
    anchor = _anchor(session, pivot)
    if anchor is None:
        return (pivot.turn,)
    source = anchor.source
    return (anchor.message_id, source.record_id, source.line, anchor.timestamp, anchor.preview)


def pivot_line(session: Session, pivot: Pivot, as_json: bool) -> str:
    """One output line for `pivot` (no newline); session text is made inert."""
    if as_json:
        return json.dumps(_pivot_json(session, pivot), ensure_ascii=True)
    anchor = _anchor(session, pivot)
    when = "-"
    if anchor is not None and anchor.timestamp is not None:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(anchor.timestamp))
    # the plain sentence (what the replayer and `scan` say), not the detector's reason
    what = clean(pivot.summary or pivot.reason, max_len=300).replace("\n", " ")
    return (
        f"#{pivot.turn + 1}  {when}  {pivot.kind}  {pivot.silence}  {pivot.confidence:.2f}  {what}"
    )


async def scan_follow(
    ref: SessionRef,
    *,
    as_json: bool,
    out: TextIO,
    config: object | None = None,
    stop: asyncio.Event | None = None,
    err: TextIO | None = None,
    open_ref: Callable[[SessionRef], SessionReader] = open_reader,
    tracker: Tracker | None = None,
    force_polling: bool = False,
    poll_interval: float = DEFAULT_POLL_INTERVAL,
    step_ms: int = DEFAULT_STEP_MS,
    backend: str = "auto",
) -> int:
    """Follow `ref` until `stop` is set, printing each confirmed pivot once.

    Returns how many pivots were printed. `tracker` defaults to the
    detector's `PivotTracker(config)`.
    """
    err = err if err is not None else sys.stderr
    tracker = tracker if tracker is not None else _default_tracker(config)
    reader = open_ref(ref)
    printed: set[PivotKey] = set()
    try:
        async for update in follow(
            reader,
            stop=stop,
            force_polling=force_polling,
            poll_interval=poll_interval,
            step_ms=step_ms,
            backend=backend,
        ):
            if update.notice:
                err.write(f"pivotal: {clean_line(update.notice, max_len=300)}\n")
                err.flush()
            if update.first_changed is None and not update.reloaded:
                continue
            session = reader.session
            first = 0 if update.reloaded else (update.first_changed or 0)
            for pivot in tracker.update(session.turns, first):
                if pivot.candidate:
                    continue
                key = _key(session, pivot)
                if key in printed:
                    continue
                printed.add(key)
                out.write(pivot_line(session, pivot, as_json) + "\n")
                out.flush()
    finally:
        reader.close()
    return len(printed)
