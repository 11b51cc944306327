"""`pivotal sessions`: the sessions in each agent's default location, as a table or JSON lines.

Finding them is `pivotal.catalog.discovery` (with its index of counts), the
table and JSON lines `pivotal.cli.listing`; this module takes the arguments,
checks the roots and says what was found or not (exit codes).
"""

from __future__ import annotations

import argparse
import sys

from pivotal.cli.arguments import add_roots, positive_limit, usable_roots
from pivotal.cli.listing import print_sessions
from pivotal.cli.output import err, terminal_width
from pivotal.model import SessionRef


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
        "--limit", type=positive_limit, default=None, metavar="N", help="Show at most this many."
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="Read every session afresh; do not use or update the session index.",
    )
    parser.set_defaults(handler=sessions)


def sessions(args: argparse.Namespace) -> None:
    """`pivotal sessions`: the discovered sessions as a table or JSON lines.

    Exit codes as `scan`'s: 4 when a `--root` does not exist, 3 when nothing is found,
    5 when a session store found there cannot be read (the rest is still listed).
    """
    from pivotal.catalog.discovery import discover_sessions, listing_problems
    from pivotal.cli.exitcodes import PROBLEM_CODES, ExitCode, worst

    codes: list[ExitCode] = []
    roots = usable_roots(args.roots, codes)
    if args.roots and not roots:
        raise SystemExit(worst(codes))
    held: list[SessionRef] = []  # sub-agents listed through their parents: no problem
    refs = discover_sessions(roots or None, use_cache=not args.no_cache, held=held)
    problems = listing_problems(roots or None, refs + held)
    for problem in problems:
        err(problem.message)
        codes.append(PROBLEM_CODES.get(problem.kind, ExitCode.UNREADABLE))
    found = len(refs) + len(problems)  # a store that cannot be read is not "nothing found"
    if args.limit is not None:
        refs = refs[: args.limit]
    print_sessions(refs, as_json=args.as_json, width=terminal_width(sys.stdout))
    if not found:
        where = ", ".join(map(str, roots)) if roots else "the default locations"
        hint = "" if roots else "; --root DIR looks under another home folder"
        err(f"no agent sessions found (looked in {where}{hint})")
        codes.append(ExitCode.NO_SESSIONS)
    raise SystemExit(worst(codes))
