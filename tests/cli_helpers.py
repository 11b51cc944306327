"""Run the `pivotal` command in this process and capture what it prints.

`pivotal.cli.run` is the entry `main()` wraps: same parsing, same exit codes,
but the process is never ended. stdout and stderr are captured apart, as the
CLI keeps data and diagnostics apart. An unexpected exception is raised into
the test (PIVOTAL_DEBUG=1) instead of becoming an "internal error" line.
"""

from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pivotal.cli import run

if TYPE_CHECKING:
    import pytest


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """Everything printed, data first (for assertion messages)."""
        return self.stdout + self.stderr


def invoke(*args: str | os.PathLike[str], debug: bool = True) -> Result:
    """`pivotal ARGS…` in-process; `debug=False` keeps the one-line internal-error path."""
    out, err = io.StringIO(), io.StringIO()
    saved = os.environ.get("PIVOTAL_DEBUG")
    if debug:
        os.environ["PIVOTAL_DEBUG"] = "1"
    else:
        os.environ.pop("PIVOTAL_DEBUG", None)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = run([os.fspath(a) for a in args])
    finally:
        if saved is None:
            os.environ.pop("PIVOTAL_DEBUG", None)
        else:
            os.environ["PIVOTAL_DEBUG"] = saved
    return Result(code, out.getvalue(), err.getvalue())


def fake_replayer(monkeypatch: pytest.MonkeyPatch, code: int = 0) -> dict[str, object]:
    """Stand in for the Textual app: returns what `pivotal` opens it with (`ref` and options)."""
    import pivotal.tui

    seen: dict[str, object] = {}

    def run_replayer(ref, **kwargs):  # type: ignore[no-untyped-def]
        seen.update(kwargs, ref=ref)
        return code

    monkeypatch.setattr(pivotal.tui, "run_replayer", run_replayer)
    monkeypatch.setenv("PIVOTAL_FORCE_TUI", "1")
    return seen
