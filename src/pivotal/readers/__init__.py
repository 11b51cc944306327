"""The format registry: recognise a path's format from its content and open it.

Adding a format means adding one module that exposes `SPEC: FormatSpec` and
listing it, with its format name, in `_MODULES`. Formats are tried in order;
the content decides, not the file name (a `.jsonl` file can be Claude Code,
Codex, Gemini or generic).

A format module is imported only when the sniff reaches it or a session of
its format is opened, so `pivotal scan` on a Claude Code file never loads the
opencode reader (and sqlite3) or the others.

Only regular files and folders are ever opened: a FIFO (or a pipe given as
/dev/stdin) is refused in one line, since opening it waits for a writer and
sniffing it would eat the stream. A sniff never raises, and one bad file never
stops the others: what cannot be used becomes a `Problem` with one line.

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
import re
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from pivotal.model import Session, SessionRef
from pivotal.readers.base import SQLITE_MAGIC, FormatSpec, SessionReader, Update
from pivotal.readers.files import SessionFiles, own_files
from pivotal.readers.subagent_refs import Reaches, listed_alone, reaches_of

__all__ = [
    "FormatSpec",
    "Found",
    "Problem",
    "SessionReader",
    "Update",
    "find_sessions",
    "format_names",
    "inner_ref",
    "open_reader",
    "read_errors",
    "read_session",
    "session_files",
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
    ("kimi", "pivotal.readers.kimi"),
    ("vibe", "pivotal.readers.vibe"),
    ("kilo", "pivotal.readers.kilo"),  # an opencode fork: its databases also pass opencode's sniff
    ("opencode", "pivotal.readers.opencode"),
    ("aider", "pivotal.readers.aider"),
    ("cline", "pivotal.readers.cline"),
    ("continue", "pivotal.readers.continue_cli"),
    ("generic", "pivotal.readers.generic"),
)

HEAD_BYTES = 64 * 1024
_BOM = b"\xef\xbb\xbf"
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
    """The first HEAD_BYTES of a regular file (b"" for a directory).

    Raises NotRegularFile for a FIFO, socket or device: opening a FIFO waits for a
    writer, and reading a pipe would eat the stream the reader needs. The check is
    on the opened descriptor (opened non-blocking), so a FIFO swapped in after a
    stat cannot hang us either.
    """
    if path.is_dir():
        return b""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(path)
        return os.read(fd, HEAD_BYTES)
    finally:
        os.close(fd)


class NotRegularFile(OSError):
    """A path that is a FIFO, socket or device: pivotal reads files, not streams."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


def _head_for_sniffing(head: bytes) -> bytes:
    """`head` as the sniffers see it: without a UTF-8 byte order mark."""
    return head[len(_BOM) :] if head.startswith(_BOM) else head


def sniff_path(
    path: Path, head: bytes | None = None, expected: str | None = None
) -> FormatSpec | None:
    """The first format whose `sniff` accepts `path` (file or directory), or None.

    `head` is `read_head(path)` when the caller has read it already (a listing
    also takes the start time and folder from it). `expected` names the agent in
    whose own folder a listing found `path`: its format is asked first and, if it
    accepts, decides; the registry's order (most specific first) is for files of
    unknown origin, and asking the formats before Codex's about every rollout
    was half of the quick listing of a mixed home. A sniff never raises: a record
    of an unexpected shape (`"type": [...]`) in one file must not stop the search,
    nor the other paths of a command. Only reading the head can raise (OSError,
    NotRegularFile among them).
    """
    head = _head_for_sniffing(read_head(path) if head is None else head)
    database = head.startswith(SQLITE_MAGIC)
    asked = None
    if expected is not None:
        asked = _spec_named(expected)
        if asked is not None and _accepts(asked, path, head, database):
            return asked
    for spec in _iter_specs():
        if spec is not asked and _accepts(spec, path, head, database):
            return spec
    return None


def _spec_named(name: str) -> FormatSpec | None:
    try:
        return spec_for(name)
    except KeyError:
        return None


def _accepts(spec: FormatSpec, path: Path, head: bytes, database: bool) -> bool:
    if database and not spec.databases:
        return False  # a binary page is no text format's: asking them only costs time
    try:
        return bool(spec.sniff(path, head))
    except Exception:  # noqa: BLE001 - a sniffer bug is "not this format", never a crash
        return False


def open_reader(ref: SessionRef) -> SessionReader:
    return spec_for(ref.format).open(ref)


def session_files(ref: SessionRef) -> SessionFiles:
    """The files and folders `ref`'s session is read from (`pivotal.readers.files`)."""
    try:
        spec = spec_for(ref.format)
    except KeyError:  # a format this build does not know: at least its own path
        return own_files(ref)
    return spec.files(ref)


def read_session(ref: SessionRef) -> Session:
    """Read a whole session in one batch."""
    reader = open_reader(ref)
    try:
        reader.poll(final=True)
    finally:
        reader.close()
    return reader.session


