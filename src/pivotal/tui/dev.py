"""Developer entry: `python -m pivotal.tui.dev PATH [TURN]` opens the replayer without the CLI."""

from __future__ import annotations

import sys
from pathlib import Path

from pivotal.readers import find_sessions
from pivotal.tui import run_replayer


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m pivotal.tui.dev PATH [TURN]", file=sys.stderr)
        return 2
    found = find_sessions([Path(argv[0])])
    for problem in found.problems:
        print(problem, file=sys.stderr)
    if not found.refs:
        return 1
    at = int(argv[1]) if len(argv) > 1 else None
    ref = found.refs[0] if len(found.refs) == 1 else None
    return run_replayer(ref, refs=found.refs, at=at)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
