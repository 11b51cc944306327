"""The command line itself (argparse): dispatch, help, version, and one-line usage errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pivotal
from cli_helpers import fake_replayer, invoke
from pivotal.cli.commands import COMMANDS
from pivotal.cli.exitcodes import ExitCode
from pivotal.cli.replay import DEMO

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UGLY = FIXTURES / "claude" / "ugly.jsonl"
ALL_COMMANDS = ("replay", "follow", "sessions", "search", "scan", "export", "notes", "stats")


def assert_usage_error(result, command: str, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Exit code USAGE, nothing on stdout, and exactly one line on stderr naming the problem."""
    assert result.exit_code == ExitCode.USAGE
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"pivotal {command}: error: ")
    assert lines[0].endswith(f"(see pivotal {command} --help)")
    for word in words:
        assert word in lines[0]


def test_an_unknown_option_is_one_line_and_a_usage_error():
    assert_usage_error(invoke("scan", "--bogus", UGLY), "scan", "--bogus")


def test_an_unknown_option_before_any_command_goes_to_replay():
    assert_usage_error(invoke("--bogus"), "replay", "--bogus")


def test_scan_without_a_path_is_a_usage_error():
    assert_usage_error(invoke("scan"), "scan", "required", "PATH")
    assert_usage_error(invoke("scan", "--json"), "scan", "required", "PATH")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["scan", "--sensitivity", "max", str(UGLY)], ["'max'", "low", "normal", "high"]),
        (["replay", "--at", "three", str(UGLY)], ["--at", "'three'"]),
        (["replay", "--speed", "fast", str(UGLY)], ["--speed", "'fast'"]),
        (["replay", "--idle-limit", "0", str(UGLY)], ["--idle-limit", "more than 0"]),
        (["replay", "--idle-limit", "soon", str(UGLY)], ["--idle-limit", "'soon'"]),
        (["export", str(UGLY), "--to", "pdf"], ["--to", "'pdf'", "cast"]),
        (["stats", "--jobs", "0", str(UGLY)], ["--jobs", "'0'", "1 to 64"]),
        (["stats", "-j", "65", str(UGLY)], ["--jobs", "'65'", "1 to 64"]),
        (["stats", "--jobs", "many", str(UGLY)], ["--jobs", "'many'"]),
        (["sessions", "--limit", "ten"], ["--limit", "'ten'"]),
    ],
)
def test_bad_values_are_one_line_usage_errors(args, words):
    assert_usage_error(invoke(*args), args[0], *words)


def test_long_options_must_be_spelled_out():
    """argparse would take `--exp` for `--explain`; click never did, and neither does pivotal."""
    assert_usage_error(invoke("scan", "--exp", UGLY), "scan", "--exp")