def inner_ref(ref: SessionRef, key: str) -> SessionRef | None:
    """A session inside `ref`'s file that the file's listing leaves out, named by `key`: a
    sub-agent Claude Code 1.0 wrote into its session's file (`sidechain:…`, as the replayer's
    top line and `search --json` name it). None when `key` names none there."""
    if ref.format != "claude-code":
        return None
    from pivotal.readers.claude_sidechains import sidechain_ref

    return sidechain_ref(ref, key)


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


def find_sessions(paths: list[Path], reaches: Reaches | None = None) -> Found:
    """Expand files, session directories, databases and project folders into sessions.

    A sub-agent with a file of its own (a Codex spawned thread, a Gemini CLI agent's chat)
    is left to the session that ran it when that session is found too and reaches it
    (`subagent_refs`): it is read, measured and searched through it. What such a session
    reaches is asked of `reaches` (the listing index, say), by default found by reading
    it: only a session that some sub-agent found beside it names is read."""
    found = Found()
    for path in paths:
        _find_one(path, found)
    found.refs = listed_alone(found.refs, reaches or read_reaches)
    return found


def read_reaches(ref: SessionRef) -> tuple[str, ...] | None:
    """The sub-agents with files of their own a read of `ref` finds it ran (`Reaches`);
    None when it cannot be read."""
    try:
        return reaches_of(read_session(ref))
    except Exception:  # noqa: BLE001 - a session that cannot be read reaches nothing
        return None


def _find_one(path: Path, found: Found) -> None:
    if not os.path.lexists(path):
        found.problems.append(Problem(path, "missing", f"{path}: no such file or directory"))
        return
    try:
        mode = os.stat(path).st_mode
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
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        found.problems.append(Problem(path, "unreadable", f"{path}: {_not_a_file(mode)}"))
        return
    if not os.access(path, os.R_OK):
        found.problems.append(Problem(path, "permission", f"{path}: permission denied"))
        return
    try:
        spec = sniff_path(path)
    except OSError as exc:
        found.problems.append(Problem(path, _kind(exc), f"{path}: {_reason(exc)}"))
        return
    if spec is not None:
        try:
            found.refs.extend(spec.refs(path))
        except Exception as exc:  # noqa: BLE001 - one bad file must not stop the others
            kind = "permission" if isinstance(exc, PermissionError) else "unreadable"
            found.problems.append(Problem(path, kind, f"{path}: cannot read ({exc})"))
        return
    if stat.S_ISDIR(mode):
        _find_in_dir(path, found)
        return
    try:
        head = read_head(path)
    except OSError as exc:
        found.problems.append(Problem(path, _kind(exc), f"{path}: {_reason(exc)}"))
        return
    if not head:
        found.problems.append(Problem(path, "empty", f"{path}: empty file"))
    elif head.startswith(SQLITE_MAGIC):
        found.problems.append(Problem(path, "unreadable", f"{path}: {not_a_store()}"))
    else:
        message = f"{path}: unknown format (tried {', '.join(format_names())}){_hint(head)}"
        found.problems.append(Problem(path, "unknown", message))


def not_a_store() -> str:
    """Why an SQLite file gave no session: it names the only databases pivotal reads (an
    agent that keeps an index database beside its session files, as Cline does, is read
    from those files)."""
    names = " or ".join(sorted(spec.name for spec in specs() if spec.databases))
    return f"an SQLite database that holds no {names} sessions, or is corrupt"


def _not_a_file(mode: int) -> str:
    """Why a path that is not a file or folder is refused (one line, with what to do)."""
    if stat.S_ISFIFO(mode):
        what = "a pipe or FIFO"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    else:
        what = "a device"
    return f"{what}, not a file: pivotal reads session files (save the stream to a file first)"


def _kind(exc: OSError) -> str:
    return "permission" if isinstance(exc, PermissionError) else "unreadable"


def _reason(exc: OSError) -> str:
    if isinstance(exc, PermissionError):
        return "permission denied"
    return f"cannot read ({exc.strerror or exc})"


_PROMPT_LOG = re.compile(rb'\s*\[\s*\{\s*"sessionId"\s*:')
"""The start of Gemini's or Qwen's `logs.json`: a list of prompt records."""


