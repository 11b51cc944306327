"""Write `src/pivotal/export/rules/literals.txt`: the literals the redaction rules are anchored at.

    python tools/redaction_literals.py

Redaction looks for its rules' literals together with their keywords (`redact._words`);
reading them means parsing every rule's pattern, which took 30 ms of each redacted
export's start. They are read from this file instead, written from the rules here (ours
in `redact.OWN_RULES`, gitleaks' in `rules/gitleaks.toml`). Run it after either changes:
`tests/export/test_anchor.py` fails until it is run. (A stale file costs speed, never a
finding: a literal it lacks is looked for in each text its rule is tried on.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pivotal.export.redact import LITERALS, literal_words  # noqa: E402

HEADER = (
    "# The literals redaction's rules are anchored at (pivotal.export.redact.literal_words),\n"
    "# one a line. Written by tools/redaction_literals.py: run it when the rules change.\n"
)


def main() -> None:
    words = sorted(literal_words())
    LITERALS.write_text(HEADER + "".join(f"{w}\n" for w in words), encoding="utf-8")
    print(f"{LITERALS}: {len(words)} literals")


if __name__ == "__main__":
    main()
