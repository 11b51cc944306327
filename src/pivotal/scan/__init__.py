"""Judging whole sessions headlessly and saying what was found.

`report` (the scan table, `--explain` and the stable JSON schema, reused by the
exports), `follow` (`scan --follow`: confirmed pivots printed as they happen),
`split` and `seam` (one big Claude Code file read and judged on two cores;
`pivotal.cores` says how many this process may use).
The `pivotal scan` command itself is `pivotal.cli.scan`.

May import the model, readers, detector, `pivotal.live` and `pivotal.text`;
never Textual, Rich or the command line.
"""