def test_hostile_text_in_an_argument_is_not_echoed_raw():
    result = invoke("scan", "--\x1b]0;pwned\x07", UGLY)
    assert result.exit_code == ExitCode.USAGE
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_version():
    result = invoke("--version")
    assert (result.exit_code, result.stdout, result.stderr) == (
        0,
        f"pivotal {pivotal.__version__}\n",
        "",
    )


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_top_help_lists_every_command(flag):
    result = invoke(flag)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("usage: pivotal ")
    listed = [
        line.split()[0]
        for line in result.stdout.splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert [name for name in listed if name in COMMANDS] == list(ALL_COMMANDS)
    assert "--version" in result.stdout


@pytest.mark.parametrize("command", ALL_COMMANDS)
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_each_command_has_its_own_help(command, flag):
    result = invoke(command, flag)
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(f"usage: pivotal {command} ")


def test_scan_help_shows_its_options_and_defaults():
    out = invoke("scan", "--help").stdout
    for option in ("--json", "--explain", "--sensitivity", "--follow", "PATH"):
        assert option in out
    assert "(default: normal)" in out


def test_options_may_follow_the_paths():
    result = invoke("scan", UGLY, "--json")
    assert result.exit_code == 0
    assert result.stdout.startswith("{") and '"turns":15' in result.stdout


def test_a_bare_path_means_replay(monkeypatch):
    """`pivotal PATH` is `pivotal replay PATH`: with stdout not a terminal, the replayer says so."""
    monkeypatch.delenv("PIVOTAL_FORCE_TUI", raising=False)
    result = invoke(UGLY)
    assert result.exit_code == ExitCode.USAGE
    assert result.stdout == ""
    assert result.stderr == (
        "pivotal: the replayer needs a terminal; use `pivotal scan` for text output\n"
    )


def test_a_bare_path_and_replay_options_reach_the_replayer(monkeypatch):
    seen = fake_replayer(monkeypatch)
    result = invoke(UGLY, "--at", "3", "--speed", "2.5", "--no-autopause")
    assert result.exit_code == 0, result.output
    assert seen["ref"].path == UGLY  # type: ignore[union-attr]
    assert (seen["at"], seen["speed"], seen["autopause"], seen["demo"]) == (3, 2.5, False, False)


def test_no_arguments_opens_the_picker_or_the_demo(monkeypatch, tmp_path):
    """`pivotal` alone: replay with no PATH; with no sessions anywhere, the bundled demo."""
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_DATA_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    seen = fake_replayer(monkeypatch, code=7)
    result = invoke()
    assert result.exit_code == 7  # the replayer's own code is the process's
    assert seen["demo"] is True and seen["ref"].path == DEMO  # type: ignore[union-attr]
    assert seen["refs"] == []


def test_a_folder_of_sessions_opens_the_picker_newest_change_first(monkeypatch, tmp_path):
    # written oldest first and named against their order, so neither name nor write order wins
    for name, age in (("a.jsonl", 300), ("c.jsonl", 100), ("b.jsonl", 200)):
        path = tmp_path / name
        path.write_bytes(UGLY.read_bytes())
        os.utime(path, (1_700_000_000 - age, 1_700_000_000 - age))
    seen = fake_replayer(monkeypatch)
    result = invoke(tmp_path)
    assert result.exit_code == 0, result.output
    assert seen["ref"] is None
    assert [ref.path.name for ref in seen["refs"]] == ["c.jsonl", "b.jsonl", "a.jsonl"]  # type: ignore[union-attr]


def test_an_unexpected_exception_is_one_line_and_internal(monkeypatch):
    from pivotal.cli import scan as scan_command

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the detector fell over")

    monkeypatch.setattr(scan_command, "run_scan", broken)
    result = invoke("scan", UGLY, debug=False)
    assert result.exit_code == ExitCode.INTERNAL
    assert result.stderr == (
        "pivotal: internal error: RuntimeError: the detector fell over"
        " (set PIVOTAL_DEBUG=1 for details)\n"
    )
    with pytest.raises(RuntimeError):  # PIVOTAL_DEBUG=1: the traceback is there to be seen
        invoke("scan", UGLY, debug=True)


def test_ctrl_c_is_exit_130(monkeypatch):
    from pivotal.cli import scan as scan_command

    def interrupted(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(scan_command, "run_scan", interrupted)
    assert invoke("scan", UGLY).exit_code == ExitCode.INTERRUPTED == 130


CHECK_IMPORTS = """
import sys
from pivotal.cli.commands import command_parser, top_help
top_help()
command_parser("scan").parse_intermixed_args(["x.jsonl", "--json"])
before = "pivotal.cli.stats" in sys.modules
command_parser("stats")
print(before, "pivotal.cli.stats" in sys.modules)
"""


def test_parsing_a_scan_does_not_load_the_other_commands():
    done = subprocess.run(
        [sys.executable, "-c", CHECK_IMPORTS], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]


def test_a_word_that_is_neither_a_command_nor_a_path_says_so(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    result = invoke("bogus-cmd")
    assert result.exit_code == ExitCode.NOT_FOUND and result.stdout == ""
    assert result.stderr.splitlines() == [
        "pivotal: bogus-cmd: unknown command or path (commands: " + ", ".join(COMMANDS) + ")"
    ]
    (tmp_path / "bogus-cmd").mkdir()  # a folder of that name is a path: the replayer's
    assert "unknown command" not in invoke("bogus-cmd").stderr


def test_real_time_pacing_options_reach_the_replayer(monkeypatch):
    seen = fake_replayer(monkeypatch)
    result = invoke(UGLY, "--speed", "3", "--real-time", "--idle-limit", "7.5")
    assert result.exit_code == 0, result.output
    assert (seen["speed"], seen["realtime"], seen["idle_limit"]) == (3.0, True, 7.5)
    seen = fake_replayer(monkeypatch)
    assert invoke(UGLY).exit_code == 0
    assert (seen["speed"], seen["realtime"], seen["idle_limit"]) == (1.0, False, 2.0)
