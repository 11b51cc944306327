"""`pivotal export`, `pivotal notes` and `pivotal stats`, added to the main group by `register`.

Same contract as the other commands: data on stdout, one clear line per
problem on stderr, documented exit codes (`pivotal.exitcodes`). `pivotal.cli`
imports this module only when one of these commands is run or listed, and heavy
modules (sqlite3, tempfile, the export / notes / stats code) are imported inside
the commands, so the other commands start fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from pivotal.exitcodes import PROBLEM_CODES, ExitCode, worst
from pivotal.model import SessionRef

SENSITIVITIES = ("low", "normal", "high")
EXPORT_FORMATS = ("md", "html", "json", "cast")


def err(message: str) -> None:
    """One diagnostic line; paths and ids in it may come from untrusted file names."""
    from pivotal.safetext import clean

    click.echo(f"pivotal: {clean(message)}", err=True)


def _refs(paths: list[Path]) -> tuple[list[SessionRef], ExitCode]:
    from pivotal.readers import find_sessions

    found = find_sessions(paths)
    for problem in found.problems:
        err(str(problem))
    codes = [PROBLEM_CODES.get(p.kind, ExitCode.NO_SESSIONS) for p in found.problems]
    return found.refs, worst(codes)


def _one_ref(path: Path, key: str | None) -> SessionRef:
    """The single session PATH names (or `--key` picks); exits with a clear line otherwise."""
    refs, code = _refs([path])
    if not refs:
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    if key is not None:
        refs = [r for r in refs if key in (r.key, r.session_id)]
        if not refs:
            err(f"{path}: no session with key {key!r}")
            raise SystemExit(ExitCode.NO_SESSIONS)
    if len(refs) > 1:
        from pivotal.safetext import clean

        keys = ", ".join(clean(r.key or r.path.name, max_len=60) for r in refs[:10])
        err(f"{path} holds {len(refs)} sessions; pick one with --key ({keys})")
        raise SystemExit(ExitCode.USAGE)
    return refs[0]


def _read(ref: SessionRef):  # type: ignore[no-untyped-def]
    from pivotal.readers import read_errors, read_session

    try:
        return read_session(ref)
    except read_errors() as exc:
        err(f"{ref.label}: cannot read ({exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None


# -- export --------------------------------------------------------------------


def _write_output(target: Path, text: str, ref: SessionRef) -> None:
    """Write atomically, and never over the session being exported."""
    if target.exists() and os.path.realpath(target) == os.path.realpath(ref.path):
        err(f"{target}: refusing to overwrite the session file itself")
        raise SystemExit(ExitCode.USAGE)
    import tempfile

    parent = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except OSError as exc:
        err(f"{target}: cannot write ({exc.strerror or exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None


def _file_mode(target: Path) -> int:
    """Keep an existing file's mode; a new file gets what the umask allows (mkstemp uses 0600)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


@click.command("export")
@click.argument("session", type=click.Path(path_type=Path))
@click.option(
    "--to",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default=None,
    help="Format (default: from the -o suffix, else md).",
)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Write here, not stdout.")
@click.option(
    "--redact", is_flag=True, help="Mask keys, tokens, private keys, e-mails, home paths."
)
@click.option("--key", default=None, help="Which session, when SESSION holds several.")
@click.option("--no-notes", is_flag=True, help="Leave out your marks and notes.")
@click.option("--sensitivity", type=click.Choice(SENSITIVITIES), default="normal")
def export_cmd(
    session: Path,
    fmt: str | None,
    output: Path | None,
    redact: bool,
    key: str | None,
    no_notes: bool,
    sensitivity: str,
) -> None:
    """Export SESSION with its pivots as Markdown, HTML, JSON or an asciicast v3 recording."""
    from pivotal.export import SUFFIX, build_input, render

    if fmt is None:
        by_suffix = {v: k for k, v in SUFFIX.items()}
        fmt = by_suffix.get(output.suffix.lower(), "md") if output else "md"
    ref = _one_ref(session, key)
    data = build_input(ref, _read(ref), sensitivity=sensitivity, with_notes=not no_notes)
    for notice in data.notices:
        err(notice)
    text = render(fmt, data, redact=redact)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        _write_output(output, text, ref)
        err(f"wrote {output} ({fmt}, {len(data.pivots)} pivots{', redacted' if redact else ''})")


