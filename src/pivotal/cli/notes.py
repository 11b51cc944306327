"""`pivotal notes [SESSION]`: the marks and notes made in the replayer, as a table or JSON.

The store is `pivotal.catalog.notes`; with no SESSION this lists which sessions
have marks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pivotal.cli.arguments import SESSION_PATH, add_key
from pivotal.cli.exitcodes import ExitCode
from pivotal.cli.output import err
from pivotal.cli.resolve import one_ref, read_or_exit


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = "List your marks and notes: on SESSION, or which sessions have any."
    parser.add_argument("session", nargs="?", type=Path, metavar="SESSION", help=SESSION_PATH)
    add_key(parser)
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="JSON instead of a table."
    )
    parser.set_defaults(handler=notes_cmd)


def notes_cmd(args: argparse.Namespace) -> None:
    """`pivotal notes`: the marks on one session, or the sessions that have any."""
    import sqlite3

    from pivotal.catalog.notes import FILE_NAME, NoteStore, data_dir, store_is_session

    ref = one_ref(args.session, args.key) if args.session is not None else None
    path = data_dir() / FILE_NAME
    if ref is not None and store_is_session(path, ref):
        # opening it, even read-only, would create SQLite's -wal and -shm beside the session
        err(f"no marks on this session: the notes store {path} is a file of this session")
        return
    try:
        store = NoteStore(path, readonly=True)
    except (OSError, sqlite3.Error) as exc:
        err(f"cannot open the notes store ({exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None
    with store:
        if store.notice:
            err(store.notice)
        if ref is None:
            _print_noted_sessions(store, args.as_json)
        else:
            _print_marks(store, read_or_exit(ref), args.as_json)


def _print_noted_sessions(store, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    import json

    from pivotal.scan.report import short_time
    from pivotal.text.fit import clip
    from pivotal.text.safe import clean, clean_line

    listed = store.all_sessions()
    if as_json:
        for item in listed:
            row = {
                "session_key": clean(item.key),
                "format": item.format,
                "path": clean(item.path),
                "title": clean(item.title) if item.title else None,
                "marks": item.marks,
                "notes": item.notes,
                "touched": short_time(item.touched),
            }
            print(json.dumps(row, ensure_ascii=False))
        return
    if not listed:
        err(f"no marks yet (store: {store.path})")
        return
    rows = [("MARKS", "NOTES", "TOUCHED", "FORMAT", "TITLE", "PATH")]
    for item in listed:
        rows.append(
            (
                str(item.marks),
                str(item.notes),
                short_time(item.touched),
                item.format,
                clip(" ".join(clean(item.title or "-", max_len=200).split()), TITLE_CELLS),
                clean_line(item.path),  # whole, last: what `pivotal notes PATH` takes
            )
        )
    print(_table(rows))


def _print_marks(store, session, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    import json

    from pivotal.export.common import role_label
    from pivotal.scan.report import iso, short_time
    from pivotal.text.safe import clean

    marks = store.marks_for(session)
    if as_json:
        for mark in marks:
            turn = session.turns[mark.turn_index] if mark.turn_index is not None else None
            row = {
                "turn": mark.turn_index,
                "number": mark.turn_index + 1 if mark.turn_index is not None else None,
                "source_id": clean(mark.source_id),
                "who": role_label(turn) if turn else None,
                "timestamp": iso(turn.timestamp) if turn else None,
                "note": clean(mark.note),
                "created": iso(mark.created),
            }
            print(json.dumps(row, ensure_ascii=False))
        return
    if not marks:
        err("no marks on this session")
        return
    rows = [("TURN", "WHEN", "WHO", "NOTE")]
    for mark in marks:
        turn = session.turns[mark.turn_index] if mark.turn_index is not None else None
        first = clean(mark.note, max_len=300).strip().split("\n")[0] if mark.note else ""
        rows.append(
            (
                f"#{mark.turn_index + 1}" if turn and mark.turn_index is not None else "gone",
                short_time(turn.timestamp) if turn else "-",
                role_label(turn) if turn else "-",
                first[:100] or "(marked)",
            )
        )
    print(_table(rows))


TITLE_CELLS = 40
"""The title column's width: the path after it is never cut (a person copies it back)."""


def _table(rows: list[tuple[str, ...]]) -> str:
    from pivotal.text.fit import cells, pad

    widths = [max(cells(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(pad(r[i], widths[i]) for i in range(len(r))).rstrip() for r in rows)
