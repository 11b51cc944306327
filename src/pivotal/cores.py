"""How many cores this process may run on: what the split scan, the session listing's
pool and `stats --jobs` size to (below every package, so each may ask).

`os.cpu_count()` counts the machine's cores; a process pinned by `taskset`, a
container's cpuset or a batch scheduler may use fewer, and its affinity says how
many (where the platform has one).
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores in this process's affinity mask (the machine's count where there is none)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
