"""Writing an export to a name that is free: the replayer's export key never replaces a file.

`pivotal export -o` replaces a file the person named on the command line; a name typed into
the replayer's prompt is easier to get wrong (a session's own export from yesterday, a
report of the same name), so there an existing file is refused instead. The text is
written to a hidden file in the same folder and linked to the name only when it is whole:
nobody sees half an export, a failure leaves nothing behind, and a name taken meanwhile is
not replaced (the link fails). Where hard links are not allowed, the name is claimed first
(an exclusive create) and the finished file renamed onto that claim.

The file is for its writer alone (0600), as pivotal's other files holding session text.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

_NO_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK}


def write_new(path: Path, chunks: Iterable[str]) -> None:
    """Write `chunks` to `path`, which must not exist (FileExistsError when it does or
    comes to: nothing is replaced). Any other failure raises OSError and leaves no file."""
    if os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "a file of that name exists", str(path))
    handle, temporary = tempfile.mkstemp(prefix=".pivotal-export-", dir=path.parent)
    try:
        with open(handle, "w", encoding="utf-8", newline="") as out:
            for chunk in chunks:
                out.write(chunk)
        _claim(Path(temporary), path)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def _claim(finished: Path, path: Path) -> None:
    """Give the finished file its name, never taking a name that exists."""
    try:
        os.link(finished, path)
        return
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # ours from now on
    os.replace(finished, path)
