"""Test-wide isolation: pivotal's own state never lands in the real home directory.

The session index (cache) and the notes store would otherwise be written to
~/.cache/pivotal and ~/.local/share/pivotal by any test that lists sessions or
opens the app; each test run gets its own folders instead.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_pivotal_state(tmp_path_factory: pytest.TempPathFactory) -> None:
    mp = pytest.MonkeyPatch()
    mp.setenv("PIVOTAL_CACHE_DIR", str(tmp_path_factory.mktemp("pivotal-cache")))
    mp.setenv("PIVOTAL_DATA_DIR", str(tmp_path_factory.mktemp("pivotal-data")))
    yield
    mp.undo()


@pytest.fixture()
def world_tmp():  # type: ignore[no-untyped-def]
    """A temporary folder an unprivileged user can enter too (`privilege.as_nobody`)."""
    import shutil

    from privilege import world_tmp_folder

    folder = world_tmp_folder()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
