"""Where `export -o PATH` writes, behaving like the tools people trust with their files.

* `-o -` is standard output.
* A path that does not exist is created; its folder must exist (else exit 4).
* An existing regular file is replaced atomically (a temporary file beside it,
  renamed over it: a reader never sees half an export, a failure leaves the old
  file as it was), keeping its mode; a file with other hard links, or in a
  folder we cannot write, is written in place instead, so the links stay one file.
* A read-only file (no write bit, or not writable by us) is refused: exit 5.
  Root is refused too, although it could write: 0444 says "do not change me".
* Anything else that exists — a character device (`/dev/null`, `/dev/full`), a FIFO,
  `/dev/stdout` — is opened and written in place, never replaced.
* A symbolic link is followed: its target is written by the rules above, and the
  link stays a link.
* A folder, a socket, or any write that fails: one line, exit 5.

Every failure raises `OutputFileError` with one line and its exit code.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

NOT_FOUND, UNWRITABLE = 4, 5


class OutputFileError(Exception):
    """`export -o PATH` cannot write PATH: one line for the user and the exit code."""

    def __init__(self, message: str, code: int = UNWRITABLE) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def write_chunks(target: Path, chunks: Iterable[str]) -> None:
    """Write `chunks` to `target` as the module docstring says, or raise OutputFileError."""
    try:
        info = os.stat(target)  # follows a symbolic link, as every rule below does
    except FileNotFoundError:
        _check_parent(target)
        _replace(_real(target), chunks, mode=None)
        return
    except OSError as exc:
        raise OutputFileError(f"{target}: cannot write ({_reason(exc)})") from None
    if stat.S_ISDIR(info.st_mode):
        raise OutputFileError(f"{target}: is a folder; give a file name")
    if not stat.S_ISREG(info.st_mode):
        _in_place(target, chunks, truncate=False)
        return
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise OutputFileError(f"{target}: read-only file; not replacing it")
    real = _real(target)
    if info.st_nlink > 1 or not os.access(real.parent, os.W_OK | os.X_OK):
        _in_place(target, chunks, truncate=True)
        return
    _replace(real, chunks, mode=info.st_mode & 0o7777, owner=(info.st_uid, info.st_gid))


def _real(target: Path) -> Path:
    """The file a path names, through any symbolic links (a dangling link: where it points)."""
    return Path(os.path.realpath(target))


def _check_parent(target: Path) -> None:
    parent = _real(target).parent
    try:
        info = os.stat(parent)
    except FileNotFoundError:
        raise OutputFileError(f"{target}: no such folder ({parent})", NOT_FOUND) from None
    except OSError as exc:
        raise OutputFileError(f"{target}: cannot write ({_reason(exc)})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise OutputFileError(f"{target}: {parent} is not a folder", NOT_FOUND)


def _new_file_mode() -> int:
    """What a new file gets under the umask (mkstemp's own 0600 would hide the export)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _replace(
    real: Path, chunks: Iterable[str], *, mode: int | None, owner: tuple[int, int] | None = None
) -> None:
    """Write a temporary file beside `real` and rename it over `real` (atomic)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=real.parent)
    except OSError as exc:
        raise OutputFileError(f"{real}: cannot write ({_reason(exc)})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            for chunk in chunks:
                handle.write(chunk)
        os.chmod(tmp, _new_file_mode() if mode is None else mode)
        if owner is not None and os.geteuid() == 0:
            try:
                os.chown(tmp, *owner)  # root replacing someone's file leaves it theirs
            except OSError:
                pass
        os.replace(tmp, real)
    except OSError as exc:
        _discard(tmp)
        raise OutputFileError(f"{real}: cannot write ({_reason(exc)})") from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _in_place(target: Path, chunks: Iterable[str], *, truncate: bool) -> None:
    """Open what is there and write into it: a device, a FIFO, a file with other links."""
    flags = os.O_WRONLY | (os.O_TRUNC if truncate else 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket, or a FIFO nobody reads
            raise OutputFileError(f"{target}: cannot write (not a file, device or pipe)") from None
        raise OutputFileError(f"{target}: cannot write ({_reason(exc)})") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            for chunk in chunks:
                handle.write(chunk)
    except OSError as exc:
        raise OutputFileError(f"{target}: cannot write ({_reason(exc)})") from None
