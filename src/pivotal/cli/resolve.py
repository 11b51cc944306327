"""From what the person typed (a path, maybe a `--key`) to the session(s) it names.

Shared by the commands that take a SESSION or PATHS: each problem found is one
line on stderr, and when nothing is left the command exits with the documented
code for the worst problem (`pivotal.cli.exitcodes`).
"""

from __future__ import annotations

from pathlib import Path

from pivotal.cli.exitcodes import PROBLEM_CODES, ExitCode, worst
from pivotal.cli.output import err
from pivotal.model import Session, SessionRef


def find_refs(paths: list[Path]) -> tuple[list[SessionRef], ExitCode]:
    """Every session under `paths`, and the exit code their problems call for."""
    from pivotal.readers import find_sessions

    found = find_sessions(paths)
    for problem in found.problems:
        err(str(problem))
    codes = [PROBLEM_CODES.get(p.kind, ExitCode.NO_SESSIONS) for p in found.problems]
    return found.refs, worst(codes)


def one_ref(path: Path, key: str | None) -> SessionRef:
    """The single session PATH names (or `--key` picks); exits with a clear line otherwise."""
    refs, code = find_refs([path])
    if not refs:
        raise SystemExit(code or ExitCode.NO_SESSIONS)
    if key is not None:
        refs = [r for r in refs if key in (r.key, r.session_id)]
        if not refs:
            err(f"{path}: no session with key {key!r}")
            raise SystemExit(ExitCode.NO_SESSIONS)
    if len(refs) > 1:
        from pivotal.text.safe import clean

        keys = ", ".join(clean(r.key or r.path.name, max_len=60) for r in refs[:10])
        err(f"{path} holds {len(refs)} sessions; pick one with --key ({keys})")
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
