"""`pivotal search` says which sub-agent a hit is in, after the session that ran it: on the
hit's line when piped (one line per hit), and on a terminal where the width allows (a line
of its own under the session's path when the path takes the line)."""

from __future__ import annotations

import io
import os
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from pivotal.cli import run
from pivotal.text.fit import cells
from readers import claude_subagent_home as explore

LABEL = f'› sub-agent "{explore.DESCRIPTION}" #{explore.FOUND_TURN + 1}'


class Terminal(io.StringIO):
    """Standard output as a terminal would be (its width comes from $COLUMNS)."""

    def isatty(self) -> bool:
        return True


def pivotal(*args: object, tty: bool) -> str:
    out = Terminal() if tty else io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = run([os.fspath(a) for a in args])  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


@pytest.fixture()
def path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The session's file, in `tmp_path / "home"`."""
    monkeypatch.setenv("PIVOTAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("NO_COLOR", "1")
    return explore.write_home(tmp_path / "home")


def test_piped_the_hit_names_its_subagent_after_its_session(tmp_path: Path, path: Path) -> None:
    query = ("search", "EmptyTableError", "--root", tmp_path / "home")
    lines = pivotal(*query, tty=False).splitlines()
    assert len(lines) == 2 and lines[0].split()[-1] == "SESSION"
    assert lines[1].endswith(f"  {path} {LABEL}"), lines[1]
    assert f"#{explore.TASK_TURN + 1} " in lines[1]  # the turn of the Task call that ran it


@pytest.mark.parametrize("width", [80, 200, 400])
def test_on_a_terminal_the_subagent_is_said_within_the_width(
    tmp_path: Path, path: Path, monkeypatch: pytest.MonkeyPatch, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    query = ("search", "EmptyTableError", "--root", tmp_path / "home")
    lines = pivotal(*query, tty=True).splitlines()
    assert [line for line in lines if cells(line) > width and line != f"    {path}"] == []
    if width == 400:  # room for everything in the hit's row
        assert len(lines) == 2 and lines[1].endswith(f"{path} {LABEL}")
    elif width == 200:  # the session under its row, and the sub-agent after it
        assert lines[-1] == f"    {path} {LABEL}"
    else:  # the path takes the line: the sub-agent goes under it
        assert lines[-2:] == [f"    {path}", f"    {LABEL}"]
