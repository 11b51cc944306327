"""Sub-agents kept in files of their own that say which session ran them.

Codex writes a sub-agent (`spawn_agent`) as a rollout of its own whose `session_meta`
names the parent thread; Gemini CLI writes one as `chats/<parent session id>/<id>.jsonl`.
Their readers put that id in `SessionRef.parent`, and the parent's reader lists them as
its `children`. A listing that holds the parent leaves the child to it, as Claude Code's
`subagents/` files are (read, measured and searched through the session that ran them);
a child whose parent is not listed (its file deleted, or not among the paths given) stays
a session of its own: nothing is lost.

Here, not in the readers, so that a listing can tell a Codex rollout's thread from its
name without loading the Codex reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from pivotal.model import SessionRef

_ROLLOUT = re.compile(
    r"rollout-.*-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"
    r"\.jsonl"
)
"""`rollout-<local time>-<thread id>.jsonl`: Codex names each rollout by its thread."""

Present = set[tuple[str, str]]
"""(format, session id) of the sessions a listing holds."""


def rollout_thread(name: str) -> str | None:
    """The thread id a Codex rollout's file name ends with (None: not a rollout's name)."""
    match = _ROLLOUT.fullmatch(name)
    return match.group(1).lower() if match else None


def present_in(refs: Iterable[SessionRef], paths: Iterable[Path] = ()) -> Present:
    """The sessions `refs` hold, and the Codex threads `paths` are the rollouts of (known
    from a name before the file is read)."""
    found = {(ref.format, ref.session_id.lower()) for ref in refs if ref.session_id}
    for path in paths:
        thread = rollout_thread(path.name)
        if thread is not None:
            found.add(("codex", thread))
    return found


def run_by_present(ref: SessionRef, present: Present) -> bool:
    """`ref` is a sub-agent whose parent session is in `present`: listed through it."""
    if ref.parent is None or ref.parent.lower() == (ref.session_id or "").lower():
        return False  # a file that names itself as its parent would hide itself
    return (ref.format, ref.parent.lower()) in present


def under_parents(refs: Sequence[SessionRef], paths: Iterable[Path] = ()) -> list[SessionRef]:
    """`refs` without the sub-agents whose parent is among them (or among `paths`)."""
    if not any(ref.parent for ref in refs):
        return list(refs)
    present = present_in(refs, paths)
    return [ref for ref in refs if not run_by_present(ref, present)]
