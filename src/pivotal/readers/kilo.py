"""Kilo Code CLI (>= 7): an opencode fork, read with the opencode reader's own code.

Kilo keeps opencode's SQLite store under another name (`~/.local/share/kilo/kilo.db`)
with the same `session` / `message` / `part` tables and the same JSON records, plus
tables of its own (`kilo_board`, `session_context_epoch`, ...). So this module only
says which databases are Kilo's and names their sessions `kilo`; reading (read-only,
`immutable=1` when no `-wal` exists, so no `-wal`/`-shm` is ever created), turn
building and incremental polling are opencode's (`opencode_db`, `opencode_convert`).

What that makes of Kilo's ugly parts, as for opencode:
* `kilo run "text with spaces"` stores the text wrapped in literal double quotes
  (single words are not quoted); the turn keeps the stored text, and a quoted blank
  (`" "`) is the blank the person typed, with the stored form in `extra["raw_text"]`.
* the `<environment_details>` text part Kilo appends to a person's message and the
  `compaction_continue` nudge after a compaction are `synthetic` parts: the first is an
  attachment of the person's turn, the second a SYNTHETIC user turn.
* a compaction is a user message holding a `compaction` part (a SYSTEM
  COMPACTION_BOUNDARY turn, auto or manual) and an assistant message with
  `summary: true` (the COMPACTION_SUMMARY turn).
* bash calls carry their exit code in `state.metadata.exit`; a call to an unknown
  tool is a tool part in `error` state.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from pivotal.model import SessionRef
from pivotal.readers.base import FormatSpec, SessionReader
from pivotal.readers.files import database_files
from pivotal.readers.opencode_db import (
    REQUIRED_TABLES,
    SQLITE_MAGIC,
    DbReader,
    db_refs,
    reading,
    table_names,
)

FORMAT = "kilo"
_NAME = re.compile(r"^kilo(?:-[A-Za-z0-9._-]+)?\.db$")


class KiloReader(DbReader):
    """One session of a Kilo database: opencode's reader under Kilo's name."""

    format = FORMAT


def _is_kilo(path: Path, tables: set[str]) -> bool:
    return REQUIRED_TABLES <= tables and (
        any(name.startswith("kilo_") for name in tables) or bool(_NAME.match(path.name))
    )


def sniff(path: Path, head: bytes) -> bool:
    """A SQLite file with opencode's tables and Kilo's own (or named `kilo.db`)."""
    if not head.startswith(SQLITE_MAGIC):
        return False
    if b"CREATE TABLE `kilo_" not in head and not _NAME.match(path.name):
        return False  # an opencode database (or another): no connection needed to say so
    try:
        with reading(path, wait=0) as (conn, _):  # a lock is waited for when reading
            return _is_kilo(path, table_names(conn))
    except (sqlite3.Error, OSError):
        # a checkpoint racing an immutable read: fall back to the DDL text in the head
        return all(f"CREATE TABLE `{n}`".encode() in head for n in REQUIRED_TABLES) and (
            b"CREATE TABLE `kilo_" in head or bool(_NAME.match(path.name))
        )


def refs(path: Path) -> list[SessionRef]:
    return db_refs(path, FORMAT)


def open_ref(ref: SessionRef) -> SessionReader:
    return KiloReader(ref)


SPEC = FormatSpec(
    name=FORMAT,
    description="Kilo Code CLI sessions (~/.local/share/kilo/kilo.db, opencode's SQLite schema)",
    sniff=sniff,
    refs=refs,
    open=open_ref,
    databases=True,
    files=lambda ref: database_files(ref.path),
)
