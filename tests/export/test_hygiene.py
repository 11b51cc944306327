"""The exports, notes, resume and stats stay headless: no Textual or Rich, no network modules."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
import pivotal.cli.export, pivotal.cli.notes, pivotal.cli.stats
import pivotal.export, pivotal.export.cast, pivotal.export.html
import pivotal.export.jsonout, pivotal.export.markdown, pivotal.export.redact
import pivotal.export.ruleset
pivotal.export.ruleset.gitleaks()
import pivotal.export.scrubbed, pivotal.catalog.notes, pivotal.catalog.resume, pivotal.catalog.stats
banned = ("textual", "rich", "urllib3", "requests", "http")
bad = sorted(m for m in sys.modules if m.split(".")[0] in banned)
print(",".join(bad))
"""


def test_no_ui_or_network_imports():
    done = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
