"""The command line: one module per command, sharing a parser, diagnostics and exit codes.

Holds `dispatch` (`main` and `run`: one command, the one-line failure
promise), `commands` (the table of commands, their parsers, `--help`),
`arguments` (the shared parser and options), `output` (diagnostic lines),
`outfile` (where `export -o PATH` writes), `resolve` (paths to sessions),
`exitcodes`, and one module per command: `replay` (replay and follow),
`sessions` (+ `listing`, its table and JSON lines), `scan` (+ `scan_batch`,
a scan once over every PATH), `export`, `notes`, `stats`.

May import everything below it (model, readers, detect, live, scan, catalog,
export, text); the Textual app (`pivotal.tui`) only from `replay`, and only
once a terminal is known to be there. Nothing imports `pivotal.cli`.
"""

from pivotal.cli.dispatch import main, run

__all__ = ["main", "run"]