def _hint(head: bytes) -> str:
    """A hint for a file pivotal cannot read as it is: UTF-16 text from some Windows tools,
    or the prompt log Gemini CLI and Qwen Code keep beside their chats (`logs.json`: the
    person's prompts only, which people pass by mistake for the session)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or (
        len(head) >= 4 and head[1:4:2] == b"\x00\x00" and head[0:1] in (b"{", b"[")
    ):
        return ": it is UTF-16 text; pivotal reads UTF-8 (iconv -f UTF-16 -t UTF-8 converts it)"
    if _PROMPT_LOG.match(head) and b'"messageId"' in head[:1024]:
        return (
            ": a prompt log (the person's prompts, no replies), not a session; the sessions are"
            " in chats/ beside it (Gemini CLI) or in ~/.qwen/projects/<project>/chats/ (Qwen Code)"
        )
    return ""


def _refs_quiet(spec: FormatSpec, path: Path) -> list[SessionRef] | None:
    """`spec.refs(path)`, or None when listing them failed (never an exception)."""
    try:
        return spec.refs(path)
    except Exception:  # noqa: BLE001 - one bad file must not stop the others
        return None


def _find_in_dir(path: Path, found: Found) -> None:
    before = len(found.refs)
    failed, unknown = _walk_dir(path, found)
    if failed:
        kinds = {kind for _name, kind, _why in failed}
        kind = "permission" if kinds == {"permission"} else "unreadable"
        found.problems.append(Problem(path, kind, f"{path}: {_failed_line(failed)}"))
    if unknown:
        found.problems.append(Problem(path, "unknown", f"{path}: {_unknown_line(unknown)}"))
    elif not failed and len(found.refs) == before:
        message = f"{path}: no sessions found (looked for {', '.join(format_names())})"
        found.problems.append(Problem(path, "empty", message))


def _failed_line(failed: list[tuple[str, str, str]]) -> str:
    """'skipped 3 files that cannot be read: a.jsonl (permission denied), … and 1 more'."""
    shown = ", ".join(f"{name} ({why})" for name, _kind, why in failed[:3])
    more = f" and {len(failed) - 3} more" if len(failed) > 3 else ""
    files = "file" if len(failed) == 1 else "files"
    return f"skipped {len(failed)} {files} that cannot be read: {shown}{more}"


def _unknown_line(unknown: list[str]) -> str:
    """'2 files look like sessions but are in no known format (tried …): a.jsonl, b.json'.

    Named in the folder's line, as files that cannot be read are: a folder of sessions
    with one in a shape pivotal does not know must not look like a folder without it."""
    shown = ", ".join(unknown[:3])
    more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
    tried = ", ".join(format_names())
    if len(unknown) == 1:
        return f"1 file looks like a session but is in no known format (tried {tried}): {shown}"
    what = f"{len(unknown)} files look like sessions but are in no known format"
    return f"{what} (tried {tried}): {shown}{more}"


_SESSION_KEYS = (b'"sessionId"', b'"session_id"', b'"messages"')
_AGENT_INDEXES = frozenset({"sessions.json", "history.jsonl", "logs.json"})
"""What agents keep beside their sessions: Continue's index, Claude Code's and Codex's prompt
history, Gemini CLI's and Qwen Code's prompt log (the person's prompts only)."""
_AGENT_DATABASE = re.compile(r"(?:opencode|kilo).*\.db$")


def looks_like_session(name: str, head: bytes) -> bool:
    """A file no format took that still looks like a session, so a folder's listing names it
    instead of leaving it out: JSON lines of objects (what every agent writes), a JSON
    document that names a session or holds messages, an aider chat history, an agent's
    database. An empty file is no session (nothing is lost), nor is an agent's index or
    prompt history, a project's README or package.json."""
    start = _head_for_sniffing(head).lstrip()[:4096]
    if not start or name in _AGENT_INDEXES or _PROMPT_LOG.match(start):
        return False
    if name.endswith(".jsonl"):
        return start.startswith(b"{")
    if name.endswith(".json"):
        return start.startswith((b"{", b"[")) and any(key in start for key in _SESSION_KEYS)
    if name.endswith(".md"):
        return name.endswith(".chat.history.md")
    return name.endswith(".db") and _AGENT_DATABASE.match(name) is not None


def _walk_dir(root: Path, found: Found) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Look inside a directory: sub-directories that are sessions, and candidate files.

    Returns the candidates that could not be read, as (path under root, kind, reason):
    a FIFO, socket or device is never opened; an unreadable file is counted, not
    silently dropped. Also returns the files no format took that look like sessions
    (`looks_like_session`), so a session in a shape pivotal does not know is named,
    not lost.
    """
    seen: set[str] = set()
    failed: list[tuple[str, str, str]] = []
    unknown: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        current = Path(dirpath)
        if current != root:
            spec = _sniff_quiet(current)
            if spec is not None:
                found.refs.extend(_refs_quiet(spec, current) or ())
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
            try:
                head = read_head(full)
                spec = sniff_path(full, head)
            except OSError as exc:
                if os.path.lexists(full):  # not just gone since the listing
                    why = "not a regular file" if isinstance(exc, NotRegularFile) else None
                    failed.append((str(full.relative_to(root)), _kind(exc), why or _reason(exc)))
                continue
            if spec is not None:
                refs = _refs_quiet(spec, full)
                if refs is None:
                    failed.append((str(full.relative_to(root)), "unreadable", "cannot list"))
                found.refs.extend(refs or ())
            elif looks_like_session(name, head):
                unknown.append(str(full.relative_to(root)))
    return failed, unknown


def _sniff_quiet(path: Path) -> FormatSpec | None:
    try:
        return sniff_path(path)
    except OSError:
        return None
