"""The kernel side of inotify: its flags, the layout of an event, and libc's two calls.

What `pivotal.live.inotify` needs from Linux, as `<sys/inotify.h>` defines it:
the event bits watched and reported, the layout of the events read from the
descriptor, and `inotify_init1` / `inotify_add_watch` reached through
ctypes (no compiled extension). Kept apart from the asyncio watcher so the
watcher reads as behaviour and this as a table to check against the man page.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import sys
from collections.abc import Iterator

IN_MODIFY = 0x2
IN_ATTRIB = 0x4
IN_CLOSE_WRITE = 0x8
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x01000000
IN_ISDIR = 0x40000000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = 0o2000000

MASK = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
    | IN_ONLYDIR
)
HEADER = struct.Struct("iIII")
"""One event's fixed part: watch descriptor, mask, cookie, length of the name after it."""

_libc: ctypes.CDLL | None = None


def load_libc() -> ctypes.CDLL | None:
    """libc with `inotify_init1` and `inotify_add_watch` typed, loaded once; None off Linux."""
    global _libc
    if _libc is None and sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.inotify_init1.argtypes = [ctypes.c_int]
            libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
            _libc = libc
        except (OSError, AttributeError):
            return None
    return _libc


def events(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(watch descriptor, mask, name) of each event in a buffer read from the descriptor.

    The name is empty for an event on the watched directory itself; the kernel pads
    it with NULs to an aligned length.
    """
    offset = 0
    while offset + HEADER.size <= len(data):
        wd, mask, _cookie, length = HEADER.unpack_from(data, offset)
        start = offset + HEADER.size
        yield wd, mask, data[start : start + length].split(b"\0", 1)[0]
        offset = start + length
