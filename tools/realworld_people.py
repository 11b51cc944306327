"""How real sessions read: files, turns and the person's turns, per agent.

    .venv/bin/python tools/realworld_people.py [FOLDER] [--show]

FOLDER holds one sub-folder per agent (default `../shared/realworld`). Every file in it
is found and read the way `pivotal scan PATH` does; a file pivotal cannot use is counted
as a problem (with its one line under --show). A person's turn that still holds text the
agent's harness wrote (a system reminder, an IDE note, a command wrapper, a task
notification: `HARNESS_TAGS`) is counted as "not as typed" (--show prints each one's
start). Read-only: run it against any checkout's .venv to compare two versions.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from pivotal.readers import find_sessions, read_session

HARNESS_TAGS = re.compile(
    r"<(system-reminder|ide_opened_file|ide_selection|task-notification|command-name"
    r"|command-message|local-command-stdout|local-command-caveat|user_query|environment_context"
    r"|user_instructions|state_snapshot)>"
)
"""Tags only a harness writes into a user message: in a person's turn, it was not typed."""
DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "realworld"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--show", action="store_true", help="print each problem and turn")
    args = parser.parse_args(argv)
    rows = []
    for agent in sorted(p for p in args.folder.iterdir() if p.is_dir()):
        tally: Counter[str] = Counter()
        for path in sorted(p for p in agent.iterdir() if p.is_file()):
            tally["files"] += 1
            found = find_sessions([path])
            tally["problems"] += len(found.problems)
            for problem in found.problems:
                if args.show:
                    print(f"  problem: {problem}")
            for ref in found.refs:
                session = read_session(ref)
                tally["sessions"] += 1
                tally["turns"] += len(session.turns)
                tally["skipped"] += len(session.skipped)
                for turn in session.turns:
                    if not turn.is_human:
                        continue
                    tally["person"] += 1
                    if HARNESS_TAGS.search(turn.text):
                        tally["not as typed"] += 1
                        if args.show:
                            start = turn.text[:90].replace("\n", " ")
                            print(f"  not as typed: {path.name} #{turn.index + 1}: {start}")
        rows.append((agent.name, tally))
    columns = ("files", "problems", "sessions", "turns", "person", "not as typed", "skipped")
    print(f"{'agent':12}" + "".join(f"{c:>14}" for c in columns))
    for name, tally in rows:
        print(f"{name:12}" + "".join(f"{tally[c]:>14}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
