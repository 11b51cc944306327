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
