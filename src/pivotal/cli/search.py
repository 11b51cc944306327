"""`pivotal search QUERY [PATH...]`: find any moment of any session, best first.

Where to look is `pivotal sessions`' discovery (or the PATHs); the look-up is
the search index (`pivotal.catalog.search_index`, `search_query`), brought up
to date first by the same pass that counts turns and pivots, with its progress
on stderr. A SQLite that cannot hold the index is said once and every session
is read instead (`search_scan`). Hits print as a table or JSON lines
(`pivotal.cli.search_output`); exit codes are `scan`'s.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

from pivotal.cli.arguments import SESSION_PATH, add_roots, positive_limit, usable_roots
from pivotal.cli.exitcodes import PROBLEM_CODES, ExitCode, worst
from pivotal.cli.output import err, terminal_width

DEFAULT_LIMIT = 20
_RELATIVE = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])", re.IGNORECASE)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Search the text of every session pivotal can find (or of PATHs), best hits first.\n\n"
        'QUERY is words and "exact phrases" (quote them inside the argument:\n'
        "'\"nccl timeout\" retry'); each must be in a message, as any part of it, case\n"
        "ignored, in any script. Hits are ranked: your messages and commands before the\n"
        "agent's words, those before long tool outputs. The search index is a local copy\n"
        "of session text in the cache folder ($PIVOTAL_CACHE_DIR, $XDG_CACHE_HOME/pivotal\n"
        "or ~/.cache/pivotal: search.sqlite3*), kept up to date by every listing."
    )
    parser.add_argument("query", metavar="QUERY", help='words and "exact phrases" to find')
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help=SESSION_PATH)
    add_roots(parser)
    parser.add_argument(
        "--agent",
        dest="agents",
        action="append",
        default=[],
        metavar="NAME",
        help="Only this agent's sessions (claude, codex, opencode, ...; repeatable).",
    )
    parser.add_argument(
        "--since",
        type=since_time,
        default=None,
        metavar="WHEN",
        help="Only turns from then on: a date (2026-11-30, UTC), a time, or an age (3d, 12h, 2w).",
    )
    parser.add_argument(
        "--limit",
        type=positive_limit,
        default=DEFAULT_LIMIT,
        metavar="N",
        help=f"Print at most this many hits (default: {DEFAULT_LIMIT}).",
    )
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="One JSON object per hit per line."
    )
    parser.add_argument(
        "--redact",
        action="store_true",
        help="Mask keys, tokens, e-mails and home paths in what is printed (as export does).",
    )
    parser.set_defaults(handler=search_cmd)


def since_time(text: str, now: float | None = None) -> float:
    """`--since`: an age (`3d`, `12h`, `90m`, `2w`) or a date or time (UTC unless it says)."""
    from datetime import UTC, datetime

    spoken = text.strip()
    relative = _RELATIVE.fullmatch(spoken)
    if relative:
        seconds = float(relative.group(1)) * _UNITS[relative.group(2).lower()]
        return (time.time() if now is None else now) - seconds
    try:
        moment = datetime.fromisoformat(spoken.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither an age (3d, 12h, 2w) nor a date (2026-11-30)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def search_cmd(args: argparse.Namespace) -> None:
    """Find the query's hits and print them; exit with `scan`'s codes."""
    from pivotal.catalog.search_query import Filters, parse_query
    from pivotal.cli.search_output import print_hits

    query = parse_query(args.query)
    if not query.terms:
        err('nothing to search for (give words or a "phrase")')
        raise SystemExit(ExitCode.USAGE)
    codes: list[ExitCode] = []
    args.stamps = {}
    candidates, keys = _where(args, codes)
    if not candidates:
        if not codes:
            where = ", ".join(map(str, args.roots)) if args.roots else "the default locations"
            err(f"no agent sessions found (looked in {where}; --root DIR looks under another home)")
            codes.append(ExitCode.NO_SESSIONS)
        raise SystemExit(worst(codes))
    filters = Filters(agents=tuple(args.agents), since=args.since)
    hits, unlisted = _find(candidates, keys, query, filters, args.limit, args.stamps)
    if unlisted:
        from pivotal.catalog.discovery import problems_of

        for problem in problems_of(unlisted):
            err(problem.message)
            codes.append(PROBLEM_CODES.get(problem.kind, ExitCode.UNREADABLE))
    width = terminal_width(sys.stdout)
    print_hits(hits, query, as_json=args.as_json, redact=args.redact, color=_color(), width=width)
    if not hits:
        err(f"no match for {args.query!r}")
    raise SystemExit(worst(codes))


def _where(
    args: argparse.Namespace, codes: list[ExitCode]
) -> tuple[list[tuple[Path, str]], set[tuple[str, str]] | None]:
    """The files to search (with their agents) and, for PATH#KEY, the sessions to keep."""
    from pivotal.catalog.discovery import located

    if args.paths:
        from pivotal.cli.resolve import locate

        refs, problems = locate(args.paths)
        for message, code in problems:
            err(message)
            codes.append(code)
        files: dict[str, tuple[Path, str]] = {}
        for ref in refs:
            files.setdefault(os.path.abspath(ref.path), (ref.path, ref.format))
        keys = {(os.path.abspath(ref.path), ref.key or "") for ref in refs}
        return list(files.values()), keys
    roots = usable_roots(args.roots, codes)
    if args.roots and not roots:
        return [], None
    return located(roots or None, args.stamps), None


