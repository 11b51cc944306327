"""`SessionFiles.beside`: the folder of a session's file, reached by any path."""

from __future__ import annotations

from pathlib import Path

from pivotal.readers.files import SessionFiles


def test_a_name_in_the_folder_of_a_session_file_is_beside_it(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    session = folder / "s.jsonl"
    session.write_text("{}\n", encoding="utf-8")
    (tmp_path / "link").symlink_to(folder)
    files = SessionFiles(files=(session,))
    assert files.beside(folder / "new.html") == folder.resolve()
    assert files.beside(tmp_path / "link" / "new.html") == folder.resolve()  # by identity
    assert files.beside(tmp_path / "new.html") is None
    assert files.claims(folder / "new.html") is None  # beside, yet no part of the session
