"""Where pivotal keeps what it may rebuild at any time (below every package, so each may ask).

The session index (`pivotal.catalog.index`) and the detector's compiled patterns
(`pivotal.detect.compiled`) live there; deleting the folder only costs time.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Where pivotal may write: $PIVOTAL_CACHE_DIR, $XDG_CACHE_HOME/pivotal or ~/.cache/pivotal."""
    if os.environ.get("PIVOTAL_CACHE_DIR"):
        return Path(os.environ["PIVOTAL_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "pivotal"
    return Path.home() / ".cache" / "pivotal"