def _find(candidates, keys, query, filters, limit, stamps):  # type: ignore[no-untyped-def]
    """The hits, from the index brought up to date (or, without one, from reading everything),
    and the candidate files in which no session was found (to say why, if there is a reason).

    A damaged index is set aside and built again from the sessions, once.
    """
    from pivotal.catalog.search_index import SearchDamaged, SearchUnavailable, reset

    for attempt in (1, 2):
        try:
            return _find_indexed(candidates, keys, query, filters, limit, stamps)
        except SearchDamaged as exc:
            if attempt == 2:
                return _without_index(str(exc), candidates, keys, query, filters, limit), []
            err(str(exc))
            try:
                reset()
            except SearchUnavailable as again:
                return _without_index(str(again), candidates, keys, query, filters, limit), []
        except SearchUnavailable as exc:
            return _without_index(str(exc), candidates, keys, query, filters, limit), []
    raise AssertionError("unreachable")


def _find_indexed(candidates, keys, query, filters, limit, stamps):  # type: ignore[no-untyped-def]
    from pivotal.catalog.discovery import Progress, refresh_index, stale_for_search
    from pivotal.catalog.search_index import open_search_index
    from pivotal.catalog.search_query import search

    index = open_search_index()
    try:
        checked = Progress()
        stale = stale_for_search(index, candidates, stamps, checked)
        if checked.error is not None:
            raise checked.error
        if stale:  # read by the listing pass, which writes them (the index is reopened after)
            index.close()
            shown = StderrProgress()
            progress = Progress(shown.update)
            # every file listed: a sub-agent read again may be left to a parent that is not
            refresh_index(stale, progress=progress, warn=err, stamps=stamps, listed=candidates)
            shown.done()
            if progress.error is not None:
                raise progress.error
            index = open_search_index()
        files = {os.path.abspath(path): path for path, _ in candidates}
        wanted = index.sessions_of(files)
        listed = {p for p, _ in wanted} | index.held_files()  # sub-agents: under their parents
        unlisted = [files[p] for p in files.keys() - listed]
        inner: dict[tuple[str, str], int] = {}
        if keys is not None:
            wanted = {k: v for k, v in wanted.items() if k in keys}
            if keys - wanted.keys():  # a sub-agent named by its own PATH#KEY
                inner = index.subagents_at(keys - wanted.keys())
        every = not inner and len(wanted) == index.session_count()
        wanted.update(inner)
        filters.sessions = None if every else set(wanted.values())
        return search(index, query, filters, limit), unlisted
    finally:
        index.close()


def _without_index(reason, candidates, keys, query, filters, limit):  # type: ignore[no-untyped-def]
    from pivotal.catalog.search_scan import scan_search

    err(f"search index off: {reason}; reading every session instead (slower)")
    shown = StderrProgress()
    filters.sessions = None
    hits = scan_search(
        candidates, query, filters, limit, keys, progress=lambda d, t: shown.show(d, t, "reading")
    )
    shown.done()
    return hits


class StderrProgress:
    """How far the index update got, on stderr: a counter on a terminal, one line otherwise."""

    EVERY = 0.1
    QUIET_BELOW = 50
    """Off a terminal, an update reading fewer files than this is not worth a line."""

    def __init__(self) -> None:
        self.tty = _isatty(sys.stderr)
        self.last = 0.0
        self.said = False
        self.drawn = False

    def update(self, progress) -> None:  # type: ignore[no-untyped-def]
        if progress.reading and not progress.finished:
            self.show(progress.read, progress.reading, "indexing")

    def show(self, done: int, total: int, what: str) -> None:
        if not self.tty:
            if not self.said and total >= self.QUIET_BELOW:
                self.said = True
                err(f"{what} {total} new or changed session files for search (once)…")
            return
        now = time.monotonic()
        if now - self.last < self.EVERY and done < total:
            return
        self.last = now
        self.drawn = True
        try:
            sys.stderr.write(f"\rpivotal: {what} sessions for search {done}/{total}…\x1b[K")
            sys.stderr.flush()
        except (OSError, ValueError):
            self.tty = False

    def done(self) -> None:
        if self.drawn:
            try:
                sys.stderr.write("\r\x1b[K")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            self.drawn = False


def _isatty(stream: object) -> bool:
    try:
        return bool(stream is not None and stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def _color() -> bool:
    """Matches in colour on a terminal (as grep and ripgrep do), unless NO_COLOR is set."""
    return _isatty(sys.stdout) and not os.environ.get("NO_COLOR")
