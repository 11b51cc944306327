"""A scan once over every PATH: read each session, detect its pivots, print them.

The batch half of `pivotal scan` (the command's options and its `--follow`
mode are `pivotal.cli.scan`): text tables (with `--explain`) or JSON lines,
`--redact` applied to what is printed, one exit code for the worst problem
met. A big Claude Code file may be read on two cores (`pivotal.scan.split`).
Also what tests and benches call to scan without a process.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import msgspec

from pivotal.cli.exitcodes import ExitCode, worst
from pivotal.cli.output import err
from pivotal.cli.resolve import locate
from pivotal.folders import cache_dir
from pivotal.model import Pivot, Session, SessionRef
from pivotal.private import private_folder
from pivotal.readers import read_errors, read_session
from pivotal.readers.base import gc_paused
from pivotal.scan.report import (
    explain,
    pivot_table,
    possible_lines,
    rejected_lines,
    session_header,
    session_json,
    skipped_line,
)
from pivotal.text.fit import fit
from pivotal.text.safe import json_inert

if TYPE_CHECKING:
    from pivotal.detect import PivotConfig
    from pivotal.detect.evaluate import Rejection

_encode = msgspec.json.Encoder().encode


def run_scan(
    paths: list[Path],
    *,
    as_json: bool,
    explain: bool = False,
    sensitivity: str = "normal",
    out: TextIO | None = None,
    key: str | None = None,
    redact: bool = False,
    width: int | None = None,
) -> int:
    """Scan `paths` once, printing each session to `out` (stdout); the worst exit code.

    `width`: the text is fitted to a terminal that wide (None: whole lines, for a pipe)."""
    from pivotal.detect import PivotConfig, PivotTracker, compiled, detect_pivots

    out = out or sys.stdout
    refs, problems = locate(paths, key)
    codes = [code for _, code in problems]
    for message, _ in problems:
        err(message)
    config = PivotConfig.for_sensitivity(sensitivity)
    compiled.load(cache_dir())  # the detector's patterns as an earlier scan compiled them
    # A session's index is many small objects and one reference cycle (the reader and its
    # turns): the collector stays paused through each session and runs once between them,
    # so a scan of thousands of files keeps the memory of one.
    with gc_paused():
        for number, ref in enumerate(refs):
            if number:
                gc.collect()
            split = None if explain else _split(ref, config)
            rejected: list[Rejection] = []
            if split is not None:
                session, found = split
            else:
                session = _read(ref)
                if session is None:
                    codes.append(ExitCode.UNREADABLE)
                    continue
                if explain and not as_json:
                    # --explain also says why each other silence was turned down
                    tracker = PivotTracker(config)
                    tracker.update(session.turns)
                    found = tracker.all_pivots()
                    rejected = tracker.rejections()
                else:
                    found = detect_pivots(session.turns, config, possible=True)
            users = _users(ref, session) if redact else None
            if users is not None:
                session, found, rejected = _redacted_first(session, found, rejected, users)
            pivots = [p for p in found if not p.possible]
            possible = [p for p in found if p.possible]
            if as_json:
                data = session_json(ref, session, pivots, possible)
                if users is not None:
                    data = _redacted(data, users)
                out.write(json_inert(_encode(data).decode()) + "\n")
            else:
                text = report_text(ref, session, pivots, explain, users, rejected, possible, width)
                out.write(text)
            out.flush()
    _keep_compiled(refs)
    return int(worst(codes))


def _keep_compiled(refs: list[SessionRef]) -> None:
    """Save the detector's compiled patterns in the cache folder, unless that file would be
    one of the sessions just read, or land in a session's folder (`PIVOTAL_CACHE_DIR` set
    to a session's place): pivotal never writes over or beside what it reads."""
    from pivotal.detect import compiled
    from pivotal.readers import session_files

    folder = cache_dir()
    if not compiled.unsaved():
        return  # nothing new to keep: no file is written
    target = compiled.cache_file(folder)
    if any(session_files(ref).claims(target) is not None for ref in refs):
        return
    try:
        private_folder(folder)  # the indexes of session text join it: 0700 from the start
    except OSError:
        return  # a folder that cannot be made only means compiling next time
    compiled.save(folder)


def _split(ref: SessionRef, config: PivotConfig) -> tuple[Session, list[Pivot]] | None:
    """A big Claude Code file is read and judged on two cores (`scan.split`), if it can be."""
    if ref.format != "claude-code" or os.environ.get("PIVOTAL_ONE_CORE"):
        return None
    from pivotal.scan.split import can_split, scan_split

    return scan_split(ref, config) if can_split(ref) else None


def _read(ref: SessionRef) -> Session | None:
    try:
        return read_session(ref)
    except read_errors() as exc:
        err(f"{ref.label}: cannot read ({exc})")
        return None


def _users(ref: SessionRef, session: Session) -> tuple[str, ...]:
    """The user names whose home paths are masked (`pivotal.export.redact.users_in`)."""
    from pivotal.export.redact import users_in

    return users_in(str(ref.path), session.cwd, str(Path.home()))


def _redacted_first(
    session: Session,
    pivots: list[Pivot],
    rejected: list[Rejection],
    users: tuple[str, ...],
) -> tuple[Session, list[Pivot], list[Rejection]]:
    """The session's own words that the report cuts to a length (title, id, skipped
    reasons), the pivots and the rejected silences' reasons, redacted before they are
    cut: a key cut in half is no longer one a rule can find. The turns are shared."""
    from pivotal.detect.evaluate import Rejection
    from pivotal.export.redact import redact
    from pivotal.export.scrubbed import scrub

    fields = ("id", "title", "cwd", "skipped", "notices")
    changes = {name: scrub(getattr(session, name), users=users) for name in fields}
    rejected = [
        Rejection(r.turn, r.silence, r.confidence, r.gate, redact(r.reason, users=users), r.signals)
        for r in rejected
    ]
    return msgspec.structs.replace(session, **changes), scrub(pivots, users=users), rejected


def _redacted(value, users: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """`value` (JSON-like data or text) with secrets and home paths masked."""
    from pivotal.export.redact import redact, redact_data

    return redact(value, users=users) if isinstance(value, str) else redact_data(value, users=users)


def report_text(
    ref: SessionRef,
    session: Session,
    pivots: list,  # type: ignore[type-arg]
    with_explain: bool,
    users: tuple[str, ...] | None = None,
    rejected: Sequence[Rejection] = (),
    possible: Sequence[Pivot] = (),
    width: int | None = None,
) -> str:
    """The text report; `users` (a tuple) when it is redacted, with those home paths;
    `width` when it goes to a terminal (redacted first, then broken between words)."""
    lines = [session_header(ref, session)]
    skipped = skipped_line(session)
    if skipped:
        lines.append(skipped)
    lines.extend(pivot_table(session, pivots, width))
    if possible:
        lines.extend(possible_lines(session, possible, width))
    if with_explain:
        for pivot in [*pivots, *possible]:
            lines.append("")
            lines.extend("  " + line for line in explain(session, pivot))
        if rejected:
            lines.append("")
            lines.extend("  " + line for line in rejected_lines(session, rejected))
    text = "\n".join(lines) + "\n\n"
    return fit(_redacted(text, users) if users is not None else text, width)
