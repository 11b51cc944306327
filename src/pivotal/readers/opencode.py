"""opencode: the registry entry for both of its stores.

opencode >= 1.2 keeps every session in one SQLite database (`opencode.db`, or
`opencode-<channel>.db`); older versions kept a `storage/` tree of JSON files.
The one-time migration can leave the old JSON next to the database (opencode
issue #13654), so listing a data directory de-duplicates by session id and the
database wins. A ref's `key` is the session id inside its container.
"""

from __future__ import annotations

import re
from pathlib import Path

from pivotal.model import SessionRef
from pivotal.readers.base import FormatSpec, SessionReader
from pivotal.readers.files import SessionFiles, database_files, own_files
from pivotal.readers.opencode_base import FORMAT
from pivotal.readers.opencode_db import DbReader, db_refs, sniff_db
from pivotal.readers.opencode_legacy import LegacyReader, legacy_refs, storage_root

_DB_NAME = re.compile(r"^opencode(?:-[A-Za-z0-9._-]+)?\.db$")


def sniff(path: Path, head: bytes) -> bool:
    """An opencode database file, or a directory that is (or holds) a `storage/` tree."""
    if path.is_dir():
        return storage_root(path) is not None
    return sniff_db(path, head)


def _databases(directory: Path) -> list[Path]:
    try:
        names = sorted(p for p in directory.iterdir() if _DB_NAME.match(p.name) and p.is_file())
    except OSError:
        return []
    out = []
    for db in names:
        try:
            with open(db, "rb") as handle:
                head = handle.read(64 * 1024)
        except OSError:
            continue
        if sniff_db(db, head):
            out.append(db)
    return out


def refs(path: Path) -> list[SessionRef]:
    """Sessions in a database, or in a data directory's databases plus its legacy tree."""
    if not path.is_dir():
        return db_refs(path)
    root = storage_root(path)
    if root is None:
        return []
    found: list[SessionRef] = []
    for db in _databases(root.parent):
        found.extend(db_refs(db))
    known = {ref.key for ref in found if ref.key}
    return found + legacy_refs(root, exclude=known)


def open_ref(ref: SessionRef) -> SessionReader:
    if ref.path.is_dir():
        return LegacyReader(ref)
    return DbReader(ref)


def files(ref: SessionRef) -> SessionFiles:
    """A database with its SQLite files; a legacy session is spread over its whole store."""
    return own_files(ref) if ref.path.is_dir() else database_files(ref.path)


SPEC = FormatSpec(
    name=FORMAT,
    description="opencode sessions: SQLite opencode.db (>= 1.2) or the legacy storage/ JSON tree",
    sniff=sniff,
    refs=refs,
    open=open_ref,
    databases=True,
    files=files,
)
