"""The format registry: recognise a path's format from its content and open it.

Adding a format means adding one module that exposes `SPEC: FormatSpec` and
listing it, with its format name, in `_MODULES`. Formats are tried in order;
the content decides, not the file name (a `.jsonl` file can be Claude Code,
Codex, Gemini or generic).

A format module is imported only when the sniff reaches it or a session of
its format is opened, so `pivotal scan` on a Claude Code file never loads the
opencode reader (and sqlite3) or the others.

Readers may import only the model and `pivotal.text`: they know nothing of the
detector, the commands or the replayer. `base` holds what every reader needs
(`SessionReader`, `Update`, `FormatSpec`, tolerant JSON decoding, timestamps),
`lines` what line-based readers share (`LineFileReader`); a format too big for
one file keeps its record decoding (`*_records`, `*_parts`) apart from its turn
building.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from pivotal.model import Session, SessionRef
from pivotal.readers.base import FormatSpec, SessionReader, Update

__all__ = [
    "FormatSpec",
    "Found",
    "Problem",
    "SessionReader",
    "Update",
    "find_sessions",
    "format_names",
    "open_reader",
    "read_errors",
    "read_session",
    "sniff_path",
    "specs",
]

# Most specific first: generic chat JSON accepts almost anything, so it is last.
# (format name, module): the name lets `open_reader` load just the module it needs.
_MODULES = (
    # Qwen's records carry Claude Code's id fields (uuid, parentUuid, sessionId) around
    # Gemini `parts`: its stricter sniff goes first so Claude's does not claim them
    ("qwen", "pivotal.readers.qwen"),
    ("claude-code", "pivotal.readers.claude_code"),
    ("codex", "pivotal.readers.codex"),
    ("gemini", "pivotal.readers.gemini"),
    ("kilo", "pivotal.readers.kilo"),  # an opencode fork: its databases also pass opencode's sniff
    ("opencode", "pivotal.readers.opencode"),
    ("aider", "pivotal.readers.aider"),
    ("continue", "pivotal.readers.continue_cli"),
    ("generic", "pivotal.readers.generic"),
)

HEAD_BYTES = 64 * 1024
_loaded: dict[str, FormatSpec | None] = {}
"""Module name -> its SPEC, or None when the module failed to import."""


def _load(module_name: str) -> FormatSpec | None:
    if module_name not in _loaded:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            _loaded[module_name] = None
        else:
            _loaded[module_name] = module.SPEC
    return _loaded[module_name]


def _iter_specs() -> Iterator[FormatSpec]:
    """The formats in sniffing order, each module imported only when it is reached."""
    for _name, module_name in _MODULES:
        spec = _load(module_name)
        if spec is not None:
            yield spec


def specs() -> list[FormatSpec]:
    """All known formats, in sniffing order (modules that fail to import are left out)."""
    return list(_iter_specs())


def format_names() -> list[str]:
    return [spec.name for spec in specs()]


def spec_for(name: str) -> FormatSpec:
    for known, module_name in _MODULES:
        if known == name:
            spec = _load(module_name)
            if spec is not None and spec.name == name:
                return spec
    for spec in specs():  # a table entry out of step with its module: still find it
        if spec.name == name:
            return spec
    raise KeyError(name)


def read_errors() -> tuple[type[Exception], ...]:
    """What reading a session raises for a bad file, not a bug; use as `except read_errors()`.

    OSError always; sqlite3.Error once a database reader has imported sqlite3. It
    cannot have raised one before that, so callers need not import sqlite3 themselves.
    """
    sqlite3 = sys.modules.get("sqlite3")
    return (OSError, sqlite3.Error) if sqlite3 is not None else (OSError,)


def read_head(path: Path) -> bytes:
    if path.is_dir():
        return b""
    with open(path, "rb") as handle:
        return handle.read(HEAD_BYTES)


def sniff_path(path: Path) -> FormatSpec | None:
    """The first format whose `sniff` accepts `path` (file or directory), or None."""
    head = read_head(path)
    for spec in _iter_specs():
        try:
            if spec.sniff(path, head):
                return spec
        except (OSError, ValueError):
            continue
    return None


def open_reader(ref: SessionRef) -> SessionReader:
    return spec_for(ref.format).open(ref)


def read_session(ref: SessionRef) -> Session:
    """Read a whole session in one batch."""
    reader = open_reader(ref)
    try:
        reader.poll(final=True)
    finally:
        reader.close()
    return reader.session


class Problem(NamedTuple):
    """A path that could not be used, with one clear line for the user.

    `kind` is one of: missing, permission, unreadable, empty, unknown.
    (A NamedTuple, not a dataclass: building a dataclass costs every `pivotal scan`
    about half a millisecond at start-up.)
    """

    path: Path
    kind: str
    message: str

    def __str__(self) -> str:
        return self.message


class Found:
    """What `find_sessions` found under some paths, and what it could not use."""

    __slots__ = ("problems", "refs")

    def __init__(self) -> None:
        self.refs: list[SessionRef] = []
        self.problems: list[Problem] = []  # one per path that could not be used

    def __repr__(self) -> str:
        return f"Found(refs={self.refs!r}, problems={self.problems!r})"


# File names that are never sessions themselves (sidecar files of known formats).
_IGNORED_SUFFIXES = (".db-wal", ".db-shm", ".meta.json", ".lock")
_CANDIDATE_SUFFIXES = (".jsonl", ".json", ".db", ".md")


def find_sessions(paths: list[Path]) -> Found:
    """Expand files, session directories, databases and project folders into sessions."""
    found = Found()
    for path in paths:
        _find_one(path, found)
    return found


def _find_one(path: Path, found: Found) -> None:
    if not os.path.lexists(path):
        found.problems.append(Problem(path, "missing", f"{path}: no such file or directory"))
        return
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            message = f"{path}: symbolic link loop"
        elif exc.errno == errno.ENOENT:
            message = f"{path}: broken symbolic link (its target does not exist)"
        else:
            message = f"{path}: cannot read ({exc.strerror or exc})"
        kind = "missing" if exc.errno == errno.ENOENT else "unreadable"
        found.problems.append(Problem(path, kind, message))
        return
    if not os.access(path, os.R_OK):
        found.problems.append(Problem(path, "permission", f"{path}: permission denied"))
        return
    try:
        spec = sniff_path(path)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        found.problems.append(Problem(path, "unreadable", f"{path}: cannot read ({reason})"))
        return
    if spec is not None:
        found.refs.extend(spec.refs(path))
        return
    if path.is_dir():
        before = len(found.refs)
        _walk_dir(path, found)
        if len(found.refs) == before:
            found.problems.append(
                Problem(
                    path,
                    "empty",
                    f"{path}: no sessions found (looked for {', '.join(format_names())})",
                )
            )
        return
    try:
        empty = path.stat().st_size == 0
    except OSError:
        empty = False
    if empty:
        found.problems.append(Problem(path, "empty", f"{path}: empty file"))
    elif read_head(path).startswith(b"SQLite format 3\x00"):
        message = f"{path}: an SQLite database that is not an opencode store, or is corrupt"
        found.problems.append(Problem(path, "unreadable", message))
    else:
        message = f"{path}: unknown format (tried {', '.join(format_names())})"
        found.problems.append(Problem(path, "unknown", message))


def _walk_dir(root: Path, found: Found) -> None:
    """Look inside a directory: sub-directories that are sessions, and candidate files."""
    seen: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        current = Path(dirpath)
        if current != root:
            spec = _sniff_quiet(current)
            if spec is not None:
                found.refs.extend(spec.refs(current))
                dirnames[:] = []
                continue
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(_IGNORED_SUFFIXES) or not name.endswith(_CANDIDATE_SUFFIXES):
                continue
            full = current / name
            key = os.path.realpath(full)
            if key in seen:
                continue
            seen.add(key)
            spec = _sniff_quiet(full)
            if spec is not None:
                found.refs.extend(spec.refs(full))


def _sniff_quiet(path: Path) -> FormatSpec | None:
    try:
        return sniff_path(path)
    except OSError:
        return None
