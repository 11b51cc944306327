"""From what the person typed (a path, maybe a `--key`) to the session(s) it names.

Shared by the commands that take a SESSION or PATHS: each problem found is one
line on stderr, and when nothing is left the command exits with the documented
code for the worst problem (`pivotal.cli.exitcodes`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pivotal.cli.exitcodes import PROBLEM_CODES, ExitCode, worst
from pivotal.cli.output import err
from pivotal.model import Session, SessionRef

if TYPE_CHECKING:
    from pivotal.readers.subagent_refs import Reaches


def split_label(path: Path) -> tuple[Path, str | None]:
    """`CONTAINER#KEY`, as `pivotal sessions` prints a session inside a database or an
    aider history, as the container and the key; any other path as itself.

    A path that exists is always itself (a file may have `#` in its name); the split
    is at the last `#` whose left side exists.
    """
    text = str(path)
    if "#" not in text or os.path.lexists(path):
        return path, None
    head, _, key = text.rpartition("#")
    if head and key and os.path.lexists(head):
        return Path(head), key
    return path, None


def _matches(ref: SessionRef, key: str) -> bool:
    return key in (ref.key, ref.session_id)


def _inner(refs: list[SessionRef], key: str) -> list[SessionRef]:
    """The session `key` names inside one of `refs`' files that their listing leaves out (a
    Claude Code 1.0 sub-agent in its session's file), as a list of one; else none."""
    from pivotal.readers import inner_ref

    for ref in refs:
        inner = inner_ref(ref, key)
        if inner is not None:
            return [inner]
    return []


def locate(
    paths: list[Path], key: str | None = None, reaches: Reaches | None = None
) -> tuple[list[SessionRef], list[tuple[str, ExitCode]]]:
    """Every session the paths name, and one (line, exit code) per path that named none.

    A path may be `CONTAINER#KEY`; `key` (the `--key` option) keeps, of each path's
    sessions, the ones with that key or session id, or names one its listing leaves out
    (a Claude Code 1.0 sub-agent's `sidechain:…`, `readers.inner_ref`). A sub-agent found
    beside the session that reaches it is left to it (`find_sessions`); what a session
    reaches is asked of `reaches`, by default the listing index, else a read of the session.
    """
    from pivotal.catalog.reach import IndexedReaches
    from pivotal.readers import find_sessions

    reaches = reaches if reaches is not None else IndexedReaches(read_missing=True)
    refs: list[SessionRef] = []
    problems: list[tuple[str, ExitCode]] = []
    for given in paths:
        path, own_key = split_label(given)
        found = find_sessions([path], reaches)
        for problem in found.problems:
            problems.append((str(problem), PROBLEM_CODES.get(problem.kind, ExitCode.NO_SESSIONS)))
        wanted = own_key or key
        picked = found.refs
        if wanted is not None:
            picked = [r for r in picked if _matches(r, wanted)] or _inner(found.refs, wanted)
            if not picked and found.refs:
                problems.append((f"{path}: no session with key {wanted!r}", ExitCode.NO_SESSIONS))
        refs.extend(picked)
    return refs, problems


def find_refs(
    paths: list[Path], key: str | None = None, reaches: Reaches | None = None
) -> tuple[list[SessionRef], ExitCode]:
    """Every session under `paths` (each line said on stderr), and the exit code they call for."""
    refs, problems = locate(paths, key, reaches)
    for message, _ in problems:
        err(message)
    return refs, worst([code for _, code in problems])


SHOWN_KEYS = 10
"""How many of a container's keys the "pick one" line names (the rest: `pivotal sessions`)."""


def one_ref(path: Path, key: str | None) -> SessionRef:
    """The single session PATH names (or `--key` picks); exits with a clear line otherwise."""
    refs, code = find_refs([path], key)
    if not refs:
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    if len(refs) > 1:
        from pivotal.text.safe import clean

        keys = ", ".join(clean(r.key or r.path.name, max_len=60) for r in refs[:SHOWN_KEYS])
        if len(refs) > SHOWN_KEYS:
            keys += f", … {len(refs) - SHOWN_KEYS} more: `pivotal sessions {clean(str(path))}`"
        err(f"{path} holds {len(refs)} sessions; pick one with --key or PATH#KEY ({keys})")
        raise SystemExit(ExitCode.USAGE)
    return refs[0]


def read_or_exit(ref: SessionRef) -> Session:
    """The whole session, or one line and ExitCode.UNREADABLE."""
    from pivotal.readers import read_errors, read_session

    try:
        return read_session(ref)
    except read_errors() as exc:
        err(f"{ref.label}: cannot read ({exc})")
        raise SystemExit(ExitCode.UNREADABLE) from None
