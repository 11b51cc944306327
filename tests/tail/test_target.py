"""What a follow watches: the session's real directory, its SQLite sidecars, fingerprints."""

from __future__ import annotations

import os
from pathlib import Path

from pivotal.live.target import WatchTarget, fingerprint, target_for


def test_a_file_is_watched_through_its_directory_with_sqlite_sidecars(tmp_path: Path) -> None:
    db = tmp_path / "opencode.db"
    db.write_bytes(b"")
    target = target_for(db)
    assert target.directory == tmp_path and not target.recursive
    assert target.matches(str(tmp_path / "opencode.db-wal"))
    assert target.matches(str(tmp_path / "opencode.db"))
    assert not target.matches(str(tmp_path / "other.db"))
    assert not target.matches(str(tmp_path / "sub" / "opencode.db"))


def test_a_symlink_is_watched_where_the_file_lives(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "s.jsonl"
    real.write_bytes(b"")
    link = tmp_path / "latest.jsonl"
    link.symlink_to(real)
    target = target_for(link)
    assert target.directory == tmp_path / "real"
    assert target.matches(str(real))


def test_a_directory_session_is_watched_recursively(tmp_path: Path) -> None:
    target = target_for(tmp_path)
    assert target == WatchTarget(tmp_path, None, True)
    assert target.matches(str(tmp_path / "a" / "b.json"))


def test_fingerprint_changes_on_append_replace_and_delete(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"a\n")
    target = target_for(path)
    first = fingerprint(target)
    with open(path, "ab") as handle:
        handle.write(b"b\n")
    grown = fingerprint(target)
    assert grown != first
    other = tmp_path / "new"
    other.write_bytes(b"a\nb\n")
    os.replace(other, path)
    replaced = fingerprint(target)
    assert replaced != grown
    path.unlink()
    assert fingerprint(target) != replaced
    assert fingerprint(target) == fingerprint(target)
