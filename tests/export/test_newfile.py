"""`write_new`: the replayer's export writes only a name that is free, and whole or not at all."""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from pivotal.export import newfile
from pivotal.export.newfile import write_new


def test_writes_the_chunks_and_leaves_nothing_else(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    write_new(target, ["# a\n", "b\n"])
    assert target.read_text(encoding="utf-8") == "# a\nb\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]
    assert target.stat().st_mode & 0o777 == 0o600


def test_an_existing_file_is_refused_and_kept(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("yesterday's report", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_new(target, ["new"])
    assert target.read_text(encoding="utf-8") == "yesterday's report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_a_dangling_link_is_a_name_taken(tmp_path: Path) -> None:
    link = tmp_path / "out.html"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        write_new(link, ["x"])
    assert not (tmp_path / "nowhere").exists()


def test_a_name_taken_while_writing_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "out.json"

    def chunks() -> Iterator[str]:
        yield "{"
        target.write_text("someone else's", encoding="utf-8")  # taken meanwhile
        yield "}"

    with pytest.raises(FileExistsError):
        write_new(target, chunks())
    assert target.read_text(encoding="utf-8") == "someone else's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_failure_midway_leaves_no_file(tmp_path: Path) -> None:
    def chunks() -> Iterator[str]:
        yield "half"
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        write_new(tmp_path / "out.md", chunks())
    assert list(tmp_path.iterdir()) == []


def test_without_hard_links_the_name_is_claimed_then_filled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(newfile.os, "link", no_links)
    target = tmp_path / "out.cast"
    write_new(target, ["line\n"])
    assert target.read_text(encoding="utf-8") == "line\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.cast"]
    taken = tmp_path / "taken.cast"

    def chunks() -> Iterator[str]:
        yield "new"
        taken.write_text("keep", encoding="utf-8")  # taken meanwhile

    with pytest.raises(FileExistsError):
        write_new(taken, chunks())
    assert taken.read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.cast", "taken.cast"]
    assert os.path.exists(target)
