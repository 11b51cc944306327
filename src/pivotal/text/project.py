"""A session's project as listings name it: the last two folders of its working directory.

Enough to recognise a project (`work/shop-api`, not `/home/ana/work/shop-api`); every
listing (picker, `sessions`-like tables, `stats`, search hits, the replayer's top line) names
it the same way. The text comes from the session file: callers clean it for their surface.
"""

from __future__ import annotations

from pivotal.text.fit import clip_start
from pivotal.text.safe import clean_line


def last_folders(cwd: str | None, count: int = 2) -> str:
    """`/home/ana/work/shop-api` → `work/shop-api`; "" when there is no directory."""
    if not cwd:
        return ""
    parts = [p for p in cwd.replace("\\", "/").split("/") if p]
    return "/".join(parts[-count:]) if len(parts) > count else cwd


def project_cell(cwd: str | None, width: int) -> str:
    """`last_folders` cleaned to one line for a table column of `width` cells: its end kept
    (`…work/shop-api`, where a project is told apart), `-` when there is none. A cut never
    splits a wide character (`…동화 도구/safeAutoTest` may be a cell short of `width`)."""
    return clip_start(clean_line(last_folders(cwd)) or "-", width)
