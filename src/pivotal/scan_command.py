"""`pivotal scan`: read sessions, detect their pivots, print tables or JSON lines."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import msgspec

from pivotal.exitcodes import PROBLEM_CODES, ExitCode, worst
from pivotal.model import Pivot, Session, SessionRef
from pivotal.readers import find_sessions, read_errors, read_session
from pivotal.readers.base import gc_paused
from pivotal.report import explain, pivot_table, session_header, session_json, skipped_line
from pivotal.safetext import json_inert

if TYPE_CHECKING:
    from pivotal.detect import PivotConfig

_encode = msgspec.json.Encoder().encode


def _err(message: str) -> None:
    print(f"pivotal: {message}", file=sys.stderr)


def run_scan(
    paths: list[Path],
    *,
    as_json: bool,
    explain: bool = False,
    sensitivity: str = "normal",
    out: TextIO | None = None,
) -> int:
    from pivotal.detect import PivotConfig, detect_pivots

    out = out or sys.stdout
    found = find_sessions(paths)
    codes = [PROBLEM_CODES.get(p.kind, ExitCode.NO_SESSIONS) for p in found.problems]
    for problem in found.problems:
        _err(str(problem))
    config = PivotConfig.for_sensitivity(sensitivity)
    # A session's index is many small objects and one reference cycle (the reader and its
    # turns): the collector stays paused through each session and runs once between them,
    # so a scan of thousands of files keeps the memory of one.
    with gc_paused():
        for number, ref in enumerate(found.refs):
            if number:
                gc.collect()
            split = _split(ref, config)
            if split is not None:
                session, pivots = split
            else:
                session = _read(ref)
                if session is None:
                    codes.append(ExitCode.UNREADABLE)
                    continue
                pivots = detect_pivots(session.turns, config)
            if as_json:
                out.write(json_inert(_encode(session_json(ref, session, pivots)).decode()) + "\n")
            else:
                _print_text(out, ref, session, pivots, explain)
            out.flush()
    return int(worst(codes))


def _split(ref: SessionRef, config: PivotConfig) -> tuple[Session, list[Pivot]] | None:
    """A big Claude Code file is read and judged on two cores (`scan_split`), if it can be."""
    if ref.format != "claude-code" or os.environ.get("PIVOTAL_ONE_CORE"):
        return None
    from pivotal.scan_split import can_split, scan_split

    return scan_split(ref, config) if can_split(ref) else None


def _read(ref: SessionRef) -> Session | None:
    try:
        return read_session(ref)
    except read_errors() as exc:
        _err(f"{ref.label}: cannot read ({exc})")
        return None


def _print_text(
    out: TextIO,
    ref: SessionRef,
    session: Session,
    pivots: list,  # type: ignore[type-arg]
    with_explain: bool,
) -> None:
    lines = [session_header(ref, session)]
    skipped = skipped_line(session)
    if skipped:
        lines.append(skipped)
    lines.extend(pivot_table(session, pivots))
    if with_explain:
        for pivot in pivots:
            lines.append("")
            lines.extend("  " + line for line in explain(session, pivot))
    out.write("\n".join(lines) + "\n\n")


def run_follow(paths: list[Path], *, as_json: bool, sensitivity: str = "normal") -> int:
    """`scan --follow PATH`: print each pivot once it is confirmed, until Ctrl+C."""
    import asyncio

    from pivotal.detect import PivotConfig
    from pivotal.follow_scan import scan_follow

    if len(paths) != 1:
        _err("--follow takes exactly one PATH")
        return int(ExitCode.USAGE)
    found = find_sessions(paths)
    for problem in found.problems:
        _err(str(problem))
    if not found.refs:
        return int(
            worst([PROBLEM_CODES.get(p.kind, ExitCode.NO_SESSIONS) for p in found.problems])
            or ExitCode.NO_SESSIONS
        )
    ref = max(found.refs, key=lambda r: r.updated or 0.0)
    config = PivotConfig.for_sensitivity(sensitivity)
    try:
        asyncio.run(scan_follow(ref, as_json=as_json, out=sys.stdout, config=config))
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    return int(ExitCode.OK)
