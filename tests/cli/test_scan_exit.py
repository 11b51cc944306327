"""`pivotal scan` ends its process at once (no shutdown walk) without losing output or codes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from pivotal.cli.scan_batch import run_scan

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
UGLY = FIXTURES / "claude" / "ugly.jsonl"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"


def _pivotal(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pivotal", *args], capture_output=True, text=True, timeout=120
    )


def test_piped_output_is_complete_and_the_code_is_kept():
    paths = [UGLY, *sorted((SAMPLES / "claude").glob("*.jsonl"))[:3]]
    expected = io.StringIO()
    code = run_scan(list(paths), as_json=True, out=expected)
    done = _pivotal("scan", "--json", *map(str, paths))
    assert done.returncode == code == 0
    assert done.stdout == expected.getvalue()
    assert done.stdout.count("\n") == len(paths)


def test_errors_reach_stderr_with_their_exit_code(tmp_path):
    done = _pivotal("scan", str(UGLY), str(tmp_path / "nowhere.jsonl"))
    assert done.returncode == 4
    assert "nowhere.jsonl" in done.stderr
    assert "ugly.jsonl" in done.stdout


def test_output_cut_short_by_the_reader_is_not_an_error():
    """`pivotal scan … | head -1`: the closed pipe is not reported as a failure."""
    paths = sorted((SAMPLES / "claude").glob("*.jsonl"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "pivotal", "scan", *map(str, paths)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "Exception ignored" not in err


def test_scan_collects_once_between_sessions_and_restores_the_collector(monkeypatch):
    import gc

    from pivotal.cli import scan_batch

    calls: list[bool] = []
    monkeypatch.setattr(scan_batch.gc, "collect", lambda: calls.append(gc.isenabled()) or 0)
    paths = sorted((SAMPLES / "claude").glob("*.jsonl"))[:3]
    run_scan(list(paths), as_json=True, out=io.StringIO())
    assert calls == [False, False]  # between sessions 1-2 and 2-3, with the collector off
    assert gc.isenabled()


def test_scan_called_in_process_leaves_the_collector_on():
    """Only the console entry, whose process ends, keeps the collector off after a scan."""
    import gc

    from cli_helpers import invoke

    result = invoke("scan", "--json", UGLY)
    assert result.exit_code == 0 and '"pivots"' in result.stdout
    assert gc.isenabled()