# -- notes ---------------------------------------------------------------------


@click.command("notes")
@click.argument("session", required=False, type=click.Path(path_type=Path))
@click.option("--key", default=None, help="Which session, when SESSION holds several.")
@click.option("--json", "as_json", is_flag=True, help="JSON instead of a table.")
def notes_cmd(session: Path | None, key: str | None, as_json: bool) -> None:
    """List your marks and notes: on SESSION, or which sessions have any."""
    import sqlite3

    from pivotal.notes import NoteStore

    try:
        store = NoteStore()
    except (OSError, sqlite3.Error) as exc:
        err(f"cannot open the notes store ({exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None
    with store:
        if store.notice:
            err(store.notice)
        if session is None:
            _print_noted_sessions(store, as_json)
        else:
            ref = _one_ref(session, key)
            _print_marks(store, _read(ref), as_json)


def _print_noted_sessions(store, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    import json

    from pivotal.report import short_time
    from pivotal.safetext import clean

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
            click.echo(json.dumps(row, ensure_ascii=False))
        return
    if not listed:
        err(f"no marks yet (store: {store.path})")
        return
    rows = [("MARKS", "NOTES", "TOUCHED", "FORMAT", "SESSION")]
    for item in listed:
        rows.append(
            (
                str(item.marks),
                str(item.notes),
                short_time(item.touched),
                item.format,
                clean(item.title or item.path, max_len=80).replace("\n", " "),
            )
        )
    click.echo(_table(rows))


def _print_marks(store, session, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    import json

    from pivotal.export.common import role_label
    from pivotal.report import iso, short_time
    from pivotal.safetext import clean

    marks = store.marks_for(session)
    if as_json:
        for mark in marks:
            turn = session.turns[mark.turn_index] if mark.turn_index is not None else None
            row = {
                "turn": mark.turn_index,
                "source_id": clean(mark.source_id),
                "who": role_label(turn) if turn else None,
                "timestamp": iso(turn.timestamp) if turn else None,
                "note": clean(mark.note),
                "created": iso(mark.created),
            }
            click.echo(json.dumps(row, ensure_ascii=False))
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
    click.echo(_table(rows))


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(r[i].ljust(widths[i]) for i in range(len(r))).rstrip() for r in rows)


# -- stats ---------------------------------------------------------------------


@click.command("stats")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON document: sessions and totals.")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("--sensitivity", type=click.Choice(SENSITIVITIES), default="normal")
@click.option("--root", "roots", multiple=True, type=click.Path(path_type=Path))
def stats_cmd(
    paths: tuple[Path, ...], as_json: bool, jobs: int, sensitivity: str, roots: tuple[Path, ...]
) -> None:
    """Pivot patterns across sessions in PATHS (default: every session pivotal can find)."""
    import json

    from pivotal.stats import collect, stats_json, stats_table

    if paths:
        refs, code = _refs(list(paths))
    else:
        from pivotal.discovery import discover_sessions

        refs, code = discover_sessions(roots or None), ExitCode.OK
    if not refs:
        if not paths:
            err("no agent sessions found (give PATHs or --root)")
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    stats = collect(refs, jobs=jobs, sensitivity=sensitivity)
    if as_json:
        click.echo(json.dumps(stats_json(stats), ensure_ascii=False))
    else:
        click.echo(stats_table(stats), nl=False)
    for item in stats:
        if item.error:
            err(f"{item.path}: cannot read ({item.error})")
    if any(item.error for item in stats):
        code = worst([code, ExitCode.UNREADABLE])
    raise SystemExit(int(code))


def register(cli: click.Group) -> None:
    """Add `export`, `notes` and `stats` to the main command group."""
    cli.add_command(export_cmd, "export")
    cli.add_command(notes_cmd, "notes")
    cli.add_command(stats_cmd, "stats")
