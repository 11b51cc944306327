"""The command line: one module per command, sharing a parser, diagnostics and exit codes.

Holds `dispatch` (`main` and `run`: one command, the one-line failure
promise), `arguments` (the shared parser and options), `output` (diagnostic
lines), `resolve` (paths to sessions), `exitcodes`, and one module
per command: `replay` (replay and follow), `sessions`, `scan`, `export`,
`notes`, `stats`.

May import everything below it (model, readers, detect, live, scan, catalog,
export, text); the Textual app (`pivotal.tui`) only from `replay`, and only
once a terminal is known to be there. Nothing imports `pivotal.cli`.
"""

from pivotal.cli.dispatch import main, run

__all__ = ["main", "run"]
