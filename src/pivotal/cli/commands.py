"""The table of commands: each one's summary, the module that holds it, its parser, `--help`.

Parsing is the standard library's argparse (click cost a `pivotal scan`
~9 ms). Only the command being run is imported and gets a parser, so
`sessions` and `scan` never load Textual or the exporters, and `pivotal
--help` lists every command without importing any of them.
"""

from __future__ import annotations

import importlib

from pivotal.cli.arguments import Parser

# Every command: its one-line summary (in the order `pivotal --help` lists them), the
# module that holds it and that module's function giving the parser its arguments.
COMMANDS = {
    "replay": "Open the replayer on PATH, or pick a session (the default command).",
    "follow": "Replay a session and keep following it live.",
    "sessions": "List the sessions found in each agent's default location, newest first.",
    "search": "Search the text of every session, best hits first.",
    "scan": "Print the silent pivots of each session in PATHS.",
    "export": "Export a session with its pivots (Markdown, HTML, JSON, asciicast).",
    "notes": "List your marks and notes.",
    "stats": "Pivot patterns across sessions.",
}
_HOMES = {
    "replay": ("pivotal.cli.replay", "configure"),
    "follow": ("pivotal.cli.replay", "configure_follow"),
    "sessions": ("pivotal.cli.sessions", "configure"),
    "search": ("pivotal.cli.search", "configure"),
    "scan": ("pivotal.cli.scan", "configure"),
    "export": ("pivotal.cli.export", "configure"),
    "notes": ("pivotal.cli.notes", "configure"),
    "stats": ("pivotal.cli.stats", "configure"),
}
HELP_OPTIONS = ("-h", "--help")


def command_parser(name: str) -> Parser:
    """The parser of one command, with its handler as the `handler` default."""
    parser = Parser(prog=f"pivotal {name}", description=COMMANDS[name])
    module_name, configure = _HOMES[name]
    getattr(importlib.import_module(module_name), configure)(parser)
    return parser


def top_help() -> str:
    """`pivotal --help`: what pivotal does and every command, without building their parsers."""
    width = max(map(len, COMMANDS)) + 2
    listing = "\n".join(f"  {name:<{width}}{summary}" for name, summary in COMMANDS.items())
    parser = Parser(
        prog="pivotal",
        usage="pivotal [-h] [--version] [COMMAND] [ARGS ...]",
        description=(
            "Replay AI coding-agent sessions and stop at the silent pivots.\n\n"
            "A silent pivot is a moment where you said next to nothing (an empty message,\n"
            "'ok', 'continue', '.') or the context was compacted, and the agent went on\n"
            "with a plan of its own: after a dead end, after a milestone, or taking your\n"
            "silence as a yes. The replayer pauses there and says why.\n\n"
            "With no command, `pivotal [PATH]` opens the replayer (`pivotal replay [PATH]`)."
        ),
        epilog=f"commands:\n{listing}\n\nRun `pivotal COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="store_true", help="show the version and exit")
    return parser.format_help()
