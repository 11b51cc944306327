"""`pivotal sessions`: the sessions in each agent's default location, as a table or JSON lines.

Finding them is `pivotal.catalog.discovery` (with its index of counts); this
module takes the arguments and prints the listing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TextIO

import msgspec

from pivotal.cli.arguments import add_roots
from pivotal.cli.output import err
from pivotal.model import SessionRef
from pivotal.scan.report import iso
from pivotal.text.safe import clean, clean_line, json_inert


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "List the sessions found in each agent's default location, newest first.\n\n"
        "Turn and pivot counts come from reading each session once; they are kept in\n"
        "a small index in the cache folder ($PIVOTAL_CACHE_DIR, $XDG_CACHE_HOME/pivotal\n"
        "or ~/.cache/pivotal), so later listings only read new or changed files."
    )
    add_roots(parser, "Look")
    parser.add_argument(
        "--json", dest="as_json", action="store_true", help="One JSON object per session per line."
    )
    parser.add_argument(
        "--limit", type=_limit, default=None, metavar="N", help="Show at most this many."
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="Read every session afresh; do not use or update the session index.",
    )
    parser.set_defaults(handler=sessions)


def _limit(text: str) -> int:
    """`--limit`: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 0 or more")
    return value


def sessions(args: argparse.Namespace) -> None:
    """`pivotal sessions`: the discovered sessions as a table or JSON lines.

    Exit codes as `scan`'s: 4 when a `--root` does not exist, 3 when nothing is found,
    5 when a session store found there cannot be read (the rest is still listed).
    """
    from pivotal.catalog.discovery import discover_sessions, listing_problems
    from pivotal.cli.exitcodes import PROBLEM_CODES, ExitCode, worst

    codes: list[ExitCode] = []
    roots = []
    for root in args.roots:
        if os.path.isdir(root):
            roots.append(root)
        else:
            exists = os.path.lexists(root)
            err(f"{root}: {'not a folder' if exists else 'no such file or directory'}")
            codes.append(ExitCode.NO_SESSIONS if exists else ExitCode.NOT_FOUND)
    if args.roots and not roots:
        raise SystemExit(worst(codes))
    refs = discover_sessions(roots or None, use_cache=not args.no_cache)
    problems = listing_problems(roots or None, refs)
    for problem in problems:
        err(problem.message)
        codes.append(PROBLEM_CODES.get(problem.kind, ExitCode.UNREADABLE))
    found = len(refs) + len(problems)  # a store that cannot be read is not "nothing found"
    if args.limit is not None:
        refs = refs[: args.limit]
    print_sessions(refs, as_json=args.as_json)
    if not found:
        where = ", ".join(map(str, roots)) if roots else "the default locations"
        hint = "" if roots else "; --root DIR looks under another home folder"
        err(f"no agent sessions found (looked in {where}{hint})")
        codes.append(ExitCode.NO_SESSIONS)
    raise SystemExit(worst(codes))


def _age(timestamp: float | None, now: float) -> str:
    if timestamp is None:
        return "-"
    seconds = max(0, int(now - timestamp))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{seconds}s ago"


def _count(value: int | None) -> str:
    return str(value) if value is not None else "-"


def _size(size: int | None) -> str:
    if size is None:
        return "-"
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024  # type: ignore[assignment]
    return "-"


def ref_json(ref: SessionRef) -> dict[str, object]:
    return {
        "agent": ref.format,
        "path": clean(str(ref.path)),
        "key": clean(ref.key) if ref.key else None,
        "session_id": clean(ref.session_id) if ref.session_id else None,
        "title": clean(ref.title) if ref.title else None,
        "cwd": clean(ref.cwd) if ref.cwd else None,
        "started": iso(ref.started),
        "updated": iso(ref.updated),
        "turns": ref.turns,
        "human_turns": ref.human_turns,
        "pivots": ref.pivots,
        "size": ref.size,
    }


def print_sessions(refs: list[SessionRef], *, as_json: bool, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    if as_json:
        encode = msgspec.json.encode
        for ref in refs:
            out.write(json_inert(encode(ref_json(ref)).decode()) + "\n")
        return
    if not refs:
        return
    now = time.time()
    rows = [("AGENT", "PROJECT", "STARTED", "CHANGED", "TURNS", "PIVOTS", "SIZE", "PATH")]
    for ref in refs:
        rows.append(
            (
                ref.format,
                clean_line(ref.cwd or ref.title or "-", max_len=40),
                _age(ref.started, now),
                _age(ref.updated, now),
                _count(ref.turns),
                _count(ref.pivots),
                _size(ref.size),
                clean_line(ref.label),
            )
        )
    last = len(rows[0]) - 1
    widths = [max(len(r[i]) for r in rows) for i in range(last)]
    for row in rows:
        out.write("  ".join(row[i].ljust(widths[i]) for i in range(last)) + "  " + row[last] + "\n")
