"""Run a command as an unprivileged user, for the checks root would pass by privilege.

Tests here run as root (so does CI): root reads a 0600 file and writes a 0444 one,
so "permission denied" paths would never be taken. `as_nobody` runs the command
as `nobody` through `setpriv`; when the tests already run unprivileged the
command runs as it is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest

NOBODY = 65534


def as_nobody(argv: Sequence[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """`argv` run as uid/gid 65534 (or as is, when not root); output captured."""
    command = list(argv)
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: cannot drop privileges")
        command = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *command]
    env = dict(kwargs.pop("env", None) or os.environ)  # type: ignore[arg-type]
    return subprocess.run(command, capture_output=True, timeout=120, check=False, env=env, **kwargs)  # type: ignore[call-overload]


def world_tmp_folder() -> Path:
    """A temporary folder every user can enter (pytest's own is root-only: 0700)."""
    folder = Path(tempfile.mkdtemp(prefix="pivotal-priv-"))
    folder.chmod(0o755)
    return folder
