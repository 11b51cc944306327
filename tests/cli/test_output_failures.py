"""When the output cannot be written: one line and exit 5, never "internal error" (issue 18.13).

A full disk (`> /dev/full`) or a closed stdout (`>&-`) is the destination's
failure, not a bug in pivotal: exit 5 with `cannot write to standard output (…)`.
A closed stderr (`2>&-`) never sends diagnostics into stdout, which carries data
only; the exit code still tells. A reader that goes away (`| head`) is a normal end.
The replayer's crash code (1) is the process's, with one line saying so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import fake_replayer, invoke
from pivotal.cli.exitcodes import ExitCode

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "sample_sessions" / "claude" / "demo.jsonl"
FULL = "/dev/full"
COMMANDS = [
    ("scan", str(DEMO)),
    ("scan", "--json", str(DEMO)),
    ("scan", "--explain", str(DEMO)),
    ("export", str(DEMO), "--no-notes"),
    ("export", str(DEMO), "--to", "json", "--no-notes"),
    ("stats", str(DEMO)),
    ("sessions", "--root", "{home}"),
    ("--help",),
]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A home folder with one Claude Code session, for `sessions --root`."""
    root = tmp_path_factory.mktemp("home")
    project = root / ".claude" / "projects" / "-work-app"
    project.mkdir(parents=True)
    (project / DEMO.name).write_bytes(DEMO.read_bytes())
    return str(root)


def _shell(
    args: tuple[str, ...], redirect: str, home: str = ""
) -> subprocess.CompletedProcess[bytes]:
    args = tuple(a.replace("{home}", home) for a in args)
    quoted = " ".join(f"'{a}'" for a in (sys.executable, "-m", "pivotal", *args))
    return subprocess.run(
        ["/bin/sh", "-c", f"{quoted} {redirect}"], capture_output=True, timeout=120, check=False
    )


@pytest.mark.skipif(not os.path.exists(FULL), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_full_stdout_is_exit_5_with_one_line(args: tuple[str, ...], home: str) -> None:
    proc = _shell(args, f"> {FULL}", home)
    err = proc.stderr.decode()
    assert proc.returncode == ExitCode.UNREADABLE, err
    assert (
        err.splitlines()[-1] == "pivotal: cannot write to standard output (No space left on device)"
    )
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_a_closed_stdout_is_exit_5_with_one_line(args: tuple[str, ...], home: str) -> None:
    proc = _shell(args, ">&-", home)
    err = proc.stderr.decode()
    assert proc.returncode == ExitCode.UNREADABLE, err
    assert err.splitlines()[-1] == "pivotal: cannot write to standard output (it is closed)"
    assert "internal error" not in err and "Traceback" not in err and "Exception" not in err


def test_a_closed_stderr_keeps_diagnostics_out_of_stdout(tmp_path: Path) -> None:
    missing = tmp_path / "gone.jsonl"
    proc = _shell(("scan", str(missing), str(DEMO)), "2>&-")
    assert proc.returncode == ExitCode.NOT_FOUND
    out = proc.stdout.decode()
    assert "no such file" not in out and "pivotal:" not in out
    assert out.startswith(str(DEMO))  # the good path is still printed


def test_a_reader_that_goes_away_is_a_normal_end() -> None:
    proc = _shell(("scan", str(DEMO), str(DEMO), str(DEMO)), "| head -c 10")
    assert proc.returncode == 0 and proc.stderr == b""


def test_a_replayer_crash_is_exit_1_with_one_line(monkeypatch) -> None:
    fake_replayer(monkeypatch, code=1)
    result = invoke(str(DEMO))
    assert result.exit_code == ExitCode.INTERNAL
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("pivotal: internal error: the replayer stopped")


def test_a_normal_quit_prints_nothing(monkeypatch) -> None:
    fake_replayer(monkeypatch, code=0)
    result = invoke(str(DEMO))
    assert (result.exit_code, result.stderr) == (0, "")
