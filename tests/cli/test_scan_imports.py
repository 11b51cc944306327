"""`pivotal scan` loads only what a scan needs: its start-up cost is paid on every run.

Behaviour, not timing: a fresh interpreter runs the real entry point
(`pivotal.cli:main`, what the console script and `python -m pivotal` call) and
reports which modules it ended up with.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pivotal.model import SessionRef
from pivotal.readers import _MODULES, format_names, spec_for

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
UGLY = FIXTURES / "claude" / "ugly.jsonl"
REAL = FIXTURES / "realclients"

RUN_MAIN = """
import io, json, sys
sys.argv = ["pivotal", *json.loads(sys.argv[1])]
out, sys.stdout = sys.stdout, io.StringIO()
import pivotal.cli.dispatch
from pivotal.cli import main
pivotal.cli.dispatch.exit_now = sys.exit  # report here instead of ending the process at once
code = 0  # what the process would exit with when main() returns
try:
    main()
except SystemExit as exc:
    code = exc.code
printed, sys.stdout = sys.stdout.getvalue(), out
print(json.dumps({"code": code, "out": printed, "modules": sorted(sys.modules)}))
"""

# Nothing a scan of a Claude Code file uses: the UI, the other commands' code,
# database and temp-file machinery, and the readers of the other formats.
NOT_FOR_SCAN = (
    "textual",
    "rich",
    "sqlite3",
    "tempfile",
    "shutil",
    # the model is msgspec Structs: defining dataclasses would cost every scan ~5 ms
    "dataclasses",
    # optional for msgspec, ~7 ms of imports (`pivotal/__init__.py` keeps it out)
    "typing_extensions",
    "inspect",
    "pivotal.cli.export",
    "pivotal.cli.notes",
    "pivotal.cli.stats",
    "pivotal.cli.replay",
    "pivotal.text.sgr",
    "pivotal.export",
    "pivotal.catalog.notes",
    "pivotal.catalog.stats",
    "pivotal.catalog.discovery",
    "pivotal.catalog.index",
    "pivotal.tui",
    "pivotal.readers.codex",
    "pivotal.readers.gemini",
    "pivotal.readers.opencode",
    "pivotal.readers.opencode_db",
    "pivotal.readers.aider",
    "pivotal.readers.generic",
)


def run_main(*args: str) -> dict:  # type: ignore[type-arg]
    done = subprocess.run(
        [sys.executable, "-c", RUN_MAIN, json.dumps(list(args))],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def loaded(modules: list[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_scan_of_a_claude_file_imports_nothing_it_does_not_use():
    result = run_main("scan", "--json", str(UGLY))
    assert result["code"] == 0
    assert json.loads(result["out"])["turns"] == 15  # the scan really ran
    modules = result["modules"]
    assert "pivotal.readers.claude_code" in modules and "pivotal.detect.tracker" in modules
    assert [name for name in NOT_FOR_SCAN if loaded(modules, name)] == []


def test_scan_of_an_opencode_database_loads_its_reader_when_it_gets_there():
    db = next(REAL.glob("opencode-short/**/opencode.db"))
    result = run_main("scan", "--json", str(db))
    assert result["code"] == 0
    assert json.loads(result["out"].splitlines()[0])["format"] == "opencode"
    modules = result["modules"]
    assert "pivotal.readers.opencode_db" in modules and "sqlite3" in modules
    assert not loaded(modules, "pivotal.readers.aider")  # after opencode in the sniff order
    assert not loaded(modules, "pivotal.readers.generic")


def test_the_other_commands_are_still_there_when_asked_for():
    help_text = run_main("--help")
    assert help_text["code"] == 0
    for name in ("export", "notes", "stats", "scan", "sessions", "replay", "follow"):
        assert f"  {name} " in help_text["out"]
    export_help = run_main("export", "--help")
    assert export_help["code"] == 0 and "asciicast" in export_help["out"]


def test_the_registry_table_names_each_module_by_its_format():
    assert [name for name, _module in _MODULES] == format_names()
    for name, module in _MODULES:
        assert spec_for(name).name == name
        assert sys.modules[module].SPEC is spec_for(name)


def test_a_database_error_from_a_reader_is_one_line_not_a_crash(monkeypatch, capsys):
    import sqlite3

    from pivotal.cli import scan_batch

    def locked(ref: SessionRef) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(scan_batch, "read_session", locked)
    ref = SessionRef(format="opencode", path=Path("/x/opencode.db"), key="ses_1")
    assert scan_batch._read(ref) is None
    assert (
        capsys.readouterr().err
        == "pivotal: /x/opencode.db#ses_1: cannot read (database is locked)\n"
    )


def test_read_errors_names_sqlite3_only_once_something_loaded_it():
    code = (
        "import sys\n"
        "from pivotal.readers import read_errors\n"
        "print(read_errors() == (OSError,), 'sqlite3' in sys.modules)\n"
        "import sqlite3\n"
        "print(read_errors() == (OSError, sqlite3.Error))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False", "True"]


SCAN_ALL = """
import json, sys
if sys.argv[1] == "with":
    import typing_extensions  # what msgspec uses when it is loaded before pivotal
import pivotal.cli.dispatch
from pivotal.cli import main
pivotal.cli.dispatch.exit_now = sys.exit  # carry on here instead of ending the process
sys.argv = ["pivotal", "scan", "--json", "--explain", *sys.argv[2:]]
try:
    main()
except SystemExit:
    pass
import msgspec._utils
print(json.dumps(msgspec._utils._get_type_hints.__module__))
import textual.app  # the replayer's imports still find typing_extensions
"""


def test_msgspec_reads_every_format_alike_with_or_without_typing_extensions():
    # every format's structs decoded both ways: the same sessions, turns and pivots
    paths = [str(ROOT / "sample_sessions"), str(REAL)]
    outputs = {}
    for mode in ("with", "without"):
        done = subprocess.run(
            [sys.executable, "-c", SCAN_ALL, mode, *paths],
            capture_output=True,
            text=True,
            check=True,
        )
        *lines, hints_from = done.stdout.splitlines()
        outputs[mode] = (lines, json.loads(hints_from))
    with_lines, with_hints = outputs["with"]
    without_lines, without_hints = outputs["without"]
    assert (with_hints, without_hints) == ("typing_extensions", "typing")
    assert len(with_lines) > 100 and with_lines == without_lines
    formats = {json.loads(line)["format"] for line in with_lines}
    assert len(formats) >= 10
